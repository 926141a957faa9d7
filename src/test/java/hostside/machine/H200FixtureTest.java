package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import hostside.Fixtures;
import hostside.core.CpuSet;
import hostside.core.Severity;
import hostside.fs.FsRoot;

/** The NVIDIA H200 VM that GPU features run on, as recorded in testdata/h200. */
class H200FixtureTest {
    final MachineFacts f = MachineReader.read(FsRoot.open(Fixtures.h200().toString()));

    @Test
    void oneSocketOfSixteenCoresWithoutSmt() {
        assertThat(f.topology().packages()).isEqualTo(1);
        assertThat(f.topology().cores()).isEqualTo(16);
        assertThat(f.topology().threads()).isEqualTo(16);
        assertThat(f.topology().numaNodes()).extracting(Topology.NumaNode::id).containsExactly(0);
        assertThat(f.topology().numaNodes().getFirst().cpus()).isEqualTo(CpuSet.parseList("0-15"));
    }

    @Test
    void theGpuRunsGen5x16AtItsMaximumWithNoNumaNode() {
        assertThat(f.gpus()).hasSize(1);
        PciDevice gpu = f.gpus().getFirst();
        assertThat(gpu.address()).isEqualTo("0000:00:06.0");
        assertThat(gpu.name()).isEqualTo("GPU0");
        assertThat(gpu.description()).isEqualTo("NVIDIA H200");
        assertThat(gpu.link()).isEqualTo(new PciLink(32.0, 16, 32.0, 16));
        assertThat(gpu.link().belowMaxSpeed()).isFalse();
        assertThat(gpu.numaNode()).isNull();
        assertThat(gpu.localCpus()).isEqualTo(CpuSet.parseList("0-15"));
        assertThat(gpu.hostBridge()).isEqualTo("pci0000:00");
        assertThat(gpu.upstream()).isNull();
    }

    @Test
    void theVirtioNicMeetsTheGpuAtTheHostBridge() {
        assertThat(f.nics()).extracting(PciDevice::label).containsExactly("eth0");
        assertThat(f.nics().getFirst().rdma()).isFalse();
        assertThat(f.affinity().devices()).containsExactly("GPU0", "eth0");
        assertThat(f.affinity().matrix().get(0)).containsExactly("X", "PHB");
        assertThat(f.affinity().verdicts().getFirst().text()).contains("PHB").contains("no RDMA device");
        // a NIC without RDMA stages through host memory wherever it sits: its distance is no warning
        assertThat(f.affinity().verdicts().getFirst().severity()).isEqualTo(Severity.INFO);
    }

    @Test
    void theVmQuirksAreReportedNotHidden() {
        assertThat(f.host().virtualization()).startsWith("VM");
        assertThat(f.host().nvidiaDriver()).isEqualTo("580.159.04");
        assertThat(f.host().openKernelModules()).as("NVRM version: NVIDIA UNIX Open Kernel Module").isTrue();
        assertThat(f.iommu().state()).isEqualTo("off");
        // node0 meminfo holds 6.2 GiB while /proc/meminfo holds 126 GiB on this VM
        assertThat(f.findings()).anySatisfy(x -> assertThat(x.text()).contains("NUMA nodes add up to"));
        assertThat(f.findings()).noneSatisfy(x -> assertThat(x.severity()).isEqualTo(Severity.BAD));
        assertThat(f.kernelCmdline()).extracting(KernelCmdline.Item::text).contains("pci=realloc=off")
                .doesNotContain("--firecracker-init");
    }
}
