package hostside.doc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoublePredicate;

import hostside.core.Unit;
import hostside.doc.Block.Axis;
import hostside.doc.Block.Histogram;
import hostside.doc.Block.LinePlot;

/**
 * Plots as inline SVG for the HTML page: no script, no external file, so the page stays one
 * self-contained file. Colours are attributes rather than CSS classes so a figure copied out of the
 * page still draws. Series differ by dash pattern as well as colour, since colour must not be the
 * only signal. Tick labels come from {@link AxisFormat}, so they read as the table under the figure.
 */
final class SvgPlot {
    private SvgPlot() {}

    private static final int WIDTH = 640;
    private static final int LEFT = 84;
    private static final int RIGHT = WIDTH - 20;
    private static final int TOP = 30;
    private static final int BOTTOM = TOP + 230;
    /** Points are kept off the frame so the first and last ones are not drawn on an axis line. */
    private static final int INSET = 8;
    private static final String[] COLOURS = {"#1f5fa8", "#c0392b", "#23803a", "#7b3fa0", "#b8650a", "#555555"};
    private static final String[] DASHES = {"", "7 3", "2 3", "9 3 2 3", "4 4", "1 2"};
    private static final String SVG_NS = "http://www.w3.org/2000/svg";

    /** Curves with their spread as whiskers, a legend under the x axis. */
    static String line(LinePlot p) {
        int height = BOTTOM + 52 + 16 * p.series().size();
        StringBuilder s = open(p.title(), describe(p.x(), p.y()), height);
        Scale xs = xScale(p.x(), p.series().stream().flatMap(q -> q.points().stream()).map(LinePlot.Point::x).toList());
        List<Double> ys = new ArrayList<>();
        for (LinePlot.Series q : p.series()) {
            for (LinePlot.Point pt : q.points()) {
                ys.add(pt.y());
                if (pt.low() != null) ys.add(pt.low());
                if (pt.high() != null) ys.add(pt.high());
            }
        }
        Scale ysc = yScale(p.y(), ys);
        frame(s, xs, ysc, p.x(), p.y().unit(), label(p.y()));
        for (int i = 0; i < p.series().size(); i++) series(s, p, p.series().get(i), i, xs, ysc);
        for (int i = 0; i < p.series().size(); i++) {
            double y = BOTTOM + 56 + 16 * i;
            String name = p.series().get(i).name().isEmpty() ? p.y().label() : p.series().get(i).name();
            s.append("<line x1=\"").append(n(LEFT)).append("\" y1=\"").append(n(y - 4)).append("\" x2=\"").append(n(LEFT + 28)).append("\" y2=\"")
                    .append(n(y - 4)).append("\"").append(stroke(i)).append(dash(i)).append(" stroke-width=\"2\"/>");
            s.append("<text x=\"").append(n(LEFT + 34)).append("\" y=\"").append(n(y)).append("\">").append(HtmlRenderer.esc(name)).append("</text>\n");
        }
        return s.append("</svg>\n").toString();
    }

    /**
     * Bars over the x axis, counts on a log axis: a launch-jitter tail of a handful of samples would
     * not show beside a peak of thousands on a linear one. Marks are dashed lines with their label.
     */
    static String histogram(Histogram h) {
        StringBuilder s = open(h.title(), describe(h.x(), null) + ", count on a log scale", BOTTOM + 46);
        List<Double> xsv = new ArrayList<>();
        for (Histogram.Bar b : h.bars()) {
            xsv.add(b.from());
            xsv.add(b.to());
        }
        for (Histogram.Mark m : h.marks()) xsv.add(m.x());
        Scale xs = xScale(h.x(), xsv);
        long most = h.bars().stream().mapToLong(Histogram.Bar::count).max().orElse(0);
        // from 0.5 so a bar of one sample still has a height; the top a power of ten, at least 10
        Scale ys = Scale.log(0.5, Math.max(10, Math.pow(10, Math.ceil(Math.log10(Math.max(1, most)) - 1e-9))), BOTTOM, TOP, 10);
        frame(s, xs, ys, h.x(), Unit.COUNT, "count (log scale)");
        for (Histogram.Bar b : h.bars()) {
            if (b.count() <= 0 || !Double.isFinite(b.from()) || !Double.isFinite(b.to())) continue;
            double x0 = clamp(xs.map(Math.min(b.from(), b.to())), LEFT, RIGHT);
            double x1 = clamp(xs.map(Math.max(b.from(), b.to())), LEFT, RIGHT);
            double y = ys.map(b.count());
            s.append("<rect x=\"").append(n(x0)).append("\" y=\"").append(n(y)).append("\" width=\"").append(n(Math.max(1, x1 - x0 - 1)))
                    .append("\" height=\"").append(n(BOTTOM - y)).append("\" fill=\"").append(COLOURS[0]).append("\" fill-opacity=\"0.75\"><title>")
                    .append(HtmlRenderer.esc(AxisFormat.range(b.from(), b.to(), h.x().unit()) + ": " + b.count())).append("</title></rect>\n");
        }
        for (int i = 0; i < h.marks().size(); i++) {
            Histogram.Mark m = h.marks().get(i);
            if (!Double.isFinite(m.x())) continue;
            double x = clamp(xs.map(m.x()), LEFT, RIGHT);
            s.append("<line x1=\"").append(n(x)).append("\" y1=\"").append(n(TOP)).append("\" x2=\"").append(n(x)).append("\" y2=\"").append(n(BOTTOM))
                    .append("\" stroke=\"#222222\" stroke-width=\"1\" stroke-dasharray=\"5 3\"/>");
            // alternate heights, so the labels of close marks (p99, p99.9) do not sit on each other
            s.append("<text x=\"").append(n(x)).append("\" y=\"").append(n(TOP - 6 - 11 * (i % 2))).append("\" text-anchor=\"middle\">")
                    .append(HtmlRenderer.esc(m.label() + " " + AxisFormat.value(m.x(), h.x().unit()))).append("</text>\n");
        }
        return s.append("</svg>\n").toString();
    }

