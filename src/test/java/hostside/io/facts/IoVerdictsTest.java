package hostside.io.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.testing.RuleTally;

/** Each verdict fires on the machine that earns it and stays silent on the healthy one. */
class IoVerdictsTest {
    static final List<Integer> GPU_ON_0 = Rig.gpusOn(0, 0);
    static final List<Integer> NO_GPU = List.of();

    @TempDir
    Path tmp;

    private static List<String> texts(List<Finding> fs) {
        return fs.stream().map(f -> f.severity() + " " + f.subject() + ": " + f.text()).toList();
    }

    @Test
    void theHealthyBoxHasNothingToSay() {
        assertThat(new Rig(tmp).findings(GPU_ON_0, "/", "/data/imagenet", "/dev/shm")).isEmpty();
    }

    // ---- where the data lies ----

    @Test
    void networkFileSystemsSayStageToLocalNvmeOnceForAllTheirFolders() {
        List<Finding> f = new Rig(tmp).findings(GPU_ON_0, "/shared/ckpt", "/shared/data", "/data");
        assertThat(f).hasSize(1);
        assertThat(f.getFirst().severity()).isEqualTo(Severity.WARN);
        assertThat(f.getFirst().subject()).isEqualTo("/shared/ckpt and /shared/data");
        assertThat(f.getFirst().text()).startsWith("/shared/ckpt and /shared/data are on NFS v4 (storage:/export/shared at /shared)")
                .contains("checkpoint loads and dataset reads go over the network")
                .contains("local NVMe to stage them to: nvme0n1, nvme1n1, nvme2n1");
    }

    @Test
    void foldersOnLocalNvmeAreQuiet() {
        // / on nvme0n1p2, /data on md0 over nvme1n1 and nvme2n1: all PCIe, none reached over a network
        assertThat(RuleTally.quiet(new Rig(tmp).findings(GPU_ON_0, "/", "/data/imagenet"), IoFactRules.NETWORK_FS)).isEmpty();
    }

    @Test
    void objectStoresThroughFuseAndHostSharesAreNamed() {
        Rig r = new Rig(tmp).mount("/mnt/s3", "fuse.s3fs", "s3fs", "0:70", "rw")
                .mount("/mnt/host", "virtiofs", "myshare", "0:71", "rw")
                .mount("/mnt/odd", "fuse.mystery", "mystery", "0:72", "rw");
        List<Finding> f = r.findings(GPU_ON_0, "/mnt/s3/weights", "/mnt/host/x", "/mnt/odd/y");
        assertThat(texts(f)).satisfiesExactly(
                s -> assertThat(s).startsWith("warn /mnt/s3/weights: /mnt/s3/weights is on s3fs (S3 through FUSE)")
                        .contains("go over the network"),
                s -> assertThat(s).startsWith("warn /mnt/host/x: /mnt/host/x is on virtiofs (a folder shared by the VM host)")
                        .contains("crosses the hypervisor"),
                s -> assertThat(s).startsWith("info /mnt/odd/y: /mnt/odd/y is on mystery (FUSE)").contains("user-space daemon"));
    }

    @Test
    void aDiskThatIsReallyOnTheNetwork() {
        Rig r = new Rig(tmp);
        String c = "/sys/devices/virtual/nvme-fabrics/ctl/nvme5";
        r.put(c + "/transport", "tcp\n").link("/sys/class/nvme/nvme5", c)
                .disk("nvme5n1", c + "/nvme5n1", "259:50", "[none] mq-deadline", 0)
                .mount("/remote", "xfs", "/dev/nvme5n1", "259:50", "rw");
        List<Finding> f = r.findings(GPU_ON_0, "/remote/ckpt");
        assertThat(texts(f)).singleElement().asString()
                .contains("which lies on nvme5n1 (NVMe over TCP): a disk that looks local but is reached over the network")
                .doesNotContain("(nvme5n1");
    }

