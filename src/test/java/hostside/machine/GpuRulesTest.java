package hostside.machine;

import static hostside.machine.GpuResults.byNode;
import static hostside.machine.GpuResults.core;
import static hostside.machine.GpuResults.launchCost;
import static hostside.machine.GpuResults.node;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.bench.Copies;
import hostside.gpu.bench.LaunchCost;
import hostside.gpu.bench.NodeCopies;
import hostside.gpu.bench.PinCost;
import hostside.gpu.bench.SmAccess;
import hostside.gpu.bench.Sweep;
import hostside.harness.Result;
import hostside.harness.Status;
import hostside.process.MachineLoad;
import hostside.testing.RuleTally;

/**
 * Module 1's rules on the GPU drill's figures: each severity a rule gives, from figures made by
 * hand (no timings of this machine); what keeps it quiet; and a busy machine, which turns every
 * measured one unknown with its figures and no fix.
 */
class GpuRulesTest {
    static final MachineLoad BUSY = new MachineLoad(201, 2, 1.02, 0.1, 0.0, 35.0, 60.0, 4, 3.1, 0.25, true, null);
    static final List<String> QUIET = List.of(), BUSY_REASONS = MachineLoad.busyReasons(BUSY);
    static final PciLink GEN5 = new PciLink(32.0, 16, 32.0, 16), GEN4 = new PciLink(16.0, 16, 16.0, 16);

    static Result r(String key, double median, double min, double max, Unit unit) {
        return new Result(key, "", Status.OK, "", unit, new Stats(median, min, max, 5), unit.usually, "", null, null);
    }

    static Result gbs(String key, double median) {
        return r(key, median, median * 0.99, median * 1.01, Unit.GB_PER_S);
    }

    static List<Finding> copies(PciLink link, List<String> busy, Result... rs) {
        return CopyVerdicts.of("GPU0", List.of(rs), link, busy);
    }

    /** The one finding of {@code rule} among {@code f}. */
    static Finding of(List<Finding> f, Rule rule) {
        List<Finding> mine = f.stream().filter(x -> x.id().equals(rule.id())).toList();
        assertThat(mine).as(rule.id()).hasSize(1);
        return mine.getFirst();
    }

    /** A finding of {@code rule} at {@code severity}, with the rule's fix exactly where it says to change something. */
    static void is(Finding f, Rule rule, Severity severity) {
        assertThat(f.id()).isEqualTo(rule.id());
        assertThat(f.severity()).isEqualTo(severity);
        assertThat(f.fix()).isEqualTo(severity.toFix() ? rule.fix() : "");
        assertThat(f.source()).isEqualTo(rule.sources().getFirst().toString());
        assertThat(f.evidence()).isNotEmpty();
    }

    /** Busy: unknown, no fix, its figures said and why. */
    static void busy(Finding f, Rule rule) {
        is(f, rule, Severity.UNKNOWN);
        assertThat(f.text()).startsWith("measured while the machine was busy (").contains("run again on a quiet machine");
    }

    // ---- M1-PAGEABLE ----

    @Test
    void pageableBelowPinnedBeyondTheNoiseIsSaidWithTheLoadersSettings() {
        List<Finding> f = copies(null, QUIET, gbs("host_to_device_ce_pinned", 55.3), gbs("host_to_device_ce_pageable", 6.5),
                gbs("device_to_host_ce_pinned", 55.3), gbs("device_to_host_ce_pageable", 12.8));
        List<Finding> pageable = f.stream().filter(x -> x.id().equals(GpuRules.PAGEABLE.id())).toList();
        assertThat(pageable).hasSize(2).allSatisfy(x -> is(x, GpuRules.PAGEABLE, Severity.INFO));
        assertThat(pageable.get(0).text()).isEqualTo("pageable host-to-device copies run at 12% of pinned (6.5 vs 55.3 GB/s):"
                + " pin DataLoader memory (pin_memory=True) and copy with non_blocking=True");
        assertThat(pageable.get(1).text()).startsWith("pageable device-to-host copies run at 23% of pinned");
    }

