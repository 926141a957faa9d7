package hostside.io.facts;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import hostside.io.facts.IoFacts.BlockDevice;
import hostside.io.facts.IoFacts.DataDir;
import hostside.io.facts.IoFacts.Nic;
import hostside.io.facts.IoFacts.RdmaDevice;
import hostside.io.facts.IoFacts.RdmaPort;
import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.machine.PciLink;
import hostside.core.Units;

/**
 * What the storage and network facts mean for training: one finding of an {@link IoFactRules} rule
 * per thing worth acting on, with the symptom (the rule says what to do); none for healthy settings. Facts that are unknown give no
 * finding ({@link IoFacts#unknowns} says why they are unknown).
 */
public final class IoVerdicts {
    /**
     * Read-ahead below this on a network file system turns a sequential checkpoint load into many
     * small round trips. Linux 5.4 lowered NFS's default to 128 KiB (from 15 MiB); 1 MiB is the
     * smallest read-ahead that vendors' NFS and Lustre client tuning guides suggest.
     */
    static final long SMALL_READ_AHEAD_KB = 1024;
    /** From here on a 1500-byte MTU costs more than it saves: 100 GbE and up. */
    static final long FAST_LINK_MBPS = 100_000;
    /** Below this a NIC is a management port, not one that carries training traffic. */
    static final long DATA_NIC_MBPS = 25_000;
    /** I/O schedulers that cost an NVMe drive nothing worth measuring. */
    private static final Set<String> NVME_SCHEDULERS = Set.of("none", "mq-deadline");

    private IoVerdicts() {}

    /**
     * @param gpuNumaNodes one entry per GPU: its NUMA node, or null where the kernel does not know
     *                     (VMs say -1); empty when the machine has no GPU
     */
    public static List<Finding> of(IoFacts f, List<Integer> gpuNumaNodes) {
        List<Finding> out = new ArrayList<>();
        List<BlockDevice> localNvme = f.blockDevices().stream()
                .filter(b -> b.kind() == BlockKind.NVME && b.remote() == null).toList();
        Map<String, BlockDevice> byName = f.blockDevices().stream()
                .collect(Collectors.toMap(BlockDevice::name, Function.identity(), (a, b) -> a));
        // Folders on one mount share its verdicts: one finding names them all.
        Map<IoFacts.Filesystem, List<DataDir>> byMount = new LinkedHashMap<>();
        for (DataDir d : f.dataDirs()) {
            if (d.filesystem() != null) byMount.computeIfAbsent(d.filesystem(), k -> new ArrayList<>()).add(d);
        }
        byMount.forEach((m, dirs) -> {
            remote(m, dirs, byName, localNvme, out);
            readAhead(m, dirs, out);
            readOnly(m, dirs, out);
        });
        rotational(f.dataDirs(), byName, out);
        for (BlockDevice b : f.blockDevices()) {
            nvmeLink(b, out);
            scheduler(b, out);
        }
        for (Nic n : f.nics()) mtu(n, out);
        for (RdmaDevice r : hardware(f.rdmaDevices())) {
            for (RdmaPort p : r.ports()) port(r, p, out);
        }
        int gpus = gpuNumaNodes.size();
        peermem(f, gpus, out);
        numa(f, localNvme, gpuNumaNodes, out);
        gds(f, gpus, localNvme, out);
        return List.copyOf(out);
    }

    /** RDMA devices on a PCI function: not the software ones (rxe, siw) nor a coprocessor's. */
    private static List<RdmaDevice> hardware(List<RdmaDevice> all) {
        return all.stream().filter(r -> r.pciAddress() != null).toList();
    }

    // ---- data dirs ----

