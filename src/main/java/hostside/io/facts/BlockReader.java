package hostside.io.facts;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.io.facts.IoFacts.BlockDevice;
import hostside.io.facts.IoFacts.Controller;
import hostside.io.facts.IoFacts.Queue;
import hostside.machine.PciDevice;

/** Whole disks from /sys/block: what they are, their queue settings, and what stands behind them. */
final class BlockReader {
    static final String BLOCK = "/sys/block";
    static final String CLASS = "/sys/class/block";
    /** The kernel counts sizes in 512-byte sectors whatever the device's block size. */
    private static final long SECTOR = 512;
    /** dm on md on dm... goes a few levels at most; more means a loop in a broken recording. */
    static final int MAX_STACK = 64;

    private final FsRoot fs;
    private final FactReads reads;
    private final List<String> unknowns;
    private final PciFunctions pci;

    BlockReader(FsRoot fs, FactReads reads, List<String> unknowns, PciFunctions pci) {
        this.fs = fs;
        this.reads = reads;
        this.unknowns = unknowns;
        this.pci = pci;
    }

    /** Whole disks: /sys/block, and those older kernels listed only in /sys/class/block. */
    List<String> disks() {
        Set<String> names = new LinkedHashSet<>(fs.list(BLOCK));
        for (String n : fs.list(CLASS)) {
            if (!names.contains(n) && !isPartition(n)) names.add(n);
        }
        List<String> sorted = new ArrayList<>(names);
        sorted.sort(FsRoot.NATURAL);
        return sorted;
    }

    private boolean isPartition(String name) {
        return fs.exists(CLASS + "/" + name + "/partition");
    }

    /** The whole disk a block device is part of: itself, or the disk holding the partition. */
    String diskOf(String name) {
        if (!isPartition(name)) return name;
        return fs.realPath(CLASS + "/" + name).map(r -> SysPaths.name(SysPaths.parent(r))).orElse(name);
    }

    /** Whether sysfs knows a block device of that name (partition or whole). */
    boolean known(String name) {
        return fs.exists(CLASS + "/" + name) || fs.exists(BLOCK + "/" + name);
    }

