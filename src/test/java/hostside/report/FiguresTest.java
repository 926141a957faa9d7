package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Better;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Unit;

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
}
