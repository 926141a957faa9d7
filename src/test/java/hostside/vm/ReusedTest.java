package hostside.vm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.bench.PinCost;
import hostside.harness.Result;

/** Results another drill measured are taken only for the GPU they were measured on, and by key. */
class ReusedTest {
    @Test
    void byGpuAndKey() {
        PinCost alloc = new PinCost(false);
        Result r = Result.ok(alloc, Unit.MS_PER_GIB, new Stats(428.9, 420, 440, 5), "m", null);
        VmDrill.Reused reused = new VmDrill.Reused(Map.of("0000:00:06.0", List.of(r)));
        assertThat(reused.of("pin_cost_host_alloc", "0000:00:06.0")).contains(r);
        assertThat(reused.of("pin_cost_host_register", "0000:00:06.0")).isEmpty();
        assertThat(reused.of("pin_cost_host_alloc", "0000:00:07.0")).as("another GPU measures its own").isEmpty();
        assertThat(VmDrill.Reused.NONE.of("pin_cost_host_alloc", "0000:00:06.0")).isEmpty();
    }
}