    @Test
    void smallReadAheadOnANetworkFileSystem() {
        Rig r = new Rig(tmp).put("/sys/class/bdi/0:53/read_ahead_kb", "128\n");
        List<Finding> f = r.findings(GPU_ON_0, "/shared/ckpt");
        assertThat(texts(f)).hasSize(2).anySatisfy(s -> assertThat(s)
                .startsWith("warn /shared/ckpt: read-ahead on /shared (NFS v4, holding /shared/ckpt) is 128 KiB")
                .contains("(/sys/class/bdi/0:53/read_ahead_kb)"));
        assertThat(f).anySatisfy(x -> {
            assertThat(x.id()).isEqualTo("M4-READ-AHEAD");
            assertThat(x.fix()).contains("echo 16384 >");
        });
        assertThat(f).anySatisfy(x -> assertThat(x.id()).isEqualTo("M4-NETWORK-FS"));
    }

    @Test
    void readAheadAtTheLineOnANetworkFileSystemIsQuiet() {
        Rig r = new Rig(tmp).put("/sys/class/bdi/0:53/read_ahead_kb", IoVerdicts.SMALL_READ_AHEAD_KB + "\n");
        assertThat(RuleTally.quiet(r.findings(GPU_ON_0, "/shared/ckpt"), IoFactRules.READ_AHEAD))
                .singleElement().extracting(Finding::id).isEqualTo(IoFactRules.NETWORK_FS.id());
    }

    @Test
    void smallReadAheadOnALocalDiskIsNoFinding() {
        Rig r = new Rig(tmp);
        assertThat(r.read("/").dataDirs().getFirst().readAheadKb()).isEqualTo(128);
        assertThat(RuleTally.quiet(r.findings(GPU_ON_0, "/"), IoFactRules.READ_AHEAD)).isEmpty();
    }

    @Test
    void rotationalDisksWarnButVirtioDisksOnlySayTheFlagMeansNothing() {
        Rig r = new Rig(tmp);
        r.disk("sda", "/sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda", "8:0", "[mq-deadline] none", 1)
                .put("/sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/model", "ST4000NM0035\n")
                .link("/sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda/device", "../../../0:0:0:0")
                .mount("/archive", "ext4", "/dev/sda", "8:0", "rw");
        assertThat(texts(r.findings(GPU_ON_0, "/archive/a", "/archive/b"))).singleElement().asString()
                .startsWith("warn /archive/a and /archive/b: /archive/a and /archive/b lie on sda (ST4000NM0035), a rotational disk");

        r.disk("vdb", "/sys/devices/pci0000:00/0000:00:05.0/virtio3/block/vdb", "254:16", "[none] mq-deadline", 1)
                .mount("/vm", "ext4", "/dev/vdb", "254:16", "rw");
        assertThat(texts(r.findings(GPU_ON_0, "/vm"))).singleElement().asString()
                .startsWith("info /vm: /vm lies on vdb, which the kernel marks rotational: virtio disks say so by default");

        r.put("/sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda/queue/rotational", "0\n");
        assertThat(RuleTally.quiet(r.findings(GPU_ON_0, "/archive"), IoFactRules.ROTATIONAL)).isEmpty();
    }

    @Test
    void aRotationalDiskUnderRaidIsFoundThroughTheArray() {
        Rig r = new Rig(tmp);
        r.put(r.real("/sys/block/nvme2n1") + "/queue/rotational", "1\n");
        assertThat(texts(r.findings(GPU_ON_0, "/data"))).singleElement().asString().startsWith("warn /data: /data lies on nvme2n1");
    }

    @Test
    void readOnlyMountsWarnThatCheckpointsFail() {
        Rig r = new Rig(tmp).mount("/models", "ext4", "/dev/nvme0n1p1", "259:1", "ro,relatime");
        assertThat(texts(r.findings(GPU_ON_0, "/models/llama"))).singleElement().asString()
                .startsWith("warn /models/llama: /models/llama is on a read-only mount (/models)");
    }

