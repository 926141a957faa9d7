package hostside.machine;

import static hostside.machine.NvlinkBoxes.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Finding;
import hostside.gpu.nvml.NvmlGpu;

/** The GPU-to-GPU matrix on recorded machines: what nvidia-smi topo -m showed on each. */
class GpuMatrixTest {

    static List<String> row(GpuMatrix m, int i) {
        return m.matrix().get(i);
    }

    static List<String> offDiagonal(GpuMatrix m) {
        List<String> cells = new ArrayList<>();
        for (int i = 0; i < m.gpus().size(); i++) for (int j = 0; j < m.gpus().size(); j++) if (i != j) cells.add(m.matrix().get(i).get(j));
        return cells;
    }

    @Test
    void hgxH100OnNvSwitchesIsNv18Everywhere() {
        GpuMatrix m = GpuMatrix.of(hgxPci(), nodes(2), hgxNvml(-1, 0, true), null);
        assertThat(m.gpus()).containsExactly("GPU0", "GPU1", "GPU2", "GPU3", "GPU4", "GPU5", "GPU6", "GPU7");
        assertThat(offDiagonal(m)).hasSize(56).containsOnly("NV18");
        assertThat(row(m, 3).get(3)).isEqualTo("X");
        assertThat(m.pairs()).hasSize(28).allSatisfy(p -> {
            assertThat(p.nvlinks()).isEqualTo(18);
            assertThat(p.via()).isEqualTo("NVSwitch");
            assertThat(p.versions()).containsExactly("4.0");
            assertThat(p.nvlinkUnknown()).isNull();
        });
        // the PCIe level stays beside the NVLink class: what the path would be without the switches
        assertThat(m.pair("GPU0", "GPU1").orElseThrow().pcie()).isEqualTo("PHB");
        assertThat(m.pair("GPU0", "GPU4").orElseThrow().pcie()).isEqualTo("SYS");
        assertThat(m.links().getFirst()).isEqualTo(
                new GpuMatrix.GpuLinks("GPU0", "0000:1b:00.0", 18, List.of(), 0, 18, 0, List.of("4.0"), null));
        assertThat(m.notes()).isEmpty();
        assertThat(m.findings()).isEmpty(); // SYS in PCIe terms, but NVLink carries the peer traffic
    }

    @Test
    void aGpuWithLinksDownSetsItsPairsAndIsAFinding() {
        GpuMatrix m = GpuMatrix.of(hgxPci(), nodes(2), hgxNvml(3, 2, true), null);
        for (int j = 0; j < 8; j++) if (j != 3) assertThat(row(m, 3).get(j)).isEqualTo("NV16");
        assertThat(row(m, 0).get(1)).isEqualTo("NV18");
        assertThat(m.links().get(3).inactiveLinks()).containsExactly(16, 17);
        List<Finding> f = m.findings();
        assertThat(f).hasSize(1);
        assertThat(f.getFirst().subject()).isEqualTo("GPU3");
        assertThat(f.getFirst().text()).startsWith("GPU3 has 2 of its 18 NVLinks down (links 16, 17) while 16 are up: it has 89% of its NVLink bandwidth")
                .contains("ring", "tensor-parallel");
    }

    @Test
    void switchLinksWhoseFarEndNvmlDoesNotNameCountAsSwitchLinks() {
        // an older driver (no nvmlDeviceGetNvLinkRemoteDeviceType), or a VM where the switches are not visible
        GpuMatrix m = GpuMatrix.of(hgxPci(), nodes(2), hgxNvml(-1, 0, false), null);
        assertThat(offDiagonal(m)).containsOnly("NV18");
        assertThat(m.notes()).singleElement().asString().contains("counted as NVSwitch links, as NCCL");
    }

