package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Finding;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.bench.Copies;
import hostside.harness.Result;
import hostside.harness.Status;

/** The verdict lines say what the copy figures mean, with the numbers that back them. */
class CopyVerdictsTest {
    static Result ok(String key, double median, String unit) {
        Unit u = Unit.of(unit);
        return new Result(key, "", Status.OK, "", u, Stats.of(median * 0.99, median, median * 1.01), u.usually, "", null, null);
    }

    static List<String> texts(List<Finding> f) {
        return f.stream().map(Finding::text).toList();
    }

    final PciLink gen5x16 = new PciLink(32.0, 16, 32.0, 16);

    @Test
    void pinnedVsPageableAndTheLinksShare() {
        List<String> v = texts(CopyVerdicts.of("GPU0", List.of(ok("host_to_device_ce_pinned", 55.3, "GB/s"),
                ok("host_to_device_ce_pageable", 6.5, "GB/s"), ok("device_to_host_ce_pinned", 55.3, "GB/s"),
                ok("device_to_host_ce_pageable", 12.8, "GB/s")), gen5x16, List.of()));
        assertThat(v).contains("pageable host-to-device copies run at 12% of pinned (6.5 vs 55.3 GB/s): pin DataLoader memory (pin_memory=True) and copy with non_blocking=True");
        assertThat(v).anySatisfy(s -> assertThat(s).startsWith("pinned copies reach 88% of the link's 63.0 GB/s (PCIe Gen5 x16); packet headers and flow control take the rest"));
        assertThat(v).anySatisfy(s -> assertThat(s).contains("0.18 s from pinned memory, 1.54 s from pageable memory"));
    }

    @Test
    void aSlowLinkShareAsksForChecks() {
        List<String> v = texts(CopyVerdicts.of("GPU0", List.of(ok("host_to_device_ce_pinned", 30.0, "GB/s")), gen5x16, List.of()));
        assertThat(v).anySatisfy(s -> assertThat(s).contains("48% of the link").contains("below 70%"));
    }

    @Test
    void smAndLatencyAndPinning() {
        List<String> v = texts(CopyVerdicts.of("GPU0", List.of(ok("host_to_device_ce_pinned", 55.3, "GB/s"), ok("host_to_device_sm", 51.1, "GB/s"),
                ok("host_device_latency_sm", 1205, "ns"), ok("pin_cost_host_alloc", 563, "ms/GiB")), null, List.of()));
        assertThat(v).anySatisfy(s -> assertThat(s).startsWith("SMs reading host memory reach 92% of the copy engine (51.1 vs 55.3 GB/s)"));
        assertThat(v).anySatisfy(s -> assertThat(s).startsWith("one dependent load from host memory takes 1.21 us"));
        assertThat(v).anySatisfy(s -> assertThat(s).startsWith("pinning costs 563 ms per GiB"));
    }

    @Test
    void nothingMeasuredSaysNothing() {
        assertThat(CopyVerdicts.of("GPU0", List.of(Result.notRun(new Copies.CePinned(true), "no driver")), gen5x16, List.of())).isEmpty();
        // the sweeps' line comes from their detail: where half the peak is reached
        assertThat(texts(CopyVerdicts.of("GPU0", List.of(GpuResults.sweep(true)), null, List.of())))
                .containsExactly("pinned copies reach half their 55.4 GB/s peak at 256 KiB: smaller transfers are mostly per-copy overhead; batch them");
    }
}