    @Test
    void aWritableMountIsQuiet() {
        // as ext4 is mounted: rw, and errors=remount-ro, which names ro but is not the ro option
        Rig r = new Rig(tmp).mount("/models", "ext4", "/dev/nvme0n1p1", "259:1", "rw,relatime,errors=remount-ro");
        assertThat(RuleTally.quiet(r.findings(GPU_ON_0, "/models/llama"), IoFactRules.READ_ONLY)).isEmpty();
    }

    // ---- NVMe drives ----

    @Test
    void nvmeLinkNarrowerThanTheDriveIsBadSlowerIsAWarning() {
        Rig r = new Rig(tmp).nvme("nvme3n1", "nvme3", "0000:5e:00.0", 0, "16.0 GT/s PCIe", 2, "16.0 GT/s PCIe", 4)
                .nvme("nvme4n1", "nvme4", "0000:5f:00.0", 0, "8.0 GT/s PCIe", 4, "16.0 GT/s PCIe", 4);
        assertThat(texts(r.findings(GPU_ON_0, "/"))).containsExactly(
                "bad nvme3n1: nvme3n1 (nvme3 at 0000:5e:00.0) runs its PCIe link at Gen4 x2, below the drive's Gen4 x4: "
                        + "at most 3.9 GB/s instead of 7.9 GB/s each way",
                "warn nvme4n1: nvme4n1 (nvme4 at 0000:5f:00.0) runs its PCIe link at Gen3 x4, below the drive's Gen4 x4: "
                        + "at most 3.9 GB/s instead of 7.9 GB/s each way");
        assertThat(r.findings(GPU_ON_0, "/")).allSatisfy(x -> {
            assertThat(x.id()).isEqualTo("M4-NVME-LINK");
            assertThat(x.fix()).contains("check the slot it sits in");
        });
    }

    @Test
    void nvmeLinksAtTheirMaximumAreQuiet() {
        // Gen4 x4 of Gen4 x4, and a Gen5 drive's "32.0 GT/s PCIe" of the same
        Rig r = new Rig(tmp).nvme("nvme3n1", "nvme3", "0000:5e:00.0", 0, "16.0 GT/s PCIe", 4, "16.0 GT/s PCIe", 4)
                .nvme("nvme4n1", "nvme4", "0000:5f:00.0", 0, "32.0 GT/s PCIe", 4, "32.0 GT/s PCIe", 4);
        assertThat(RuleTally.quiet(r.findings(GPU_ON_0, "/"), IoFactRules.NVME_LINK)).isEmpty();
    }

    @Test
    void nvmeSchedulerOtherThanNoneOrMqDeadline() {
        Rig r = new Rig(tmp);
        String q = r.real("/sys/block/nvme1n1") + "/queue/scheduler";
        r.put(q, "none mq-deadline kyber [bfq]\n");
        assertThat(texts(r.findings(GPU_ON_0, "/"))).singleElement().asString()
                .startsWith("warn nvme1n1: nvme1n1 uses the bfq I/O scheduler");
        assertThat(r.findings(GPU_ON_0, "/")).singleElement().satisfies(x -> {
            assertThat(x.id()).isEqualTo("M4-NVME-SCHEDULER");
            assertThat(x.fix()).contains("echo none > /sys/block/<drive>/queue/scheduler");
        });
        r.put(q, "none [mq-deadline] kyber bfq\n");
        assertThat(RuleTally.quiet(r.findings(GPU_ON_0, "/"), IoFactRules.NVME_SCHEDULER)).isEmpty();
    }

    @Test
    void bfqOnARotationalSataDiskIsNoNvmeSchedulerFinding() {
        Rig r = new Rig(tmp);
        r.disk("sda", "/sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda", "8:0", "mq-deadline [bfq] none", 0);
        assertThat(RuleTally.quiet(r.findings(GPU_ON_0, "/"), IoFactRules.NVME_SCHEDULER)).isEmpty();
    }

    // ---- network ----

