package hostside.doc;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Figure;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.doc.Block.Table;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;

/**
 * The table of measured figures the drills' documents draw: a name, the median, min and max of
 * the samples, the unit, the sample count where the drill shows it, then the drill's own columns.
 * Drawn here once, so every document writes a value the same way ({@link Units#value}) and a case
 * that did not run the same way.
 */
public final class FiguresTable {
    private final List<Column> columns = new ArrayList<>();
    private final boolean samples;
    private final int extra;
    private final List<List<Text>> rows = new ArrayList<>();

    /**
     * @param first   the first column's header: "measurement", "all GPUs at once"
     * @param samples whether an "n" column (the samples) follows the unit
     * @param extra   the drill's own columns, after those
     */
    public FiguresTable(String first, boolean samples, Column... extra) {
        this.samples = samples;
        this.extra = extra.length;
        columns.add(new Column(first, Align.LEFT));
        for (String h : List.of("median", "min", "max")) columns.add(new Column(h, Align.RIGHT));
        columns.add(new Column("unit", Align.LEFT));
        if (samples) columns.add(new Column("n", Align.RIGHT));
        columns.addAll(List.of(extra));
    }

    /** A measured case's row; {@code extra} fills the drill's own columns in order. */
    public FiguresTable add(Text name, Stats s, Unit unit, Text... extra) {
        return add(name, s.median(), s.min(), s.max(), unit, s.samples(), extra);
    }

    /** A figure's row (one a case's detail holds, beside the case's own). */
    public FiguresTable add(Figure f, Text... extra) {
        return add(Text.code(f.key()), f.value(), f.min(), f.max(), f.unit(), f.samples(), extra);
    }

    /** A case that did not run: {@code why} ("not run: no GPU") in the median's column, the rest empty. */
    public FiguresTable notRun(String key, String why) {
        List<Text> row = new ArrayList<>(List.of(Text.code(key), Text.of(why)));
        while (row.size() < columns.size()) row.add(Text.of(""));
        rows.add(row);
        return this;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    public Table table() {
        return new Table(columns, rows);
    }

    private FiguresTable add(Text name, double median, double min, double max, Unit unit, int n, Text... own) {
        if (own.length != extra) throw new IllegalArgumentException(own.length + " cells for " + extra + " columns of the drill's own");
        // a size is written with its binary unit ("2 MiB"), which leaves the unit column nothing to add
        List<Text> row = new ArrayList<>(List.of(name, Text.of(Units.value(unit, median)), Text.of(Units.value(unit, min)),
                Text.of(Units.value(unit, max)), Text.of(unit == Unit.BYTES ? "" : unit.symbol())));
        if (samples) row.add(Text.of(Integer.toString(n)));
        row.addAll(List.of(own));
        rows.add(row);
        return this;
    }
}
