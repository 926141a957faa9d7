package hostside.core;

import java.util.Locale;

/**
 * What of a string may reach a terminal, a Markdown or HTML file or an error line as it is. Host,
 * GPU and CPU names, file names and report fields come from other machines and other users: an
 * escape sequence in one (OSC 52 writes the administrator's clipboard, CSI 2J clears the screen), a
 * line break that forges a line of hostside's own ("hostside: all checks ok"), or a bidi override
 * that shows text in another order than it is stored must show as what it is, not act. So every
 * such character is written as a visible escape: {@code \t}, {@code \n}, {@code \r}, other C0
 * controls and DEL as {@code \x1b}, C1 controls, the bidi controls and the line and paragraph
 * separators as <code>&#92;u009b</code>. Everything else, "µs", "Xeon®", CJK and emoji included, is kept.
 *
 * <p>The line breaks, tabs and colours of hostside's own output are added by the renderers and
 * {@link Style} around text that has been through here; none of them is ever inside a value.
 * A backslash is kept as it is, so a name that spells "\x1b" reads the same as one that holds ESC:
 * both are harmless, and escaping backslashes would change every path and regular expression shown.
 */
public final class Printable {
    private Printable() {}

    /** The string with every hidden character written as a visible escape; the same string when it has none; null for null. */
    public static String of(String s) {
        if (s == null) return null;
        int i = 0;
        while (i < s.length() && !hidden(s.charAt(i))) i++;
        if (i == s.length()) return s;
        StringBuilder b = new StringBuilder(s.length() + 16).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (hidden(c)) b.append(escape(c));
            else b.append(c);
        }
        return b.toString();
    }

    /**
     * Whether a terminal, an editor or a browser would act on the character or draw it as something
     * else: C0 (tab and line feed too: a value never holds a layout of its own), DEL, C1, the
     * bidi marks, embeddings, overrides and isolates (the "Trojan Source" set), and U+2028/U+2029,
     * which some editors and JavaScript take as line breaks. All are in the BMP, so a char is enough.
     */
    public static boolean hidden(int c) {
        return c < 0x20 || c >= 0x7f && c <= 0x9f
                || c == 0x061c || c == 0x200e || c == 0x200f   // ALM, LRM, RLM
                || c >= 0x2028 && c <= 0x202e                   // LS, PS, LRE, RLE, PDF, LRO, RLO
                || c >= 0x2066 && c <= 0x2069;                  // LRI, RLI, FSI, PDI
    }

    /** A hidden character as it is shown: "\n", "\x1b", "&#92;u009b". */
    static String escape(char c) {
        return switch (c) {
            case '\t' -> "\\t";
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            default -> c < 0x80 ? String.format(Locale.ROOT, "\\x%02x", (int) c) : String.format(Locale.ROOT, "\\u%04x", (int) c);
        };
    }
}