    @Test
    void mtu1500OnAFastEthernetLinkAlsoCostsRoceItsMtu() {
        Rig r = new Rig(tmp);
        String eth0 = r.real("/sys/class/net/eth0");
        r.put(eth0 + "/mtu", "1500\n");
        assertThat(texts(r.findings(GPU_ON_0, "/"))).singleElement().asString()
                .startsWith("warn eth0: eth0 runs at 200 Gb/s with MTU 1500")
                .contains("RoCE on mlx5_0 runs with an RDMA MTU of 1024 instead of 4096");
        r.put(eth0 + "/speed", "-1\n");
        assertThat(RuleTally.quiet(r.findings(GPU_ON_0, "/"), IoFactRules.MTU)).as("speed unknown").isEmpty();
        r.put(eth0 + "/speed", "400000\n").put(eth0 + "/type", "32\n");
        assertThat(RuleTally.quiet(r.findings(GPU_ON_0, "/"), IoFactRules.MTU)).as("IPoIB has its own MTUs").isEmpty();
    }

    @Test
    void mtu1500JustBelow100GbsOrJumboFramesAt100GbsAreQuiet() {
        Rig r = new Rig(tmp);
        String eth0 = r.real("/sys/class/net/eth0");
        r.put(eth0 + "/mtu", "1500\n").put(eth0 + "/speed", (IoVerdicts.FAST_LINK_MBPS - 1) + "\n");
        assertThat(RuleTally.quiet(r.findings(GPU_ON_0, "/"), IoFactRules.MTU)).as("just below 100 Gb/s").isEmpty();
        r.put(eth0 + "/mtu", "9000\n").put(eth0 + "/speed", IoVerdicts.FAST_LINK_MBPS + "\n");
        assertThat(RuleTally.quiet(r.findings(GPU_ON_0, "/"), IoFactRules.MTU)).as("100 GbE with jumbo frames").isEmpty();
    }

    @Test
    void rdmaPortStatesSayWhatIsMissing() {
        Rig r = new Rig(tmp);
        String dev = r.real("/sys/class/infiniband/mlx5_0");
        r.port("mlx5_0", dev, 1, "2: INIT", "5: LinkUp", "400 Gb/sec (4X NDR)", "InfiniBand", null)
                .port("mlx5_0", dev, 2, "1: DOWN", "2: Polling", "10 Gb/sec (4X SDR)", "InfiniBand", null);
        assertThat(texts(r.findings(GPU_ON_0, "/"))).satisfiesExactly(
                s -> assertThat(s).startsWith("bad mlx5_0 port 1: mlx5_0 port 1 (InfiniBand, eth0) is INIT with its link up: "
                        + "no subnet manager has brought it to ACTIVE"),
                s -> assertThat(s).startsWith("warn mlx5_0 port 2: mlx5_0 port 2 (InfiniBand, eth0) is DOWN, physical state "
                        + "Polling: if it is cabled"));
        r.port("mlx5_0", dev, 1, "2: INIT", "5: LinkUp", "200 Gb/sec (4X HDR)", "Ethernet", "eth0").remove(dev + "/ports/2");
        assertThat(texts(r.findings(GPU_ON_0, "/"))).singleElement().asString()
                .startsWith("bad mlx5_0 port 1: mlx5_0 port 1 (Ethernet, eth0) is INIT with its link up: RDMA traffic meant for it");
    }

    @Test
    void activeRdmaPortsAreQuiet() {
        Rig r = new Rig(tmp);
        String dev = r.real("/sys/class/infiniband/mlx5_0");
        r.port("mlx5_0", dev, 2, "4: ACTIVE", "5: LinkUp", "400 Gb/sec (4X NDR)", "InfiniBand", null);
        assertThat(RuleTally.quiet(r.findings(GPU_ON_0, "/"), IoFactRules.RDMA_PORT)).isEmpty();
    }

    @Test
    void softwareRdmaDevicesAreNotJudged() {
        Rig r = new Rig(tmp);
        String dir = "/sys/devices/virtual/infiniband/rxe0";
        r.link("/sys/class/infiniband/rxe0", dir).port("rxe0", dir, 1, "1: DOWN", "3: Disabled", "10 Gb/sec", "Ethernet", null);
        assertThat(RuleTally.quiet(r.findings(GPU_ON_0, "/"), IoFactRules.RDMA_PORT)).isEmpty();
    }

