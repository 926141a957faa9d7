package hostside.io.facts;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import hostside.core.Finding;
import hostside.fs.FsRoot;
import hostside.machine.Host;
import hostside.testing.RecordedMachine;

/**
 * A recorded machine in a temp folder: by default a healthy two-node training box with GPUs on
 * node 0. Its root is ext4 on nvme0n1p2 (Gen4 x4, node 0), /data is XFS on md0, a RAID0 of nvme1n1
 * and nvme2n1, /shared is NFS with 16 MiB read-ahead; eth0 is a 200 Gb/s ConnectX on node 0 with
 * MTU 9000 and a RoCE device mlx5_0 whose port is ACTIVE; nvidia_peermem and nvidia_fs are loaded
 * and /etc/cufile.json allows compat mode. Tests change files from there.
 */
final class Rig extends RecordedMachine<Rig> {
    static final String NVME0 = "0000:3b:00.0", NVME1 = "0000:3c:00.0", NVME2 = "0000:3d:00.0", NIC = "0000:18:00.0";
    static final String CUFILE = """
            {
                // cuFile's own comments, as NVIDIA ships the file
                "logging": { "dir": "/var/log", "level": "ERROR" },
                "properties": {
                    "max_direct_io_size_kb": 16384,
                    "use_poll_mode": false, // small I/O waits for completion
                    "allow_compat_mode": true,
                    "rdma_dev_addr_list": [ ],
                }
            }
            """;

    private final List<String> mountinfo = new ArrayList<>();

    Rig(Path root) {
        super(root);
        mount("/", "ext4", "/dev/nvme0n1p2", "259:2", "rw,noatime");
        mount("/data", "xfs", "/dev/md0", "9:0", "rw,relatime");
        mount("/shared", "nfs4", "storage:/export/shared", "0:53", "rw,relatime,vers=4.2,rsize=1048576,wsize=1048576,hard,proto=tcp,nconnect=8");
        mount("/dev/shm", "tmpfs", "tmpfs", "0:26", "rw,nosuid,nodev");
        put("/sys/class/bdi/0:53/read_ahead_kb", "16384\n");

        nvme("nvme0n1", "nvme0", NVME0, 0, "16.0 GT/s PCIe", 4, "16.0 GT/s PCIe", 4);
        partition("nvme0n1", "nvme0n1p1", "259:1").partition("nvme0n1", "nvme0n1p2", "259:2");
        nvme("nvme1n1", "nvme1", NVME1, 0, "16.0 GT/s PCIe", 4, "16.0 GT/s PCIe", 4);
        nvme("nvme2n1", "nvme2", NVME2, 0, "16.0 GT/s PCIe", 4, "16.0 GT/s PCIe", 4);
        virtualDisk("md0", "9:0", "none").put("/sys/devices/virtual/block/md0/md/level", "raid0\n")
                .slave("md0", "nvme1n1").slave("md0", "nvme2n1");
        virtualDisk("loop0", "7:0", "none");

        nic("eth0", NIC, 0, "mlx5_core", "200000", 9000);
        rdma("mlx5_0", NIC, "eth0", "4: ACTIVE", "5: LinkUp", "200 Gb/sec (4X HDR)", "Ethernet");
        put("/proc/modules", """
                nvidia_fs 262144 0 - Live 0x0000000000000000 (OE)
                nvidia_peermem 16384 0 - Live 0x0000000000000000 (OE)
                mlx5_ib 454656 0 - Live 0x0000000000000000
                nvidia 9732096 2 nvidia_fs,nvidia_peermem, Live 0x0000000000000000 (POE)
                """);
        put("/etc/cufile.json", CUFILE);
    }

    IoFacts read(String... dataDirs) {
        FsRoot fs = FsRoot.open(root.toString());
        return IoFactsReader.read(fs, Host.read(fs), Arrays.stream(dataDirs).map(Path::of).toList());
    }

    /** Findings for the given data dirs with one GPU on each node listed. */
    List<Finding> findings(List<Integer> gpuNodes, String... dataDirs) {
        return IoVerdicts.of(read(dataDirs), gpuNodes);
    }

    /** A line of /proc/self/mountinfo; mounts keep the order they are added in. */
    Rig mount(String point, String type, String source, String device, String options) {
        mountinfo.add((20 + mountinfo.size()) + " 1 " + device + " / " + point + " " + options + " shared:1 - " + type
                + " " + source + " " + options);
        put("/proc/self/mountinfo", String.join("\n", mountinfo) + "\n");
        return this;
    }

    /** An NVMe namespace on its controller, on a PCI function of its own (class 0x010802). */
    Rig nvme(String name, String ctrl, String address, int node, String speed, int width, String maxSpeed, int maxWidth) {
        String fn = pci(address, "0x010802", "0x144d", "nvme", node);
        put(fn + "/current_link_speed", speed + "\n").put(fn + "/current_link_width", width + "\n")
                .put(fn + "/max_link_speed", maxSpeed + "\n").put(fn + "/max_link_width", maxWidth + "\n");
        String c = fn + "/nvme/" + ctrl;
        put(c + "/model", "SAMSUNG MZQL23T8HCLS-00A07   \n").put(c + "/transport", "pcie\n");
        link("/sys/class/nvme/" + ctrl, "../../devices/" + c.substring("/sys/devices/".length()));
        disk(name, c + "/" + name, "259:" + (10 + Integer.parseInt(ctrl.substring(4))), "[none] mq-deadline kyber", 0);
        link(c + "/" + name + "/device", "../../" + ctrl);
        return this;
    }