    @Test
    void pageableWithinThePinnedNoiseDrawsNothingFromTheDifference() {
        Finding f = of(copies(null, QUIET, r("host_to_device_ce_pinned", 55, 50, 60, Unit.GB_PER_S), r("host_to_device_ce_pageable", 52, 45, 56, Unit.GB_PER_S)),
                GpuRules.PAGEABLE);
        is(f, GpuRules.PAGEABLE, Severity.INFO);
        assertThat(f.text()).contains("even within noise").doesNotContain("pin_memory").doesNotContain("%");
        // without the pinned figure there is nothing to compare
        assertThat(RuleTally.quiet(copies(null, QUIET, gbs("host_to_device_ce_pageable", 6.5)), GpuRules.PAGEABLE)).isEmpty();
    }

    @Test
    void pageableMeasuredBusyIsNotJudged() {
        Finding f = of(copies(null, BUSY_REASONS, gbs("host_to_device_ce_pinned", 55.3), gbs("host_to_device_ce_pageable", 6.5)), GpuRules.PAGEABLE);
        busy(f, GpuRules.PAGEABLE);
        assertThat(f.text()).contains("pageable host-to-device copies run at 12% of pinned (6.5 vs 55.3 GB/s)").doesNotContain("pin_memory=True");
    }

    // ---- M1-LINK-SHARE ----

    @Test
    void aPinnedCopyBelowSeventyPercentOfTheLinkIsAWarningWithTheChecks() {
        Finding f = of(copies(GEN5, QUIET, gbs("host_to_device_ce_pinned", 30.0)), GpuRules.LINK_SHARE);
        is(f, GpuRules.LINK_SHARE, Severity.WARN);
        assertThat(f.text()).startsWith("pinned copies reach 48% of the link's 63.0 GB/s (PCIe Gen5 x16): below 70%");
        assertThat(f.fix()).contains("pcie.link.gen.current").contains("NUMA node").contains("iommu");
    }

    @Test
    void healthyGen5AndGen4LinksAreOk() {
        Finding h200 = of(copies(GEN5, QUIET, gbs("host_to_device_ce_pinned", 55.3)), GpuRules.LINK_SHARE);
        is(h200, GpuRules.LINK_SHARE, Severity.OK);
        assertThat(h200.text()).startsWith("pinned copies reach 88% of the link's 63.0 GB/s (PCIe Gen5 x16); packet headers");
        // an RTX 4090 on Gen4 at nvbandwidth's 24 GB/s (nvbandwidth#15): 76%, healthy, where the old 80% line called it 'well below'
        Finding rtx4090 = of(copies(GEN4, QUIET, gbs("host_to_device_ce_pinned", 24.0)), GpuRules.LINK_SHARE);
        is(rtx4090, GpuRules.LINK_SHARE, Severity.OK);
        assertThat(rtx4090.text()).contains("76% of the link's 31.5 GB/s (PCIe Gen4 x16)");
        // no link read (a recording without sysfs, a C2C GPU): no share
        assertThat(copies(null, QUIET, gbs("host_to_device_ce_pinned", 30.0))).noneMatch(x -> x.id().equals(GpuRules.LINK_SHARE.id()));
    }

    @Test
    void aLowShareMeasuredBusyIsNotAWarning() {
        Finding f = of(copies(GEN5, BUSY_REASONS, gbs("host_to_device_ce_pinned", 30.0)), GpuRules.LINK_SHARE);
        busy(f, GpuRules.LINK_SHARE);
        assertThat(f.text()).contains("pinned copies reach 48% of the link's 63.0 GB/s");
    }

    // ---- M1-OFFLOAD-TIME, M1-SM-COPY, M1-HOST-LATENCY, M1-COPY-SIZE, M1-PIN-COST ----