    @Test
    void rdmaWithoutPeermemOnlyMattersWithGpus() {
        Rig r = new Rig(tmp).put("/proc/modules", "nvidia_fs 1 0 - Live 0x0\n");
        assertThat(texts(r.findings(GPU_ON_0, "/"))).singleElement().asString()
                .startsWith("warn GPUDirect RDMA: RDMA devices (mlx5_0) and GPUs, but neither nvidia_peermem nor nv_peer_mem is "
                        + "loaded (/proc/modules), whether DMA-BUF can take its place is not known (no NVIDIA driver version read)");
        assertThat(r.findings(GPU_ON_0, "/")).singleElement().satisfies(x -> {
            assertThat(x.id()).isEqualTo("M4-GPUDIRECT-RDMA");
            assertThat(x.fix()).contains("modprobe nvidia_peermem").contains("NCCL_DEBUG=INFO");
        });
        assertThat(RuleTally.quiet(r.findings(NO_GPU, "/"), IoFactRules.GPUDIRECT_RDMA)).isEmpty();
        r.remove("/proc/modules");
        assertThat(RuleTally.quiet(r.findings(GPU_ON_0, "/"), IoFactRules.GPUDIRECT_RDMA)).as("module state unknown").isEmpty();
    }

    static final String OPEN_DRIVER = "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build  (dvs-builder@U22-I3-AF03-09-1)\n";
    static final String PROPRIETARY_DRIVER = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  Tue Sep 23 09:51:35 UTC 2025\n";

