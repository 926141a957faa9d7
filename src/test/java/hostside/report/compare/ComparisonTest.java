package hostside.report.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Better;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Unit;
import hostside.process.MachineLoad;
import hostside.report.Fleet;
import hostside.report.Report;
import hostside.report.platforms.Nics;

/** design/compare.md's rules on synthetic fleets: stragglers, ties, drifts, mixed classes and every group size. */
class ComparisonTest {
    static final Fleet.HardwareClass H200 = new Fleet.HardwareClass("0x2335", 1, "Intel Xeon", 16, "pcie-gen5-x16", "none", Nics.NONE, 4096L);
    static final Fleet.HardwareClass H100X8 = new Fleet.HardwareClass("0x2330", 8, "Intel Xeon", 112, "pcie-gen5-x16", "nvswitch", Nics.parse("8x400g-rdma"), 4096L);

    static Figure gbs(String key, double v) {
        return new Figure(key, Scope.MACHINE, v, Unit.GB_PER_S, Better.HIGHER, v * 0.995, v * 1.005, 5, "test", null);
    }

    static Figure us(String key, double v) {
        return new Figure(key, Scope.MACHINE, v, Unit.US, Better.LOWER, v * 0.99, v * 1.01, 5, "test", null);
    }

    static Comparison.Input machine(String name, Fleet.HardwareClass c, String driver, Figure... figures) {
        return new Comparison.Input(name, new Report.Head(new Report.Machine(name, name, null, null, null), c, new Fleet.Software(driver, "13.0", "6.8.0"),
                new Fleet.Confounders(false, 0, "madvise", 0.1, List.of()), List.of(figures)));
    }

    /** The head as a report file holds it: what compare reads, and pages it passes over. */
    static Report report(Report.Head h) {
        return new Report("hostside/2", "report", h.machine(), h.hardwareClass(), h.software(), h.confounders(), null, List.of(), List.of(), h.figures(),
                List.of());
    }