    @Test
    void theInformativeLinesEachHaveTheirRule() {
        List<Finding> f = copies(null, QUIET, gbs("host_to_device_ce_pinned", 55.3), gbs("host_to_device_ce_pageable", 6.5),
                gbs("host_to_device_sm", 51.1), gbs("device_to_host_sm", 52.6), r("host_device_latency_sm", 1205, 1200, 1210, Unit.NS),
                r("pin_cost_host_alloc", 563, 560, 566, Unit.MS_PER_GIB), r("pin_cost_host_register", 53, 52, 54, Unit.MS_PER_GIB), GpuResults.sweep(true));
        is(of(f, GpuRules.OFFLOAD_TIME), GpuRules.OFFLOAD_TIME, Severity.INFO);
        assertThat(of(f, GpuRules.OFFLOAD_TIME).text()).contains("0.18 s from pinned memory, 1.54 s from pageable memory");
        is(of(f, GpuRules.SM_COPY), GpuRules.SM_COPY, Severity.INFO);
        assertThat(of(f, GpuRules.SM_COPY).text()).startsWith("SMs reading host memory reach 92% of the copy engine (51.1 vs 55.3 GB/s), writing it 52.6 GB/s");
        is(of(f, GpuRules.HOST_LATENCY), GpuRules.HOST_LATENCY, Severity.INFO);
        assertThat(of(f, GpuRules.HOST_LATENCY).text()).startsWith("one dependent load from host memory takes 1.21 us");
        is(of(f, GpuRules.COPY_SIZE), GpuRules.COPY_SIZE, Severity.INFO);
        assertThat(of(f, GpuRules.COPY_SIZE).evidence()).contains(Evidence.of("host_to_device_sweep_pinned_half_peak_bytes", 256 << 10, Unit.BYTES));
        is(of(f, GpuRules.PIN_COST), GpuRules.PIN_COST, Severity.INFO);
        assertThat(of(f, GpuRules.PIN_COST).text()).startsWith("pinning costs 563 ms per GiB (cuMemHostAlloc), 53 ms to register memory already in use");
        // nothing measured: none of them
        assertThat(copies(GEN5, QUIET, Result.notRun(new Copies.CePinned(true), "no driver"))).isEmpty();
    }

    @Test
    void eachInformativeLineIsQuietWhereItsOwnFigureFailed() {
        // the pinned copy failed: no offload time and no SM share against it, though pageable and SM copies ran
        List<Finding> noPinned = copies(GEN5, QUIET, Result.failed(new Copies.CePinned(true), "cuMemHostAlloc: CUDA_ERROR_OUT_OF_MEMORY (2)"),
                gbs("host_to_device_ce_pageable", 6.5), gbs("host_to_device_sm", 51.1));
        RuleTally.quiet(noPinned, GpuRules.OFFLOAD_TIME);
        RuleTally.quiet(noPinned, GpuRules.SM_COPY);
        // the pinned copy ran (its offload time is said), the rest failed or ran alone: SMs writing with none reading,
        // the chase and the sweep failed, registering without a cuMemHostAlloc figure
        List<Finding> f = copies(GEN5, QUIET, gbs("host_to_device_ce_pinned", 55.3), gbs("device_to_host_sm", 52.6),
                Result.failed(new SmAccess.Latency(), "cuLaunchKernel: CUDA_ERROR_LAUNCH_TIMEOUT (702)"),
                Result.failed(new Sweep(true), "cuMemcpyHtoDAsync: CUDA_ERROR_ILLEGAL_ADDRESS (700)"),
                Result.failed(new PinCost(false), "cuMemHostAlloc: CUDA_ERROR_OUT_OF_MEMORY (2)"),
                r("pin_cost_host_register", 53, 52, 54, Unit.MS_PER_GIB));
        is(of(f, GpuRules.OFFLOAD_TIME), GpuRules.OFFLOAD_TIME, Severity.INFO);
        RuleTally.quiet(f, GpuRules.SM_COPY);
        RuleTally.quiet(f, GpuRules.HOST_LATENCY);
        RuleTally.quiet(f, GpuRules.COPY_SIZE);
        RuleTally.quiet(f, GpuRules.PIN_COST);
    }

    @Test
    void smCopiesWithinTheCopyEnginesNoiseAreNotAShare() {
        Finding f = of(copies(null, QUIET, r("host_to_device_ce_pinned", 55, 50, 60, Unit.GB_PER_S), r("host_to_device_sm", 53, 49, 57, Unit.GB_PER_S)),
                GpuRules.SM_COPY);
        assertThat(f.text()).startsWith("SMs reading host memory move as much as the copy engine within noise (53.0 vs 55.0 GB/s)");
    }

