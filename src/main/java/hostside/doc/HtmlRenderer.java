package hostside.doc;

import java.util.List;

import hostside.core.Finding;
import hostside.core.Printable;
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
 * Draws a {@link Document} as one self-contained HTML5 page: inline style, plots as inline SVG, no
 * script and no external resource, so the file can be mailed, attached to a ticket or opened on an
 * air-gapped machine and look the same. Every plot is followed by its numbers as a table, for
 * readers without the picture (screen readers, copy and paste).
 */
public final class HtmlRenderer {
    /** Small and plain: readable without it, and nothing in it fetches anything (no url()). */
    private static final String CSS = """
            body { font-family: system-ui, sans-serif; line-height: 1.45; color: #1a1a1a; max-width: 62rem; margin: 1.5rem auto; padding: 0 1rem; }
            h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
            .subtitle { color: #555555; margin-top: 0; }
            table { border-collapse: collapse; margin: 0.5rem 0; }
            div.wide { overflow: auto; max-height: 85vh; margin: 0.5rem 0; }
            div.wide table { margin: 0; }
            div.wide thead th { position: sticky; top: 0; background: #ffffff; box-shadow: inset 0 -2px #999999; }
            td .word { white-space: nowrap; }
            @media print { div.wide { max-height: none; overflow: visible; } }
            th, td { padding: 0.15rem 0.7rem; border-bottom: 1px solid #dddddd; text-align: left; vertical-align: top; }
            th { border-bottom: 2px solid #999999; }
            .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
            dl.kv { display: grid; grid-template-columns: max-content auto; gap: 0.1rem 1.2rem; }
            dl.kv dt { font-weight: 600; }
            dl.kv dd { margin: 0; }
            ul.findings { list-style: none; padding-left: 0; }
            ul.findings .mark { display: inline-block; width: 1.3em; font-weight: bold; }
            ul.findings .bad { color: #a4161a; }
            ul.findings .warn { color: #8a5300; }
            ul.findings .unknown { color: #555555; }
            .note { color: #555555; font-style: italic; }
            code { font-family: ui-monospace, monospace; background: #f2f2f2; padding: 0 0.2em; border-radius: 3px; }
            figure.plot { margin: 1rem 0; }
            figure.plot figcaption { font-weight: 600; }
            figure.plot svg { display: block; max-width: 100%; height: auto; }
            """;

    /** The whole page, UTF-8, ending in a newline. */
    public String render(Document d) {
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(esc(d.title())).append("</title>\n<style>\n").append(CSS).append("</style>\n</head>\n<body>\n<main>\n");
        h.append("<h1>").append(esc(d.title())).append("</h1>\n");
        if (!d.subtitle().isEmpty()) h.append("<p class=\"subtitle\">").append(esc(d.subtitle())).append("</p>\n");
        blocks(h, d.blocks(), 0);
        return h.append("</main>\n</body>\n</html>\n").toString();
    }

    /** Blocks at a nesting depth: top-level sections get h2 (the title is the h1), capped at h6. */
    private void blocks(StringBuilder h, List<Block> blocks, int depth) {
        for (Block b : blocks) {
            switch (b) {
                case Section s -> {
                    int level = Math.min(6, depth + 2);
                    h.append("<section>\n<h").append(level).append('>').append(esc(s.title())).append("</h").append(level).append(">\n");
                    blocks(h, s.blocks(), depth + 1);
                    h.append("</section>\n");
                }
                case Paragraph p -> {
                    if (!p.text().isEmpty()) h.append("<p>").append(inline(p.text())).append("</p>\n");
                }
                case Note n -> {
                    if (!n.text().isEmpty()) h.append("<p class=\"note\">").append(inline(n.text())).append("</p>\n");
                }
                case KeyValues kv -> keyValues(h, kv);
                case Table t -> table(h, t);
                case Bullets bl -> {
                    if (bl.items().isEmpty()) continue;
                    h.append("<ul>\n");
                    for (Text item : bl.items()) h.append("<li>").append(inline(item)).append("</li>\n");
                    h.append("</ul>\n");
                }
                case Findings f -> findings(h, f);
                case LinePlot p -> {
                    h.append("<figure class=\"plot\">\n<figcaption>").append(esc(p.title())).append("</figcaption>\n").append(SvgPlot.line(p));
                    table(h, PlotTables.points(p));
                    h.append("</figure>\n");
                }
                case Histogram g -> {
                    h.append("<figure class=\"plot\">\n<figcaption>").append(esc(g.title())).append("</figcaption>\n").append(SvgPlot.histogram(g));
                    table(h, PlotTables.bars(g));
                    keyValues(h, PlotTables.marks(g));
                    h.append("</figure>\n");
                }
            }
        }
    }

    private static void keyValues(StringBuilder h, KeyValues kv) {
        if (kv.entries().isEmpty()) return;
        h.append("<dl class=\"kv\">\n");
        for (KeyValues.Entry e : kv.entries()) h.append("<dt>").append(esc(e.key())).append("</dt><dd>").append(inline(e.value())).append("</dd>\n");
        h.append("</dl>\n");
    }

