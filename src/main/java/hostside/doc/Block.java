package hostside.doc;

import java.util.List;

import hostside.core.Finding;
import hostside.core.Printable;
import hostside.core.Rule;
import hostside.core.Unit;

/**
 * The blocks a {@link Document} is made of. Each holds content, never layout: widths, colours,
 * escaping and numbering are the renderers' business. Every string a block holds is made
 * {@link Printable} as it is built, as {@link Text} is.
 */
public sealed interface Block {

    /** A titled part; sections nest, and their depth sets the heading level. */
    record Section(String title, List<Block> blocks) implements Block {
        public Section {
            title = Printable.of(title);
            blocks = List.copyOf(blocks);
        }
    }

    /** Prose: one paragraph. */
    record Paragraph(Text text) implements Block {
        public static Paragraph of(String plain) {
            return new Paragraph(Text.of(plain));
        }
    }

    /** Something that did not happen or is secondary: "not run: no NVIDIA driver". Dim in text, italic elsewhere. */
    record Note(Text text) implements Block {
        public static Note of(String plain) {
            return new Note(Text.of(plain));
        }
    }

    /** Labelled values, one a line: "kernel  6.18.44", "THP  madvise". */
    record KeyValues(List<Entry> entries) implements Block {
        public KeyValues {
            entries = List.copyOf(entries);
        }

        public record Entry(String key, Text value) {
            public Entry {
                key = Printable.of(key);
            }

            public static Entry of(String key, String value) {
                return new Entry(key, Text.of(value));
            }
        }
    }

    /**
     * A table: a header per column, rows of cells. Figures are right-aligned ({@link Align#RIGHT});
     * a cell is text already formatted with its unit (Locale.ROOT), since the drill knows the
     * precision a figure deserves.
     */
    record Table(List<Column> columns, List<List<Text>> rows) implements Block {
        public Table {
            columns = List.copyOf(columns);
            rows = rows.stream().map(List::copyOf).toList();
            for (List<Text> r : rows) {
                if (r.size() != columns.size()) throw new IllegalArgumentException("a row of " + r.size() + " cells in a table of " + columns.size() + " columns");
            }
        }

        public record Column(String header, Align align) {
            public Column {
                header = Printable.of(header);
            }
        }

        public enum Align { LEFT, RIGHT }
    }

    /** A list of points, each a line. */
    record Bullets(List<Text> items) implements Block {
        public Bullets {
            items = List.copyOf(items);
        }
    }

    /**
     * What a drill concluded: each finding with its severity (bad, warn, info), worst first as the
     * drill ordered them. {@code none} is what to say when the list is empty ("" to say nothing).
     */
    record Findings(List<Finding> findings, String none) implements Block {
        public Findings {
            // a Finding is also data (a run's JSON keeps its words as they were); only the block that shows it is made printable
            findings = findings.stream().map(Findings::printable).toList();
            none = Printable.of(none);
        }

        /**
         * A finding as a page says it: its text, its fix where it is bad or may cost performance
         * (an unknown or info finding has nothing to fix), and its rule's ID for hostside rules ID.
         */
        public static String said(Finding f) {
            String text = f.text().strip();
            StringBuilder s = new StringBuilder(text);
            if (f.severity().toFix() && f.fix() != null && !f.fix().isBlank()) {
                if (!text.isEmpty() && ".!?".indexOf(text.charAt(text.length() - 1)) < 0) s.append('.');
                s.append(" Fix: ").append(Printable.of(f.fix().strip()));
            }
            if (f.id() != null && Rule.ID.matcher(f.id()).matches()) s.append(" [").append(f.id()).append(']');
            return s.toString();
        }

        private static Finding printable(Finding f) {
            String subject = Printable.of(f.subject()), text = Printable.of(f.text());
            return subject == f.subject() && text == f.text() ? f : f.with(subject, text);
        }
    }

    /**
     * Curves over one x axis: a size sweep (bytes to GB/s), a TLB curve (bytes to ns). Each point
     * may carry its spread (min and max); the HTML renderer draws it as inline SVG, text and
     * Markdown as a table of the points.
     */
    record LinePlot(String title, Axis x, Axis y, List<Series> series) implements Block {
        public LinePlot {
            title = Printable.of(title);
            series = List.copyOf(series);
        }

        public record Series(String name, List<Point> points) {
            public Series {
                name = Printable.of(name);
                points = List.copyOf(points);
            }
        }

        /** One point; {@code low} and {@code high} are the spread (min, max), null when there is none. */
        public record Point(double x, double y, Double low, Double high) {}
    }

    /**
     * Counts over ranges of one value: the launch-jitter histogram. {@code marks} are vertical
     * lines at named values (p50, p99, p99.9).
     */
    record Histogram(String title, Axis x, List<Bar> bars, List<Mark> marks) implements Block {
        public Histogram {
            title = Printable.of(title);
            bars = List.copyOf(bars);
            marks = List.copyOf(marks);
        }

        /** Samples with a value in [from, to). */
        public record Bar(double from, double to, long count) {}

        public record Mark(String label, double x) {
            public Mark {
                label = Printable.of(label);
            }
        }
    }

    /**
     * An axis: its label, its unit (the figures' own: {@link AxisFormat} writes its values as the
     * drill's tables do, bytes in binary units) and logarithmic when the values span decades (sizes, latencies).
     */
    record Axis(String label, Unit unit, boolean log) {
        public Axis {
            label = Printable.of(label);
        }
    }
}
