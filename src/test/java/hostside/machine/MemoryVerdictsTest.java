package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.core.Better;
import hostside.core.CpuSet;
import hostside.core.Finding;
import hostside.core.Json;
import hostside.core.Scope;
import hostside.core.Severity;
import hostside.core.Stats;
import hostside.core.Style;
import hostside.core.Unit;
import hostside.doc.Document;
import hostside.doc.TextRenderer;
import hostside.harness.DetailTypes;
import hostside.harness.Result;
import hostside.harness.Status;
import hostside.harness.TestCase;
import hostside.memory.MemoryCases;
import hostside.memory.MemoryDetails;
import hostside.memory.MemoryTarget;
import hostside.memory.Placement;

/** The memory findings' rules, the matrix rendering and the JSON read-back, on made-up figures (never timings of this machine). */
class MemoryVerdictsTest {
    static final TestCase<MemoryTarget> TRIAD = caseOf(MemoryCases.TRIAD), ONE = caseOf(MemoryCases.TRIAD_ONE_THREAD),
            READ = caseOf(MemoryCases.READ), LATENCY = caseOf(MemoryCases.LATENCY);

    static TestCase<MemoryTarget> caseOf(String key) {
        return MemoryDrill.tests().stream().filter(t -> t.key().equals(key)).findFirst().orElseThrow();
    }

    /** Two nodes of 4 CPUs each, node 2 a GPU's memory. */
    static final MemoryPlan TWO_NODES = new MemoryPlan(CpuSet.range(0, 7), 1, List.of(new MemoryPlan.Node(0, CpuSet.range(0, 3)), new MemoryPlan.Node(1, CpuSet.range(4, 7))),
            List.of(pair(0, 0, "CPUs and memory"), pair(0, 1, "CPUs and memory"), pair(0, 2, "GPU memory of 0009:01:00.0"),
                    pair(1, 0, "CPUs and memory"), pair(1, 1, "CPUs and memory"), pair(1, 2, "GPU memory of 0009:01:00.0")),
            List.of(), 64L << 20, List.of());

    static MemoryPlan.Pair pair(int c, int m, String role) {
        return new MemoryPlan.Pair(c, m, c == 0 ? CpuSet.range(0, 3) : CpuSet.range(4, 7), role);
    }

    static Placement bound(int node) {
        return new Placement(node, Map.of(node, 256), 256, "");
    }

    static MemoryDrill.Measured read(int c, int m, double median, double min, double max) {
        return new MemoryDrill.Measured(Scope.nodes(c, m), "CPUs of node " + c + ", memory of node " + m,
                Result.ok(READ, Unit.GB_PER_S, new Stats(median, min, max, 9), "m", new MemoryDetails.Read(1L << 30, CpuSet.range(0, 3), bound(m))));
    }

    static MemoryDrill.Measured latency(int c, int m, double ns) {
        return new MemoryDrill.Measured(Scope.nodes(c, m), "CPUs of node " + c + ", memory of node " + m,
                Result.ok(LATENCY, Unit.NS, new Stats(ns, ns - 1, ns + 1, 5), "m", new MemoryDetails.Chase(256L << 20, 1, 1 << 22, true, 256L << 20, bound(m))));
    }

    static MemoryDrill.Measured stream(TestCase<MemoryTarget> t, Scope scope, String label, double triad, double min, double max, CpuSet cpus) {
        Stats s = new Stats(triad, min, max, 9);
        return new MemoryDrill.Measured(scope, label, Result.ok(t, Unit.GB_PER_S, s, "m",
                new MemoryDetails.Stream(s, s, s, 256L << 20, cpus, new Placement(null, Map.of(0, 256), 256, ""), "", null)));
    }

    static MemoryDrill.MemorySection section(MemoryPlan plan, MemoryDrill.Measured... m) {
        return new MemoryDrill.MemorySection("", plan, List.of(m));
    }

