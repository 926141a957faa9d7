package hostside.doc;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;

import hostside.core.Finding;
import hostside.doc.Block.Bullets;
import hostside.doc.Block.Findings;
import hostside.doc.Block.Histogram;
import hostside.doc.Block.KeyValues;
import hostside.doc.Block.LinePlot;
import hostside.doc.Block.Note;
import hostside.doc.Block.Paragraph;
import hostside.doc.Block.Section;
import hostside.doc.Block.Table;

/**
 * The words of a document, without any format: what a {@link Document} says in order, and what each
 * rendering shows once its markup is taken off. The central test compares the two.
 */
final class Content {
    private Content() {}

    private static final Pattern ANSI = Pattern.compile("\u001b\\[[0-9;]*m");
    private static final Pattern SEPARATOR_ROW = Pattern.compile("^\\|(\\s*:?-{3,}:?\\s*\\|)+$");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} ");

    /** Every title, key, value, cell, bullet, finding and note of the document, in document order; plots through their tables. */
    static List<String> expected(Document d) {
        List<String> out = new ArrayList<>();
        add(out, d.title());
        add(out, d.subtitle());
        walk(out, d.blocks());
        return out;
    }

    private static void walk(List<String> out, List<Block> blocks) {
        for (Block b : blocks) {
            switch (b) {
                case Section s -> {
                    add(out, s.title());
                    walk(out, s.blocks());
                }
                case Paragraph p -> add(out, p.text().plainText());
                case Note n -> add(out, n.text().plainText());
                case KeyValues kv -> kv.entries().forEach(e -> {
                    add(out, e.key());
                    add(out, e.value().plainText());
                });
                case Table t -> table(out, t);
                case Bullets bl -> bl.items().forEach(i -> add(out, i.plainText()));
                case Findings f -> {
                    if (f.findings().isEmpty()) add(out, f.none());
                    for (Finding x : f.findings()) add(out, x.text());
                }
                case LinePlot p -> {
                    add(out, p.title());
                    table(out, PlotTables.points(p));
                }
                case Histogram h -> {
                    add(out, h.title());
                    table(out, PlotTables.bars(h));
                    walk(out, List.of(PlotTables.marks(h)));
                }
            }
        }
    }

    private static void table(List<String> out, Table t) {
        t.columns().forEach(c -> add(out, c.header()));
        t.rows().forEach(r -> r.forEach(c -> add(out, c.plainText())));
    }

    private static void add(List<String> out, String s) {
        String n = normal(s);
        if (!n.isEmpty()) out.add(n);
    }

    static String normal(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }

    /** The text renderer's words: ANSI codes off, whitespace (padding, wrapping) as single spaces. */
    static String ofText(String text) {
        return normal(ANSI.matcher(text).replaceAll(""));
    }

    /** The HTML's words: headings, paragraphs, list items, cells, keys and values, captions; never the SVG's labels. */
    static String ofHtml(String html) {
        List<String> parts = new ArrayList<>();
        for (Element e : Jsoup.parse(html).select("h1, h2, h3, h4, h5, h6, p, li, th, td, dt, dd, figcaption")) parts.add(e.text());
        return normal(String.join(" ", parts));
    }

    /**
     * The Markdown's words, read as GitHub would show them: block markers, table separator rows,
     * emphasis markers and cell bars off; backslash escapes, entities and code spans resolved.
     */
    static String ofMarkdown(String md) {
        StringBuilder out = new StringBuilder();
        for (String line : md.split("\n")) {
            if (SEPARATOR_ROW.matcher(line).matches()) continue;
            String l = HEADING.matcher(line).replaceFirst("");
            if (l.startsWith("- ")) l = l.substring(2);
            out.append(inlineMarkdown(l)).append(' ');
        }
        return normal(out.toString());
    }

    private static String inlineMarkdown(String l) {
        StringBuilder s = new StringBuilder();
        int i = 0;
        while (i < l.length()) {
            char c = l.charAt(i);
            if (c == '\\' && i + 1 < l.length() && isPunct(l.charAt(i + 1))) {
                s.append(l.charAt(i + 1));
                i += 2;
            } else if (c == '`') {
                int run = 0;
                while (i + run < l.length() && l.charAt(i + run) == '`') run++;
                int close = closing(l, i + run, run);
                if (close < 0) {
                    s.append("`".repeat(run));
                    i += run;
                    continue;
                }
                String code = l.substring(i + run, close).replace("\\|", "|");
                if (code.length() >= 2 && code.startsWith(" ") && code.endsWith(" ") && !code.isBlank()) code = code.substring(1, code.length() - 1);
                s.append(code);
                i = close + run;
            } else if (c == '*' || c == '_') {
                i++;
            } else if (c == '|') {
                s.append(' ');
                i++;
            } else if (c == '&') {
                String rest = l.substring(i);
                String[][] entities = {{"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}, {"&quot;", "\""}, {"&#39;", "'"}};
                boolean done = false;
                for (String[] e : entities) {
                    if (rest.startsWith(e[0])) {
                        s.append(e[1]);
                        i += e[0].length();
                        done = true;
                        break;
                    }
                }
                if (!done) {
                    s.append('&');
                    i++;
                }
            } else {
                s.append(c);
                i++;
            }
        }
        return s.toString();
    }

    /** Where a code span opened by {@code run} backticks closes: the next run of exactly that many. */
    private static int closing(String l, int from, int run) {
        int i = from;
        while (i < l.length()) {
            if (l.charAt(i) != '`') {
                i++;
                continue;
            }
            int n = 0;
            while (i + n < l.length() && l.charAt(i + n) == '`') n++;
            if (n == run) return i;
            i += n;
        }
        return -1;
    }

    private static boolean isPunct(char c) {
        return c < 128 && "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".indexOf(c) >= 0;
    }

    /** Fails, naming the first missing piece, unless each expected string occurs after the one before it. */
    static void assertInOrder(List<String> expected, String plain, String what) {
        int at = 0;
        String before = "(the start)";
        for (String e : expected) {
            int i = plain.indexOf(e, at);
            if (i < 0) {
                throw new AssertionError(what + ": \"" + e + "\" does not come after \"" + before + "\""
                        + (plain.contains(e) ? " (it is there, but earlier)" : " (it is missing)") + " in:\n" + plain);
            }
            at = i + e.length();
            before = e;
        }
    }
}