    /** The device-mapper device a /dev/mapper name stands for ("vg0-data" -> "dm-3"). */
    Optional<String> byMapperName(String mapperName) {
        for (String d : disks()) {
            if (d.startsWith("dm-") && fs.text(BLOCK + "/" + d + "/dm/name").filter(mapperName::equals).isPresent()) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }

    /** The devices a dm or md device is built from, as the kernel names them (partitions too). */
    List<String> slaves(String disk) {
        return fs.list(BLOCK + "/" + disk + "/slaves");
    }

    /** The disks at the bottom of a dm/md stack: the disk itself when it has no slaves. */
    List<String> physical(String disk) {
        Set<String> out = new LinkedHashSet<>();
        collect(disk, out, new HashSet<>());
        return List.copyOf(out);
    }

    private void collect(String disk, Set<String> out, Set<String> seen) {
        if (!seen.add(disk) || seen.size() > MAX_STACK) return;
        List<String> slaves = slaves(disk);
        if (slaves.isEmpty()) {
            out.add(disk);
            return;
        }
        for (String s : slaves) collect(diskOf(s), out, seen);
    }

    /** The size without leaving an unknown behind: to skip empty drives before reading them. */
    Long quietSize(String name) {
        return fs.text(dir(name) + "/size").map(FactReads::parseNumber).map(BlockReader::bytes).orElse(null);
    }

    /** Sectors in bytes; null past 2^63 bytes (8 EiB, more than any disk), which a recording can say and a product would wrap negative. */
    private static Long bytes(long sectors) {
        try {
            return Math.multiplyExact(sectors, SECTOR);
        } catch (ArithmeticException e) {
            return null;
        }
    }

    BlockDevice read(String name) {
        String dir = dir(name);
        String real = fs.realPath(dir).orElse(dir);
        BlockKind kind = kind(name, dir, real);
        Long sectors = reads.number(dir + "/size", true);
        Long size = sectors == null ? null : bytes(sectors);
        if (sectors != null && size == null) reads.garbage(dir + "/size", "more sectors than 8 EiB holds", String.valueOf(sectors));
        Long rot = reads.number(dir + "/queue/rotational", false);
        Boolean rotational = rot == null ? null : rot != 0;
        Controller controller = controller(dir, real, kind);
        return new BlockDevice(name, kind, model(dir, kind), size, rotational, remote(kind, real, controller),
                queue(dir), fs.list(dir + "/slaves"), physical(name), controller);
    }

    private String dir(String name) {
        return fs.isDirectory(BLOCK + "/" + name) ? BLOCK + "/" + name : CLASS + "/" + name;
    }

    private BlockKind kind(String name, String dir, String real) {
        if (name.startsWith("dm-") || fs.isDirectory(dir + "/dm")) return BlockKind.DM;
        if (name.matches("md\\d+") || fs.isDirectory(dir + "/md")) return BlockKind.MD;
        if (name.startsWith("loop")) return BlockKind.LOOP;
        if (name.startsWith("zram")) return BlockKind.ZRAM;
        if (name.matches("ram\\d+")) return BlockKind.RAM;
        if (name.matches("nbd\\d+")) return BlockKind.NBD;
        if (name.matches("rbd\\d+")) return BlockKind.RBD;
        if (name.startsWith("nvme")) return BlockKind.NVME;
        if (real.contains("/virtio")) return BlockKind.VIRTIO;
        if (name.startsWith("xvd")) return BlockKind.XEN;
        if (name.startsWith("mmcblk")) return BlockKind.MMC;
        if (name.startsWith("pmem")) return BlockKind.PMEM;
        if (real.matches(".*/host\\d+/.*") || name.matches("s[dr][a-z]+")) return BlockKind.SCSI;
        return BlockKind.OTHER;
    }

    /** The model, or for dm and md what they are built as. */
    private String model(String dir, BlockKind kind) {
        if (kind == BlockKind.DM) {
            String dmName = fs.text(dir + "/dm/name").orElse("");
            String uuid = fs.text(dir + "/dm/uuid").orElse("");
            String target = uuid.startsWith("LVM-") ? "LVM" : uuid.startsWith("CRYPT-") ? "dm-crypt"
                    : uuid.startsWith("mpath-") ? "multipath" : "device-mapper";
            return (target + " " + dmName).strip();
        }
        if (kind == BlockKind.MD) return ("md " + fs.text(dir + "/md/level").orElse("")).strip();
        return fs.text(dir + "/device/model").filter(m -> !m.isEmpty()).orElse(null);
    }

    private Controller controller(String dir, String real, BlockKind kind) {
        String path = real;
        if (kind == BlockKind.NVME) {
            // A multipath namespace hangs off the subsystem; its paths lead to the controllers.
            List<String> paths = fs.list(dir + "/multipath");
            if (!paths.isEmpty()) path = fs.realPath(dir + "/multipath/" + paths.getFirst()).orElse(path);
        }
        String address = SysPaths.pciAddress(path);
        String ctrl = null, transport = null;
        if (kind == BlockKind.NVME) {
            for (String part : path.split("/")) if (part.matches("nvme\\d+")) ctrl = part;
            if (ctrl != null) transport = fs.text("/sys/class/nvme/" + ctrl + "/transport").orElse(null);
        }
        if (address == null && ctrl == null) return null;
        Optional<PciDevice> p = pci.at(address);
        return new Controller(ctrl, transport, address, p.map(PciDevice::numaNode).orElse(null),
                p.map(PciDevice::link).orElse(null));
    }

    /** What carries a disk that only looks local. */
    private static String remote(BlockKind kind, String real, Controller c) {
        if (kind == BlockKind.RBD) return "Ceph RBD";
        if (kind == BlockKind.NBD) return "NBD";
        if (kind == BlockKind.NVME && c != null && c.transport() != null) {
            return switch (c.transport()) {
                case "tcp" -> "NVMe over TCP";
                case "rdma" -> "NVMe over RDMA";
                case "fc" -> "NVMe over Fibre Channel";
                default -> null;
            };
        }
        if (kind == BlockKind.SCSI && real.matches(".*/session\\d+/.*")) return "iSCSI";
        return null;
    }

    private Queue queue(String dir) {
        String q = dir + "/queue";
        if (!fs.isDirectory(q)) {
            unknowns.add(q + ": missing");
            return new Queue(null, List.of(), null, null, null, null, null, null, null);
        }
        Scheduler s = null;
        Optional<String> text = reads.text(q + "/scheduler", true);
        if (text.isPresent()) {
            s = Scheduler.parse(text.get());
            if (s == null) reads.garbage(q + "/scheduler", "not a scheduler list", text.get());
        }
        return new Queue(s == null ? null : s.selected(), s == null ? List.of() : s.offered(),
                reads.number(q + "/nr_requests", true), reads.number(q + "/logical_block_size", true),
                reads.number(q + "/physical_block_size", false), reads.number(q + "/read_ahead_kb", true),
                reads.number(q + "/max_sectors_kb", true), reads.number(q + "/max_hw_sectors_kb", false), reads.number(q + "/max_segments", false));
    }
}
