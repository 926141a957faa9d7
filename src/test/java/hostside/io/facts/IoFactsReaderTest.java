package hostside.io.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.fs.FsRoot;
import hostside.io.facts.IoFacts.BlockDevice;
import hostside.io.facts.IoFacts.DataDir;
import hostside.io.facts.IoFacts.Nic;
import hostside.io.facts.IoFacts.RdmaDevice;
import hostside.machine.Host;
import hostside.machine.PciLink;

class IoFactsReaderTest {
    @TempDir
    Path tmp;

    private static BlockDevice device(IoFacts f, String name) {
        return f.blockDevices().stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void aFolderOnAPartitionLiesOnItsDisk() {
        IoFacts f = new Rig(tmp).read("/home/me/ckpt");
        DataDir d = f.dataDirs().getFirst();
        assertThat(d.path()).isEqualTo("/home/me/ckpt");
        assertThat(d.exists()).as("a recording holds no data dirs").isNull();
        assertThat(d.filesystem()).isEqualTo(new IoFacts.Filesystem("/", "ext4", "/dev/nvme0n1p2", "259:2", FsKind.LOCAL, "ext4",
                List.of("noatime")));
        assertThat(d.blockDevice()).isEqualTo("nvme0n1p2");
        assertThat(d.disks()).containsExactly("nvme0n1");
        assertThat(d.readAheadKb()).isEqualTo(128);
        assertThat(d.readAheadSource()).isEqualTo("/sys/block/nvme0n1/queue/read_ahead_kb");
        assertThat(f.unknowns()).isEmpty();
    }

    @Test
    void anMdArrayResolvesToItsDrives() {
        IoFacts f = new Rig(tmp).read("/data/imagenet");
        DataDir d = f.dataDirs().getFirst();
        assertThat(d.filesystem().mountPoint()).isEqualTo("/data");
        assertThat(d.blockDevice()).isEqualTo("md0");
        assertThat(d.disks()).containsExactly("nvme1n1", "nvme2n1");
        BlockDevice md = device(f, "md0");
        assertThat(md.kind()).isEqualTo(BlockKind.MD);
        assertThat(md.model()).isEqualTo("md raid0");
        assertThat(md.slaves()).containsExactly("nvme1n1", "nvme2n1");
        assertThat(md.physical()).containsExactly("nvme1n1", "nvme2n1");
        assertThat(md.controller()).isNull();
    }

    @Test
    void deviceMapperOverPartitionsFoundByMapperNameFromProcMounts() {
        Rig r = new Rig(tmp);
        r.virtualDisk("dm-0", "253:0", "none").put("/sys/devices/virtual/block/dm-0/dm/name", "vg0-scratch\n")
                .put("/sys/devices/virtual/block/dm-0/dm/uuid", "LVM-abcdef\n")
                .partition("nvme2n1", "nvme2n1p1", "259:30").slave("dm-0", "nvme0n1p1").slave("dm-0", "nvme2n1p1")
                .remove("/proc/self/mountinfo")
                .put("/proc/self/mounts", "/dev/mapper/vg0-scratch /scratch xfs rw,noatime 0 0\n/dev/nvme0n1p2 / ext4 rw 0 0\n");
        IoFacts f = r.read("/scratch/run1", "/etc");
        DataDir d = f.dataDirs().getFirst();
        assertThat(d.filesystem().device()).as("/proc/mounts has no device numbers").isNull();
        assertThat(d.blockDevice()).isEqualTo("dm-0");
        assertThat(d.disks()).containsExactly("nvme0n1", "nvme2n1");
        assertThat(device(f, "dm-0").model()).isEqualTo("LVM vg0-scratch");
        assertThat(device(f, "dm-0").slaves()).containsExactly("nvme0n1p1", "nvme2n1p1");
        assertThat(f.dataDirs().get(1).blockDevice()).as("by its source when there is no device number").isEqualTo("nvme0n1p2");
    }

    @Test
    void theLongestMountPointWinsAndTheLastOfOnePoint() {
        Rig r = new Rig(tmp).mount("/data", "tmpfs", "tmpfs", "0:99", "rw");
        IoFacts f = r.read("/data/x", "/datasets", "/shared");
        assertThat(f.dataDirs().get(0).filesystem().type()).as("mounted over /data later").isEqualTo("tmpfs");
        assertThat(f.dataDirs().get(1).filesystem().mountPoint()).as("/datasets is not under /data").isEqualTo("/");
        assertThat(f.dataDirs().get(2).filesystem().mountPoint()).isEqualTo("/shared");
    }

    @Test
    void networkFileSystemsAreNamedWithTheirReadAhead() {
        IoFacts f = new Rig(tmp).read("/shared/ckpt");
        DataDir d = f.dataDirs().getFirst();
        assertThat(d.filesystem().storage()).isEqualTo(FsKind.NETWORK);
        assertThat(d.filesystem().what()).isEqualTo("NFS v4");
        assertThat(d.filesystem().options()).containsExactly("relatime", "vers=4.2", "rsize=1048576", "wsize=1048576", "hard",
                "proto=tcp", "nconnect=8");
        assertThat(d.blockDevice()).isNull();
        assertThat(d.disks()).isEmpty();
        assertThat(d.readAheadKb()).isEqualTo(16384);
        assertThat(d.readAheadSource()).isEqualTo("/sys/class/bdi/0:53/read_ahead_kb");
    }

    @Test
    void overlayUpperDirFollowedWhenVisibleAndSaidWhenNot() {
        Rig r = new Rig(tmp).mount("/", "overlay", "overlay", "0:60",
                "rw,relatime,lowerdir=/var/lib/docker/overlay2/l/A,upperdir=/data/docker/overlay2/abc/diff,workdir=/data/docker/w");
        r.dir("/data/docker/overlay2/abc/diff");
        DataDir visible = r.read("/workspace").dataDirs().getFirst();
        assertThat(visible.filesystem().storage()).isEqualTo(FsKind.OVERLAY);
        assertThat(visible.upperDir()).isEqualTo("/data/docker/overlay2/abc/diff");
        assertThat(visible.upper().mountPoint()).isEqualTo("/data");
        assertThat(visible.blockDevice()).isEqualTo("md0");
        assertThat(visible.disks()).containsExactly("nvme1n1", "nvme2n1");

        r.remove("/data/docker");
        DataDir hidden = r.read("/workspace").dataDirs().getFirst();
        assertThat(hidden.upperDir()).isEqualTo("/data/docker/overlay2/abc/diff");
        assertThat(hidden.upper()).as("inside a container the upper dir is a host path").isNull();
        assertThat(hidden.blockDevice()).isNull();
    }

    @Test
    void nvmeDrivesWithControllerLinkAndNumaNode() {
        Rig r = new Rig(tmp);
        r.nvme("nvme3n1", "nvme3", "0000:af:00.0", 1, "8.0 GT/s PCIe", 2, "16.0 GT/s PCIe", 4);
        BlockDevice b = device(r.read("/"), "nvme3n1");
        assertThat(b.kind()).isEqualTo(BlockKind.NVME);
        assertThat(b.model()).isEqualTo("SAMSUNG MZQL23T8HCLS-00A07");
        assertThat(b.sizeBytes()).isEqualTo(1L << 40);
        assertThat(b.rotational()).isFalse();
        assertThat(b.remote()).isNull();
        assertThat(b.queue()).isEqualTo(new IoFacts.Queue("none", List.of("none", "mq-deadline", "kyber"), 1023L, 512L, 4096L,
                128L, 1280L, 2048L, 254L));
        assertThat(b.physical()).containsExactly("nvme3n1");
        assertThat(b.controller()).isEqualTo(new IoFacts.Controller("nvme3", "pcie", "0000:af:00.0", 1,
                new PciLink(8.0, 2, 16.0, 4)));
    }

    @Test
    void nvmeOverTcpIsRemoteStorage() {
        Rig r = new Rig(tmp);
        String c = "/sys/devices/virtual/nvme-fabrics/ctl/nvme5";
        r.put(c + "/transport", "tcp\n").put(c + "/model", "Linux\n").link("/sys/class/nvme/nvme5", c)
                .disk("nvme5n1", c + "/nvme5n1", "259:50", "[none] mq-deadline", 0).link(c + "/nvme5n1/device", "../../nvme5");
        BlockDevice b = device(r.read("/"), "nvme5n1");
        assertThat(b.remote()).isEqualTo("NVMe over TCP");
        assertThat(b.controller()).isEqualTo(new IoFacts.Controller("nvme5", "tcp", null, null, null));
    }

    @Test
    void scratchDevicesOnlyWhenTheyBackADataDir() {
        Rig r = new Rig(tmp);
        r.virtualDisk("zram0", "252:0", "none").virtualDisk("nbd0", "43:0", "none").put("/sys/devices/virtual/block/nbd0/size", "0\n");
        assertThat(r.read("/").blockDevices()).extracting(BlockDevice::name)
                .containsExactly("md0", "nvme0n1", "nvme1n1", "nvme2n1");
        r.mount("/mnt/img", "squashfs", "/dev/loop0", "7:0", "ro");
        IoFacts f = r.read("/mnt/img/x");
        assertThat(f.blockDevices()).extracting(BlockDevice::name).contains("loop0").doesNotContain("zram0", "nbd0");
        assertThat(device(f, "loop0").kind()).isEqualTo(BlockKind.LOOP);
    }

    @Test
    void nicWithItsRdmaDeviceAndPciFunction() {
        IoFacts f = new Rig(tmp).read("/");
        assertThat(f.nics()).hasSize(1);
        Nic n = f.nics().getFirst();
        assertThat(n).isEqualTo(new Nic("eth0", false, "ethernet", "mlx5_core", 200000L, null, 9000, "up", Rig.NIC, 0, null,
                List.of("mlx5_0")));
        RdmaDevice r = f.rdmaDevices().getFirst();
        assertThat(r.name()).isEqualTo("mlx5_0");
        assertThat(r.hcaType()).isEqualTo("MT4129");
        assertThat(r.firmware()).isEqualTo("28.39.1002");
        assertThat(r.pciAddress()).isEqualTo(Rig.NIC);
        assertThat(r.numaNode()).isEqualTo(0);
        assertThat(r.netdevs()).containsExactly("eth0");
        assertThat(r.ports()).containsExactly(new IoFacts.RdmaPort(1, "ACTIVE", "LinkUp", "200 Gb/sec (4X HDR)", 200.0, "Ethernet", "eth0"));
    }

    @Test
    void virtualInterfacesOnlyWhenThereIsNoOther() {
        Rig r = new Rig(tmp).virtualNic("docker0", 1500).virtualNic("lo", 65536);
        assertThat(r.read("/").nics()).extracting(Nic::name).containsExactly("eth0");
        r.remove("/sys/class/net/eth0");
        List<Nic> nics = r.read("/").nics();
        assertThat(nics).extracting(Nic::name).as("a container's veth, never lo").containsExactly("docker0");
        assertThat(nics.getFirst().virtual()).isTrue();
        assertThat(nics.getFirst().pciAddress()).isNull();
    }

    @Test
    void modulesFromProcModulesThenSysModule() {
        Rig r = new Rig(tmp);
        IoFacts.GpuDirect g = r.read("/").gpuDirect();
        assertThat(g.peermem()).isTrue();
        assertThat(g.peermemModule()).isEqualTo("nvidia_peermem");
        assertThat(g.nvidiaFs()).isTrue();
        assertThat(g.modulesSource()).isEqualTo("/proc/modules");

        r.put("/proc/modules", "nv_peer_mem 16384 0 - Live 0x0\n");
        g = r.read("/").gpuDirect();
        assertThat(g.peermemModule()).as("MLNX_OFED's older module").isEqualTo("nv_peer_mem");
        assertThat(g.nvidiaFs()).isFalse();

        r.remove("/proc/modules").dir("/sys/module/nvidia_fs").dir("/sys/module/mlx5_core");
        g = r.read("/").gpuDirect();
        assertThat(g.modulesSource()).as("a kernel without module support still has /sys/module").isEqualTo("/sys/module");
        assertThat(g.peermem()).isFalse();
        assertThat(g.nvidiaFs()).isTrue();

        r.remove("/sys/module");
        IoFacts f = r.read("/");
        assertThat(f.gpuDirect().peermem()).isNull();
        assertThat(f.gpuDirect().nvidiaFs()).isNull();
        assertThat(f.unknowns()).contains("kernel modules: /proc/modules: missing, and no /sys/module");
    }

    @Test
    void cufileJsonWithCommentsAndTrailingCommas() {
        Rig r = new Rig(tmp);
        assertThat(r.read("/").gpuDirect().cufile()).isEqualTo(new IoFacts.CuFile("/etc/cufile.json", true, null, true, false));
        r.put("/etc/cufile.json", "{ \"properties\": { \"allow_compat_mode\": \"yes\" } }");
        assertThat(r.read("/").gpuDirect().cufile().allowCompatMode()).as("not a boolean: not set").isNull();
        r.remove("/etc/cufile.json");
        assertThat(r.read("/").gpuDirect().cufile()).isEqualTo(new IoFacts.CuFile("/etc/cufile.json", false, null, null, null));
    }

    @Test
    void liveDataDirsResolveSymlinksAndSayWhetherTheyExist(@TempDir Path data) throws Exception {
        Path real = java.nio.file.Files.createDirectory(data.resolve("real"));
        Path link = java.nio.file.Files.createSymbolicLink(data.resolve("link"), real);
        IoFacts f = IoFactsReader.read(FsRoot.live(), Host.read(FsRoot.live()), List.of(link, data.resolve("absent")));
        assertThat(f.dataDirs().get(0).realPath()).isEqualTo(real.toRealPath().toString());
        assertThat(f.dataDirs().get(0).exists()).isTrue();
        assertThat(f.dataDirs().get(1).exists()).isFalse();
        assertThat(f.dataDirs().get(1).filesystem()).as("a folder yet to be made still lies on a mount").isNotNull();
    }
}