    private static StringBuilder open(String title, String description, int height) {
        StringBuilder s = new StringBuilder();
        s.append("<svg xmlns=\"").append(SVG_NS).append("\" role=\"img\" aria-label=\"").append(HtmlRenderer.esc(title)).append("\" viewBox=\"0 0 ")
                .append(WIDTH).append(' ').append(height).append("\" width=\"").append(WIDTH).append("\" height=\"").append(height)
                .append("\" font-family=\"sans-serif\" font-size=\"11\">\n");
        s.append("<title>").append(HtmlRenderer.esc(title)).append("</title>\n");
        s.append("<desc>").append(HtmlRenderer.esc(description)).append("</desc>\n");
        return s;
    }

    private static String describe(Axis x, Axis y) {
        return (y == null ? "" : label(y) + " against ") + label(x);
    }

    private static String label(Axis a) {
        return a.label() + (a.log() ? " (log scale)" : "");
    }

    /** Grid, axes, tick labels and the axes' names. */
    private static void frame(StringBuilder s, Scale xs, Scale ys, Axis x, Unit yUnit, String yLabel) {
        s.append("<g stroke=\"#e3e3e3\" stroke-width=\"1\">");
        for (double t : ys.ticks(6)) s.append(hline(ys.map(t)));
        for (double t : xs.ticks(10)) s.append("<line x1=\"").append(n(xs.map(t))).append("\" y1=\"").append(n(TOP)).append("\" x2=\"").append(n(xs.map(t)))
                .append("\" y2=\"").append(n(BOTTOM)).append("\"/>");
        s.append("</g>\n<g stroke=\"#444444\" stroke-width=\"1\">").append(hline(BOTTOM)).append("<line x1=\"").append(n(LEFT)).append("\" y1=\"")
                .append(n(TOP)).append("\" x2=\"").append(n(LEFT)).append("\" y2=\"").append(n(BOTTOM)).append("\"/></g>\n<g fill=\"#333333\">");
        for (double t : ys.ticks(6)) {
            s.append("<text x=\"").append(n(LEFT - 6)).append("\" y=\"").append(n(ys.map(t) + 4)).append("\" text-anchor=\"end\">")
                    .append(HtmlRenderer.esc(AxisFormat.value(t, yUnit))).append("</text>");
        }
        for (double t : xs.ticks(10)) {
            s.append("<text x=\"").append(n(xs.map(t))).append("\" y=\"").append(n(BOTTOM + 16)).append("\" text-anchor=\"middle\">")
                    .append(HtmlRenderer.esc(AxisFormat.value(t, x.unit()))).append("</text>");
        }
        s.append("\n<text x=\"").append(n((LEFT + RIGHT) / 2.0)).append("\" y=\"").append(n(BOTTOM + 36)).append("\" text-anchor=\"middle\">")
                .append(HtmlRenderer.esc(label(x))).append("</text>");
        double mid = (TOP + BOTTOM) / 2.0;
        s.append("<text x=\"14\" y=\"").append(n(mid)).append("\" text-anchor=\"middle\" transform=\"rotate(-90 14 ").append(n(mid)).append(")\">")
                .append(HtmlRenderer.esc(yLabel)).append("</text></g>\n");
    }

