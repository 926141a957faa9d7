package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.Fixtures;
import hostside.core.CpuSet;
import hostside.fs.FsRoot;
import hostside.machine.Topology.Cache;
import hostside.machine.Topology.CoreKind;
import hostside.machine.Topology.NumaNode;
import hostside.machine.MemoryPlan.Kind;
import hostside.machine.MemoryPlan.Node;
import hostside.machine.MemoryPlan.Pair;

/**
 * Where the memory runs go, on hwloc's recorded machines (figures from their .console files) and the
 * H200 recording, and on small topologies built here for the rules no recording exercises.
 */
class MemoryPlanTest {
    private static final long GIB = 1L << 30;

    private static Topology read(Path source) {
        return new TopologyReader(FsRoot.open(source.toString()), new ArrayList<>()).read();
    }

    private static Topology hwloc(String name) {
        return read(Fixtures.hwloc().resolve(name + ".tar.bz2"));
    }

    private static CpuSet cpus(String list) {
        return CpuSet.parseList(list);
    }

    private static List<Integer> memoryColumns(MemoryPlan p, int cpuNode) {
        return p.pairs().stream().filter(x -> x.cpuNode() == cpuNode).map(Pair::memoryNode).toList();
    }

    @Test
    void h200OneNodeOneCellAndItsL3() {
        MemoryPlan p = MemoryPlan.of(read(Fixtures.h200()));
        assertThat(p.cpus()).isEqualTo(cpus("0-15"));
        assertThat(p.oneThreadCpu()).as("not CPU 0").isEqualTo(1);
        assertThat(p.nodes()).as("one node: the per-node figure would repeat the machine's").isEmpty();
        assertThat(p.pairs()).containsExactly(new Pair(0, 0, cpus("0-15"), "CPUs and memory"));
        assertThat(p.kinds()).isEmpty();
        assertThat(p.llcBytes()).as("one 300 MiB L3 over CPUs 0-15").isEqualTo(300L << 20);
        assertThat(p.notes()).isEmpty();
    }