    @Test
    void theInformativeLinesMeasuredBusyAreUnknown() {
        List<Finding> f = copies(null, BUSY_REASONS, gbs("host_to_device_ce_pinned", 55.3), gbs("host_to_device_sm", 51.1),
                r("host_device_latency_sm", 1205, 1200, 1210, Unit.NS), r("pin_cost_host_alloc", 563, 560, 566, Unit.MS_PER_GIB), GpuResults.sweep(true));
        assertThat(f).hasSize(5).allSatisfy(x -> {
            assertThat(x.severity()).isEqualTo(Severity.UNKNOWN);
            assertThat(x.fix()).isEmpty();
        });
        busy(of(f, GpuRules.SM_COPY), GpuRules.SM_COPY);
    }

    // ---- M1-COPY-NODE, M1-COPY-NODE-PAGEABLE ----

    static final CpuSet NODE0 = CpuSet.range(0, 15), NODE1 = CpuSet.range(16, 31);

    @Test
    void aFarNodeATenthSlowerIsAWarningWithTheBinding() {
        List<Finding> f = copies(null, QUIET, byNode(1, node(0, NODE0, 33.8), node(1, NODE1, 55.4)));
        Finding node = of(f, GpuRules.COPY_NODE);
        is(node, GpuRules.COPY_NODE, Severity.WARN);
        assertThat(node.text()).endsWith("run its feeders with numactl --cpunodebind=1 --membind=1");
        assertThat(node.evidence()).contains(Evidence.of(NodeCopies.H2D_PINNED, 33.8, Unit.GB_PER_S));
        is(of(f, GpuRules.COPY_NODE_PAGEABLE), GpuRules.COPY_NODE_PAGEABLE, Severity.INFO);
    }

    @Test
    void aFarNodeSlowerByLessThanATenthIsSaidNotActedOn() {
        // 52.0 (51.48-52.52) against 55.4 (54.85-55.95): beyond the noise, 94%
        Finding f = of(copies(null, QUIET, byNode(1, node(0, NODE0, 52.0), node(1, NODE1, 55.4))), GpuRules.COPY_NODE);
        is(f, GpuRules.COPY_NODE, Severity.INFO);
        assertThat(f.text()).contains("from node 0 its copies run at 94%");
    }

    @Test
    void nodesAlikeAreOkAndOneNodeIsInformation() {
        is(of(copies(null, QUIET, byNode(1, node(0, NODE0, 54.9), node(1, NODE1, 55.4))), GpuRules.COPY_NODE), GpuRules.COPY_NODE, Severity.OK);
        is(of(copies(null, QUIET, gbs("host_to_device_ce_pinned", 55.46), byNode(null, node(0, NODE0, 55.38))), GpuRules.COPY_NODE),
                GpuRules.COPY_NODE, Severity.INFO);
        // pageable copies from every node alike: no pageable finding
        RuleTally.quiet(copies(null, QUIET, byNode(1, node(0, NODE0, 54.9), node(1, NODE1, 55.4))), GpuRules.COPY_NODE_PAGEABLE);
    }

    @Test
    void aFarNodeMeasuredBusyIsNotAWarning() {
        List<Finding> f = copies(null, BUSY_REASONS, byNode(1, node(0, NODE0, 33.8), node(1, NODE1, 55.4)));
        busy(of(f, GpuRules.COPY_NODE), GpuRules.COPY_NODE);
        assertThat(of(f, GpuRules.COPY_NODE).text()).contains("from node 0 its copies run at 61%").doesNotContain("numactl");
        busy(of(f, GpuRules.COPY_NODE_PAGEABLE), GpuRules.COPY_NODE_PAGEABLE);
    }

    // ---- M1-LAUNCH-CORES ----

    static final Map<String, CpuSet> KINDS = Map.of("P-core", CpuSet.range(0, 7), "E-core", CpuSet.range(8, 15));