    /**
     * Figures right-aligned through a class, so the numbers' digits line up as in the terminal, and
     * each on one line: a size with its unit ("256 KiB") is not cut between the two.
     * Each table scrolls inside its own box, no taller than most of the window: a wide table's
     * scroll bar then lies where the table is read, not at the end of a table of a hundred rows
     * (the page's "Every figure" had it 7,000 px below its header), and the header row stays
     * in view while the rows scroll under it. In a cell, words with a hyphen are kept whole
     * ({@link #cell}).
     */
    private static void table(StringBuilder h, Table t) {
        h.append("<div class=\"wide\"><table>\n<thead><tr>");
        for (Table.Column c : t.columns()) h.append("<th").append(cls(c)).append('>').append(esc(c.header())).append("</th>");
        h.append("</tr></thead>\n<tbody>\n");
        for (List<Text> row : t.rows()) {
            h.append("<tr>");
            for (int i = 0; i < row.size(); i++) h.append("<td").append(cls(t.columns().get(i))).append('>').append(cell(row.get(i))).append("</td>");
            h.append("</tr>\n");
        }
        h.append("</tbody>\n</table></div>\n");
    }

    private static String cls(Table.Column c) {
        return c.align() == Table.Align.RIGHT ? " class=\"num\"" : "";
    }

    /** A mark per severity as well as a colour: the list must read the same in black and white. */
    private static void findings(StringBuilder h, Findings f) {
        if (f.findings().isEmpty()) {
            if (!f.none().isEmpty()) h.append("<p class=\"none\">").append(esc(f.none())).append("</p>\n");
            return;
        }
        h.append("<ul class=\"findings\">\n");
        for (Finding x : f.findings()) {
            String[] sm = switch (x.severity()) {
                case BAD -> new String[] {"bad", "✗"};
                case WARN -> new String[] {"warn", "!"};
                case UNKNOWN -> new String[] {"unknown", "?"};
                default -> new String[] {"info", "·"};
            };
            h.append("<li class=\"").append(sm[0]).append("\"><span class=\"mark\" title=\"").append(sm[0]).append("\">").append(sm[1])
                    .append("</span> ").append(esc(Findings.said(x))).append("</li>\n");
        }
        h.append("</ul>\n");
    }

    private static String inline(Text t) {
        StringBuilder s = new StringBuilder();
        for (Text.Inline i : t.parts()) {
            switch (i) {
                case Text.Plain p -> s.append(esc(p.text()));
                case Text.Code c -> s.append("<code>").append(esc(c.text())).append("</code>");
                case Text.Strong st -> s.append("<strong>").append(esc(st.text())).append("</strong>");
            }
        }
        return s.toString();
    }

    /**
     * A table cell: as {@link #inline}, but a word with a hyphen in it is one unbreakable span.
     * Browsers break a line after a hyphen (Unicode's line breaking, UAX #14), which cut a fio
     * command's "--ioengine=psync" into "--" and "ioengine=psync" and a GPU's UUID in five;
     * a cell now wraps at its spaces only, so a command reads option by option and copies as it
     * was. A span, not a non-breaking hyphen in the text: copied, the command must be the one run.
     * A word without a hyphen may break after an underscore instead (a figure's key), so that a
     * table of keys fits the column. Only in cells: a table scrolls inside its box, where a long
     * word cannot widen the page.
     */
    private static String cell(Text t) {
        StringBuilder s = new StringBuilder();
        for (Text.Inline i : t.parts()) {
            switch (i) {
                case Text.Plain p -> words(s, p.text());
                case Text.Code c -> words(s.append("<code>"), c.text()).append("</code>");
                case Text.Strong st -> words(s.append("<strong>"), st.text()).append("</strong>");
            }
        }
        return s.toString();
    }

    /**
     * {@code text} escaped, each of its space-separated words that holds a hyphen wrapped in a span
     * of class word, and each other word free to break after its underscores ({@link #underscores}).
     */
    private static StringBuilder words(StringBuilder s, String text) {
        int i = 0, n = text.length();
        while (i < n) {
            int end = i;
            if (text.charAt(i) == ' ') {
                while (end < n && text.charAt(end) == ' ') end++;
                s.append(text, i, end);
            } else {
                while (end < n && text.charAt(end) != ' ') end++;
                String word = text.substring(i, end);
                if (word.indexOf('-') >= 0 || word.indexOf('\u2010') >= 0) s.append("<span class=\"word\">").append(esc(word)).append("</span>");
                else underscores(s, word);
            }
            i = end;
        }
        return s;
    }

    /**
     * {@code word} escaped, with a break opportunity ({@code <wbr>}) after each underscore but a
     * last one: a figure's key ("host_to_device_sweep_pageable_half_peak_bytes") is one word to a
     * browser, which made the key column of "Every figure" some 45 characters wide and the table
     * wider than the page. It now wraps between the key's own words when the column is short of
     * room, and stays one line where there is room. A {@code <wbr>} is no character: the key copies
     * as it was.
     */
    private static void underscores(StringBuilder s, String word) {
        int from = 0;
        for (int u = word.indexOf('_'); u >= 0 && u < word.length() - 1; u = word.indexOf('_', u + 1)) {
            s.append(esc(word.substring(from, u + 1))).append("<wbr>");
            from = u + 1;
        }
        s.append(esc(word.substring(from)));
    }

    /**
     * Text and attribute values for HTML and SVG: the five characters markup gives meaning to, and
     * no control ({@link Printable}): the learn pages and drawings show report values that never
     * went through a {@link Document}, and a page read with cat or an editor is a terminal too.
     */
    public static String esc(String raw) {
        String s = Printable.of(raw);
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
