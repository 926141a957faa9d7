package hostside.doc;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import hostside.doc.Block.Histogram;
import hostside.doc.Block.LinePlot;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;

/**
 * A plot's numbers as ordinary blocks. Text and Markdown show a plot only this way; HTML shows it
 * under the SVG, so the figures can be read (and copied, and heard by a screen reader) without the
 * picture. Building the table once here is what keeps the three renderings of a plot in step.
 */
final class PlotTables {
    private PlotTables() {}

    /**
     * One row per x value (the union over the series, ascending), one column per series, and after a
     * series that has any spread a "min..max" column. A series without a point at some x gets an
     * empty cell there, so curves sampled at different sizes still line up.
     */
    static Block.Table points(LinePlot p) {
        List<Column> columns = new ArrayList<>();
        columns.add(new Column(p.x().label(), Align.RIGHT));
        for (LinePlot.Series s : p.series()) {
            columns.add(new Column(s.name().isEmpty() ? p.y().label() : s.name(), Align.RIGHT));
            if (hasSpread(s)) columns.add(new Column("min..max", Align.RIGHT));
        }
        TreeSet<Double> xs = new TreeSet<>();
        for (LinePlot.Series s : p.series()) for (LinePlot.Point pt : s.points()) xs.add(pt.x());
        List<List<Text>> rows = new ArrayList<>();
        for (double x : xs) {
            List<Text> row = new ArrayList<>();
            row.add(Text.of(AxisFormat.value(x, p.x().unit())));
            for (LinePlot.Series s : p.series()) {
                LinePlot.Point pt = s.points().stream().filter(q -> Double.compare(q.x(), x) == 0).findFirst().orElse(null);
                row.add(Text.of(pt == null ? "" : AxisFormat.value(pt.y(), p.y().unit())));
                if (hasSpread(s)) {
                    row.add(Text.of(pt == null || pt.low() == null || pt.high() == null ? "" : AxisFormat.range(pt.low(), pt.high(), p.y().unit())));
                }
            }
            rows.add(row);
        }
        return new Block.Table(columns, rows);
    }

    /** One row per bar, as the drill ordered them: its range in the x axis' unit, and its count. */
    static Block.Table bars(Histogram h) {
        List<Column> columns = List.of(new Column(h.x().label(), Align.RIGHT), new Column("count", Align.RIGHT));
        List<List<Text>> rows = new ArrayList<>();
        for (Histogram.Bar b : h.bars()) {
            rows.add(List.of(Text.of(AxisFormat.range(b.from(), b.to(), h.x().unit())), Text.of(Long.toString(b.count()))));
        }
        return new Block.Table(columns, rows);
    }

    /** The marks (p50, p99, ...) as labelled values, in the drill's order. */
    static Block.KeyValues marks(Histogram h) {
        return new Block.KeyValues(h.marks().stream().map(m -> Block.KeyValues.Entry.of(m.label(), AxisFormat.value(m.x(), h.x().unit()))).toList());
    }

    static boolean hasSpread(LinePlot.Series s) {
        return s.points().stream().anyMatch(pt -> pt.low() != null && pt.high() != null);
    }
}
