package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.core.Severity;

/** nvidia-smi topo -m levels, computed from a PCIe tree. */
class AffinityTest {
    static PciDevice dev(String address, String kind, String name, String upstream, String hostBridge, Integer numa, PciLink link) {
        return new PciDevice(address, PciKind.parse(kind), name, "", "", "", kind, "", numa, CpuSet.parseList(numa == null ? "" : numa == 0 ? "0-15" : "16-31"),
                link, upstream, hostBridge, name.startsWith("mlx") ? List.of(name) : List.of(), null, name.startsWith("mlx"), null);
    }

    // Socket 0: root port 00:01.0 -> switch (01:00.0 up, 02:08.0 / 02:10.0 down) -> GPU0, mlx5_0;
    // 02:10.0 also leads to a second switch (04:00.0 up, 05:00.0 down) -> GPU1.
    // Root port 00:02.0 -> GPU2 on the same host bridge. Host bridge pci0000:40 on node 0 -> GPU3.
    // Host bridge pci0000:80 on node 1 -> mlx5_1.
    final List<PciDevice> tree = List.of(
            dev("0000:00:01.0", "bridge", "", null, "pci0000:00", 0, null),
            dev("0000:01:00.0", "bridge", "", "0000:00:01.0", "pci0000:00", 0, null),
            dev("0000:02:08.0", "bridge", "", "0000:01:00.0", "pci0000:00", 0, null),
            dev("0000:02:10.0", "bridge", "", "0000:01:00.0", "pci0000:00", 0, null),
            dev("0000:03:00.0", "gpu", "GPU0", "0000:02:08.0", "pci0000:00", 0, null),
            dev("0000:03:00.1", "nic", "mlx5_0", "0000:02:08.0", "pci0000:00", 0, null),
            dev("0000:04:00.0", "bridge", "", "0000:02:10.0", "pci0000:00", 0, null),
            dev("0000:05:00.0", "bridge", "", "0000:04:00.0", "pci0000:00", 0, null),
            dev("0000:06:00.0", "gpu", "GPU1", "0000:05:00.0", "pci0000:00", 0, null),
            dev("0000:00:02.0", "bridge", "", null, "pci0000:00", 0, null),
            dev("0000:07:00.0", "gpu", "GPU2", "0000:00:02.0", "pci0000:00", 0, null),
            dev("0000:41:00.0", "gpu", "GPU3", null, "pci0000:40", 0, null),
            dev("0000:81:00.0", "nic", "mlx5_1", null, "pci0000:80", 1, null));

    String level(String a, String b) {
        Map<String, PciDevice> by = new HashMap<>();
        for (PciDevice d : tree) by.put(d.address(), d);
        PciDevice x = tree.stream().filter(d -> d.name().equals(a)).findFirst().orElseThrow();
        PciDevice y = tree.stream().filter(d -> d.name().equals(b)).findFirst().orElseThrow();
        return Affinity.level(x, y, by, 2);
    }

    @Test
    void levels() {
        assertThat(level("GPU0", "GPU0")).isEqualTo("X");
        assertThat(level("GPU0", "mlx5_0")).isEqualTo("PIX");   // one port of one switch
        assertThat(level("GPU0", "GPU1")).isEqualTo("PXB");     // two switches
        assertThat(level("GPU1", "mlx5_0")).isEqualTo("PXB");
        assertThat(level("GPU0", "GPU2")).isEqualTo("PHB");     // different root ports
        assertThat(level("GPU0", "GPU3")).isEqualTo("NODE");    // other host bridge, same node
        assertThat(level("GPU0", "mlx5_1")).isEqualTo("SYS");   // other node
        assertThat(level("mlx5_0", "GPU0")).isEqualTo(level("GPU0", "mlx5_0"));
    }

    @Test
    void unknownNumaOnAMultiNodeMachineIsUnknown() {
        PciDevice a = dev("0000:41:00.0", "gpu", "GPU0", null, "pci0000:40", null, null);
        PciDevice b = dev("0000:81:00.0", "gpu", "GPU1", null, "pci0000:80", null, null);
        assertThat(Affinity.level(a, b, Map.of(), 2)).isEqualTo("?");
        assertThat(Affinity.level(a, b, Map.of(), 1)).isEqualTo("NODE");
    }

    @Test
    void verdictsNameTheNearestNic() {
        Topology topo = new Topology(2, 0, 0, "", List.of(
                new Topology.NumaNode(0, CpuSet.parseList("0-15"), 1L, false, null, List.of()),
                new Topology.NumaNode(1, CpuSet.parseList("16-31"), 1L, false, null, List.of())), List.of(), List.of(),
                new Topology.Whole(CpuSet.parseList("0-31"), CpuSet.EMPTY, CpuSet.EMPTY, CpuSet.EMPTY, "", null, CpuSet.parseList("0-1")));
        Affinity a = Affinity.of(tree, topo);
        assertThat(a.devices()).containsExactly("GPU0", "GPU1", "GPU2", "GPU3", "mlx5_0", "mlx5_1");
        assertThat(a.verdicts()).allSatisfy(f -> assertThat(f.id()).isEqualTo(TopologyRules.NIC_DISTANCE.id()));
        assertThat(a.verdicts().get(0).text()).startsWith("GPU0 and mlx5_0 share a PCIe switch (PIX): NCCL uses GPUDirect RDMA between them");
        assertThat(a.verdicts().get(0).severity()).isEqualTo(Severity.OK);
        assertThat(a.verdicts().get(3).text()).contains("NODE");
        assertThat(a.verdicts().get(3).severity()).isEqualTo(Severity.WARN);
        assertThat(a.verdicts().get(3).fix()).isEqualTo(TopologyRules.NIC_DISTANCE.fix());
    }
}
