package hostside.doc;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

import hostside.core.Printable;

/**
 * Metrics in Prometheus' text exposition format (version 0.0.4), as node_exporter's textfile
 * collector reads a {@code *.prom} file and a scrape of {@code /metrics} carries it.
 *
 * <p>The rules, from https://prometheus.io/docs/instrumenting/exposition_formats/ ("Text format
 * details") and https://prometheus.io/docs/concepts/data_model/ ("Metric names and labels"):
 * <ul>
 *   <li>UTF-8, lines end with {@code \n}, the last one too.</li>
 *   <li>{@code # HELP name text} escapes backslash and line feed as {@code \\} and {@code \n};
 *       {@code # TYPE name gauge|counter|untyped} comes before the family's first sample.</li>
 *   <li>"All lines for a given metric must be provided as one single group": one block per family.</li>
 *   <li>A label value escapes backslash, double quote and line feed as {@code \\}, {@code \"} and {@code \n}.</li>
 *   <li>Each line's name and label set are unique; the value is a float as Go's ParseFloat reads it,
 *       with {@code NaN}, {@code +Inf} and {@code -Inf}.</li>
 *   <li>Metric names match {@code [a-zA-Z_:][a-zA-Z0-9_:]*}; colons are for recording rules, so
 *       an exporter writes none. Label names match {@code [a-zA-Z_][a-zA-Z0-9_]*}, and names
 *       beginning with {@code __} are reserved.</li>
 * </ul>
 * Samples carry no timestamp: node_exporter's textfile collector skips a whole file that has one
 * and counts a scrape error (node_exporter {@code collector/textfile.go}, {@code hasTimestamps}).
 *
 * <p>Two rules are hostside's own, stricter than the format: every sample of a family has the
 * same label names in the same order (node_exporter pads a missing label with an empty value, so
 * a forgotten label would read as {@code gpu=""} rather than fail), and text the format could
 * carry raw but a terminal would act on (ESC, CR, tab, C1, bidi controls: {@link Printable}) is
 * written as its visible escape, as everywhere in hostside. A line feed stays a line feed, since
 * the format escapes it.
 *
 * <p>Breaking a rule is a programming error in the caller (names are hostside's own), so it
 * throws {@link IllegalArgumentException} when the family is built, not when it is written.
 * Writing to a file goes through {@code hostside.fs.OutputFile.write(target, text::writeTo)}: a
 * temporary file named {@code .NAME.RANDOM.part} beside the target (which the collector, reading
 * only names ending in {@code .prom}, never reads), then a rename.
 */
public record PrometheusText(List<Family> families) {

    /** The Content-Type of this format, for a scrape endpoint. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /** Legacy metric name without the colon of recording rules. */
    static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

    /** The family's type, as its {@code # TYPE} line spells it. Histograms and summaries are left out: hostside has none. */
    public enum Type {
        GAUGE, COUNTER, UNTYPED;

        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One label: its name and its value as given (escaping happens when written). */
    public record Label(String name, String value) {
        public Label {
            if (name == null || !LABEL_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("label name " + quote(name) + " is not [a-zA-Z_][a-zA-Z0-9_]*");
            }
            if (name.startsWith("__")) throw new IllegalArgumentException("label name " + name + ": names beginning with __ are reserved");
            if (value == null) throw new IllegalArgumentException("label " + name + " has no value");
        }
    }

    /** One line of a family: its labels in the order written, and its value. */
    public record Sample(List<Label> labels, double value) {
        public Sample {
            labels = List.copyOf(labels);
            Set<String> seen = new HashSet<>();
            for (Label l : labels) {
                if (!seen.add(l.name())) throw new IllegalArgumentException("label " + l.name() + " twice in one sample");
            }
        }

        /** A sample from alternating label names and values: {@code of(1, "gpu", "0", "uuid", "GPU-...")}. */
        public static Sample of(double value, String... namesAndValues) {
            if (namesAndValues.length % 2 != 0) throw new IllegalArgumentException("label names and values do not pair up: " + namesAndValues.length);
            List<Label> labels = new ArrayList<>();
            for (int i = 0; i < namesAndValues.length; i += 2) labels.add(new Label(namesAndValues[i], namesAndValues[i + 1]));
            return new Sample(labels, value);
        }

