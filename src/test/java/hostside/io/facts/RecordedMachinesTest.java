package hostside.io.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.Fixtures;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.fs.FsRoot;
import hostside.io.facts.IoFacts.BlockDevice;
import hostside.io.facts.IoFacts.DataDir;
import hostside.io.facts.IoFacts.Nic;
import hostside.machine.Host;

/** Real machines as recorded: the H200 VM and hwloc's captures that hold block devices, NICs or InfiniBand. */
class RecordedMachinesTest {
    private static IoFacts read(Path root, String... dirs) {
        FsRoot fs = FsRoot.open(root.toString());
        return IoFactsReader.read(fs, Host.read(fs), Arrays.stream(dirs).map(Path::of).toList());
    }

    private static Path hwloc(String name) {
        return Fixtures.hwloc().resolve(name + ".tar.bz2");
    }

    /**
     * The H200 Firecracker VM: /proc/mounts only (no mountinfo), the root on /dev/vda without
     * /sys/block in the recording, a virtio NIC that reports no speed, no module list.
     */
    @Test
    void h200() {
        IoFacts f = read(Fixtures.h200(), "/root", "/tmp", "/dev/shm", "/usr/local/nvidia/lib");
        DataDir root = f.dataDirs().getFirst();
        assertThat(root.filesystem()).isEqualTo(new IoFacts.Filesystem("/", "ext4", "/dev/vda", null, FsKind.LOCAL, "ext4",
                List.of("relatime", "discard")));
        assertThat(root.blockDevice()).as("no /sys/block in the recording").isNull();
        assertThat(f.dataDirs().get(2).filesystem().storage()).isEqualTo(FsKind.MEMORY);
        assertThat(f.dataDirs().get(2).filesystem().mountPoint()).isEqualTo("/dev/shm");
        assertThat(f.dataDirs().get(3).filesystem().type()).isEqualTo("squashfs");
        assertThat(f.dataDirs().get(3).filesystem().options()).contains("ro");
        assertThat(f.blockDevices()).isEmpty();
        assertThat(f.nics()).extracting(Nic::name).as("ifb0, ifb1 and lo are virtual").containsExactly("eth0");
        Nic eth0 = f.nics().getFirst();
        assertThat(eth0.speedMbps()).isNull();
        assertThat(eth0.speedUnknown()).isEqualTo("the driver reports -1");
        assertThat(eth0.mtu()).isEqualTo(1400);
        assertThat(eth0.operstate()).isEqualTo("up");
        assertThat(eth0.pciAddress()).isEqualTo("0000:00:03.0");
        assertThat(eth0.numaNode()).as("numa_node -1").isNull();
        assertThat(f.rdmaDevices()).isEmpty();
        assertThat(f.gpuDirect().peermem()).isNull();
        assertThat(f.gpuDirect().nvidiaFs()).isNull();
        assertThat(f.gpuDirect().cufile().present()).isFalse();
        assertThat(f.unknowns()).containsExactly("kernel modules: /proc/modules: missing, and no /sys/module");
        List<Finding> findings = IoVerdicts.of(f, Arrays.asList((Integer) null));
        assertThat(findings).singleElement().satisfies(x -> assertThat(x.text())
                .startsWith("/usr/local/nvidia/lib is on a read-only mount (/usr/local/nvidia)"));
    }

