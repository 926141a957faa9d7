package hostside.machine;

import static hostside.machine.GpuResults.H200;
import static hostside.machine.GpuResults.around;
import static hostside.machine.GpuResults.byNode;
import static hostside.machine.GpuResults.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import hostside.core.Better;
import hostside.core.CpuSet;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.bench.Copies;
import hostside.harness.DetailFigures;
import hostside.gpu.bench.NodeCopies;
import hostside.gpu.bench.Target;
import hostside.harness.DetailTypes;
import hostside.harness.Result;
import hostside.harness.TestCase;

/**
 * The copies from each NUMA node with made-up figures (no timings): the case's share, the
 * figures its detail holds, the verdicts, the table, the JSON read back, and which nodes the drill
 * copies from.
 */
class NodeCopiesTest {
    static final CpuSet NODE0 = CpuSet.range(0, 15), NODE1 = CpuSet.range(16, 31);

    @BeforeAll
    static void register() {
        DetailTypes.register(GpuDrill.tests());
    }

    /** A two-socket machine's GPU on node 1, fed from node 0 at 61% (33.8 vs 55.4 GB/s). */
    static Result twoSockets() {
        return byNode(1, node(0, NODE0, 33.8), node(1, NODE1, 55.4));
    }

    static List<String> verdicts(Result... rs) {
        return NodeVerdicts.of("GPU0", List.of(rs)).stream().map(GpuRules.Judged::text).toList();
    }

    // ---- the figures ----

