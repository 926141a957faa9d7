package hostside.doc;

import java.util.regex.Pattern;

/**
 * What keeps plain text plain in GitHub-flavoured Markdown. Today's report escaped | * _ and <;
 * this adds what else GitHub reads as markup: backslashes, backticks, brackets (links), tildes
 * (strikethrough), dollars (math), ">" and an entity-like "&lt;" (which would show as "<"), and "#"
 * where it could start or close a heading. Line starts that open a list or a break are handled by
 * {@link #lineStart}, since only the renderer knows where a line starts.
 */
final class MarkdownEscape {
    private MarkdownEscape() {}

    /** "&" followed by what reads as an entity: "&lt;", "&#60;", "&amp;". */
    private static final Pattern ENTITY = Pattern.compile("#?[A-Za-z0-9]+;");
    /** An ordered-list marker at a line start: "1986. " or "3) ". */
    private static final Pattern ORDERED = Pattern.compile("^(\\d+)([.)])");

    /** Plain text for any place in a line; a line break becomes a space, as a paragraph is one line. */
    static String plain(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\', '`', '*', '_', '[', ']', '|', '~', '$' -> b.append('\\').append(c);
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append(ENTITY.matcher(s).region(i + 1, s.length()).lookingAt() ? "&amp;" : "&");
                // "#" opens a heading at a line start and closes one after a space; "C#" is safe
                case '#' -> b.append(i == 0 || Character.isWhitespace(s.charAt(i - 1)) ? "\\#" : "#");
                case '\n', '\r' -> b.append(' ');
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /** A heading's text: escaped, on one line. */
    static String heading(String s) {
        return plain(s).strip();
    }

    /**
     * Text about to start a line (a paragraph, a list item): a leading "-", "+" or "=" would open a
     * list, a break or a heading underline, "12." an ordered list. Already escaped text goes in.
     */
    static String lineStart(String escaped) {
        if (escaped.startsWith("-") || escaped.startsWith("+") || escaped.startsWith("=")) return "\\" + escaped;
        var m = ORDERED.matcher(escaped);
        if (m.find()) return m.group(1) + "\\" + m.group(2) + escaped.substring(m.end());
        return escaped;
    }

    /**
     * A code span: fenced by one backtick more than the longest run inside, and padded with a space
     * when the code starts or ends with a backtick (or with spaces at both ends, which GitHub would
     * strip once). Nothing inside a code span is escaped: GitHub shows it as is.
     */
    static String code(String s) {
        String c = s.replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ');
        if (c.isEmpty()) return "";
        int longest = 0;
        int run = 0;
        for (int i = 0; i < c.length(); i++) {
            run = c.charAt(i) == '`' ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        String fence = "`".repeat(longest + 1);
        boolean pad = c.startsWith("`") || c.endsWith("`") || c.startsWith(" ") && c.endsWith(" ") && !c.isBlank();
        String p = pad ? " " : "";
        return fence + p + c + p + fence;
    }
}
