package hostside.machine;

import static hostside.machine.GpuResults.H200;
import static hostside.machine.GpuResults.core;
import static hostside.machine.GpuResults.launchCost;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import hostside.core.Better;
import hostside.core.CpuSet;
import hostside.core.Figure;
import hostside.core.Finding;
import hostside.core.Scope;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.bench.Copies;
import hostside.gpu.bench.LaunchCost;
import hostside.gpu.bench.NodeCopies;
import hostside.gpu.bench.Target;
import hostside.harness.DetailFigures;
import hostside.harness.DetailTypes;
import hostside.harness.Result;
import hostside.harness.TestCase;
import hostside.machine.Topology.CoreKind;

/**
 * The launch and copy submission costs from each kind of core with made-up figures (no timings):
 * the case's figure, the figures its detail holds, the verdicts, the table, the JSON read back, and
 * which cores the drill launches from and on which GPU.
 */
class LaunchCostTest {
    static final CpuSet P = CpuSet.range(0, 7), E = CpuSet.range(8, 15);
    static final Map<String, CpuSet> KINDS = Map.of("P-core", P, "E-core", E);

    @BeforeAll
    static void register() {
        DetailTypes.register(GpuDrill.tests());
    }

    /** A hybrid desktop: launches from an E-core cost 2.1x those from a P-core, copy submissions 1.8x. */
    static Result hybrid() {
        return launchCost(core("P-core", 1, 2000, 1500), core("E-core", 8, 4200, 2700));
    }

    static List<String> verdicts(Result... rs) {
        return texts(LaunchVerdicts.of(List.of(rs), KINDS, List.of()));
    }

    static List<String> texts(List<Finding> f) {
        return f.stream().map(Finding::text).toList();
    }

    // ---- the figures ----

    @Test
    void theCasesFigureIsTheFirstCoresLaunchInNsBetterLower() {
        Result r = hybrid();
        assertThat(r.unit()).isEqualTo(Unit.NS);
        assertThat(r.better()).isEqualTo(Better.LOWER);
        assertThat(new LaunchCost().better()).isEqualTo(Better.LOWER);
        Figure f = r.figure(Scope.gpu(H200)).orElseThrow();
        assertThat(f).extracting(Figure::value, Figure::min, Figure::max).containsExactly(2000.0, 1980.0, 2020.0);
    }

    @Test
    void eachCoreGivesALaunchAndASubmitFigureAboutItsCpu() {
        Result r = launchCost(new LaunchCost.Row("P-core", 1, new Stats(2000, 1950, 2100, 9), new Stats(1500, 1490, 1550, 9)),
                core("E-core", 8, 4200, 2700));
        List<Figure> f = DetailFigures.of(r, Scope.gpu(H200));
        Scope one = Scope.cpus(CpuSet.of(1)), eight = Scope.cpus(CpuSet.of(8));
        assertThat(f).extracting(Figure::key, Figure::scope).containsExactly(
                tuple(LaunchCost.KEY, Scope.gpu(H200)),
                tuple(LaunchCost.LAUNCH, one), tuple(LaunchCost.SUBMIT, one),
                tuple(LaunchCost.LAUNCH, eight), tuple(LaunchCost.SUBMIT, eight));
        assertThat(f.get(1)).extracting(Figure::value, Figure::min, Figure::max, Figure::samples, Figure::unit, Figure::better)
                .containsExactly(2000.0, 1950.0, 2100.0, 9, Unit.NS, Better.LOWER);
        assertThat(f.get(2)).extracting(Figure::value, Figure::min, Figure::max).containsExactly(1500.0, 1490.0, 1550.0);
        assertThat(f.get(1).method()).contains("cuLaunchKernel").contains("256").contains("1024");
        assertThat(f.get(2).method()).contains("cuMemcpyHtoDAsync").contains("4 KiB from pinned memory");
        assertThat(f.get(3).scope().toString()).isEqualTo("cpu:8");
        // about something other than a GPU: none
        assertThat(((LaunchCost.LaunchDetail) r.detail()).figures(r, Scope.MACHINE)).isEmpty();
    }

    // ---- the verdicts ----

    @Test
    void aSmallKindBeyondTheSpreadKeepsTheFeederOffItWithTheTasksetLine() {
        assertThat(verdicts(hybrid())).containsExactly("the feeder should not run on E-cores: launches cost 2.1x (4.20 us from CPU 8 vs 2.00 us from CPU 1),"
                + " pinned copy submissions 1.8x (2.70 vs 1.50 us); keep the training loop's thread on P-cores (taskset -c 0-7)");
    }