    private static void remote(IoFacts.Filesystem m, List<DataDir> dirs, Map<String, BlockDevice> byName,
                               List<BlockDevice> localNvme, List<Finding> out) {
        String stage = localNvme.isEmpty() ? "no local NVMe drive is visible here to stage them to"
                : "local NVMe to stage them to: " + names(localNvme);
        Evidence mount = Evidence.fact("/proc/self/mountinfo " + m.mountPoint(), m.type() + " " + m.source());
        String paths = paths(dirs);
        String on = paths + (dirs.size() == 1 ? " is" : " are") + " on " + m.what() + " (" + m.source() + " at " + m.mountPoint() + ")";
        if (FsKind.NETWORK.equals(m.storage())) {
            out.add(IoFactRules.NETWORK_FS.finding(Severity.WARN, paths, on + ": checkpoint loads and dataset reads go over the network, at the "
                    + "speed the storage gives this client while every other node reads too, and a slow server stalls every rank; " + stage, mount));
        } else if (FsKind.HOST_SHARE.equals(m.storage())) {
            out.add(IoFactRules.NETWORK_FS.finding(Severity.WARN, paths, on + ": every read crosses the hypervisor to the VM host's file system, "
                    + "slower than a disk of the VM's own; " + stage, mount));
        } else if (FsKind.FUSE.equals(m.storage())) {
            out.add(IoFactRules.NETWORK_FS.finding(Severity.INFO, paths, on + ": every read goes through a user-space daemon; if it fetches from "
                    + "a remote store, checkpoint loads go over the network; " + stage, mount));
        } else {
            List<String> carried = dirs.getFirst().disks().stream().map(byName::get).filter(Objects::nonNull)
                    .filter(b -> b.remote() != null).map(b -> b.name() + " (" + b.remote() + ")").toList();
            if (!carried.isEmpty()) {
                out.add(IoFactRules.NETWORK_FS.finding(Severity.WARN, paths, on + ", which lies on " + String.join(", ", carried) + ": a disk that "
                        + "looks local but is reached over the network, so checkpoint loads go over the network; " + stage, mount));
            }
        }
    }

    private static void readAhead(IoFacts.Filesystem m, List<DataDir> dirs, List<Finding> out) {
        DataDir d = dirs.getFirst();
        if (!FsKind.NETWORK.equals(m.storage()) || d.readAheadKb() == null || d.readAheadKb() >= SMALL_READ_AHEAD_KB) return;
        out.add(IoFactRules.READ_AHEAD.finding(Severity.WARN, paths(dirs), "read-ahead on " + m.mountPoint() + " (" + m.what() + ", holding "
                + paths(dirs) + ") is " + Units.bytes(d.readAheadKb() * 1024) + " (" + d.readAheadSource() + "): a sequential read (a checkpoint, "
                + "a dataset shard) goes to the server in steps that small, each waiting its round trip, far below what the link carries",
                Evidence.fact(String.valueOf(d.readAheadSource()), String.valueOf(d.readAheadKb()))));
    }

    private static void readOnly(IoFacts.Filesystem m, List<DataDir> dirs, List<Finding> out) {
        if (!m.options().contains("ro")) return;
        if (!FsKind.LOCAL.equals(m.storage()) && !FsKind.remote(m.storage()) && !FsKind.OVERLAY.equals(m.storage())) return;
        String paths = paths(dirs);
        out.add(IoFactRules.READ_ONLY.finding(Severity.WARN, paths, paths + (dirs.size() == 1 ? " is" : " are") + " on a read-only mount ("
                + m.mountPoint() + "): fine for a dataset, but checkpoints and caches written there fail",
                Evidence.fact("/proc/self/mountinfo " + m.mountPoint(), String.join(",", m.options()))));
    }