    @Test
    void aFarNodeBeyondTheSpreadIsAWarningWithTheBindingLine() {
        List<Finding> f = MemoryVerdicts.of(section(TWO_NODES, read(0, 0, 100, 98, 102), read(0, 1, 61, 60, 62), latency(0, 0, 90), latency(0, 1, 140)), null, null);
        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.text()).contains("read node 1's memory (CPUs and memory) at 61% of their own node's (61.0 against 100.0 GB/s, 140 ns a load against 90)")
                    .contains("numactl --cpunodebind=0 --membind=0");
        });
    }

    @Test
    void overlappingRangesAreEvenWithinNoise() {
        List<Finding> f = MemoryVerdicts.of(section(TWO_NODES, read(0, 0, 100, 90, 110), read(0, 1, 95, 85, 101)), null, null);
        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.INFO);
            assertThat(x.text()).contains("as fast as their own within noise");
        });
    }

    @Test
    void aFarNodeFasterThanHomeIsLeftToTheMatrix() {
        // a Grace GPU's HBM read from the CPUs: faster than their LPDDR, nothing to fix
        assertThat(MemoryVerdicts.of(section(TWO_NODES, read(0, 0, 100, 98, 102), read(0, 2, 300, 290, 310)), null, null)).isEmpty();
    }

    @Test
    void aSmallCoreBeyondTheSpreadIsAWarning() {
        MemoryPlan hybrid = new MemoryPlan(CpuSet.range(0, 19), 1, List.of(), List.of(new MemoryPlan.Pair(0, 0, CpuSet.range(0, 19), "CPUs and memory")),
                List.of(new MemoryPlan.Kind("P-core", 1, 0), new MemoryPlan.Kind("E-core", 13, 0)), 24L << 20, List.of());
        List<Finding> f = MemoryVerdicts.of(section(hybrid,
                stream(ONE, Scope.cpus(CpuSet.of(1)), "P-core (CPU 1)", 20, 19, 21, CpuSet.of(1)),
                stream(ONE, Scope.cpus(CpuSet.of(13)), "E-core (CPU 13)", 10, 9, 11, CpuSet.of(13))), null, null);
        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.subject()).isEqualTo("E-core");
            assertThat(x.text()).contains("moves 50% of what it moves on a P-core (CPU 1): 10.0 against 20.0 GB/s");
        });
    }

    @Test
    void oneThreadsShareOfTheMachine() {
        List<Finding> f = MemoryVerdicts.of(section(TWO_NODES, stream(TRIAD, Scope.MACHINE, "all CPUs", 200, 195, 205, CpuSet.range(0, 7)),
                stream(ONE, Scope.MACHINE, "one thread", 20, 19, 21, CpuSet.of(1))), null, null);
        assertThat(f).singleElement().satisfies(x -> assertThat(x.text()).startsWith("one thread moves 20.0 GB/s, 10% of the 200.0 GB/s of every CPU together"));
    }

    @Test
    void theGpusCopiesAgainstHostMemory() {
        Result h2d = new Result("host_to_device_ce_pinned", "", Status.OK, "", Unit.GB_PER_S, new Stats(55, 54, 56, 5), Better.HIGHER, "", null, null);
        List<GpuDrill.GpuRun> runs = new ArrayList<>();
        for (int g = 0; g < 8; g++) runs.add(new GpuDrill.GpuRun("GPU" + g, "0000:0" + g + ":00.0", List.of(h2d), List.of(), null));
        GpuDrill.GpuSection gpus = new GpuDrill.GpuSection("", null, null, runs, List.of(), List.of());
        List<Finding> f = MemoryVerdicts.of(section(TWO_NODES, stream(TRIAD, Scope.MACHINE, "all CPUs", 400, 390, 410, CpuSet.range(0, 7))), gpus, null);
        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.text()).contains("400.0 GB/s (STREAM Triad, every CPU), 50.0 GB/s per GPU; pinned host-to-device copies to 8 GPUs at once, each at its own rate measured alone, would read 440.0 GB/s of it (110%)");
        });
        GpuDrill.GpuSection one = new GpuDrill.GpuSection("", null, null, runs.subList(0, 1), List.of(), List.of());
        assertThat(MemoryVerdicts.of(section(TWO_NODES, stream(TRIAD, Scope.MACHINE, "all CPUs", 400, 390, 410, CpuSet.range(0, 7))), one, null))
                .singleElement().satisfies(x -> assertThat(x.severity()).isEqualTo(Severity.INFO));
    }

    @Test
    void pagesAwayFromTheirNodeAndAChaseWithoutHugePagesAreSaid() {
        MemoryDrill.Measured misplaced = new MemoryDrill.Measured(Scope.nodes(0, 1), "CPUs of node 0, memory of node 1",
                Result.ok(READ, Unit.GB_PER_S, new Stats(50, 49, 51, 9), "m", new MemoryDetails.Read(1L << 30, CpuSet.range(0, 3), new Placement(1, Map.of(0, 56, 1, 200), 256, ""))));
        MemoryDrill.Measured small = new MemoryDrill.Measured(Scope.nodes(0, 0), "node 0",
                Result.ok(LATENCY, Unit.NS, new Stats(120, 119, 121, 5), "m", new MemoryDetails.Chase(256L << 20, 1, 1 << 22, true, 16L << 20, bound(0))));
        List<Finding> f = MemoryVerdicts.misplaced(section(TWO_NODES, misplaced, small));
        assertThat(f).extracting(Finding::text).satisfiesExactly(
                t -> assertThat(t).contains("56 of 256 sampled pages are not on node 1"),
                t -> assertThat(t).contains("only 16 MiB of the 256 MiB set sat in huge pages"));
    }

    @Test
    void theMatricesRenderByNodeWithTheMemoryRoleInTheColumns() {
        MemoryDrill.MemorySection s = section(TWO_NODES, read(0, 0, 100, 98, 102), read(0, 1, 61, 60, 62), read(1, 0, 60, 59, 61), read(1, 1, 101, 99, 103),
                latency(0, 0, 90), latency(0, 1, 140));
        String text = new TextRenderer(Style.plain()).render(new Document("t", "", List.of(MemoryBlocks.of(s))));
        assertThat(text).contains("node 2 (GPU memory of 0009:01:00.0)").contains("Read bandwidth, GB/s").contains("Idle latency, ns");
        assertThat(text.lines().filter(l -> l.trim().startsWith("node 0")).findFirst().orElseThrow()).contains("100").contains("61.00").contains("-");
    }

    @Test
    void theStreamTableSaysWhenTheCacheSizeIsNotKnown() {
        MemoryPlan hidden = new MemoryPlan(CpuSet.range(0, 1), 1, List.of(), List.of(new MemoryPlan.Pair(0, 0, CpuSet.range(0, 1), "CPUs and memory")), List.of(), 0, List.of());
        var triad = MemoryDrill.tests().stream().filter(t -> t.key().equals(MemoryCases.TRIAD)).findFirst().orElseThrow();
        String text = new TextRenderer(Style.plain()).render(new Document("t", "", List.of(MemoryBlocks.of(
                section(hidden, stream(triad, Scope.MACHINE, "all CPUs", 60, 58, 62, CpuSet.range(0, 1)))))));
        assertThat(text.replaceAll("\\s+", " ")).contains("STREAM asks four times the last-level caches, whose size this machine does not report");
        assertThat(text).doesNotContain("0 B");
        String known = new TextRenderer(Style.plain()).render(new Document("t", "", List.of(MemoryBlocks.of(
                section(TWO_NODES, stream(triad, Scope.MACHINE, "all CPUs", 60, 58, 62, CpuSet.range(0, 7)))))));
        assertThat(known.replaceAll("\\s+", " ")).contains("STREAM asks four times the last-level caches, 64 MiB");
    }

    @Test
    void oneThreadsTriadAloneLeavesItsOtherKernelsBlankAndSaysSo() {
        Stats s = new Stats(20, 19, 21, 5);
        MemoryDrill.Measured alone = new MemoryDrill.Measured(Scope.MACHINE, "one thread", Result.ok(ONE, Unit.GB_PER_S, s, "m",
                new MemoryDetails.Stream(null, null, null, 256L << 20, CpuSet.of(1), new Placement(null, Map.of(0, 256), 256, ""), "", null)));
        String both = new TextRenderer(Style.plain()).render(new Document("t", "", List.of(MemoryBlocks.of(
                section(TWO_NODES, stream(TRIAD, Scope.MACHINE, "all CPUs", 200, 195, 205, CpuSet.range(0, 7)), alone))))).replaceAll("\\s+", " ");
        assertThat(both).contains("one thread runs Triad alone").containsPattern("one thread \\(CPU 1\\) 1 - - - 20\\.00 \\(19\\.00-21\\.00\\)");
        assertThat(alone.result().detail()).isInstanceOfSatisfying(MemoryDetails.Stream.class,
                d -> assertThat(d.figures(alone.result(), Scope.MACHINE)).as("no Copy, Scale or Add figure where they did not run").isEmpty());
        String allOnly = new TextRenderer(Style.plain()).render(new Document("t", "", List.of(MemoryBlocks.of(
                section(TWO_NODES, stream(TRIAD, Scope.MACHINE, "all CPUs", 200, 195, 205, CpuSet.range(0, 7)))))));
        assertThat(allOnly).doesNotContain("Triad alone");
    }

    @Test
    void aRecordingSaysNotRunAndKeepsThePlansNotes() {
        MemoryPlan p = new MemoryPlan(CpuSet.range(0, 1), 1, List.of(), List.of(new MemoryPlan.Pair(0, 0, CpuSet.range(0, 1), "CPUs and memory")), List.of(), 0,
                List.of("nodes 3-9: no memory (left out)"));
        String text = new TextRenderer(Style.plain()).render(new Document("t", "", List.of(MemoryBlocks.of(new MemoryDrill.MemorySection("recorded machine", p, List.of())))));
        assertThat(text).contains("not run: recorded machine").contains("nodes 3-9: no memory (left out)");
    }

    @Test
    void theSectionReadsBackFromItsJsonWithTypedDetailsAndTheSameFigures() throws Exception {
        DetailTypes.register(MemoryDrill.tests());
        MemoryDrill.MemorySection s = section(TWO_NODES, stream(TRIAD, Scope.MACHINE, "all CPUs", 200, 195, 205, CpuSet.range(0, 7)), read(0, 1, 61, 60, 62), latency(0, 1, 140));
        String json = Json.write(Json.MAPPER.valueToTree(s));
        MemoryDrill.MemorySection back = Json.MAPPER.readValue(json, MemoryDrill.MemorySection.class);
        assertThat(back).isEqualTo(s);
        assertThat(back.figures()).extracting(f -> f.key() + "@" + f.scope()).containsExactly("memory_bandwidth_triad@machine", "memory_bandwidth_copy@machine",
                "memory_bandwidth_scale@machine", "memory_bandwidth_add@machine", "memory_bandwidth_read@nodes:0,1", "memory_latency@nodes:0,1");
    }
}
