package hostside.machine;

import static hostside.machine.GpuRulesTest.BUSY;
import static hostside.machine.GpuRulesTest.busy;
import static hostside.machine.GpuRulesTest.is;
import static hostside.machine.MemoryVerdictsTest.LATENCY;
import static hostside.machine.MemoryVerdictsTest.ONE;
import static hostside.machine.MemoryVerdictsTest.READ;
import static hostside.machine.MemoryVerdictsTest.TRIAD;
import static hostside.machine.MemoryVerdictsTest.TWO_NODES;
import static hostside.machine.MemoryVerdictsTest.bound;
import static hostside.machine.MemoryVerdictsTest.read;
import static hostside.machine.MemoryVerdictsTest.section;
import static hostside.machine.MemoryVerdictsTest.stream;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.core.Finding;
import hostside.core.Scope;
import hostside.core.Severity;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.harness.Result;
import hostside.memory.MemoryDetails;
import hostside.memory.Placement;
import hostside.process.MachineLoad;
import hostside.testing.RuleTally;

/**
 * Module 1's rules on host memory: each severity a rule gives, from figures made by hand; what
 * keeps it quiet; a busy machine, which turns the timed ones unknown; and the two that read where
 * pages were, which a busy machine does not change.
 */
class MemoryRulesTest {
    static final MemoryPlan HYBRID = new MemoryPlan(CpuSet.range(0, 19), 1, List.of(), List.of(new MemoryPlan.Pair(0, 0, CpuSet.range(0, 19), "CPUs and memory")),
            List.of(new MemoryPlan.Kind("P-core", 1, 0), new MemoryPlan.Kind("E-core", 13, 0)), 24L << 20, List.of());

    static Finding only(List<Finding> f) {
        assertThat(f).hasSize(1);
        return f.getFirst();
    }

    // ---- M1-FAR-NODE ----

    @Test
    void aFarNodeUnderThreeQuartersIsAWarningAndAboveItInformation() {
        is(only(MemoryVerdicts.of(section(TWO_NODES, read(0, 0, 100, 98, 102), read(0, 1, 61, 60, 62)), null, null)), MemoryRules.FAR_NODE, Severity.WARN);
        Finding near = only(MemoryVerdicts.of(section(TWO_NODES, read(0, 0, 100, 98, 102), read(0, 1, 85, 84, 86)), null, null));
        is(near, MemoryRules.FAR_NODE, Severity.INFO);
        assertThat(near.text()).contains("at 85% of their own node's");
        // within noise: even, no share
        assertThat(only(MemoryVerdicts.of(section(TWO_NODES, read(0, 0, 100, 90, 110), read(0, 1, 95, 85, 101)), null, null)).text())
                .contains("as fast as their own within noise").doesNotContain("numactl");
        // just over three quarters: information, not a warning
        double justOver = 100 * MemoryRules.FAR_SHARE + 0.5;
        is(only(MemoryVerdicts.of(section(TWO_NODES, read(0, 0, 100, 99.9, 100.1), read(0, 1, justOver, justOver - 0.1, justOver + 0.1)), null, null)),
                MemoryRules.FAR_NODE, Severity.INFO);
        // faster than home (a Grace GPU's HBM read from its CPUs): nothing
        assertThat(RuleTally.quiet(MemoryVerdicts.of(section(TWO_NODES, read(0, 0, 100, 98, 102), read(0, 2, 300, 290, 310)), null, null),
                MemoryRules.FAR_NODE)).isEmpty();
    }

    @Test
    void oneNodeHasNoFarNode() {
        // the H100 VM's one node: its CPUs read only their own memory, no pair to weigh
        MemoryPlan one = new MemoryPlan(CpuSet.range(0, 15), 1, List.of(new MemoryPlan.Node(0, CpuSet.range(0, 15))),
                List.of(new MemoryPlan.Pair(0, 0, CpuSet.range(0, 15), "CPUs and memory")), List.of(), 64L << 20, List.of());
        assertThat(RuleTally.quiet(MemoryVerdicts.of(section(one, read(0, 0, 119, 118, 120)), null, null), MemoryRules.FAR_NODE)).isEmpty();
    }

    @Test
    void aFarNodeMeasuredBusyIsNotAWarning() {
        Finding f = only(MemoryVerdicts.of(section(TWO_NODES, read(0, 0, 100, 98, 102), read(0, 1, 61, 60, 62)), null, BUSY));
        busy(f, MemoryRules.FAR_NODE);
        assertThat(f.text()).contains("at 61% of their own node's").doesNotContain("numactl");
    }