    private static void rotational(List<DataDir> dirs, Map<String, BlockDevice> byName, List<Finding> out) {
        Map<String, List<DataDir>> byDisk = new LinkedHashMap<>();
        for (DataDir d : dirs) {
            for (String disk : d.disks()) byDisk.computeIfAbsent(disk, k -> new ArrayList<>()).add(d);
        }
        byDisk.forEach((disk, on) -> {
            BlockDevice b = byName.get(disk);
            if (b == null || !Boolean.TRUE.equals(b.rotational())) return;
            String paths = paths(on);
            String lie = paths + (on.size() == 1 ? " lies" : " lie") + " on " + disk;
            Evidence e = Evidence.fact("/sys/block/" + disk + "/queue/rotational", "1");
            if (b.kind() == BlockKind.VIRTIO) {
                out.add(IoFactRules.ROTATIONAL.finding(Severity.INFO, paths, lie + ", which the kernel marks rotational: virtio disks say so by "
                        + "default, whatever the host stores them on, so the flag says nothing here; the measured read speed does", e));
            } else {
                String model = b.model() == null ? "" : " (" + b.model() + ")";
                out.add(IoFactRules.ROTATIONAL.finding(Severity.WARN, paths, lie + model + ", a rotational disk: every random read waits for a "
                        + "seek, so DataLoader workers reading many small files starve the GPU and checkpoints save slowly", e));
            }
        });
    }

    private static String paths(List<DataDir> dirs) {
        List<String> p = dirs.stream().map(DataDir::path).distinct().toList();
        return p.size() == 1 ? p.getFirst() : String.join(", ", p.subList(0, p.size() - 1)) + " and " + p.getLast();
    }

    // ---- block devices ----

    private static void nvmeLink(BlockDevice b, List<Finding> out) {
        if (b.kind() != BlockKind.NVME || b.controller() == null || b.controller().link() == null) return;
        PciLink l = b.controller().link();
        if (!l.belowMaxWidth() && !l.belowMaxSpeed()) return;
        String ctrl = b.controller().name() == null ? b.controller().pciAddress() : b.controller().name() + " at " + b.controller().pciAddress();
        String text = b.name() + " (" + ctrl + ") runs its PCIe link at " + l.current() + ", below the drive's " + l.max()
                + ": at most " + Units.gbps(l.currentGBs()) + " instead of " + Units.gbps(l.maxGBs())
                + " each way";
        Evidence e = Evidence.fact("/sys/bus/pci/devices/" + b.controller().pciAddress() + "/current_link_width,current_link_speed", l.current()
                + " of " + l.max());
        out.add(IoFactRules.NVME_LINK.finding(l.belowMaxWidth() ? Severity.BAD : Severity.WARN, b.name(), text, e));
    }

    private static void scheduler(BlockDevice b, List<Finding> out) {
        String s = b.queue() == null ? null : b.queue().scheduler();
        if (b.kind() != BlockKind.NVME || s == null || NVME_SCHEDULERS.contains(s)) return;
        out.add(IoFactRules.NVME_SCHEDULER.finding(Severity.WARN, b.name(), b.name() + " uses the " + s + " I/O scheduler: on NVMe it adds CPU "
                + "time and locking to every request, where none (the kernel's default for a drive with several queues) adds none",
                Evidence.fact("/sys/block/" + b.name() + "/queue/scheduler", s)));
    }

    // ---- network ----

    private static void mtu(Nic n, List<Finding> out) {
        if (n.virtual() || !"ethernet".equals(n.type()) || n.mtu() == null || n.speedMbps() == null) return;
        if (n.speedMbps() < FAST_LINK_MBPS || n.mtu() > 1500) return;
        String roce = n.rdmaDevices().isEmpty() ? ""
                : ", and RoCE on " + String.join(", ", n.rdmaDevices()) + " runs with an RDMA MTU of 1024 instead of 4096";
        out.add(IoFactRules.MTU.finding(Severity.WARN, n.name(), n.name() + " runs at " + gbps(n.speedMbps()) + " with MTU " + n.mtu()
                + ": TCP traffic (NCCL's socket transport, storage, checkpoint uploads) takes six times the packets and "
                + "interrupts per byte of a 9000-byte MTU and leaves CPU cores busy" + roce,
                Evidence.fact("/sys/class/net/" + n.name() + "/mtu", String.valueOf(n.mtu())),
                Evidence.fact("/sys/class/net/" + n.name() + "/speed", String.valueOf(n.speedMbps()))));
    }

