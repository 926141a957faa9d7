package hostside.doc;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import hostside.core.Finding;
import hostside.core.Style;
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
 * Draws a {@link Document} for a terminal, in the spirit of the drills' views: compact, aligned, a
 * top-level section's title in bold with its content two spaces in, two more per nesting level;
 * findings with a mark (bad in red, warn in yellow, info plain), notes dim. Prose is wrapped at the
 * width; table lines never are, since a wrapped row no longer lines up. Plots are tables of their
 * points, a histogram also as a bar of "#" per range.
 */
public final class TextRenderer {
    /** The widest bar of a histogram, in characters. */
    private static final int BAR = 40;
    /** Prose never wraps narrower than this, however deep the section: words on a line must still read as a sentence. */
    private static final int NARROWEST = 20;

    private final Style style;
    private final int width;

    /** At 100 columns, as the drills' views are written. */
    public TextRenderer(Style style) {
        this(style, 100);
    }

    /** @param width the column prose is wrapped at, indentation included */
    public TextRenderer(Style style, int width) {
        if (width < 1) throw new IllegalArgumentException("a width of " + width);
        this.style = style;
        this.width = width;
    }

    /** The text, one top-level block after another with a blank line between, ending in a newline. */
    public String render(Document d) {
        StringBuilder sb = new StringBuilder();
        sb.append(style.bold(d.title())).append('\n');
        if (!d.subtitle().isEmpty()) sb.append(style.dim(d.subtitle())).append('\n');
        for (Block b : d.blocks()) {
            sb.append('\n');
            block(sb, b, 0);
        }
        return sb.toString();
    }

    private void blocks(StringBuilder sb, List<Block> blocks, int depth) {
        Block before = null;
        for (Block b : blocks) {
            // compact, except that two paragraphs in a row would read as one
            if (before instanceof Paragraph && b instanceof Paragraph) sb.append('\n');
            block(sb, b, depth);
            before = b;
        }
    }

    private void block(StringBuilder sb, Block b, int depth) {
        String indent = "  ".repeat(depth);
        switch (b) {
            case Section s -> {
                sb.append(indent).append(depth == 0 ? style.bold(s.title()) : s.title()).append('\n');
                blocks(sb, s.blocks(), depth + 1);
            }
            case Paragraph p -> wrap(sb, indent, "", words(p.text(), UnaryOperator.identity()));
            case Note n -> wrap(sb, indent, "", words(n.text(), style::dim));
            case KeyValues kv -> keyValues(sb, indent, kv);
            case Table t -> sb.append(table(t, indent, null));
            case Bullets bl -> {
                for (Text item : bl.items()) wrap(sb, indent, "- ", words(item, UnaryOperator.identity()));
            }
            case Findings f -> findings(sb, indent, f);
            case LinePlot p -> {
                sb.append(indent).append(p.title()).append('\n');
                sb.append(table(PlotTables.points(p), indent, null));
            }
            case Histogram h -> histogram(sb, indent, h);
        }
    }

    /** Keys padded to the widest; a long value wraps under itself, not under the keys. */
    private void keyValues(StringBuilder sb, String indent, KeyValues kv) {
        int keys = kv.entries().stream().mapToInt(e -> e.key().length()).max().orElse(0);
        for (KeyValues.Entry e : kv.entries()) {
            String lead = e.key() + " ".repeat(keys - e.key().length() + 2);
            wrap(sb, indent, lead, words(e.value(), UnaryOperator.identity()));
        }
    }

    private void findings(StringBuilder sb, String indent, Findings f) {
        if (f.findings().isEmpty()) {
            if (!f.none().isEmpty()) wrap(sb, indent, "", words(Text.of(f.none()), UnaryOperator.identity()));
            return;
        }
        for (Finding x : f.findings()) {
            UnaryOperator<String> colour = switch (x.severity()) {
                case BAD -> style::bad;
                case WARN -> style::warn;
                default -> UnaryOperator.identity();
            };
            String mark = switch (x.severity()) {
                case BAD -> "✗ ";
                case WARN -> "! ";
                case UNKNOWN -> "? ";
                default -> "· ";
            };
            wrapMarked(sb, indent, colour.apply(mark), mark.length(), words(Text.of(Findings.said(x)), colour));
        }
    }