    // ---- M1-SMALL-CORE ----

    static MemoryDrill.MemorySection cores(double big, double small) {
        return section(HYBRID, stream(ONE, Scope.cpus(CpuSet.of(1)), "P-core (CPU 1)", big, big * 0.99, big * 1.01, CpuSet.of(1)),
                stream(ONE, Scope.cpus(CpuSet.of(13)), "E-core (CPU 13)", small, small * 0.99, small * 1.01, CpuSet.of(13)));
    }

    @Test
    void aSmallCoreUnderFourFifthsIsAWarningAndAboveItInformation() {
        Finding half = only(MemoryVerdicts.of(cores(20, 10), null, null));
        is(half, MemoryRules.SMALL_CORE, Severity.WARN);
        assertThat(half.text()).contains("taskset -c");
        Finding close = only(MemoryVerdicts.of(cores(20, 18), null, null));
        is(close, MemoryRules.SMALL_CORE, Severity.INFO);
        assertThat(close.text()).contains("moves 90% of what it moves on a P-core").doesNotContain("taskset");
        is(only(MemoryVerdicts.of(cores(20, 20.1), null, null)), MemoryRules.SMALL_CORE, Severity.INFO);
        busy(only(MemoryVerdicts.of(cores(20, 10), null, BUSY)), MemoryRules.SMALL_CORE);
        // just over four fifths: information, not a warning
        is(only(MemoryVerdicts.of(cores(20, 20 * MemoryRules.SMALL_SHARE + 0.1), null, null)), MemoryRules.SMALL_CORE, Severity.INFO);
    }

    @Test
    void aSmallCoreThatMovesMoreOrAUniformCpuIsQuiet() {
        // the E-core moves more beyond both spreads: the feeders lose nothing there
        assertThat(RuleTally.quiet(MemoryVerdicts.of(cores(20, 23), null, null), MemoryRules.SMALL_CORE)).isEmpty();
        // one kind of core: no smaller kind to weigh
        MemoryDrill.MemorySection uniform = section(TWO_NODES, stream(ONE, Scope.cpus(CpuSet.of(1)), "CPU 1", 20, 19.8, 20.2, CpuSet.of(1)));
        assertThat(RuleTally.quiet(MemoryVerdicts.of(uniform, null, null), MemoryRules.SMALL_CORE)).isEmpty();
    }

    // ---- M1-ONE-THREAD ----

    @Test
    void oneThreadsShareIsInformationAndUnknownWhenBusy() {
        MemoryDrill.MemorySection s = section(TWO_NODES, stream(TRIAD, Scope.MACHINE, "all CPUs", 200, 195, 205, CpuSet.range(0, 7)),
                stream(ONE, Scope.MACHINE, "one thread", 20, 19, 21, CpuSet.of(1)));
        is(only(MemoryVerdicts.of(s, null, null)), MemoryRules.ONE_THREAD, Severity.INFO);
        busy(only(MemoryVerdicts.of(s, null, BUSY)), MemoryRules.ONE_THREAD);
        // every CPU's Triad alone: no share
        assertThat(RuleTally.quiet(MemoryVerdicts.of(section(TWO_NODES, stream(TRIAD, Scope.MACHINE, "all CPUs", 200, 195, 205, CpuSet.range(0, 7))), null, null),
                MemoryRules.ONE_THREAD)).isEmpty();
    }

    // ---- M1-HOST-VS-COPIES ----

    static GpuDrill.GpuSection gpus(int n) {
        Result h2d = GpuRulesTest.gbs("host_to_device_ce_pinned", 55);
        List<GpuDrill.GpuRun> runs = new ArrayList<>();
        for (int g = 0; g < n; g++) runs.add(new GpuDrill.GpuRun("GPU" + g, "0000:0" + g + ":00.0", List.of(h2d), List.of(), null));
        return new GpuDrill.GpuSection("", null, null, runs, List.of(), List.of());
    }

