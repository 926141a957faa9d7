package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.Fixtures;
import hostside.core.CpuSet;
import hostside.fs.FsRoot;
import hostside.gpu.nvml.FakeNvml;
import hostside.gpu.nvml.NvmlReader;
import hostside.harness.DrillContext;
import hostside.harness.ProgressSink;
import hostside.harness.Selection;
import hostside.machine.GpuDrill;
import hostside.machine.GpuMatrix;
import hostside.machine.MachineDrill;
import hostside.machine.MachineRun;
import hostside.machine.PciDevice;
import hostside.machine.PciKind;
import hostside.report.platforms.HostLink;

/** The class a fleet groups a report by: stable words derived from the facts, the same for every machine alike. */
class FleetTest {
    static MachineRun h200() {
        return MachineDrill.DRILL.run(DrillContext.alone(FsRoot.open(Fixtures.h200().toString()), Selection.all(), ProgressSink.NONE, null), MachineDrill.DRILL.defaults());
    }

    @Test
    void theH200RecordingIsOneGen5x16GpuWithoutFabric() {
        Fleet.HardwareClass c = Fleet.hardwareClass(h200(), 4096L);
        assertThat(c.gpu()).isEqualTo("NVIDIA H200");
        assertThat(c.gpuCount()).isEqualTo(1);
        assertThat(c.cores()).isEqualTo(16);
        assertThat(c.hostLink()).isEqualTo("pcie-gen5-x16");
        assertThat(c.link()).isEqualTo(new HostLink(HostLink.Kind.PCIE, 5, 16));
        assertThat(c.fabric()).isEqualTo("none");
        assertThat(c.nics()).hasToString("1xunknown");
        assertThat(c.pageSize()).isEqualTo(4096L);
        Fleet.Software s = Fleet.software(h200());
        assertThat(s.kernel()).isEqualTo("6.18.44-fc-v973-gpu");
        assertThat(s.cuda()).as("no driver was asked under --root").isNull();
    }

    @Test
    void clocksLockedComesFromModuleOnesNvmlFacts() {
        MachineRun recorded = h200();
        assertThat(Fleet.clockLock(recorded).locked()).as("a recording asks no NVML").isNull();
        // the same machine with NVML read: the fake's two GPUs, one capped at 450 W
        FakeNvml.setClockPolicy(FakeNvml.Variant.CURRENT, 1, 0, 0, 450000, 345);
        try {
            var nvml = NvmlReader.read(FakeNvml.library());
            MachineRun live = new MachineRun(recorded.facts(), GpuDrill.GpuSection.notRun("no CUDA", nvml));
            assertThat(Fleet.clockLock(live).locked()).isTrue();
            assertThat(Fleet.clockLock(live).signs()).containsExactly("GPU1: power limit 450 W, default 700 W (nvidia-smi -pl, or the platform)");
        } finally {
            FakeNvml.resetClockPolicy(FakeNvml.Variant.CURRENT);
        }
        var unlocked = NvmlReader.read(FakeNvml.library());
        assertThat(Fleet.clockLock(new MachineRun(recorded.facts(), GpuDrill.GpuSection.notRun("no CUDA", unlocked))).locked()).isFalse();
    }

    @Test
    void theConfounderSaysWhatNoMeans() {
        assertThat(ReportDocument.clocks(null, List.of())).isEqualTo("not read");
        assertThat(ReportDocument.clocks(false, List.of())).startsWith("no (").contains("cannot read a lock at the maximum clock");
        assertThat(ReportDocument.clocks(true, List.of("GPU1: power limit 450 W, default 700 W")))
                .isEqualTo("yes: GPU1: power limit 450 W, default 700 W");
    }

    static GpuMatrix.Pair pair(String a, String b, Integer nvlinks, String via) {
        return new GpuMatrix.Pair(a, b, "SYS", nvlinks, via, List.of(), nvlinks != null && nvlinks > 0 ? "NV" + nvlinks : "SYS", null);
    }

    static GpuMatrix matrix(List<GpuMatrix.Pair> pairs) {
        return new GpuMatrix(List.of("GPU0", "GPU1", "GPU2"), List.of(), pairs, List.of(), List.of(), List.of());
    }

    @Test
    void fabricFromThePairs() {
        assertThat(Fleet.fabric(matrix(List.of()), 1)).isEqualTo("none");
        assertThat(Fleet.fabric(matrix(List.of(pair("GPU0", "GPU1", 18, "NVSwitch"), pair("GPU0", "GPU2", 18, "NVSwitch"),
                pair("GPU1", "GPU2", 18, "direct and NVSwitch"))), 3)).isEqualTo("nvswitch-3");
        assertThat(Fleet.fabric(matrix(List.of(pair("GPU0", "GPU1", 12, "direct"), pair("GPU0", "GPU2", 0, ""))), 3)).isEqualTo("nvlink-pairs");
        assertThat(Fleet.fabric(matrix(List.of(pair("GPU0", "GPU1", 0, ""))), 2)).as("no peer facts: no peer-to-peer claimed").isEqualTo("none");
    }

    static PciDevice nic(Integer mbps, boolean rdma) {
        return new PciDevice("0000:01:00.0", PciKind.NIC, "eth0", "0x020000", "0x15b3", "0x1021", "ConnectX-7", "mlx5_core", 0, CpuSet.parseList("0-7"), null, null,
                null, List.of("eth0"), mbps, rdma, null);
    }

    @Test
    void nicsByCountSpeedAndRdma() {
        assertThat(Fleet.nics(List.of())).hasToString("none");
        assertThat(Fleet.nics(List.of(nic(400_000, true), nic(400_000, true), nic(25_000, false), nic(null, false))))
                .hasToString("2x400g-rdma,1x25g,1xunknown");
    }

    @Test
    void theLoadIsTheFirstFieldOfLoadavg() throws Exception {
        java.nio.file.Path root = java.nio.file.Files.createTempDirectory("fleet");
        java.nio.file.Files.createDirectories(root.resolve("proc"));
        java.nio.file.Files.createDirectories(root.resolve("sys"));
        java.nio.file.Files.writeString(root.resolve("proc/loadavg"), "0.30 0.25 0.20 1/345 6789\n");
        assertThat(Fleet.loadAverage(FsRoot.open(root.toString()))).isEqualTo(0.30);
        java.nio.file.Files.writeString(root.resolve("proc/loadavg"), "garbage\n");
        assertThat(Fleet.loadAverage(FsRoot.open(root.toString()))).isNull();
    }
}