    /** A device-mapper, md, loop or other virtual disk. */
    Rig virtualDisk(String name, String dev, String scheduler) {
        return disk(name, "/sys/devices/virtual/block/" + name, dev, scheduler, 0);
    }

    /** A whole disk at a /sys/devices path, 1 TiB, with its /sys/block, /sys/class/block and /sys/dev/block links. */
    Rig disk(String name, String dir, String dev, String scheduler, int rotational) {
        put(dir + "/size", (1L << 31) + "\n").put(dir + "/dev", dev + "\n");
        String q = dir + "/queue";
        put(q + "/scheduler", scheduler + "\n").put(q + "/rotational", rotational + "\n").put(q + "/nr_requests", "1023\n")
                .put(q + "/logical_block_size", "512\n").put(q + "/physical_block_size", "4096\n")
                .put(q + "/read_ahead_kb", "128\n").put(q + "/max_sectors_kb", "1280\n").put(q + "/max_hw_sectors_kb", "2048\n")
                .put(q + "/max_segments", "254\n");
        dir(dir + "/slaves");
        String rel = dir.substring("/sys/".length());
        link("/sys/block/" + name, "../" + rel);
        link("/sys/class/block/" + name, "../../" + rel);
        link("/sys/dev/block/" + dev, "../../" + rel);
        return this;
    }

    Rig partition(String disk, String name, String dev) {
        String d = real("/sys/block/" + disk) + "/" + name;
        put(d + "/partition", name.substring(name.length() - 1) + "\n").put(d + "/size", "1000\n").put(d + "/dev", dev + "\n");
        String rel = d.substring("/sys/".length());
        link("/sys/class/block/" + name, "../../" + rel);
        link("/sys/dev/block/" + dev, "../../" + rel);
        return this;
    }

    Rig slave(String holder, String name) {
        return link(real("/sys/block/" + holder) + "/slaves/" + name, real("/sys/class/block/" + name));
    }

    /** A PCI function under /sys/devices/pci0000:xx, linked from /sys/bus/pci/devices; returns its folder. */
    String pci(String address, String klass, String vendor, String driver, int node) {
        String bus = "pci0000:" + address.substring(5, 7);
        String dir = "/sys/devices/" + bus + "/" + address;
        put(dir + "/class", klass + "\n").put(dir + "/vendor", vendor + "\n").put(dir + "/device", "0x1234\n")
                .put(dir + "/numa_node", node + "\n");
        dir("/sys/bus/pci/drivers/" + driver);
        link(dir + "/driver", "../../../bus/pci/drivers/" + driver);
        link("/sys/bus/pci/devices/" + address, "../../../devices/" + bus + "/" + address);
        return dir;
    }

    Rig nic(String name, String address, int node, String driver, String speed, int mtu) {
        String fn = pci(address, "0x020000", "0x15b3", driver, node);
        String dir = fn + "/net/" + name;
        put(dir + "/speed", speed + "\n").put(dir + "/mtu", mtu + "\n").put(dir + "/operstate", "up\n").put(dir + "/type", "1\n");
        link(dir + "/device", "../../../" + address);
        return link("/sys/class/net/" + name, "../../" + dir.substring("/sys/".length()));
    }

    /** An interface with no device behind it (veth, bridge). */
    Rig virtualNic(String name, int mtu) {
        String dir = "/sys/devices/virtual/net/" + name;
        put(dir + "/speed", "10000\n").put(dir + "/mtu", mtu + "\n").put(dir + "/operstate", "up\n").put(dir + "/type", "1\n");
        return link("/sys/class/net/" + name, "../../devices/virtual/net/" + name);
    }

    Rig rdma(String name, String address, String netdev, String state, String phys, String rate, String layer) {
        String dir = real("/sys/bus/pci/devices/" + address) + "/infiniband/" + name;
        put(dir + "/hca_type", "MT4129\n").put(dir + "/fw_ver", "28.39.1002\n");
        link(dir + "/device", "../../../" + address);
        port(name, dir, 1, state, phys, rate, layer, netdev);
        return link("/sys/class/infiniband/" + name, "../../" + dir.substring("/sys/".length()));
    }

    Rig port(String name, String dir, int port, String state, String phys, String rate, String layer, String netdev) {
        String p = (dir == null ? real("/sys/class/infiniband/" + name) : dir) + "/ports/" + port;
        put(p + "/state", state + "\n").put(p + "/phys_state", phys + "\n").put(p + "/rate", rate + "\n")
                .put(p + "/link_layer", layer + "\n");
        if (netdev != null && layer.equals("Ethernet")) put(p + "/gid_attrs/ndevs/0", netdev + "\n");
        return this;
    }

    /** Where a symlink of the recording points, as a /sys path. */
    String real(String path) {
        return FsRoot.open(root.toString()).realPath(path).orElseThrow(() -> new IllegalStateException("no " + path));
    }

    static List<Integer> gpusOn(Integer... nodes) {
        return Arrays.asList(nodes);
    }
}
