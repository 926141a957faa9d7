package hostside.doc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Better;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.doc.Block.Table;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;

/** The one table of measured figures: its columns, its rows, and a value written as its unit deserves. */
class FiguresTableTest {
    static List<String> plain(List<Text> row) {
        return row.stream().map(Text::plainText).toList();
    }

    @Test
    void aMeasuredRowANotRunRowAndTheDrillsOwnColumns() {
        Table t = new FiguresTable("measurement", true, new Column("CPUs", Align.LEFT))
                .add(Text.code("wakeup"), new Stats(5.25, 4.5, 180.4, 40), Unit.US, Text.of("0,2"))
                .notRun("migration", "not run: one CPU")
                .table();
        assertThat(t.columns()).extracting(Column::header).containsExactly("measurement", "median", "min", "max", "unit", "n", "CPUs");
        assertThat(t.columns()).extracting(Column::align)
                .containsExactly(Align.LEFT, Align.RIGHT, Align.RIGHT, Align.RIGHT, Align.LEFT, Align.RIGHT, Align.LEFT);
        assertThat(plain(t.rows().get(0))).containsExactly("wakeup", "5.25", "4.50", "180", "us", "40", "0,2");
        assertThat(plain(t.rows().get(1))).containsExactly("migration", "not run: one CPU", "", "", "", "", "");
    }

    @Test
    void withoutSamplesThereIsNoNColumn() {
        Table t = new FiguresTable("measurement", false).add(Text.code("seq_read"), new Stats(3.63, 3.5, 3.7, 5), Unit.GB_PER_S).table();
        assertThat(t.columns()).extracting(Column::header).containsExactly("measurement", "median", "min", "max", "unit");
        assertThat(plain(t.rows().getFirst())).containsExactly("seq_read", "3.63", "3.50", "3.70", "GB/s");
    }

    @Test
    void sizesAreWrittenInBinaryUnitsAndOperationsWhole() {
        Figure peak = new Figure("h2d_peak_bytes", Scope.MACHINE, 2 << 20, Unit.BYTES, Better.LOWER, 1 << 20, 4 << 20, 3, "sweep", null);
        Table t = new FiguresTable("all GPUs at once", true).add(peak).table();
        assertThat(plain(t.rows().getFirst())).containsExactly("h2d_peak_bytes", "2 MiB", "1 MiB", "4 MiB", "", "3");
        assertThat(Units.value(Unit.IOPS, 412_345.4)).isEqualTo("412,345");
        assertThat(Units.value(Unit.GB_PER_S, 55.432)).isEqualTo("55.43");
    }

    @Test
    void aRowMustFillTheDrillsColumnsExactly() {
        FiguresTable t = new FiguresTable("measurement", false, new Column("dataset", Align.RIGHT));
        assertThatThrownBy(() -> t.add(Text.code("cow"), Stats.of(1.0), Unit.PERCENT)).isInstanceOf(IllegalArgumentException.class);
        assertThat(t.isEmpty()).isTrue();
    }

    @Test
    void anUnreadValueReadsUnknown() {
        assertThat(Units.orUnknown(null)).isEqualTo("unknown");
        assertThat(Units.orUnknown(3)).isEqualTo("3");
        assertThat(Units.bytes(null)).isEqualTo(Units.UNKNOWN);
    }
}