    private static void port(RdmaDevice r, RdmaPort p, List<Finding> out) {
        if (p.state() == null || p.state().equals("ACTIVE")) return;
        String subject = r.name() + " port " + p.port();
        String where = subject + " (" + (p.linkLayer() == null ? "link layer unknown" : p.linkLayer())
                + (r.netdevs().isEmpty() ? "" : ", " + String.join(", ", r.netdevs())) + ")";
        boolean cabled = "LinkUp".equals(p.physicalState());
        Evidence e = Evidence.fact("/sys/class/infiniband/" + r.name() + "/ports/" + p.port() + "/state,phys_state", p.state() + ", "
                + p.physicalState());
        if (cabled && "InfiniBand".equals(p.linkLayer())) {
            out.add(IoFactRules.RDMA_PORT.finding(Severity.BAD, subject, where + " is " + p.state() + " with its link up: no subnet manager has "
                    + "brought it to ACTIVE, so NCCL cannot use it and falls back to another HCA or to sockets", e));
        } else if (cabled) {
            out.add(IoFactRules.RDMA_PORT.finding(Severity.BAD, subject, where + " is " + p.state() + " with its link up: RDMA traffic meant for "
                    + "it fails or goes elsewhere", e));
        } else {
            String phys = p.physicalState() == null ? "" : ", physical state " + p.physicalState();
            out.add(IoFactRules.RDMA_PORT.finding(Severity.WARN, subject, where + " is " + p.state() + phys + ": if it is cabled, NCCL loses "
                    + "that rail and its share of bandwidth", e));
        }
    }

    private static void peermem(IoFacts f, int gpus, List<Finding> out) {
        List<RdmaDevice> rdma = hardware(f.rdmaDevices());
        IoFacts.GpuDirect g = f.gpuDirect();
        if (gpus == 0 || rdma.isEmpty() || g == null || !Boolean.FALSE.equals(g.peermem())) return;
        String devices = "RDMA devices (" + rdma.stream().map(RdmaDevice::name).collect(Collectors.joining(", ")) + ") and GPUs, but neither"
                + " nvidia_peermem nor nv_peer_mem is loaded (" + g.modulesSource() + ")";
        List<Evidence> e = new ArrayList<>(List.of(Evidence.fact(String.valueOf(g.modulesSource()), "no nvidia_peermem, nv_peer_mem")));
        if (g.openKernelModules() != null) e.add(Evidence.fact("/proc/driver/nvidia/version", g.openKernelModules() ? "open kernel modules" : "proprietary kernel modules"));
        if (g.kernelRelease() != null) e.add(Evidence.fact("/proc/sys/kernel/osrelease", g.kernelRelease()));
        Boolean dmaBuf = g.dmaBufPossible();
        if (Boolean.TRUE.equals(dmaBuf)) {
            // the path NVIDIA recommends is open: no module is missing, only NCCL's log can say it is taken
            out.add(IoFactRules.GPUDIRECT_RDMA.finding(Severity.INFO, "GPUDirect RDMA", devices + ": GPUDirect RDMA can register GPU memory"
                    + " through DMA-BUF, which NVIDIA recommends (open kernel modules, Linux " + g.kernelRelease() + "), if the NIC's driver and"
                    + " NCCL use it; NCCL_DEBUG=INFO says so", e));
            return;
        }
        String why = dmaBuf == null ? "whether DMA-BUF can take its place is not known (" + (g.openKernelModules() == null ? "no NVIDIA driver version read" : "no kernel release read") + ")"
                : Boolean.FALSE.equals(g.openKernelModules()) ? "and DMA-BUF, its other path, needs NVIDIA's open kernel modules, which are not the ones loaded"
                : "and DMA-BUF, its other path, needs Linux 5.12 or later, not " + g.kernelRelease();
        out.add(IoFactRules.GPUDIRECT_RDMA.finding(Severity.WARN, "GPUDirect RDMA", devices + ", " + why + ": where neither path works, NCCL stages"
                + " every inter-node transfer through host memory, an extra copy over PCIe each way", e));
    }