    /** The bars' table with a "#" bar per range scaled to the largest count, then the marks as labelled values. */
    private void histogram(StringBuilder sb, String indent, Histogram h) {
        sb.append(indent).append(h.title()).append('\n');
        long most = h.bars().stream().mapToLong(Histogram.Bar::count).max().orElse(0);
        List<String> bars = new ArrayList<>();
        for (Histogram.Bar b : h.bars()) {
            // a bar of any samples shows at least one "#": the tail is what a jitter histogram is for
            bars.add("#".repeat(most <= 0 || b.count() <= 0 ? 0 : (int) Math.max(1, Math.round((double) b.count() * BAR / most))));
        }
        sb.append(table(PlotTables.bars(h), indent, bars));
        keyValues(sb, indent, PlotTables.marks(h));
    }

    /**
     * A block's table through core's aligned Table, which right-aligns figures and does not count
     * ANSI codes in widths; {@code lastColumn}, when not null, adds an unnamed column (the bars).
     */
    private String table(Table t, String indent, List<String> lastColumn) {
        if (t.columns().isEmpty()) return "";
        List<String> headers = new ArrayList<>(t.columns().stream().map(Table.Column::header).toList());
        if (lastColumn != null) headers.add("");
        hostside.core.Table out = new hostside.core.Table(headers.toArray(String[]::new));
        for (int i = 0; i < t.columns().size(); i++) if (t.columns().get(i).align() == Table.Align.RIGHT) out.right(i);
        for (int r = 0; r < t.rows().size(); r++) {
            List<String> cells = new ArrayList<>();
            for (Text c : t.rows().get(r)) cells.add(String.join(" ", words(c, UnaryOperator.identity()).stream().map(Word::styled).toList()));
            if (lastColumn != null) cells.add(lastColumn.get(r));
            out.row(cells.toArray());
        }
        return out.render(indent);
    }

    /** A word as it is printed (with its ANSI codes) and how many columns it takes. */
    private record Word(String styled, int width) {}

    /**
     * Splits text at its spaces into words, each piece styled on its own so that a line break never
     * leaves a colour open. Code is kept whole (a command split over two lines cannot be pasted) and
     * shown as is; strong words are bold. Pieces without a space between them stay one word: "(`x`)."
     */
    private List<Word> words(Text t, UnaryOperator<String> base) {
        List<Word> out = new ArrayList<>();
        StringBuilder styled = new StringBuilder();
        int w = 0;
        for (Text.Inline i : t.parts()) {
            if (i instanceof Text.Code c) {
                String s = c.text().replaceAll("\\s", " ");
                styled.append(base.apply(s));
                w += s.length();
                continue;
            }
            UnaryOperator<String> st = i instanceof Text.Strong ? s -> style.bold(base.apply(s)) : base;
            String[] pieces = i.text().split("\\s", -1);
            for (int k = 0; k < pieces.length; k++) {
                if (k > 0 && w > 0) {
                    out.add(new Word(styled.toString(), w));
                    styled.setLength(0);
                    w = 0;
                }
                if (!pieces[k].isEmpty()) {
                    styled.append(st.apply(pieces[k]));
                    w += pieces[k].length();
                }
            }
        }
        if (w > 0) out.add(new Word(styled.toString(), w));
        return out;
    }

    private void wrap(StringBuilder sb, String indent, String lead, List<Word> words) {
        wrapMarked(sb, indent, lead, lead.length(), words);
    }

    /**
     * Greedy wrapping at the width: as many words as fit, never a word split (one longer than the
     * line stands alone on it). Lines after the first hang under the text, past the lead ("- ", a
     * finding's mark, a key), unless the lead is so wide that the text would be squeezed into a
     * column: then they hang four spaces in.
     */
    private void wrapMarked(StringBuilder sb, String indent, String lead, int leadWidth, List<Word> words) {
        int firstRoom = width - indent.length() - leadWidth;
        int hang = firstRoom >= NARROWEST ? leadWidth : Math.min(leadWidth, 4);
        int restRoom = Math.max(NARROWEST, width - indent.length() - hang);
        StringBuilder line = new StringBuilder();
        int used = 0;
        boolean first = true;
        for (Word wd : words) {
            if (used > 0 && used + 1 + wd.width() > (first ? firstRoom : restRoom)) {
                sb.append(indent).append(first ? lead : " ".repeat(hang)).append(line).append('\n');
                first = false;
                line.setLength(0);
                used = 0;
            }
            if (used > 0) {
                line.append(' ');
                used++;
            }
            line.append(wd.styled());
            used += wd.width();
        }
        // nothing left to write is no line at all, unless a key or a mark stands for an empty value
        if (used > 0 || first && !lead.isBlank()) sb.append((indent + (first ? lead : " ".repeat(hang)) + line).stripTrailing()).append('\n');
    }
}