    @Test
    void withoutPeermemDmaBufIsThePathWhereTheOpenModulesRunOnLinux512OrLater() {
        Rig r = new Rig(tmp).put("/proc/modules", "nvidia_fs 1 0 - Live 0x0\n")
                .put("/proc/driver/nvidia/version", OPEN_DRIVER).put("/proc/sys/kernel/osrelease", "6.8.0-49-generic\n");
        Finding open = r.findings(GPU_ON_0, "/").getFirst();
        assertThat(open.id()).isEqualTo("M4-GPUDIRECT-RDMA");
        assertThat(open.severity()).isEqualTo(Severity.INFO);
        assertThat(open.fix()).isEmpty();
        assertThat(open.text()).contains("through DMA-BUF, which NVIDIA recommends (open kernel modules, Linux 6.8.0-49-generic)");
        assertThat(open.evidence()).contains(Evidence.fact("/proc/driver/nvidia/version", "open kernel modules"));

        r.put("/proc/sys/kernel/osrelease", "5.11.22\n");
        assertThat(r.findings(GPU_ON_0, "/").getFirst()).satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.text()).contains("needs Linux 5.12 or later, not 5.11.22");
        });
        r.put("/proc/sys/kernel/osrelease", "5.12.0\n").put("/proc/driver/nvidia/version", PROPRIETARY_DRIVER);
        assertThat(r.findings(GPU_ON_0, "/").getFirst()).satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.text()).contains("needs NVIDIA's open kernel modules, which are not the ones loaded");
        });
    }

    @Test
    void aKernelReleaseReadsAsItsMajorAndMinor() {
        assertThat(IoFacts.GpuDirect.kernelVersion("6.8.0-49-generic")).containsExactly(6, 8);
        assertThat(IoFacts.GpuDirect.kernelVersion("5.12")).containsExactly(5, 12);
        assertThat(IoFacts.GpuDirect.kernelVersion("rc-6.1")).isNull();
        assertThat(IoFacts.GpuDirect.kernelVersion(null)).isNull();
        assertThat(new IoFacts.GpuDirect(false, null, false, "/proc/modules", null, true, "4.18.0-553.el8").dmaBufPossible()).isFalse();
        assertThat(new IoFacts.GpuDirect(false, null, false, "/proc/modules", null, null, "6.8.0").dmaBufPossible()).isNull();
        assertThat(new IoFacts.GpuDirect(false, null, false, "/proc/modules", null, false, null).dmaBufPossible()).isFalse();
    }

    @Test
    void gpusAndRdmaWithNvidiaPeermemLoadedAreQuiet() {
        assertThat(RuleTally.quiet(new Rig(tmp).findings(GPU_ON_0, "/"), IoFactRules.GPUDIRECT_RDMA)).isEmpty();
    }

    @Test
    void nicsAndDrivesOnNoGpusNumaNode() {
        Rig r = new Rig(tmp).nic("eth1", "0000:86:00.0", 1, "mlx5_core", "400000", 9000)
                .nic("eno1", "0000:87:00.0", 1, "igb", "1000", 1500)
                .nvme("nvme3n1", "nvme3", "0000:d8:00.0", 1, "16.0 GT/s PCIe", 4, "16.0 GT/s PCIe", 4);
        assertThat(texts(r.findings(GPU_ON_0, "/"))).satisfiesExactly(
                s -> assertThat(s).startsWith("warn eth1: eth1 is on NUMA node 1, not the GPUs' (node 0): every GPUDirect RDMA "
                        + "transfer and every staged copy crosses the inter-socket link"),
                s -> assertThat(s).startsWith("warn nvme3n1: nvme3n1 is on NUMA node 1, not the GPUs' (node 0)"));
        for (List<Integer> gpus : List.of(Rig.gpusOn(0, 1), Rig.gpusOn((Integer) null))) {
            // GPUs on both nodes; the GPU's node unknown (a VM)
            List<Finding> f = RuleTally.quiet(r.findings(gpus, "/"), IoFactRules.NUMA_NIC);
            assertThat(RuleTally.quiet(f, IoFactRules.NUMA_NVME)).as(String.valueOf(gpus)).isEmpty();
        }
    }

    @Test
    void aSlowerThanDataNicAndDrivesOnTheGpusNodeAreQuiet() {
        // eno1 just below a data NIC's speed, with no RDMA device, on node 1; the NVMe drive on the GPUs' node 0
        Rig r = new Rig(tmp).nic("eno1", "0000:87:00.0", 1, "ixgbe", String.valueOf(IoVerdicts.DATA_NIC_MBPS - 1), 9000)
                .nvme("nvme3n1", "nvme3", "0000:5e:00.0", 0, "16.0 GT/s PCIe", 4, "16.0 GT/s PCIe", 4);
        List<Finding> f = RuleTally.quiet(r.findings(GPU_ON_0, "/"), IoFactRules.NUMA_NIC);
        assertThat(RuleTally.quiet(f, IoFactRules.NUMA_NVME)).isEmpty();
    }

    // ---- GPUDirect Storage ----

    @Test
    void noNvidiaFsWithGpusAndNvmeFallsBackToCompatMode() {
        Rig r = new Rig(tmp).put("/proc/modules", "nvidia_peermem 1 0 - Live 0x0\n");
        assertThat(texts(r.findings(GPU_ON_0, "/"))).singleElement().asString()
                .startsWith("info GPUDirect Storage: GPUs and NVMe drives (nvme0n1, nvme1n1, nvme2n1) but no nvidia_fs module")
                .contains("falls back to compat mode");
        r.put("/etc/cufile.json", "{ \"properties\": { \"allow_compat_mode\": false } }");
        assertThat(texts(r.findings(GPU_ON_0, "/"))).singleElement().asString()
                .startsWith("bad GPUDirect Storage:").contains("sets allow_compat_mode to false, so cuFile calls fail");
        assertThat(RuleTally.quiet(r.findings(NO_GPU, "/"), IoFactRules.GDS)).isEmpty();
    }

    @Test
    void gpusAndNvmeWithNvidiaFsLoadedAreQuiet() {
        assertThat(RuleTally.quiet(new Rig(tmp).findings(GPU_ON_0, "/"), IoFactRules.GDS)).isEmpty();
    }
}