    @Test
    void aSmallKindAFifthDearerIsAWarningWithTheTasksetLine() {
        Finding f = LaunchVerdicts.of(List.of(launchCost(core("P-core", 1, 2000, 1500), core("E-core", 8, 4200, 2700))), KINDS, QUIET).getFirst();
        is(f, GpuRules.LAUNCH_CORES, Severity.WARN);
        assertThat(f.subject()).isEqualTo("E-core");
        assertThat(f.text()).endsWith("(taskset -c 0-7)");
    }

    @Test
    void aSmallKindDearerByLessThanAFifthOrEvenOrOneKindIsInformation() {
        // 2200 (2178-2222) against 2000 (1980-2020): beyond the noise, 1.1x
        Finding little = LaunchVerdicts.of(List.of(launchCost(core("P-core", 1, 2000, 1500), core("E-core", 8, 2200, 1500))), KINDS, QUIET).getFirst();
        is(little, GpuRules.LAUNCH_CORES, Severity.INFO);
        assertThat(little.text()).startsWith("launches from E-cores cost 1.1x those from P-cores").doesNotContain("taskset");
        is(LaunchVerdicts.of(List.of(launchCost(core("P-core", 1, 2000, 1500), core("E-core", 8, 2030, 1520))), KINDS, QUIET).getFirst(),
                GpuRules.LAUNCH_CORES, Severity.INFO);
        is(LaunchVerdicts.of(List.of(launchCost(core(LaunchCost.UNIFORM, 1, 2310, 1840))), KINDS, QUIET).getFirst(),
                GpuRules.LAUNCH_CORES, Severity.INFO);
        // not measured (no CPU known): nothing said; every measured case says its costs, the rule gives no ok
        assertThat(RuleTally.quiet(LaunchVerdicts.of(List.of(Result.notRun(new LaunchCost(), "no CPU")), KINDS, QUIET),
                GpuRules.LAUNCH_CORES)).isEmpty();
    }

    @Test
    void aDearSmallKindMeasuredBusyIsNotAWarning() {
        Finding f = LaunchVerdicts.of(List.of(launchCost(core("P-core", 1, 2000, 1500), core("E-core", 8, 4200, 2700))), KINDS, BUSY_REASONS).getFirst();
        busy(f, GpuRules.LAUNCH_CORES);
        assertThat(f.text()).contains("launches from E-cores cost 2.1x those from P-cores").doesNotContain("taskset");
    }

    // ---- M1-GPU-UNUSED ----

    @Test
    void aGpuTheDriverWouldNotLetUsUseIsUnknown() {
        Finding f = GpuDrill.unusable("GPU3", "cuCtxCreate: CUDA_ERROR_DEVICE_BUSY (46)");
        assertThat(f.id()).isEqualTo(GpuRules.GPU_UNUSED.id());
        assertThat(f.severity()).isEqualTo(Severity.UNKNOWN);
        assertThat(f.fix()).isEmpty();
        assertThat(f.text()).isEqualTo("GPU3 could not be used: cuCtxCreate: CUDA_ERROR_DEVICE_BUSY (46)");
    }

    @Test
    void aGpuTheDrillOpenedIsNotUnused() {
        // what GpuDrill.run keeps of a GPU it opened: its copies' and launches' verdicts, the H200's whole run
        List<Finding> verdicts = new java.util.ArrayList<>(CopyVerdicts.of("GPU0", GpuResults.h200(), GEN5, QUIET));
        verdicts.addAll(LaunchVerdicts.of(GpuResults.h200(), KINDS, QUIET));
        assertThat(RuleTally.quiet(verdicts, GpuRules.GPU_UNUSED)).extracting(Finding::id).contains(GpuRules.LINK_SHARE.id(), GpuRules.LAUNCH_CORES.id());
    }

    @Test
    void everyRuleOfModuleOneIsInTheRulebookOnce() {
        assertThat(GpuRules.all()).extracting(Rule::id).doesNotHaveDuplicates().allSatisfy(id -> assertThat(id).startsWith("M1-"))
                .contains(GpuRules.LINK_SHARE.id(), MemoryRules.FAR_NODE.id());
    }
}