    @Test
    void copySubmissionsWithinTheSpreadAreLeftOutOfTheLine() {
        assertThat(verdicts(launchCost(core("P-core", 1, 2000, 1500), core("E-core", 8, 4200, 1510)))).singleElement().asString()
                .isEqualTo("the feeder should not run on E-cores: launches cost 2.1x (4.20 us from CPU 8 vs 2.00 us from CPU 1);"
                        + " keep the training loop's thread on P-cores (taskset -c 0-7)");
    }

    @Test
    void kindsWithinTheSpreadAreEven() {
        // 2000 (1980-2020) and 2030 (2009.7-2050.3) overlap
        assertThat(verdicts(launchCost(core("P-core", 1, 2000, 1500), core("E-core", 8, 2030, 1520)))).containsExactly(
                "launches from E-cores and P-cores are even within noise (2.03 us from CPU 8 vs 2.00 us from CPU 1); pinned copy submissions 1.52 vs 1.50 us");
    }

    @Test
    void armKindsAreNamedAsTheyAreAndEachSmallerKindHasItsLine() {
        List<String> v = texts(LaunchVerdicts.of(List.of(launchCost(core("Cortex-X925", 10, 1000, 800), core("Cortex-A725", 1, 1800, 900),
                core("big", 2, 1010, 800))), Map.of("Cortex-X925", CpuSet.range(10, 19)), List.of()));
        assertThat(v).hasSize(2);
        assertThat(v.get(0)).startsWith("the feeder should not run on Cortex-A725 cores: launches cost 1.8x (1.80 us from CPU 1 vs 1.00 us from CPU 10)")
                .endsWith("keep the training loop's thread on Cortex-X925 cores (taskset -c 10-19)");
        assertThat(v.get(1)).startsWith("launches from big cores and Cortex-X925 cores are even within noise");
        // a kind missing from the map: the one CPU measured
        assertThat(texts(LaunchVerdicts.of(List.of(hybrid()), Map.of(), List.of()))).singleElement().asString().endsWith("(taskset -c 1)");
    }

    @Test
    void aSmallKindThatLaunchesFasterIsSaidAsMeasured() {
        assertThat(verdicts(launchCost(core("P-core", 1, 3000, 1500), core("E-core", 8, 2000, 1500)))).singleElement().asString()
                .isEqualTo("launches from E-cores cost less than from P-cores (2.00 us from CPU 8 vs 3.00 us from CPU 1): the feeder loses nothing there");
    }

    @Test
    void aUniformCpuGetsOneInformativeLine() {
        assertThat(verdicts(launchCost(core(LaunchCost.UNIFORM, 1, 2310, 1840))))
                .containsExactly("a kernel launch costs 2.31 us of host time, a pinned copy submission 1.84 us (CPU 1)");
        // one kind left of a hybrid CPU (the cpuset holds only P-cores): named
        assertThat(verdicts(launchCost(core("P-core", 3, 2310, 1840)))).singleElement().asString().endsWith("(CPU 3, P-core)");
        assertThat(verdicts(Result.notRun(new LaunchCost(), "no CPU is known to launch from"))).isEmpty();
    }

    @Test
    void theKindsAreNamedInThePlural() {
        assertThat(LaunchVerdicts.plural("E-core")).isEqualTo("E-cores");
        assertThat(LaunchVerdicts.plural("small")).isEqualTo("small cores");
        assertThat(LaunchVerdicts.plural("Cortex-A725")).isEqualTo("Cortex-A725 cores");
    }

    // ---- the view and the JSON ----

    static MachineRun run(Result... rs) {
        List<Finding> v = new ArrayList<>(CopyVerdicts.of("GPU0", List.of(rs), null, List.of()));
        v.addAll(LaunchVerdicts.of(List.of(rs), KINDS, List.of()));
        GpuDrill.GpuRun gpu = new GpuDrill.GpuRun("GPU0", H200, List.of(rs), v, null);
        return new MachineRun(MachineFiguresTest.H200_FACTS, new GpuDrill.GpuSection("", MachineFiguresTest.h200Cuda(), null, List.of(gpu), List.of(), List.of()));
    }

