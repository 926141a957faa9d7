package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Better;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Unit;
import hostside.doc.Block;
import hostside.doc.Text;

/** A report's figures: one per key and scope, whichever drill measured it. */
class FiguresTest {
    static Figure f(String key, Scope scope, double v) {
        return new Figure(key, scope, v, Unit.MS_PER_GIB, Better.LOWER, v, v, 5, "m", null);
    }

    @Test
    void aFigureTwoDrillsCarryIsListedOnce() {
        Scope gpu0 = Scope.gpu("0000:00:06.0"), gpu1 = Scope.gpu("0000:00:07.0");
        List<Figure> all = List.of(f("pin_cost_host_alloc", gpu0, 428.9), f("pin_cost_host_alloc", gpu1, 430.0),
                f("pin_cost_host_alloc", gpu0, 428.9), f("pin_cost_host_register", gpu0, 37.6));
        assertThat(Figures.distinct(all)).extracting(Figure::key, Figure::scope).containsExactly(
                org.assertj.core.groups.Tuple.tuple("pin_cost_host_alloc", gpu0),
                org.assertj.core.groups.Tuple.tuple("pin_cost_host_alloc", gpu1),
                org.assertj.core.groups.Tuple.tuple("pin_cost_host_register", gpu0));
    }

    /**
     * "Every figure" writes a size with its binary unit in each of its three values and leaves the
     * unit cell empty; any other figure keeps its number and its unit's symbol.
     */
    @Test
    void everyFigureWritesSizesInBinaryUnits() {
        Scope gpu0 = Scope.gpu("0000:00:06.0");
        List<Figure> figures = List.of(
                new Figure("host_to_device_sweep_pinned_half_peak_bytes", gpu0, 262144, Unit.BYTES, Better.LOWER, 4096, 1L << 30, 3, "m", null),
                new Figure("tlb_reach", gpu0, 1.5, Unit.GIB, Better.HIGHER, 1.5, 1.5, 1, "m", null),
                new Figure("odd_size", gpu0, 1000, Unit.BYTES, Better.LOWER, 1000, 1000, 1, "m", null),
                new Figure("host_to_device_ce_pinned", gpu0, 55.33, Unit.GB_PER_S, Better.HIGHER, 54.9, 1073741824.0, 5, "m", "nvbandwidth"));
        Block.Table table = (Block.Table) ((Block.Section) ReportDocument.figures(figures)).blocks().get(1);
        assertThat(table.rows()).extracting(r -> r.subList(2, 6).stream().map(Text::plainText).toList()).containsExactly(
                List.of("256 KiB", "4 KiB", "1 GiB", ""),
                List.of("1.5 GiB", "1.5 GiB", "1.5 GiB", ""),
                List.of("1000 bytes", "1000 bytes", "1000 bytes", ""),
                List.of("55.33", "54.90", "1073741824", "GB/s"));
    }
}