        List<String> labelNames() {
            return labels.stream().map(Label::name).toList();
        }

        /** The label set as Prometheus identifies a series: by names and values, whatever their order. */
        Map<String, String> identity() {
            Map<String, String> m = new TreeMap<>();
            for (Label l : labels) m.put(l.name(), l.value());
            return m;
        }
    }

    /** A metric family: one {@code # HELP}, one {@code # TYPE}, then its samples, one group. */
    public record Family(String name, String help, Type type, List<Sample> samples) {
        public Family {
            if (name == null || !METRIC_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("metric name " + quote(name) + " is not [a-zA-Z_][a-zA-Z0-9_]* (colons are for recording rules)");
            }
            if (help == null || help.isBlank()) throw new IllegalArgumentException("metric " + name + " has no help text");
            if (type == null) throw new IllegalArgumentException("metric " + name + " has no type");
            samples = List.copyOf(samples);
            Set<Map<String, String>> series = new HashSet<>();
            for (Sample s : samples) {
                if (!s.labelNames().equals(samples.getFirst().labelNames())) {
                    throw new IllegalArgumentException("metric " + name + ": labels " + s.labelNames() + " where its first sample has "
                            + samples.getFirst().labelNames() + " (every sample of a family has the same label names, in one order)");
                }
                if (!series.add(s.identity())) throw new IllegalArgumentException("metric " + name + ": the series " + s.identity() + " twice");
            }
        }
    }

    public PrometheusText {
        families = List.copyOf(families);
        Set<String> names = new HashSet<>();
        for (Family f : families) {
            if (!names.add(f.name())) throw new IllegalArgumentException("metric " + f.name() + " twice: all lines of a metric are one group");
        }
    }

    /** The exposition as text: each family's HELP, TYPE and samples, every line ending in {@code \n}. */
    public String render() {
        StringBuilder b = new StringBuilder();
        for (Family f : families) {
            b.append("# HELP ").append(f.name()).append(' ').append(escape(f.help(), false)).append('\n');
            b.append("# TYPE ").append(f.name()).append(' ').append(f.type().word()).append('\n');
            for (Sample s : f.samples()) {
                b.append(f.name());
                if (!s.labels().isEmpty()) {
                    b.append('{');
                    for (int i = 0; i < s.labels().size(); i++) {
                        Label l = s.labels().get(i);
                        if (i > 0) b.append(',');
                        b.append(l.name()).append("=\"").append(escape(l.value(), true)).append('"');
                    }
                    b.append('}');
                }
                b.append(' ').append(value(s.value())).append('\n');
            }
        }
        return b.toString();
    }

    /** Writes {@link #render()} as UTF-8; fits {@code OutputFile.Body}. */
    public void writeTo(OutputStream out) throws IOException {
        out.write(render().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A value as Go's ParseFloat reads it back to the same double: {@code NaN}, {@code +Inf},
     * {@code -Inf}; a whole number without a fraction ({@code 3}, not {@code 3.0}) while it is
     * exact as a long; otherwise Java's shortest round-trip form ({@code 0.1}, {@code 1.0E20}),
     * whose exponent Go accepts. Long.toString and Double.toString do not depend on the locale.
     */
    static String value(double v) {
        if (Double.isNaN(v)) return "NaN";
        if (v == Double.POSITIVE_INFINITY) return "+Inf";
        if (v == Double.NEGATIVE_INFINITY) return "-Inf";
        if (v == Math.rint(v) && Math.abs(v) < 0x1p53) return Long.toString((long) v);
        return Double.toString(v);
    }

    /**
     * Escapes text for a HELP line ({@code labelValue} false: backslash and line feed) or a label
     * value (also the double quote). Any other character a terminal would act on becomes its
     * visible {@link Printable} escape, whose backslash is then escaped like any other.
     */
    static String escape(String s, boolean labelValue) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') b.append("\\\\");
            else if (c == '\n') b.append("\\n");
            else if (c == '"' && labelValue) b.append("\\\"");
            else if (Printable.hidden(c)) b.append(Printable.of(String.valueOf(c)).replace("\\", "\\\\"));
            else b.append(c);
        }
        return b.toString();
    }

    private static String quote(String s) {
        return s == null ? "null" : "\"" + Printable.of(s) + "\"";
    }
}
