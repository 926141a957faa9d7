package hostside.rack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.machine.PciDevice;
import hostside.machine.PciKind;
import hostside.machine.Topology;

/** The checklist's pure helpers: where a GPU's feeders belong, node roles, the Grace floors. */
class RackRulesTest {
    static PciDevice gpu(String address, Integer numa, String localCpus) {
        return new PciDevice(address, PciKind.GPU, "GPU0", "0x030200", "0x10de", "0x2342", "NVIDIA", "nvidia", numa,
                CpuSet.parseList(localCpus), null, null, null, List.of(), null, false, null);
    }

    static Topology.NumaNode node(int id, String cpus, long gib, boolean gpuMemory) {
        return new Topology.NumaNode(id, CpuSet.parseList(cpus), gib << 30, gpuMemory, gpuMemory ? "0009:01:00.0" : null, List.of());
    }

    // a GH200 in NUMA mode: node 0 Grace, node 1 the GPU's HBM, 2-8 empty
    final List<Topology.NumaNode> gh200 = List.of(node(0, "0-71", 480, false), node(1, "", 96, true), node(2, "", 0, false));
    // two sockets
    final List<Topology.NumaNode> twoSockets = List.of(node(0, "0-55,112-167", 1024, false), node(1, "56-111,168-223", 1024, false));

    @Test
    void theFeedersNodeIsTheCpuNodeNeverTheGpuMemoryNode() {
        // the kernel puts the GPU's PCI function on its Grace's node
        assertThat(PlacementChecks.cpuNode(gpu("0009:01:00.0", 0, "0-71"), gh200)).isEqualTo(0);
        // NVML's NUMA id on a coherent platform is the GPU-memory node (vllm#39361): the local CPUs decide
        assertThat(PlacementChecks.cpuNode(gpu("0009:01:00.0", 1, "0-71"), gh200)).isEqualTo(0);
        assertThat(PlacementChecks.cpuNode(gpu("0009:01:00.0", 1, ""), gh200)).as("nothing names a CPU node").isNull();
        // two sockets: numa_node says it; without it, the local CPUs
        assertThat(PlacementChecks.cpuNode(gpu("0000:c1:00.0", 1, "56-111,168-223"), twoSockets)).isEqualTo(1);
        assertThat(PlacementChecks.cpuNode(gpu("0000:c1:00.0", null, "56-111,168-223"), twoSockets)).isEqualTo(1);
        // a VM that calls every CPU local on a two-node machine says nothing
        assertThat(PlacementChecks.cpuNode(gpu("0000:c1:00.0", null, "0-223"), twoSockets)).isNull();
    }

    @Test
    void everyNodeHasARole() {
        assertThat(MemoryChecks.role(gh200.get(0))).isEqualTo("CPUs 0-71 and 480 GiB");
        assertThat(MemoryChecks.role(gh200.get(1))).isEqualTo("GPU memory of 0009:01:00.0 (96 GiB)");
        assertThat(MemoryChecks.role(gh200.get(2))).isNull();
        assertThat(MemoryChecks.role(node(3, "", 64, false))).isEqualTo("64 GiB, no CPUs");
        // a size that could not be read (a recording's past any machine's) is unknown, never "no memory"
        Topology.NumaNode unread = new Topology.NumaNode(4, CpuSet.parseList("0-3"), null, false, null, List.of());
        assertThat(MemoryChecks.role(unread)).isEqualTo("CPUs 0-3, memory of unknown size");
        assertThat(MemoryChecks.ids(List.of(2, 3, 4, 5, 6, 7, 8, 10))).isEqualTo("2-8,10");
    }

    @Test
    void graceFloorsFollowTheGuidesTableByCapacity() {
        // Grace Hopper 120 GB: 410 GB/s; 480 GB: 288; a Grace CPU superchip's 120 or 240 GB a socket: 410 each
        assertThat(MemoryChecks.graceFloor(120_000_000_000L)).isEqualTo(410);
        assertThat(MemoryChecks.graceFloor(111L << 30)).as("MemTotal of a 120 GB part is less than 120 GB").isEqualTo(410);
        assertThat(MemoryChecks.graceFloor(240_000_000_000L)).isEqualTo(410);
        assertThat(MemoryChecks.graceFloor(480_000_000_000L)).isEqualTo(288);
        assertThat(MemoryChecks.graceFloor(440L << 30)).isEqualTo(288);
        assertThat(MemoryChecks.graceFloor(64L << 30)).as("no row for it").isZero();
        assertThat(MemoryChecks.graceFloor(1L << 40)).isZero();
    }

    @Test
    void verdictLabelsAreTheContractsAndParseBack() {
        for (RackVerdict v : RackVerdict.values()) assertThat(RackVerdict.parse(v.toString())).isEqualTo(v);
        assertThat(RackVerdict.NA.toString()).isEqualTo("n/a");
        assertThat(RackVerdict.NOT_RUN.toString()).isEqualTo("not run");
        for (RackItem i : RackItem.values()) assertThat(RackItem.parse(i.id())).isEqualTo(i);
        assertThat(RackItem.values()).hasSize(22);
    }
}