    /** One curve: whiskers first, then the line over them, then a dot per point with its figures as a tooltip. */
    private static void series(StringBuilder s, LinePlot p, LinePlot.Series q, int i, Scale xs, Scale ys) {
        DoublePredicate onX = v -> Double.isFinite(v) && (!xs.isLog() || v > 0);
        DoublePredicate onY = v -> Double.isFinite(v) && (!ys.isLog() || v > 0);
        List<LinePlot.Point> pts = q.points().stream().filter(pt -> onX.test(pt.x()) && onY.test(pt.y())).toList();
        s.append("<g").append(stroke(i)).append(" fill=\"").append(COLOURS[i % COLOURS.length]).append("\">");
        for (LinePlot.Point pt : pts) {
            if (pt.low() == null || pt.high() == null || !onY.test(pt.low()) || !onY.test(pt.high())) continue;
            double x = xs.map(pt.x());
            double lo = ys.map(pt.low());
            double hi = ys.map(pt.high());
            s.append("<path d=\"M").append(n(x)).append(' ').append(n(lo)).append("V").append(n(hi)).append("M").append(n(x - 3)).append(' ')
                    .append(n(lo)).append("h6M").append(n(x - 3)).append(' ').append(n(hi)).append("h6\" fill=\"none\" stroke-width=\"1\" stroke-opacity=\"0.7\"/>");
        }
        s.append("\n<polyline fill=\"none\" stroke-width=\"2\"").append(dash(i)).append(" points=\"");
        for (int k = 0; k < pts.size(); k++) s.append(k == 0 ? "" : " ").append(n(xs.map(pts.get(k).x()))).append(',').append(n(ys.map(pts.get(k).y())));
        s.append("\"/>\n");
        String name = q.name().isEmpty() ? p.y().label() : q.name();
        for (LinePlot.Point pt : pts) {
            String tip = name + ": " + AxisFormat.value(pt.y(), p.y().unit()) + " at " + AxisFormat.value(pt.x(), p.x().unit())
                    + (pt.low() == null || pt.high() == null ? "" : " (" + AxisFormat.range(pt.low(), pt.high(), p.y().unit()) + ")");
            s.append("<circle cx=\"").append(n(xs.map(pt.x()))).append("\" cy=\"").append(n(ys.map(pt.y()))).append("\" r=\"2.5\"><title>")
                    .append(HtmlRenderer.esc(tip)).append("</title></circle>");
        }
        s.append("</g>\n");
    }

    /** The x axis spans the data exactly (log when asked and possible); base 2 for sizes. */
    private static Scale xScale(Axis a, List<Double> values) {
        boolean log = a.log() && values.stream().anyMatch(v -> Double.isFinite(v) && v > 0);
        double[] r = range(values, log);
        double base = a.unit() == Unit.BYTES ? 2 : 10;
        if (log) return r[0] < r[1] ? Scale.log(r[0], r[1], LEFT + INSET, RIGHT - INSET, base) : Scale.log(r[0] / 2, r[0] * 2, LEFT + INSET, RIGHT - INSET, base);
        return r[0] < r[1] ? Scale.linear(r[0], r[1], LEFT + INSET, RIGHT - INSET) : Scale.linear(r[0] - 1, r[0] + 1, LEFT + INSET, RIGHT - INSET);
    }

    /** The y axis widened to round values: from 0 on a linear axis (a bandwidth bar from 0 reads true), to powers on a log one. */
    private static Scale yScale(Axis a, List<Double> values) {
        boolean log = a.log() && values.stream().anyMatch(v -> Double.isFinite(v) && v > 0);
        double[] r = range(values, log);
        if (log) return Scale.niceLog(r[0], r[1], BOTTOM, TOP, a.unit() == Unit.BYTES ? 2 : 10);
        return Scale.niceLinear(Math.min(0, r[0]), Math.max(0, r[1]), BOTTOM, TOP, 6);
    }

    /** Min and max of the drawable values; 0..1 when there are none. */
    private static double[] range(List<Double> values, boolean positiveOnly) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            if (!Double.isFinite(v) || positiveOnly && v <= 0) continue;
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        return lo <= hi ? new double[] {lo, hi} : new double[] {positiveOnly ? 1 : 0, positiveOnly ? 10 : 1};
    }

    private static String hline(double y) {
        return "<line x1=\"" + n(LEFT) + "\" y1=\"" + n(y) + "\" x2=\"" + n(RIGHT) + "\" y2=\"" + n(y) + "\"/>";
    }

    private static String stroke(int i) {
        return " stroke=\"" + COLOURS[i % COLOURS.length] + "\"";
    }

    private static String dash(int i) {
        String d = DASHES[i % DASHES.length];
        return d.isEmpty() ? "" : " stroke-dasharray=\"" + d + "\"";
    }

    private static double clamp(double v, double lo, double hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    /** A coordinate: Locale.ROOT and a dot whatever the user's locale, one decimal. */
    static String n(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