    @Test
    void gpusOfDifferentNvlinkDomainsShareNoSwitch() {
        List<NvmlGpu> nvml = new ArrayList<>(hgxNvml(-1, 0, true));
        NvmlGpu g7 = nvml.get(7);
        nvml.set(7, nvml(7, g7.pciBusId(), g7.nvLinks(), "c0ffee00-0000-0000-0000-000000000002"));
        GpuMatrix m = GpuMatrix.of(hgxPci(), nodes(2), nvml, null);
        assertThat(row(m, 7).subList(0, 4)).containsOnly("SYS");
        assertThat(row(m, 7).subList(4, 7)).containsOnly("PHB");
        assertThat(row(m, 0).get(6)).isEqualTo("NV18");
    }

    @Test
    void fourGpuHgxMeshIsNv6BetweenEveryPair() {
        GpuMatrix m = GpuMatrix.of(meshPci(), nodes(4), meshNvml(), null);
        assertThat(offDiagonal(m)).hasSize(12).containsOnly("NV6");
        assertThat(m.pairs()).allSatisfy(p -> {
            assertThat(p.via()).isEqualTo("direct");
            assertThat(p.pcie()).isEqualTo("SYS");
        });
        assertThat(m.links().get(2).toGpus()).isEqualTo(18);
        assertThat(m.findings()).isEmpty();
    }

    @Test
    void bridgedPairsAreNvLinkedAndTheRestCrossTheSockets() {
        GpuMatrix m = GpuMatrix.of(bridgedPairsPci(), nodes(2), bridgedPairsNvml(), null);
        assertThat(row(m, 0)).containsExactly("X", "NV12", "SYS", "SYS");
        assertThat(row(m, 1)).containsExactly("NV12", "X", "SYS", "SYS");
        assertThat(row(m, 2)).containsExactly("SYS", "SYS", "X", "NV12");
        assertThat(row(m, 3)).containsExactly("SYS", "SYS", "NV12", "X");
        GpuMatrix.Pair p01 = m.pair("GPU1", "GPU0").orElseThrow();
        assertThat(p01.pcie()).isEqualTo("PHB");
        assertThat(p01.versions()).containsExactly("3.1");
        assertThat(m.pair("GPU0", "GPU2").orElseThrow().nvlinks()).isZero();
        List<Finding> f = m.findings();
        assertThat(f).singleElement().satisfies(x -> assertThat(x.text())
                .startsWith("GPU0-GPU2, GPU0-GPU3, GPU1-GPU2, GPU1-GPU3: no NVLink, and their PCIe path crosses the link between CPU sockets (SYS)")
                .contains("NCCL"));
    }

    @Test
    void twoPcieCardsWithABridgeAreNv4() {
        GpuMatrix m = GpuMatrix.of(twoBridgedPci(), nodes(1), twoBridgedNvml(), null);
        assertThat(row(m, 0)).containsExactly("X", "NV4");
        GpuMatrix.Pair p = m.pairs().getFirst();
        assertThat(p.key()).isEqualTo("GPU0-GPU1");
        assertThat(p.pcie()).isEqualTo("PHB");
        assertThat(p.via()).isEqualTo("direct");
        assertThat(m.findings()).isEmpty(); // PHB, but the bridge carries the peer traffic
    }

    @Test
    void withoutNvlinkEveryPcieLevelShows() {
        GpuMatrix m = GpuMatrix.of(pcieOnlyPci(), nodes(2), pcieOnlyNvml(), null);
        assertThat(row(m, 0)).containsExactly("X", "PIX", "PXB", "PHB", "NODE", "SYS");
        assertThat(row(m, 5)).containsExactly("SYS", "SYS", "SYS", "SYS", "SYS", "X");
        assertThat(m.pairs()).allSatisfy(p -> assertThat(p.nvlinks()).isZero());
        List<Finding> f = m.findings();
        // NCCL has no NODE level: nvidia-smi's NODE (host bridges of one NUMA node) is its PHB, through the CPU
        assertThat(f).hasSize(3).allSatisfy(x -> {
            assertThat(x.id()).isEqualTo(PeerRules.PCIE_PATH.id());
            assertThat(x.fix()).isEqualTo(PeerRules.PCIE_PATH.fix());
        });
        assertThat(f.get(0).text()).startsWith("GPU0-GPU5, GPU1-GPU5, GPU2-GPU5, GPU3-GPU5, GPU4-GPU5: no NVLink").contains("(SYS)");
        assertThat(f.get(1).text()).contains(": no NVLink, and their PCIe paths meet only between host bridges of one NUMA node (NODE)");
        assertThat(f.get(2).text()).startsWith("GPU0-GPU3, GPU1-GPU3, GPU2-GPU3: no NVLink, and peer traffic goes up through the CPU's host bridge (PHB)");
    }