    /** n machines of one class, host_to_device at 55 GB/s give or take 0.3%, launch cost 3 us. */
    static List<Comparison.Input> fleet(int n) {
        List<Comparison.Input> in = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double wobble = 1 + 0.003 * ((i % 5) - 2) / 2;
            in.add(machine("node" + i, H200, "580.95", gbs("host_to_device_ce_pinned", 55.0 * wobble), us("kernel_launch_cost", 3.0 * wobble)));
        }
        return in;
    }

    @Test
    void aStragglerOfFortyIsFoundAndNamedWithItsCause() {
        List<Comparison.Input> in = fleet(40);
        in.set(17, machine("node17", H200, "570.86", gbs("host_to_device_ce_pinned", 41.0), us("kernel_launch_cost", 3.0)));
        Comparison c = Comparison.of(in);
        assertThat(c.outliers()).singleElement().satisfies(o -> {
            assertThat(o.machine()).isEqualTo("node17");
            assertThat(o.key()).isEqualTo("host_to_device_ce_pinned");
            assertThat(o.deviation()).isBetween(0.25, 0.26);
            assertThat(o.cause()).isEqualTo("probable cause: driver 570.86 (the group: 580.95)");
        });
        assertThat(c.classes().getFirst().findings()).containsExactly("1 of 40 have driver 570.86 (node17), the rest 580.95");
        assertThat(c.fleet()).startsWith("40 machines, 1 class; class 1 (40 machines): 1 outlier machine");
        assertThat(c.ranked()).containsExactly("node17");
    }

    @Test
    void aBetterValueIsNeverAnOutlierAndAMildOneStaysBelowTheTolerance() {
        List<Comparison.Input> in = fleet(8);
        in.set(2, machine("node2", H200, "580.95", gbs("host_to_device_ce_pinned", 70.0), us("kernel_launch_cost", 2.0)));
        // 4% slower: far beyond the group's tiny spread in z, but under the 5% a bandwidth needs
        in.set(5, machine("node5", H200, "580.95", gbs("host_to_device_ce_pinned", 55.0 * 0.96), us("kernel_launch_cost", 3.0)));
        assertThat(Comparison.of(in).outliers()).isEmpty();
    }

    @Test
    void whenMostValuesAreEqualMadIsZeroAndTheFloorsDecide() {
        List<Comparison.Input> in = new ArrayList<>();
        for (int i = 0; i < 8; i++) in.add(machine("n" + i, H200, "580.95", gbs("host_to_device_ce_pinned", 55.0)));
        in.set(3, machine("n3", H200, "580.95", gbs("host_to_device_ce_pinned", 54.0)));   // 1.8%: nothing
        in.set(6, machine("n6", H200, "580.95", gbs("host_to_device_ce_pinned", 50.0)));   // 9%: an outlier
        Comparison c = Comparison.of(in);
        assertThat(c.classes().getFirst().figures().getFirst().mad()).isZero();
        assertThat(c.outliers()).extracting(Comparison.Outlier::machine).containsExactly("n6");
        assertThat(c.outliers().getFirst().cause()).as("nothing differs from the group").isEmpty();
    }

    @Test
    void aRunThatScatteredWithinItselfIsNotCalledAnOutlierForIt() {
        List<Comparison.Input> in = fleet(8);
        // 8% low, but its own samples spread from 30 to 70 GB/s: its half-range swamps the deviation
        in.set(4, machine("node4", H200, "580.95", new Figure("host_to_device_ce_pinned", Scope.MACHINE, 50.6, Unit.GB_PER_S, Better.HIGHER, 30, 70, 5, "t", null)));
        assertThat(Comparison.of(in).outliers()).isEmpty();
    }

    @Test
    void twoClassesAreNeverJudgedAgainstEachOther() {
        List<Comparison.Input> in = new ArrayList<>(fleet(6));
        for (int i = 0; i < 6; i++) in.add(machine("hgx" + i, H100X8, "580.95", gbs("host_to_device_ce_pinned", 26.0), us("kernel_launch_cost", 3.0)));
        Comparison c = Comparison.of(in);
        assertThat(c.classes()).hasSize(2);
        assertThat(c.outliers()).as("the HGX's 26 GB/s against the H200's 55 would flag six machines if the classes were mixed").isEmpty();
        assertThat(c.fleet()).startsWith("12 machines, 2 classes");
    }

    @Test
    void smallGroupsUseTheirOwnRules() {
        // three: beyond twice the tolerance (10% for a bandwidth) from the median of the others
        List<Comparison.Input> three = fleet(3);
        three.set(1, machine("node1", H200, "580.95", gbs("host_to_device_ce_pinned", 55.0 * 0.92), us("kernel_launch_cost", 3.0)));
        assertThat(Comparison.of(three).outliers()).as("8% low: under 2 tau").isEmpty();
        three.set(1, machine("node1", H200, "580.95", gbs("host_to_device_ce_pinned", 55.0 * 0.85), us("kernel_launch_cost", 3.0)));
        assertThat(Comparison.of(three).outliers()).extracting(Comparison.Outlier::machine).containsExactly("node1");

        // two: a difference, where it exceeds the tolerance and the runs' ranges
        List<Comparison.Input> two = List.of(fleet(1).getFirst(), machine("other", H200, "580.95", gbs("host_to_device_ce_pinned", 44.0), us("kernel_launch_cost", 3.02)));
        Comparison c2 = Comparison.of(two);
        assertThat(c2.outliers()).isEmpty();
        assertThat(c2.pairs()).singleElement().satisfies(p -> {
            assertThat(p.key()).isEqualTo("host_to_device_ce_pinned");
            assertThat(p.percent()).isCloseTo(-20.0, org.assertj.core.data.Offset.offset(0.5));
        });

        // one: nothing to compare it with in its class
        Comparison c1 = Comparison.of(fleet(1));
        assertThat(c1.outliers()).isEmpty();
        assertThat(c1.pairs()).isEmpty();
        assertThat(c1.fleet()).isEqualTo("1 machine, 1 class; class 1 (1 machine): 0 outlier machines");
    }

    @Test
    void aLatencyNeedsTenPercentAndAJitterTailTwentyFive() {
        List<Comparison.Input> in = fleet(8);
        in.set(1, machine("node1", H200, "580.95", gbs("host_to_device_ce_pinned", 55.0), us("kernel_launch_cost", 3.0 * 1.08)));
        in.set(2, machine("node2", H200, "580.95", gbs("host_to_device_ce_pinned", 55.0), us("kernel_launch_cost", 3.0 * 1.15)));
        assertThat(Comparison.of(in).outliers()).extracting(Comparison.Outlier::machine).containsExactly("node2");
        assertThat(Tolerance.of(us("launch_jitter_quiet_p99", 60))).isEqualTo(Tolerance.TAIL);
        assertThat(Tolerance.of(gbs("file_read_cold", 2))).isEqualTo(Tolerance.BANDWIDTH);
        assertThat(Tolerance.of(us("syscall_getppid", 0.3))).isEqualTo(Tolerance.LATENCY);
    }

    @Test
    void quickReportsInAFullFleetAreSaid() {
        List<Comparison.Input> in = fleet(8);
        Report.Head r = in.get(5).report();
        Report.Head quick = new Report.Head(r.machine(), r.hardwareClass(), r.software(),
                new Fleet.Confounders(false, 0, "madvise", 0.1, List.of(), "quick"), r.figures());
        in.set(5, new Comparison.Input("node5", quick));
        assertThat(Comparison.of(in).classes().getFirst().findings()).containsExactly("1 of 8 have report mode quick (node5), the rest full");
        // slow, and quick: the mode is said, never blamed (a quick report measures each figure it keeps as a full one does)
        Report.Head slow = new Report.Head(r.machine(), r.hardwareClass(), r.software(),
                new Fleet.Confounders(false, 0, "madvise", 0.1, List.of(), "quick"),
                List.of(gbs("host_to_device_ce_pinned", 40.0), us("kernel_launch_cost", 3.0)));
        in.set(5, new Comparison.Input("node5", slow));
        assertThat(Comparison.of(in).outliers()).singleElement().satisfies(o -> assertThat(o.cause()).isEmpty());
        // a report from before the mode was recorded is a full one, not a third mode
        assertThat(new Fleet.Confounders(false, 0, "madvise", 0.1).modeOrFull()).isEqualTo("full");
    }

    @Test
    void aNodeMeasuredBusyIsSaidAndIsTheProbableCause() {
        List<Comparison.Input> in = fleet(8);
        Report.Head r = machine("node6", H200, "580.95", gbs("host_to_device_ce_pinned", 40.0)).report();
        var busy = new MachineLoad(200, 2, 1.9, 0.05, 0.0, 0.6, 0.5, 3, 2.0, 0.25, true, null);
        Report.Head loaded = new Report.Head(r.machine(), r.hardwareClass(), r.software(),
                new Fleet.Confounders(false, 0, "madvise", 0.1, List.of(new Fleet.DrillLoad("machine", busy), new Fleet.DrillLoad("cpu", busy))),
                r.figures());
        in.set(6, new Comparison.Input("node6", loaded));
        Comparison c = Comparison.of(in);
        assertThat(c.classes().getFirst().findings()).containsExactly("1 of 8 have load busy during the machine and cpu drills (node6), the rest quiet");
        assertThat(c.outliers()).singleElement().satisfies(o -> assertThat(o.cause()).contains("load busy during the machine and cpu drills"));
    }

    @Test
    void severalDifferingFactsAreListedNotBlamed() {
        List<Comparison.Input> in = fleet(8);
        Report.Head r = machine("node3", H200, "570.86", gbs("host_to_device_ce_pinned", 40.0)).report();
        Report.Head odd = new Report.Head(r.machine(), r.hardwareClass(), r.software(), new Fleet.Confounders(true, 1, "madvise", 0.1, List.of()),
                r.figures());
        in.set(3, new Comparison.Input("node3", odd));
        String cause = Comparison.of(in).outliers().getFirst().cause();
        assertThat(cause).startsWith("differs in: ").contains("driver 570.86").contains("GPU clocks locked true").contains("numa_balancing 1").doesNotContain("probable");
    }

    @Test
    void theSpreadsArithmetic() {
        Spread s = Spread.of(1, 2, 3, 4, 100);
        assertThat(s.median()).isEqualTo(3);
        assertThat(s.mad()).isEqualTo(1);
        assertThat(s.sigma(0)).isEqualTo(1.4826);
        assertThat(s.z(100, 0)).isCloseTo(97 / 1.4826, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(Spread.of(2, 4).median()).isEqualTo(3);
        assertThat(Spread.of(5, 5, 5, 9).mad()).isZero();
        assertThat(Spread.of(5, 5, 5, 9).sigma(0)).as("1% of the median").isEqualTo(0.05);
        assertThat(Tolerance.worse(90, 100, Better.HIGHER)).isCloseTo(0.10, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(Tolerance.worse(110, 100, Better.LOWER)).isCloseTo(0.10, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(Tolerance.worse(110, 100, Better.HIGHER)).isNegative();
    }

    @Test
    void aWholeFleetBelowItsClassFloorIsCaughtWhereTheMedianSeesNothing() {
        // forty H200s all at 38 GB/s: no outlier among them, every one under 0.75 of HGX H200's 55.2
        List<Comparison.Input> in = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            in.add(machine("node" + i, new Fleet.HardwareClass("NVIDIA H200", 1, "Intel Xeon", 16, "pcie-gen5-x16", "none", Nics.NONE, 4096L), "580.95",
                    new Figure("host_to_device_ce_pinned", Scope.gpu("0000:00:06.0"), 38.0 + 0.01 * (i % 3), Unit.GB_PER_S, Better.HIGHER, 37.9, 38.2, 5, "t", null)));
        }
        Comparison c = Comparison.of(in);
        assertThat(c.outliers()).isEmpty();
        assertThat(c.belowFloor()).hasSize(40).allSatisfy(b -> {
            assertThat(b.floor()).isCloseTo(41.4, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(b.platform()).isEqualTo("HGX/DGX H200");
            assertThat(b.id()).isEqualTo("M1-CLASS-FLOOR");
        });
        assertThat(c.fleet()).contains("40 below their reference class's floor");
        assertThat(c.machines().getFirst().closest()).isEqualTo("HGX/DGX H200");
    }
}
