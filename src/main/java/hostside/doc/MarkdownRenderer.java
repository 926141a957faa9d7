package hostside.doc;

import java.util.List;

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
 * Draws a {@link Document} as GitHub-flavoured Markdown, for a report pasted into an issue or a
 * pull request. Blocks are separated by a blank line. Labelled values are a list of
 * "- **key**: value" rather than a table with an empty header row: the list reads well raw too, and
 * GitHub would draw that empty header as a blank band. Plots are their title and a table of points.
 * Plain text is escaped ({@link MarkdownEscape}), so a path with underscores or a "|" in a cell
 * shows as written.
 */
public final class MarkdownRenderer {

    /** The Markdown, ending in a newline. */
    public String render(Document d) {
        StringBuilder md = new StringBuilder();
        md.append("# ").append(MarkdownEscape.heading(d.title())).append('\n');
        if (!d.subtitle().isBlank()) md.append('\n').append(italic(MarkdownEscape.plain(d.subtitle().strip()))).append('\n');
        blocks(md, d.blocks(), 0);
        return md.toString();
    }

    /** Sections one level below the title: "##" at the top, "######" at most. */
    private void blocks(StringBuilder md, List<Block> blocks, int depth) {
        for (Block b : blocks) {
            switch (b) {
                case Section s -> {
                    md.append('\n').append("#".repeat(Math.min(6, depth + 2))).append(' ').append(MarkdownEscape.heading(s.title())).append('\n');
                    blocks(md, s.blocks(), depth + 1);
                }
                case Paragraph p -> {
                    if (!p.text().isEmpty()) md.append('\n').append(MarkdownEscape.lineStart(inline(p.text(), false).strip())).append('\n');
                }
                case Note n -> {
                    if (!n.text().isEmpty()) md.append('\n').append(italic(inline(n.text(), false))).append('\n');
                }
                case KeyValues kv -> keyValues(md, kv);
                case Table t -> table(md, t);
                case Bullets bl -> {
                    if (bl.items().isEmpty()) continue;
                    newList(md);
                    for (Text item : bl.items()) md.append("- ").append(MarkdownEscape.lineStart(inline(item, false).strip())).append('\n');
                }
                case Findings f -> findings(md, f);
                case LinePlot p -> {
                    md.append('\n').append(bold(MarkdownEscape.plain(p.title()))).append('\n');
                    table(md, PlotTables.points(p));
                }
                case Histogram h -> {
                    md.append('\n').append(bold(MarkdownEscape.plain(h.title()))).append('\n');
                    table(md, PlotTables.bars(h));
                    keyValues(md, PlotTables.marks(h));
                }
            }
        }
    }

    /**
     * Two lists with only a blank line between are one list to GitHub (findings would run into the
     * bullets after them); an empty HTML comment between them, which GitHub does not show, keeps them apart.
     */
    private static void newList(StringBuilder md) {
        int start = md.lastIndexOf("\n", md.length() - 2) + 1;
        if (md.indexOf("- ", start) == start) md.append("\n<!-- -->\n");
        md.append('\n');
    }

    private static void keyValues(StringBuilder md, KeyValues kv) {
        if (kv.entries().isEmpty()) return;
        newList(md);
        for (KeyValues.Entry e : kv.entries()) {
            md.append("- ").append(bold(MarkdownEscape.plain(e.key()))).append(": ").append(inline(e.value(), false).strip()).append('\n');
        }
    }

    /** A GitHub table; "---:" under a figure column right-aligns it, "|" in a cell is escaped so it cannot open a column. */
    private static void table(StringBuilder md, Table t) {
        if (t.columns().isEmpty()) return;
        md.append("\n|");
        for (Table.Column c : t.columns()) md.append(' ').append(MarkdownEscape.plain(c.header()).strip()).append(" |");
        md.append("\n|");
        for (Table.Column c : t.columns()) md.append(c.align() == Table.Align.RIGHT ? " ---: |" : " --- |");
        md.append('\n');
        for (List<Text> row : t.rows()) {
            md.append('|');
            for (Text cell : row) md.append(' ').append(inline(cell, true).strip()).append(" |");
            md.append('\n');
        }
    }

    /** "✗" and "!" in bold before bad and warn findings; info needs no mark. */
    private static void findings(StringBuilder md, Findings f) {
        if (f.findings().isEmpty()) {
            if (!f.none().isBlank()) md.append('\n').append(MarkdownEscape.lineStart(MarkdownEscape.plain(f.none().strip()))).append('\n');
            return;
        }
        newList(md);
        for (Finding x : f.findings()) {
            String mark = switch (x.severity()) {
                case BAD -> "**✗** ";
                case WARN -> "**!** ";
                case UNKNOWN -> "**?** ";
                default -> "";
            };
            String text = MarkdownEscape.plain(Findings.said(x));
            md.append("- ").append(mark).append(mark.isEmpty() ? MarkdownEscape.lineStart(text) : text).append('\n');
        }
    }

    /**
     * Inline text: plain escaped, code in a backtick fence longer than any backtick run inside it,
     * strong in "**". In a table cell a "|" inside code is escaped too: GitHub splits cells before
     * it reads code spans, and shows "\|" in code as "|".
     */
    private static String inline(Text t, boolean cell) {
        StringBuilder s = new StringBuilder();
        for (Text.Inline i : t.parts()) {
            switch (i) {
                case Text.Plain p -> s.append(MarkdownEscape.plain(p.text()));
                case Text.Code c -> {
                    String code = MarkdownEscape.code(c.text());
                    s.append(cell ? code.replace("|", "\\|") : code);
                }
                case Text.Strong st -> s.append(bold(MarkdownEscape.plain(st.text())));
            }
        }
        return s.toString();
    }

    /** Emphasis must hug its words ("** x**" is not bold), so spaces at the ends go outside the markers. */
    private static String bold(String s) {
        return wrap(s, "**");
    }

    private static String italic(String s) {
        return wrap(s, "_");
    }

    private static String wrap(String s, String marker) {
        String core = s.strip();
        if (core.isEmpty()) return s;
        int start = s.indexOf(core);
        return s.substring(0, start) + marker + core + marker + s.substring(start + core.length());
    }
}