    /** A NIC that carries training traffic or an NVMe drive on no GPU's NUMA node. */
    private static void numa(IoFacts f, List<BlockDevice> localNvme, List<Integer> gpuNumaNodes, List<Finding> out) {
        Set<Integer> gpuNodes = gpuNumaNodes.stream().filter(Objects::nonNull).collect(Collectors.toCollection(java.util.TreeSet::new));
        if (gpuNodes.isEmpty()) return;
        String gpus = "the GPUs' (node" + (gpuNodes.size() == 1 ? " " : "s ")
                + gpuNodes.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")";
        for (Nic n : f.nics()) {
            if (n.virtual() || n.numaNode() == null || gpuNodes.contains(n.numaNode())) continue;
            boolean data = !n.rdmaDevices().isEmpty() || (n.speedMbps() != null && n.speedMbps() >= DATA_NIC_MBPS);
            if (!data) continue;
            out.add(IoFactRules.NUMA_NIC.finding(Severity.WARN, n.name(), n.name() + " is on NUMA node " + n.numaNode() + ", not " + gpus
                    + ": every GPUDirect RDMA transfer and every staged copy crosses the inter-socket link, which caps bandwidth and adds latency",
                    Evidence.fact("/sys/class/net/" + n.name() + "/device/numa_node", String.valueOf(n.numaNode()))));
        }
        for (BlockDevice b : localNvme) {
            Integer node = b.controller() == null ? null : b.controller().numaNode();
            if (node == null || gpuNodes.contains(node)) continue;
            out.add(IoFactRules.NUMA_NVME.finding(Severity.WARN, b.name(), b.name() + " is on NUMA node " + node + ", not " + gpus
                    + ": data read from it lands in node " + node + "'s memory or crosses the inter-socket link on its way "
                    + "to the GPUs (GPUDirect Storage too)",
                    Evidence.fact("/sys/bus/pci/devices/" + b.controller().pciAddress() + "/numa_node", String.valueOf(node))));
        }
    }

    private static void gds(IoFacts f, int gpus, List<BlockDevice> localNvme, List<Finding> out) {
        if (gpus == 0 || localNvme.isEmpty() || f.gpuDirect() == null || !Boolean.FALSE.equals(f.gpuDirect().nvidiaFs())) return;
        IoFacts.CuFile c = f.gpuDirect().cufile();
        String text = "GPUs and NVMe drives (" + names(localNvme) + ") but no nvidia_fs module: GPUDirect Storage is not "
                + "available, so cuFile (and libraries built on it: kvikio, DALI's GDS reader, torch's GdsFile) falls back to "
                + "compat mode: POSIX reads into a host bounce buffer, then a copy to the GPU";
        Evidence e = Evidence.fact("/proc/modules", "no nvidia_fs");
        if (c != null && Boolean.FALSE.equals(c.allowCompatMode())) {
            out.add(IoFactRules.GDS.finding(Severity.BAD, "GPUDirect Storage", text + "; and " + c.path() + " sets allow_compat_mode to false, so "
                    + "cuFile calls fail instead of falling back", e, Evidence.fact(c.path() + " allow_compat_mode", "false")));
        } else {
            out.add(IoFactRules.GDS.finding(Severity.INFO, "GPUDirect Storage", text, e));
        }
    }

    private static String names(List<BlockDevice> devices) {
        Set<String> n = new LinkedHashSet<>();
        for (BlockDevice b : devices) n.add(b.name());
        return String.join(", ", n);
    }

    static String gbps(long mbps) {
        return mbps % 1000 == 0 ? mbps / 1000 + " Gb/s" : mbps + " Mb/s";
    }
}