    @Test
    void eightOpteronNodesGiveEightRunsAndSixtyFourCells() {
        MemoryPlan p = MemoryPlan.of(hwloc("16amd64-8n2c"));
        assertThat(p.cpus()).isEqualTo(cpus("0-15"));
        assertThat(p.oneThreadCpu()).isEqualTo(1);
        assertThat(p.nodes()).extracting(Node::id).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(p.nodes().get(5)).isEqualTo(new Node(5, cpus("10-11")));
        assertThat(p.pairs()).hasSize(64);
        assertThat(p.pairs().get(3 * 8 + 5)).isEqualTo(new Pair(3, 5, cpus("6-7"), "CPUs and memory"));
        assertThat(p.pairs().getFirst()).isEqualTo(new Pair(0, 0, cpus("0-1"), "CPUs and memory"));
        assertThat(p.pairs().getLast()).isEqualTo(new Pair(7, 7, cpus("14-15"), "CPUs and memory"));
        assertThat(memoryColumns(p, 2)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(p.kinds()).isEmpty();
        assertThat(p.llcBytes()).as("no L3: sixteen 1 MiB L2s").isEqualTo(16L << 20);
        assertThat(p.notes()).isEmpty();
    }

    @Test
    void raptorLakeRunsOneThreadOnABigCoreAndNamesBothKinds() {
        // lstopo: CPU kind #1 (efficiency 1, base 1.9 GHz) is 0-11, kind #0 (base 1.4 GHz) is 12-19
        MemoryPlan p = MemoryPlan.of(hwloc("20em64t-hybrid-1p6c2t+2ca4co1t"));
        assertThat(p.cpus()).isEqualTo(cpus("0-19"));
        assertThat(p.oneThreadCpu()).isEqualTo(1);
        assertThat(p.kinds()).containsExactly(new Kind("big", 1, 0), new Kind("small", 12, 0));
        assertThat(p.nodes()).isEmpty();
        assertThat(p.pairs()).containsExactly(new Pair(0, 0, cpus("0-19"), "CPUs and memory"));
        assertThat(p.llcBytes()).as("one 24 MiB L3").isEqualTo(24L << 20);
        assertThat(p.notes()).isEmpty();
    }

    @Test
    void power9GpuMemoryNodesAreMemoryColumnsOnly() {
        // lstopo (kept): nodes 0 and 8 with CPUs; 250-255 GPUMemory of 15 GiB each, with their PCIBusID
        MemoryPlan p = MemoryPlan.of(hwloc("nvidiagpunumanodes"));
        assertThat(p.cpus()).isEqualTo(cpus("0-15,88-103"));
        assertThat(p.oneThreadCpu()).isEqualTo(1);
        assertThat(p.nodes()).containsExactly(new Node(0, cpus("0-15")), new Node(8, cpus("88-103")));
        assertThat(p.pairs()).hasSize(2 * 8);
        assertThat(p.pairs()).extracting(Pair::cpuNode).containsOnly(0, 8);
        assertThat(memoryColumns(p, 8)).containsExactly(0, 8, 250, 251, 252, 253, 254, 255);
        assertThat(p.pairs().get(8 + 2)).isEqualTo(new Pair(8, 250, cpus("88-103"), "GPU memory of 0035:05:00.0"));
        assertThat(p.pairs().get(5)).isEqualTo(new Pair(0, 253, cpus("0-15"), "GPU memory of 0006:00:00.0"));
        assertThat(p.pairs().get(1)).isEqualTo(new Pair(0, 8, cpus("0-15"), "CPUs and memory"));
        assertThat(p.llcBytes()).as("four 10 MiB L3s").isEqualTo(40L << 20);
        assertThat(p.notes()).as("every GPU node of this recording has memory").isEmpty();
    }

    @Test
    void underACpusetOnlyAllowedNodesAndTheirCpusCount() {
        // lstopo: nodes 1-4 allowed; node 1 holds CPUs 2-3, node 2 CPU 5 (4 is offline), node 3 CPU 6,
        // node 4 none; CPUs 0-1 and 12-15 are allowed but their nodes 0, 6, 7 are not
        MemoryPlan p = MemoryPlan.of(hwloc("16amd64-8n2c-cpusets"));
        assertThat(p.cpus()).isEqualTo(cpus("2-3,5-6"));
        assertThat(p.oneThreadCpu()).as("lowest node with CPUs is node 1").isEqualTo(2);
        assertThat(p.nodes()).containsExactly(new Node(1, cpus("2-3")), new Node(2, cpus("5")), new Node(3, cpus("6")));
        assertThat(p.pairs()).hasSize(3 * 4);
        assertThat(memoryColumns(p, 3)).containsExactly(1, 2, 3, 4);
        assertThat(p.pairs().get(3)).isEqualTo(new Pair(1, 4, cpus("2-3"), "memory only"));
        assertThat(p.llcBytes()).as("the four L2s of CPUs 2, 3, 5, 6").isEqualTo(4L << 20);
        assertThat(p.notes()).containsExactly("CPUs 0-1,12-15: in no allowed NUMA node (left out)");
    }

    @Test
    void underCgroup2TheCpulessAllowedNodesAreMemoryColumns() {
        // cpuset.cpus 0-5, mems 0-5: node 0 holds CPUs 0-3, node 1 CPUs 4-5, nodes 2-5 only memory;
        // their packages' L3s stay in the topology without a CPU and do not count
        MemoryPlan p = MemoryPlan.of(hwloc("32amd64-4s2n4c-cgroup2"));
        assertThat(p.cpus()).isEqualTo(cpus("0-5"));
        assertThat(p.oneThreadCpu()).isEqualTo(1);
        assertThat(p.nodes()).containsExactly(new Node(0, cpus("0-3")), new Node(1, cpus("4-5")));
        assertThat(p.pairs()).hasSize(2 * 6);
        assertThat(p.pairs()).filteredOn(x -> x.cpuNode() == 1).extracting(Pair::memoryRole)
                .containsExactly("CPUs and memory", "CPUs and memory", "memory only", "memory only", "memory only", "memory only");
        assertThat(p.llcBytes()).isEqualTo(2 * 5240832L);
        assertThat(p.notes()).isEmpty();
    }

    // ---- hand-built topologies ----

    private static final Topology.Whole WHOLE = new Topology.Whole(cpus("0-7"), CpuSet.EMPTY, CpuSet.EMPTY, CpuSet.EMPTY, "", 64 * GIB, cpus("0"));

    private static NumaNode node(int id, String cpus, Long mem) {
        return new NumaNode(id, cpus(cpus), mem, false, null, List.of());
    }

    private static NumaNode gpuNode(int id, Long mem, String gpu) {
        return new NumaNode(id, CpuSet.EMPTY, mem, true, gpu, List.of());
    }

    private static CoreKind kind(String name, String cpus) {
        CpuSet s = cpus(cpus);
        return new CoreKind(name, s, s.size(), s.size(), "test", "");
    }

    private static Topology topology(List<NumaNode> nodes, List<CoreKind> kinds, List<Cache> caches, Topology.Whole whole) {
        int threads = kinds.stream().mapToInt(CoreKind::threads).sum();
        return new Topology(1, threads, threads, "test", nodes, caches, kinds, whole);
    }

    private static Cache cache(int level, String type, Long size, String cpus) {
        return new Cache(level, type, size, cpus(cpus), 64, 16);
    }

    @Test
    void withoutNumaNodesTheCpusetsOnlineCpusAndOneCell() {
        Topology.Whole w = new Topology.Whole(cpus("0-7"), cpus("8-9"), cpus("2-5,9"), CpuSet.EMPTY, "/sys/fs/cgroup/cpuset.cpus.effective", 64 * GIB, CpuSet.EMPTY);
        MemoryPlan p = MemoryPlan.of(topology(List.of(), List.of(kind("uniform", "2-5")), List.of(), w));
        assertThat(p.cpus()).as("online and allowed").isEqualTo(cpus("2-5"));
        assertThat(p.oneThreadCpu()).isEqualTo(2);
        assertThat(p.nodes()).isEmpty();
        assertThat(p.pairs()).containsExactly(new Pair(0, 0, cpus("2-5"), "CPUs and memory"));
        assertThat(p.kinds()).isEmpty();
        assertThat(p.llcBytes()).isZero();
        assertThat(p.notes()).isEmpty();

        MemoryPlan unrestricted = MemoryPlan.of(topology(List.of(), List.of(kind("uniform", "0-7")), List.of(), WHOLE));
        assertThat(unrestricted.cpus()).isEqualTo(cpus("0-7"));
        assertThat(unrestricted.oneThreadCpu()).isEqualTo(1);
    }

    @Test
    void nodesWithoutCpusFallBackToTheOnlineCpusAndSaySo() {
        Topology t = topology(List.of(node(4, "", 8 * GIB)), List.of(kind("uniform", "0-7")), List.of(), WHOLE);
        MemoryPlan p = MemoryPlan.of(t);
        assertThat(p.cpus()).isEqualTo(cpus("0-7"));
        assertThat(p.pairs()).isEmpty();
        assertThat(p.notes()).containsExactly("no allowed NUMA node holds a CPU: no node matrix");
    }

    @Test
    void aOneThreadCaseIsTouchedFirstByTheCpusOfItsNodeOnlyWhereTheirPagesLandWithIts() {
        assertThat(MemoryPlan.of(read(Fixtures.h200())).nodeMates(1)).as("one node: every CPU").isEqualTo(cpus("0-15"));
        MemoryPlan opteron = MemoryPlan.of(hwloc("16amd64-8n2c"));
        assertThat(opteron.nodeMates(1)).as("node 0's CPUs, not the machine's").isEqualTo(cpus("0-1"));
        assertThat(opteron.nodeMates(11)).isEqualTo(cpus("10-11"));
        // a node with CPUs and no memory: its pages go where the kernel picks, so the CPU touches alone
        MemoryPlan memoryless = MemoryPlan.of(topology(List.of(node(0, "0-3", 8 * GIB), node(1, "4-7", 0L)), List.of(kind("uniform", "0-7")), List.of(), WHOLE));
        assertThat(memoryless.nodeMates(5)).isEqualTo(cpus("5"));
        assertThat(memoryless.nodeMates(2)).isEqualTo(cpus("0-3"));
        // no NUMA nodes: the kernel's node 0 holds every measured CPU
        MemoryPlan none = MemoryPlan.of(topology(List.of(), List.of(kind("uniform", "0-7")), List.of(), WHOLE));
        assertThat(none.nodeMates(1)).isEqualTo(cpus("0-7"));
    }

    @Test
    void cpu0OnlyWhenItIsTheOnlyChoice() {
        assertThat(MemoryPlan.notCpu0(cpus("0"))).isEqualTo(0);
        assertThat(MemoryPlan.notCpu0(cpus("0,5"))).isEqualTo(5);
        assertThat(MemoryPlan.notCpu0(cpus("3-4"))).isEqualTo(3);
        assertThat(MemoryPlan.notCpu0(CpuSet.EMPTY)).isEqualTo(0);

        // the lowest-id node with CPUs decides, even where the kernel numbered its CPUs higher
        List<NumaNode> swapped = List.of(node(1, "0-7", 8 * GIB), node(0, "8-15", 8 * GIB));
        assertThat(MemoryPlan.pickCpu(cpus("0-15"), swapped)).isEqualTo(8);
        // a node 0 of CPU 0 alone keeps the figure on node 0: its only CPU
        assertThat(MemoryPlan.pickCpu(cpus("0-3"), List.of(node(0, "0", 8 * GIB), node(1, "1-3", 8 * GIB)))).isEqualTo(0);

        MemoryPlan p = MemoryPlan.of(topology(List.of(node(0, "0", 8 * GIB)), List.of(kind("uniform", "0")), List.of(), WHOLE));
        assertThat(p.oneThreadCpu()).isEqualTo(0);
        assertThat(p.pairs()).containsExactly(new Pair(0, 0, cpus("0"), "CPUs and memory"));
    }

    @Test
    void theBigKindWhereverItsCpusAre() {
        // E-cores numbered first, P-cores on the second node: the P-core kind still decides
        Topology t = topology(List.of(node(0, "0-3", 8 * GIB), node(1, "4-7", 8 * GIB)),
                List.of(kind("P-core", "4-7"), kind("E-core", "0-3")), List.of(), WHOLE);
        MemoryPlan p = MemoryPlan.of(t);
        assertThat(p.oneThreadCpu()).isEqualTo(4);
        assertThat(p.kinds()).containsExactly(new Kind("P-core", 4, 1), new Kind("E-core", 1, 0));
        assertThat(p.nodes()).hasSize(2);

        // Arm kinds by MIDR come sorted by name: the family names the big one
        assertThat(MemoryPlan.bigKind(List.of(kind("Cortex-A55", "0-3"), kind("Cortex-A78", "4-6"), kind("Cortex-X1", "7"))))
                .get().extracting(CoreKind::name).isEqualTo("Cortex-X1");
        assertThat(MemoryPlan.bigKind(List.of(kind("Cortex-A510", "0-3"), kind("Cortex-A710", "4-7"))))
                .get().extracting(CoreKind::name).isEqualTo("Cortex-A710");
        assertThat(MemoryPlan.bigKind(List.of(kind("big", "0-3"), kind("medium", "4-5"), kind("small", "6-7"))))
                .get().extracting(CoreKind::name).isEqualTo("big");
        assertThat(MemoryPlan.bigKind(List.of(kind("uniform", "0-7")))).isEmpty();

        MemoryPlan arm = MemoryPlan.of(topology(List.of(node(0, "0-7", 8 * GIB)),
                List.of(kind("Cortex-A55", "0-3"), kind("Cortex-A78", "4-7")), List.of(), WHOLE));
        assertThat(arm.oneThreadCpu()).isEqualTo(4);
        assertThat(arm.kinds()).containsExactly(new Kind("Cortex-A55", 1, 0), new Kind("Cortex-A78", 4, 0));
    }

    @Test
    void aKindOutsideTheMeasuredCpusIsLeftOutWithANote() {
        Topology t = topology(List.of(node(0, "0-3", 8 * GIB)), List.of(kind("P-core", "0-3"), kind("E-core", "4-7")), List.of(), WHOLE);
        MemoryPlan p = MemoryPlan.of(t);
        assertThat(p.kinds()).containsExactly(new Kind("P-core", 1, 0));
        assertThat(p.notes()).containsExactly("CPUs 4-7: in no allowed NUMA node (left out)",
                "E-core: no CPU among the measured ones (left out)");
    }

    @Test
    void graceEmptyGpuNodesAreOneNoteAndTheGpuMemoryAColumn() {
        List<NumaNode> nodes = new ArrayList<>(List.of(node(0, "0-71", 480 * GIB), gpuNode(1, 96 * GIB, "0009:01:00.0")));
        for (int id = 2; id <= 9; id++) nodes.add(gpuNode(id, 0L, null));
        Topology t = topology(nodes, List.of(kind("uniform", "0-71")), List.of(), WHOLE);
        MemoryPlan p = MemoryPlan.of(t);
        assertThat(p.nodes()).as("one node with CPUs").isEmpty();
        assertThat(p.pairs()).containsExactly(new Pair(0, 0, cpus("0-71"), "CPUs and memory"),
                new Pair(0, 1, cpus("0-71"), "GPU memory of 0009:01:00.0"));
        assertThat(p.notes()).containsExactly("nodes 2-9: no memory (left out)");
        assertThat(MemoryPlan.memoryRole(gpuNode(3, GIB, null))).isEqualTo("GPU memory");
    }

    @Test
    void unknownMemoryCountsZeroDoesNot() {
        List<NumaNode> nodes = List.of(node(0, "0-3", null), node(1, "4-7", 0L), node(2, "", null), node(3, "", 0L));
        MemoryPlan p = MemoryPlan.of(topology(nodes, List.of(kind("uniform", "0-7")), List.of(), WHOLE));
        assertThat(p.nodes()).as("node 1 has no memory: one node left, no per-node runs").isEmpty();
        assertThat(p.pairs()).containsExactly(new Pair(0, 0, cpus("0-3"), "CPUs and memory"), new Pair(0, 2, cpus("0-3"), "memory only"),
                new Pair(1, 0, cpus("4-7"), "CPUs and memory"), new Pair(1, 2, cpus("4-7"), "memory only"));
        assertThat(p.notes()).containsExactly("node 3: no memory (left out)", "node 1: CPUs but no memory (rows only)");

        MemoryPlan two = MemoryPlan.of(topology(List.of(node(0, "0-3", null), node(1, "4-7", null)), List.of(kind("uniform", "0-7")), List.of(), WHOLE));
        assertThat(two.nodes()).containsExactly(new Node(0, cpus("0-3")), new Node(1, cpus("4-7")));
    }

    @Test
    void availableCacheIsTheTopLevelServingTheCpus() {
        CpuSet all = cpus("0-7");
        List<Cache> caches = List.of(cache(1, "data", 32L << 10, "0"), cache(2, "unified", 1L << 20, "0"),
                cache(3, "unified", 32L << 20, "0-3"), cache(3, "unified", 32L << 20, "4-7"), cache(3, "instruction", 1L << 20, "0-7"));
        assertThat(MemoryPlan.availableCache(caches, all)).isEqualTo(64L << 20);
        assertThat(MemoryPlan.availableCache(caches, cpus("4-5"))).as("only the L3 serving 4-5").isEqualTo(32L << 20);
        assertThat(MemoryPlan.availableCache(List.of(cache(3, "unified", null, "0-7")), all)).as("size unknown").isZero();
        assertThat(MemoryPlan.availableCache(List.of(cache(2, "data", 2L << 20, "0-3"), cache(2, "data", 2L << 20, "4-7"),
                cache(2, "instruction", 2L << 20, "0-7")), all)).as("no unified cache at the top: data").isEqualTo(4L << 20);
        assertThat(MemoryPlan.availableCache(List.of(cache(3, "unified", 8L << 20, "8-15"), cache(2, "unified", 1L << 20, "0"),
                cache(2, "unified", 1L << 20, "1")), cpus("0-1"))).as("an L3 without a measured CPU does not set the level").isEqualTo(2L << 20);
        assertThat(MemoryPlan.availableCache(List.of(), all)).isZero();
    }
}