    /** A TACC node: Lustre and NFS homes, /tmp on a SATA disk, an NVMe drive known only to /sys/class/block, FDR InfiniBand. */
    @Test
    void hwlocLustreNodeWithInfiniband() {
        IoFacts f = read(hwloc("32em64t-2n8c+dax+nvme+mic+dimms"), "/work/run", "/tmp", "/admin/x");
        assertThat(f.dataDirs()).extracting(d -> d.filesystem().what()).containsExactly("Lustre", "ext3", "NFS");
        assertThat(f.dataDirs().get(1).blockDevice()).isEqualTo("sda5");
        assertThat(f.dataDirs().get(1).disks()).containsExactly("sda");
        assertThat(f.dataDirs().get(2).filesystem().options()).contains("vers=3", "rsize=1024", "proto=udp");

        BlockDevice sda = f.blockDevices().stream().filter(b -> b.name().equals("sda")).findFirst().orElseThrow();
        assertThat(sda.kind()).isEqualTo(BlockKind.SCSI);
        assertThat(sda.model()).isEqualTo("ST9250610NS");
        assertThat(sda.rotational()).isTrue();
        assertThat(sda.queue().scheduler()).isEqualTo("cfq");
        assertThat(sda.controller().pciAddress()).isEqualTo("0000:00:1f.2");
        assertThat(f.blockDevices()).extracting(BlockDevice::name).contains("nvme0n1", "pmem1").doesNotContain("ram0", "loop0", "sda1");
        assertThat(f.blockDevices().stream().filter(b -> b.name().equals("nvme0n1")).findFirst().orElseThrow().kind()).isEqualTo(BlockKind.NVME);

        assertThat(f.nics()).extracting(Nic::name).containsExactly("eth0", "eth1", "ib0");
        Nic ib0 = f.nics().get(2);
        assertThat(ib0.type()).isEqualTo("infiniband");
        assertThat(ib0.driver()).isEqualTo("mlx4_core");
        assertThat(ib0.numaNode()).isEqualTo(1);
        assertThat(ib0.rdmaDevices()).containsExactly("mlx4_0");
        assertThat(f.nics().getFirst().speedMbps()).isEqualTo(1000);

        IoFacts.RdmaDevice mlx4 = f.rdmaDevices().getFirst();
        assertThat(mlx4.name()).isEqualTo("mlx4_0");
        assertThat(mlx4.hcaType()).isEqualTo("MT4099");
        assertThat(mlx4.ports()).containsExactly(new IoFacts.RdmaPort(1, "ACTIVE", "LinkUp", "56 Gb/sec (4X FDR)", 56.0, "InfiniBand", null));
        assertThat(f.rdmaDevices().get(1).pciAddress()).as("scif0, a coprocessor's, not a NIC").isNull();

        List<String> subjects = IoVerdicts.of(f, List.of(0)).stream().map(Finding::subject).toList();
        assertThat(subjects).containsExactly("/work/run", "/admin/x", "/tmp", "ib0");
    }

    /** BeeGFS under its old name (fhgfs), NFS homes, local ext3 on a PERC RAID volume. */
    @Test
    void hwlocClusterWithBeegfs() {
        IoFacts f = read(hwloc("40intel64-4n10c+pci-conflicts"), "/scratch/a", "/home/u", "/local");
        assertThat(f.dataDirs()).extracting(d -> d.filesystem().storage()).containsExactly(FsKind.NETWORK, FsKind.NETWORK, FsKind.LOCAL);
        assertThat(f.dataDirs().getFirst().filesystem().what()).startsWith("BeeGFS");
        assertThat(f.dataDirs().get(2).disks()).containsExactly("sda");
        assertThat(f.blockDevices()).singleElement().satisfies(b -> assertThat(b.model()).isEqualTo("PERC H700"));
        assertThat(f.nics()).isEmpty();
        assertThat(IoVerdicts.of(f, List.of()).stream().map(Finding::severity)).containsExactly(Severity.WARN, Severity.WARN, Severity.WARN);
    }

    /** A VM whose disk sits in PCI domain 0x10000, a virtio NIC that reports no speed. */
    @Test
    void hwlocVmWithAWideDomain() {
        IoFacts f = read(hwloc("2pa-pcidomain32bits"), "/home", "/run/user/1000");
        assertThat(f.dataDirs().getFirst().blockDevice()).isEqualTo("vda1");
        assertThat(f.dataDirs().get(1).filesystem().storage()).isEqualTo(FsKind.MEMORY);
        BlockDevice vda = f.blockDevices().stream().filter(b -> b.name().equals("vda")).findFirst().orElseThrow();
        assertThat(vda.kind()).isEqualTo(BlockKind.VIRTIO);
        assertThat(vda.controller().pciAddress()).isEqualTo("10000:00:04.0");
        assertThat(f.nics()).singleElement().satisfies(n -> {
            assertThat(n.driver()).isEqualTo("virtio_net");
            assertThat(n.speedUnknown()).isEqualTo("the driver reports -1");
        });
        assertThat(IoVerdicts.of(f, List.of())).singleElement().satisfies(x -> assertThat(x.severity()).isEqualTo(Severity.INFO));
    }

    /** Every hwloc capture reads without an exception and renders. */
    @Test
    void everyHwlocCaptureReads() throws Exception {
        try (var files = java.nio.file.Files.list(Fixtures.hwloc())) {
            for (Path p : files.filter(x -> x.toString().endsWith(".tar.bz2")).sorted().toList()) {
                IoFacts f = read(p, "/tmp", "/home");
                assertThat(f.dataDirs()).as(p.getFileName().toString()).hasSize(2);
                assertThat(IoFactsBlocksTest.text(f)).as(p.getFileName().toString()).contains("GPUDirect");
                IoVerdicts.of(f, List.of(0));
            }
        }
    }
}