    @Test
    void aRecordedMachineHasThePcieClassesAndSaysWhyNvlinkIsUnknown() {
        GpuMatrix m = GpuMatrix.of(bridgedPairsPci(), nodes(2), List.of(), "recorded machine: nothing is measured under --root");
        assertThat(row(m, 0)).containsExactly("X", "PHB", "SYS", "SYS");
        assertThat(m.pairs()).allSatisfy(p -> {
            assertThat(p.nvlinks()).isNull();
            assertThat(p.nvlinkUnknown()).isEqualTo("NVLink unknown: recorded machine: nothing is measured under --root");
        });
        assertThat(m.notes()).containsExactly("NVLink unknown: recorded machine: nothing is measured under --root");
        // a PCIe path through the CPU is no finding while an NVLink bridge may carry the traffic
        assertThat(m.findings()).isEmpty();
    }

    @Test
    void aGpuNvmlDoesNotDescribeIsUnknownAloneAndTheOthersStayKnown() {
        List<NvmlGpu> nvml = new ArrayList<>(bridgedPairsNvml());
        nvml.remove(3); // NVML did not list GPU3 (a container that sees three of four)
        NvmlGpu g2 = nvml.get(2);
        nvml.set(2, new NvmlGpu(2, g2.name(), g2.uuid(), g2.pciBusId(), null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null, null, null, null, null,
                List.of("nvLinks: nvmlDeviceGetNvLinkState: Unknown Error (999)")));
        GpuMatrix m = GpuMatrix.of(bridgedPairsPci(), nodes(2), nvml, null);
        assertThat(row(m, 0)).containsExactly("X", "NV12", "SYS", "SYS");
        assertThat(m.pair("GPU2", "GPU3").orElseThrow().nvlinkUnknown())
                .isEqualTo("NVLink unknown: nvLinks: nvmlDeviceGetNvLinkState: Unknown Error (999)");
        assertThat(m.pair("GPU0", "GPU3").orElseThrow().nvlinkUnknown()).isEqualTo("NVLink unknown: NVML does not list 0000:82:00.0");
        assertThat(m.notes()).containsExactly(
                "NVLink unknown for GPU2: nvLinks: nvmlDeviceGetNvLinkState: Unknown Error (999)",
                "NVLink unknown for GPU3: NVML does not list 0000:82:00.0");
        assertThat(m.findings()).isEmpty();
    }

    @Test
    void busIdsMatchInEitherSpelling() {
        assertThat(GpuMatrix.canonical("00000000:1B:00.0")).isEqualTo("0000:1b:00.0");
        assertThat(GpuMatrix.canonical("0000:1b:00.0")).isEqualTo("0000:1b:00.0");
        assertThat(GpuMatrix.canonical("00000001:0A:00.0")).isEqualTo("0001:0a:00.0");
        assertThat(GpuMatrix.canonical("1b:00.0")).isEqualTo("1b:00.0"); // no domain: kept, and matches nothing
    }

    @Test
    void oneGpuHasNoPairs() {
        GpuMatrix m = GpuMatrix.of(List.of(gpu("0000:00:06.0", "GPU0", null, "pci0000:00", 0)), nodes(1), List.of(), "no NVIDIA driver");
        assertThat(m.matrix()).containsExactly(List.of("X"));
        assertThat(m.pairs()).isEmpty();
        assertThat(m.findings()).isEmpty();
    }
}