    @Test
    void theTableHasARowPerCoreWithLaunchAndSubmission() {
        String text = MachineDocumentTest.text(run(GpuResults.copy(new Copies.CePinned(true), 55.46), hybrid()));
        assertThat(text).contains("Launch and copy submission from each kind of core");
        List<String> lines = text.lines().toList();
        String header = lines.stream().filter(l -> l.contains("copy submission") && l.contains("launch") && l.contains("kind")).findFirst().orElseThrow();
        assertThat(header).contains("CPU");
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("P-core").contains(" 1 ").contains("2000 (1980-2020)").contains("1500 (1485-1515)"));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("E-core").contains(" 8 ").contains("4200 (4158-4242)").contains("2700 (2673-2727)"));
        // the per-core figures are in their table, named once under it
        assertThat(text.split(LaunchCost.LAUNCH, -1)).as("named once, under the table").hasSize(2);
        assertThat(text.replaceAll("\\s+", " ")).contains("the feeder should not run on E-cores");
        MachineDocumentTest.everyFigureInEveryRendering(run(hybrid()));
    }

    @Test
    void theDetailReadsBackFromJsonAsItsRecord() throws Exception {
        MachineRun back = MachineReadBackTest.roundTrip(run(GpuResults.copy(new Copies.CePinned(true), 55.46), hybrid()));
        assertThat(back.gpu().runs().getFirst().results().get(1).detail()).isInstanceOf(LaunchCost.LaunchDetail.class).isEqualTo(hybrid().detail());
        assertThat(back.figures()).extracting(Figure::scope).contains(Scope.cpus(CpuSet.of(1)), Scope.cpus(CpuSet.of(8)));
    }

    // ---- the drill: which cores, on which GPU ----

    private static CoreKind kind(String name, CpuSet cpus) {
        return new CoreKind(name, cpus, cpus.size(), cpus.size(), "test", "");
    }

    private static Topology topology(List<CoreKind> kinds) {
        Topology.NumaNode node = new Topology.NumaNode(0, CpuSet.range(0, 15), 64L << 30, false, null, List.of());
        Topology.Whole whole = new Topology.Whole(CpuSet.range(0, 15), CpuSet.EMPTY, CpuSet.EMPTY, CpuSet.EMPTY, "", 64L << 30, CpuSet.of(0));
        return new Topology(1, 16, 16, "test", List.of(node), List.of(), kinds, whole);
    }

    @Test
    void aHybridCpuLaunchesFromEachKindTheBigOneFirst() {
        // E-cores listed first (as Arm part names sort): the big kind still leads
        Topology t = topology(List.of(kind("E-core", E), kind("P-core", P)));
        MemoryPlan plan = MemoryPlan.of(t);
        assertThat(GpuDrill.launchCores(plan)).containsExactly(new LaunchCost.Core("P-core", 1), new LaunchCost.Core("E-core", 8));
        assertThat(GpuDrill.kindCpus(t, plan)).containsEntry("P-core", P).containsEntry("E-core", E);
    }

    @Test
    void aUniformCpuLaunchesFromTheOneThreadCpu() {
        MemoryPlan plan = MemoryPlan.of(topology(List.of(kind("uniform", CpuSet.range(0, 15)))));
        assertThat(GpuDrill.launchCores(plan)).containsExactly(new LaunchCost.Core(LaunchCost.UNIFORM, plan.oneThreadCpu()));
        assertThat(GpuDrill.launchCores(MemoryPlan.of(MachineFiguresTest.H200_FACTS.topology()))).containsExactly(new LaunchCost.Core("uniform", 1));
    }

    @Test
    void itIsListedAndRunsOnTheFirstGpuOnlyBeforeTheNodeCopies() {
        assertThat(GpuDrill.tests()).extracting(TestCase::key).doesNotHaveDuplicates().contains(LaunchCost.KEY);
        List<LaunchCost.Core> cores = List.of(new LaunchCost.Core("uniform", 1));
        List<NodeCopies.From> nodes = List.of(new NodeCopies.From(0, CpuSet.range(0, 15)));
        List<TestCase<Target>> picked = new ArrayList<>(List.of(new NodeCopies(), new LaunchCost(), new Copies.CePinned(true)));
        List<TestCase<Target>> first = GpuDrill.forGpu(picked, nodes, 0, cores, true);
        assertThat(first).extracting(TestCase::key).containsExactly(LaunchCost.KEY, "host_to_device_ce_pinned", NodeCopies.KEY);
        assertThat(first.getFirst()).isEqualTo(new LaunchCost(cores, true));
        assertThat(first.getFirst().notApplicable(null)).isEmpty();
        // another GPU: not run, with the reason
        TestCase<Target> other = GpuDrill.forGpu(picked, nodes, 0, cores, false).getFirst();
        assertThat(other.notApplicable(null)).get().asString().isEqualTo(
                "measured from the first GPU only: a launch's host cost is the CPU's and the driver's, not the GPU's");
        assertThat(new LaunchCost().notApplicable(null)).get().asString().contains("no CPU");
    }
}