    @Test
    void copiesPastTheTriadAreAWarningBelowItInformation() {
        MemoryDrill.MemorySection triad = section(TWO_NODES, stream(TRIAD, Scope.MACHINE, "all CPUs", 400, 390, 410, CpuSet.range(0, 7)));
        Finding eight = only(MemoryVerdicts.of(triad, gpus(8), null));
        is(eight, MemoryRules.HOST_VS_COPIES, Severity.WARN);
        assertThat(eight.text()).contains("each at its own rate measured alone, would read 440.0 GB/s");
        assertThat(eight.evidence()).hasSize(9);
        is(only(MemoryVerdicts.of(triad, gpus(1), null)), MemoryRules.HOST_VS_COPIES, Severity.INFO);
        // 220 of 400 GB/s, as one H100 VM's single GPU took 55 of about 100: a share, not a limit
        Finding four = only(MemoryVerdicts.of(triad, gpus(4), null));
        is(four, MemoryRules.HOST_VS_COPIES, Severity.INFO);
        assertThat(four.text()).contains("within what host memory delivers");
        busy(only(MemoryVerdicts.of(triad, gpus(8), BUSY)), MemoryRules.HOST_VS_COPIES);
        // just within the Triad: information, not a warning (the copies' sum at the Triad itself is no more than it delivered)
        MemoryDrill.MemorySection at = section(TWO_NODES, stream(TRIAD, Scope.MACHINE, "all CPUs", 440 / MemoryRules.COPIES_SHARE, 430, 450, CpuSet.range(0, 7)));
        is(only(MemoryVerdicts.of(at, gpus(8), null)), MemoryRules.HOST_VS_COPIES, Severity.INFO);
        // no GPU copies measured: nothing to weigh
        assertThat(RuleTally.quiet(MemoryVerdicts.of(triad, gpus(0), null), MemoryRules.HOST_VS_COPIES)).isEmpty();
    }

    // ---- M1-PAGES-PLACED, M1-CHASE-PAGES ----

    static MemoryDrill.Measured misplaced() {
        return new MemoryDrill.Measured(Scope.nodes(0, 1), "CPUs of node 0, memory of node 1", Result.ok(READ, Unit.GB_PER_S, new Stats(50, 49, 51, 9), "m",
                new MemoryDetails.Read(1L << 30, CpuSet.range(0, 3), new Placement(1, Map.of(0, 56, 1, 200), 256, ""))));
    }

    static MemoryDrill.Measured chase(long hugeBytes) {
        return new MemoryDrill.Measured(Scope.nodes(0, 0), "node 0", Result.ok(LATENCY, Unit.NS, new Stats(120, 119, 121, 5), "m",
                new MemoryDetails.Chase(256L << 20, 1, 1 << 22, true, hugeBytes, bound(0))));
    }

    @Test
    void pagesOffTheirNodeMakeTheFigureUnknownBusyOrNot() {
        for (var load : new MachineLoad[] {null, BUSY}) {
            Finding f = only(MemoryVerdicts.of(section(TWO_NODES, misplaced()), null, load));
            assertThat(f.id()).isEqualTo(MemoryRules.PAGES_PLACED.id());
            assertThat(f.severity()).isEqualTo(Severity.UNKNOWN);
            assertThat(f.fix()).isEmpty();
            assertThat(f.text()).contains("56 of 256 sampled pages are not on node 1").contains("not judged").doesNotContain("full node");
        }
        // every sampled page where it was bound: nothing
        assertThat(RuleTally.quiet(MemoryVerdicts.of(section(TWO_NODES, read(0, 1, 61, 60, 62)), null, null), MemoryRules.PAGES_PLACED)).isEmpty();
    }

    @Test
    void aChaseOnFewHugePagesIsSaidAndOneOnEnoughIsNot() {
        for (var load : new MachineLoad[] {null, BUSY}) {
            Finding f = only(MemoryVerdicts.of(section(TWO_NODES, chase(16L << 20)), null, load));
            is(f, MemoryRules.CHASE_PAGES, Severity.INFO);
            assertThat(f.text()).contains("only 16 MiB of the 256 MiB set sat in huge pages");
        }
        // half the 256 MiB set in huge pages is enough; a huge page (2 MiB) less is not
        long half = (long) (MemoryRules.HUGE_ENOUGH * (256L << 20));
        assertThat(RuleTally.quiet(MemoryVerdicts.of(section(TWO_NODES, chase(half)), null, null), MemoryRules.CHASE_PAGES)).isEmpty();
        is(only(MemoryVerdicts.of(section(TWO_NODES, chase(half - (2L << 20))), null, null)), MemoryRules.CHASE_PAGES, Severity.INFO);
    }
}