    @Test
    void theCasesFigureIsTheSlowestNodesShareOfTheOwnNodesExactAndBetterHigher() {
        Result r = twoSockets();
        assertThat(r.unit()).isEqualTo(Unit.PERCENT);
        assertThat(r.better()).as("a share of the own node's: more is better").isEqualTo(Better.HIGHER);
        Figure f = r.figure(Scope.gpu(H200)).orElseThrow();
        assertThat(f.value()).isCloseTo(100 * 33.8 / 55.4, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(f.min()).isEqualTo(f.value());
        assertThat(f.max()).isEqualTo(f.value());
        // the own node unknown (a VM): of the fastest; a faster node than the own one is not the reference
        assertThat(byNode(null, node(0, NODE0, 33.8), node(1, NODE1, 55.4)).value().median()).isCloseTo(61.0, org.assertj.core.data.Offset.offset(0.1));
        assertThat(byNode(0, node(0, NODE0, 33.8), node(1, NODE1, 55.4)).value().median()).isEqualTo(100.0);
        assertThat(byNode(null, node(0, NODE0, 33.8)).value().median()).as("one node").isEqualTo(100.0);
    }

    @Test
    void eachNodeGivesFourFiguresAboutTheGpuFedFromThatNode() {
        Result r = byNode(1, new NodeCopies.Row(0, NODE0, new Stats(33.8, 33.5, 34.0, 5), new Stats(40.1, 40.0, 40.2, 5), new Stats(4.1, 4.0, 4.3, 5),
                new Stats(9.2, 9.0, 9.4, 5), "", 1.0), node(1, NODE1, 55.4));
        List<Figure> f = DetailFigures.of(r, Scope.gpu(H200));
        assertThat(f).extracting(Figure::key, Figure::scope).containsExactly(
                tuple(NodeCopies.KEY, Scope.gpu(H200)),
                tuple(NodeCopies.H2D_PINNED, Scope.gpuNode(H200, 0)), tuple(NodeCopies.D2H_PINNED, Scope.gpuNode(H200, 0)),
                tuple(NodeCopies.H2D_PAGEABLE, Scope.gpuNode(H200, 0)), tuple(NodeCopies.D2H_PAGEABLE, Scope.gpuNode(H200, 0)),
                tuple(NodeCopies.H2D_PINNED, Scope.gpuNode(H200, 1)), tuple(NodeCopies.D2H_PINNED, Scope.gpuNode(H200, 1)),
                tuple(NodeCopies.H2D_PAGEABLE, Scope.gpuNode(H200, 1)), tuple(NodeCopies.D2H_PAGEABLE, Scope.gpuNode(H200, 1)));
        Figure d2h = f.get(2);
        assertThat(d2h).extracting(Figure::value, Figure::min, Figure::max, Figure::samples, Figure::unit, Figure::better)
                .containsExactly(40.1, 40.0, 40.2, 5, Unit.GB_PER_S, Better.HIGHER);
        assertThat(d2h.anchor()).isEqualTo("numactl --cpunodebind=0 --membind=0 nvbandwidth device_to_host_memcpy_ce");
        assertThat(f.get(3).anchor()).startsWith("PyTorch tensor.copy_ from pageable memory").endsWith("under numactl --cpunodebind=0 --membind=0");
        assertThat(f.get(3).value()).isEqualTo(4.1);
        // about something other than a GPU there is no PCI address to name: no node figures
        assertThat(((NodeCopies.NodeDetail) r.detail()).figures(r, Scope.MACHINE)).isEmpty();
    }

    // ---- the verdicts ----

    @Test
    void aFarNodeBeyondTheSpreadNamesWhereTheBuffersBelongWithTheNumactlLine() {
        assertThat(verdicts(twoSockets())).first().isEqualTo("GPU0's pinned buffers belong on node 1 (its own): from node 0 its copies run at 61%"
                + " (33.8 vs 55.4 GB/s); run its feeders with numactl --cpunodebind=1 --membind=1");
    }

    @Test
    void pageableCopiesFromAFarNodeAreNamedToo() {
        assertThat(verdicts(twoSockets())).contains("GPU0's pageable copies from node 0 run at 61% of node 1's (3.4 vs 5.5 GB/s):"
                + " keep pageable sources on node 1, or pin them");
    }

    @Test
    void nodesWithinTheSpreadRunAlike() {
        // 54.9 (54.35-55.45) and 55.4 (54.85-55.95) overlap
        assertThat(verdicts(byNode(1, node(0, NODE0, 54.9), node(1, NODE1, 55.4))))
                .containsExactly("GPU0: copies from every node run alike within noise (pinned host to device 54.9 to 55.4 GB/s)");
    }

    @Test
    void withoutTheOwnNodeTheFastestIsWhereTheyBelong() {
        assertThat(verdicts(byNode(null, node(0, NODE0, 55.4), node(1, NODE1, 33.8)))).first().asString()
                .startsWith("GPU0's pinned buffers belong on node 0 (the fastest; sysfs does not name the GPU's own node): from node 1 its copies run at 61%")
                .endsWith("numactl --cpunodebind=0 --membind=0");
        // a node faster than the own one beyond the spread is where they belong
        assertThat(verdicts(byNode(1, node(0, NODE0, 55.4), node(1, NODE1, 33.8)))).first().asString()
                .startsWith("GPU0's pinned buffers belong on node 0 (faster than its own node 1): from node 1");
    }

    @Test
    void severalSlowNodesAreEachNamed() {
        assertThat(verdicts(byNode(2, node(0, NODE0, 27.7), node(1, NODE1, 44.3), node(2, CpuSet.range(32, 47), 55.4)))).first().asString()
                .contains("from node 0 its copies run at 50% (27.7 vs 55.4 GB/s), from node 1 at 80% (44.3 vs 55.4 GB/s);");
    }

    @Test
    void oneNodesRowEqualsTheUsualPinnedCopyWithinTheSpreadOrSaysTheDifference() {
        Result pinned = GpuResults.copy(new Copies.CePinned(true), 55.46);
        assertThat(verdicts(pinned, byNode(null, node(0, NODE0, 55.38)))).containsExactly(
                "GPU0: one NUMA node (0): its copies from there equal host_to_device_ce_pinned within noise (55.4 vs 55.5 GB/s)");
        assertThat(verdicts(pinned, byNode(null, node(0, NODE0, 50.0)))).singleElement().asString()
                .startsWith("GPU0: one NUMA node (0): its copies from there run at 90% of host_to_device_ce_pinned (50.0 vs 55.5 GB/s), beyond the spread of both");
        // without the usual copy there is nothing to compare it with
        assertThat(verdicts(byNode(null, node(0, NODE0, 55.38)))).isEmpty();
    }

    @Test
    void theVerdictsJoinTheGpusOtherLines() {
        assertThat(CopyVerdicts.of("GPU0", List.of(twoSockets()), null, List.of())).anySatisfy(v -> assertThat(v.text()).startsWith("GPU0's pinned buffers belong on node 1"));
        assertThat(CopyVerdicts.of("GPU0", List.of(Result.notRun(new NodeCopies(), "no NUMA node")), null, List.of())).isEmpty();
    }

    // ---- the view and the JSON ----

    static MachineRun run(Result... rs) {
        GpuDrill.GpuRun gpu = new GpuDrill.GpuRun("GPU0", H200, List.of(rs), CopyVerdicts.of("GPU0", List.of(rs), null, List.of()), null);
        return new MachineRun(MachineFiguresTest.H200_FACTS, new GpuDrill.GpuSection("", MachineFiguresTest.h200Cuda(), null, List.of(gpu), List.of(), List.of()));
    }

    @Test
    void theTableHasARowPerNodeWithTheOwnNodeMarked() {
        String text = MachineDocumentTest.text(run(GpuResults.copy(new Copies.CePinned(true), 55.46), twoSockets()));
        assertThat(text).contains("Copies from each NUMA node");
        List<String> lines = text.lines().toList();
        String header = lines.stream().filter(l -> l.contains("H2D pinned")).findFirst().orElseThrow();
        assertThat(header).contains("CPUs").contains("D2H pinned").contains("H2D pageable").contains("D2H pageable").contains("share of own");
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("node 0 ").contains("0-15").contains("33.80 (33.46-34.14)").contains("61%"));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("node 1 (GPU's own)").contains("16-31").contains("55.40 (54.85-55.95)").contains("100%"));
        // the node figures are in their table, not again among the GPU's own figures
        assertThat(text.split(NodeCopies.H2D_PINNED, -1)).as("named once, under the table").hasSize(2);
        assertThat(text.replaceAll("\\s+", " ")).contains("GPU0's pinned buffers belong on node 1 (its own)");
        MachineDocumentTest.everyFigureInEveryRendering(run(twoSockets()));
    }

    @Test
    void withoutTheOwnNodeTheSharesAreOfTheFastestAndBuffersNotBoundSaySo() {
        Result r = byNode(null, node(0, NODE0, 55.4), new NodeCopies.Row(1, NODE1, around(33.8), around(33.8), around(3.4), around(6.8),
                "mbind to node 1: Operation not permitted (EPERM)", 0.5));
        String text = MachineDocumentTest.text(run(r)).replaceAll("\\s+", " ");
        assertThat(text).contains("share of fastest").contains("sysfs does not name the GPU's own node").doesNotContain("(GPU's own)");
        assertThat(text).contains("Not bound (pages placed by first touch on the node's CPUs): node 1: mbind to node 1: Operation not permitted (EPERM).");
        assertThat(text).contains("Sampled pages found on the node: node 1: 50%");
    }

    @Test
    void theDetailReadsBackFromJsonAsItsRecord() throws Exception {
        MachineRun back = MachineReadBackTest.roundTrip(run(GpuResults.copy(new Copies.CePinned(true), 55.46), twoSockets(),
                byNode(null, new NodeCopies.Row(0, NODE0, around(1), around(1), around(1), around(1), "mbind refused", null))));
        assertThat(back.gpu().runs().getFirst().results().get(1).detail()).isInstanceOf(NodeCopies.NodeDetail.class)
                .isEqualTo(twoSockets().detail());
        assertThat(back.figures()).extracting(Figure::scope).contains(Scope.gpuNode(H200, 0), Scope.gpuNode(H200, 1));
    }

    // ---- the drill: which nodes, and when ----

    @Test
    void itCopiesFromEachNodeWithCpusAndMemoryOrTheOneNode() {
        assertThat(GpuDrill.copyNodes(MemoryPlan.of(NvlinkBoxes.nodes(2))))
                .containsExactly(new NodeCopies.From(0, NODE0), new NodeCopies.From(1, NODE1));
        assertThat(GpuDrill.copyNodes(MemoryPlan.of(NvlinkBoxes.nodes(1)))).containsExactly(new NodeCopies.From(0, NODE0));
        assertThat(GpuDrill.copyNodes(MemoryPlan.of(MachineFiguresTest.H200_FACTS.topology()))).containsExactly(new NodeCopies.From(0, NODE0));
    }

    @Test
    void itIsListedLastAndEachGpuGetsItsNodesAndRunsItLast() {
        assertThat(GpuDrill.tests()).last().isInstanceOf(NodeCopies.class);
        assertThat(GpuDrill.tests()).extracting(TestCase::key).doesNotHaveDuplicates().contains(NodeCopies.KEY);
        List<NodeCopies.From> nodes = List.of(new NodeCopies.From(0, NODE0));
        // --only in another order: the node copies still run after the GPU's other cases
        List<TestCase<Target>> picked = new ArrayList<>(List.of(new NodeCopies(), new Copies.CePinned(true)));
        List<TestCase<Target>> mine = GpuDrill.forGpu(picked, nodes, 1, List.of(), true);
        assertThat(mine).extracting(TestCase::key).containsExactly("host_to_device_ce_pinned", NodeCopies.KEY);
        assertThat(mine.getLast()).isEqualTo(new NodeCopies(nodes, 1, true));
        assertThat(new NodeCopies().notApplicable(null)).get().asString().contains("NUMA node");
    }
}
