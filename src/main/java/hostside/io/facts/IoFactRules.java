package hostside.io.facts;

import static hostside.core.Severity.BAD;
import static hostside.core.Severity.INFO;
import static hostside.core.Severity.WARN;

import java.util.EnumSet;
import java.util.List;

import hostside.core.Rule;
import hostside.core.Source;

/**
 * Module 4's rules on the storage and network facts: where data and checkpoints live, the block
 * devices, the NICs and RDMA ports, GPUDirect RDMA and Storage. The conditions are
 * {@link IoVerdicts}'; unknown facts give no finding ({@link IoFacts#unknowns} says why).
 */
public final class IoFactRules {
    private IoFactRules() {}

    public static final Rule NETWORK_FS = Rule.of("M4-NETWORK-FS", "data or checkpoint folders on network storage, a VM host's share or FUSE",
            EnumSet.of(WARN, INFO),
            "checkpoint loads and dataset reads go over the network (or through the hypervisor, or a user-space daemon), at the speed the"
                    + " storage gives this client while every other node reads too, and a slow server stalls every rank; FUSE is a note, since"
                    + " it may be local",
            "stage datasets and checkpoints to a local NVMe drive first (or cache them there), and read them from it",
            Source.document("Linux Documentation/filesystems/nfs and proc(5) /proc/self/mountinfo: the file system type and source of each"
                    + " mount; Documentation/filesystems/fuse.rst: every request goes through the user-space daemon"),
            Source.reasoned("a network file system is judged by its kind, not by a measured speed: the drill's reads measure it"));

    public static final Rule READ_AHEAD = Rule.of("M4-READ-AHEAD", "small read-ahead on a network file system", EnumSet.of(WARN),
            "a sequential read (a checkpoint, a dataset shard) goes to the server in steps that small, each waiting its round trip, far below"
                    + " what the link carries",
            "raise it to 16 MiB or more: echo 16384 > /sys/class/bdi/<the mount's bdi>/read_ahead_kb (it resets on the next mount: a udev"
                    + " rule keeps it)",
            Source.document("Linux Documentation/ABI/testing/sysfs-class-bdi, read_ahead_kb; the NFS client's default read-ahead became the system's"
                    + " 128 KiB in Linux 5.4 (commit c128e575514c, 'NFS: Optimise the default readahead size')"),
            Source.reasoned("1 MiB: a read-ahead below it is most of a sequential read's round trips; no outside source sets the line"));

    public static final Rule READ_ONLY = Rule.of("M4-READ-ONLY", "data or checkpoint folders on a read-only mount", EnumSet.of(WARN),
            "fine for a dataset, but checkpoints and caches written there fail with \"Read-only file system\"",
            "write checkpoints and caches to a writable mount (or remount it read-write: mount -o remount,rw)",
            Source.document("mount(8), the ro option; proc(5), /proc/self/mountinfo mount options"));

    public static final Rule ROTATIONAL = Rule.of("M4-ROTATIONAL", "data or checkpoints on a rotational disk", EnumSet.of(WARN, INFO),
            "every random read waits for a seek, so DataLoader workers reading many small files starve the GPU and checkpoints save slowly;"
                    + " a virtio disk says rotational by default whatever the host stores it on, so there the flag is only a note",
            "move data and checkpoints to SSD or NVMe",
            Source.document("Linux Documentation/ABI/stable/sysfs-block, queue/rotational; virtio_blk sets no non-rotational flag unless"
                    + " the host says so"));

    public static final Rule NVME_LINK = Rule.of("M4-NVME-LINK", "an NVMe drive's PCIe link below its maximum width or speed", EnumSet.of(BAD, WARN),
            "the drive can move at most what the narrower or slower link carries; bad below its width, a warning below its speed",
            "check the slot it sits in (a x4 drive in a x2 slot or behind a riser, a slower generation), the BIOS's link settings and the"
                    + " seating (lspci -vv: LnkCap against LnkSta)",
            Source.document("PCI Express Base Specification, Link Capabilities and Link Status registers; Linux Documentation/ABI/testing/"
                    + "sysfs-bus-pci, current_link_width, max_link_width, current_link_speed, max_link_speed"));

    public static final Rule NVME_SCHEDULER = Rule.of("M4-NVME-SCHEDULER", "an NVMe drive behind an I/O scheduler other than none or mq-deadline",
            EnumSet.of(WARN),
            "a scheduler such as bfq or kyber adds CPU time and locking to every request; how much IOPS that costs this drive is not known"
                    + " without measuring it (the drill's random reads)",
            "echo none > /sys/block/<drive>/queue/scheduler (a udev rule keeps it)",
            Source.source("Linux block/elevator.c (elevator_get_default): a device with several hardware queues, as NVMe drives have, gets"
                    + " no scheduler (none) by default; Documentation/block/switching-sched.rst"),
            Source.reasoned("none and mq-deadline are the defaults the kernel gives (mq-deadline for single-queue devices); another one was"
                    + " chosen by someone, and is named, not measured"));

    public static final Rule MTU = Rule.of("M4-MTU", "a 100 Gb/s or faster Ethernet port with a 1500-byte MTU", EnumSet.of(WARN),
            "TCP traffic (NCCL's socket transport, storage, checkpoint uploads) takes six times the packets and interrupts per byte of a"
                    + " 9000-byte MTU and keeps CPU cores busy; RoCE on it runs with an RDMA MTU of 1024 instead of 4096",
            "set MTU 9000 on the interface (ip link set <if> mtu 9000) and on every switch port on the path",
            Source.reasoned("9000/1500 = 6 packets per jumbo frame; from 100 GbE the per-packet CPU cost is what limits a TCP stream"),
            Source.document("NVIDIA RoCE documentation: the RoCE MTU is the largest IB MTU (256-4096) that fits the Ethernet MTU"));

    public static final Rule RDMA_PORT = Rule.of("M4-RDMA-PORT", "an RDMA port that is not ACTIVE", EnumSet.of(BAD, WARN),
            "NCCL cannot use it: an InfiniBand port with its link up but no subnet manager stays INIT, a RoCE port may be down; NCCL loses that"
                    + " rail and uses another HCA or sockets. Bad with the link up, a warning where the cable may be absent",
            "InfiniBand: start opensm or check the fabric's subnet manager (ibstat, sminfo); RoCE: bring the interface up (ip link, rdma"
                    + " link); unplugged: check the cable and the switch port",
            Source.document("Linux Documentation/ABI/stable/sysfs-class-infiniband, ports/N/state and phys_state; InfiniBand Architecture"
                    + " Specification, port states (a port moves to ACTIVE once the subnet manager configures it)"));

    public static final Rule GPUDIRECT_RDMA = Rule.of("M4-GPUDIRECT-RDMA", "GPUs and RDMA devices but no nvidia_peermem module: whether DMA-BUF,"
                    + " the other path, is open (the open kernel modules on Linux 5.12 or later)", EnumSet.of(WARN, INFO),
            "GPUDirect RDMA registers GPU memory with the NIC through DMA-BUF (which NVIDIA recommends, with its open kernel modules on a kernel"
                    + " that has RDMA DMA-BUF support, 5.12 or later) or through the legacy nvidia-peermem module; where neither works NCCL"
                    + " stages every inter-node transfer through host memory, an extra copy over PCIe each way",
            "check that NCCL uses GPUDirect RDMA (NCCL_DEBUG=INFO says 'GPU Direct RDMA Enabled', with DMA-BUF where it registers that way);"
                    + " where DMA-BUF is not available (proprietary kernel modules, an older kernel), modprobe nvidia_peermem",
            Source.document("NVIDIA GPU Operator documentation, GPUDirect RDMA and GPUDirect Storage: memory is registered through DMA-BUF or"
                    + " the legacy nvidia-peermem module, and NVIDIA recommends DMA-BUF"),
            Source.document("Linux v5.12 drivers/infiniband/core/umem_dmabuf.c: RDMA memory registration of DMA-BUF buffers"));

    public static final Rule NUMA_NIC = Rule.of("M4-NUMA-NIC", "a data NIC on no GPU's NUMA node", EnumSet.of(WARN),
            "every GPUDirect RDMA transfer and every staged copy crosses the inter-socket link, which caps bandwidth and adds latency",
            "use a NIC on the GPUs' node (NCCL_IB_HCA, NCCL_SOCKET_IFNAME) or run the ranks that use it on that NIC's node's CPUs",
            Source.document("Linux Documentation/ABI/testing/sysfs-bus-pci, numa_node; NCCL environment variables, NCCL_IB_HCA and"
                    + " NCCL_SOCKET_IFNAME"),
            Source.reasoned("a NIC counts as a data NIC with an RDMA device or 25 Gb/s and up; slower ones are management ports"));

    public static final Rule NUMA_NVME = Rule.of("M4-NUMA-NVME", "an NVMe drive on no GPU's NUMA node", EnumSet.of(WARN),
            "data read from it lands in its node's memory or crosses the inter-socket link on its way to the GPUs (GPUDirect Storage too)",
            "keep the hot dataset on a drive on the GPUs' node, or bind the DataLoader workers to the drive's node (numactl --cpunodebind)",
            Source.document("Linux Documentation/ABI/testing/sysfs-bus-pci, numa_node"));

    public static final Rule GDS = Rule.of("M4-GDS", "GPUs and NVMe drives but no nvidia_fs module (GPUDirect Storage)", EnumSet.of(BAD, INFO),
            "cuFile (and kvikio, DALI's GDS reader, torch's GdsFile) falls back to compat mode: POSIX reads into a host bounce buffer, then a"
                    + " copy to the GPU; bad where cufile.json forbids compat mode, since cuFile calls then fail",
            "install and load nvidia-fs (modprobe nvidia_fs) where GDS is wanted, or allow compat mode (\"allow_compat_mode\": true in"
                    + " cufile.json)",
            Source.document("NVIDIA GPUDirect Storage Configuration Guide and cuFile API Reference: compat mode (allow_compat_mode in"
                    + " /etc/cufile.json) reads through POSIX when nvidia-fs is not loaded"));

    public static final Rule STALE_TEST_FILES = Rule.of("M4-STALE-TEST-FILES", "test files a killed run left in the I/O drill's folder, removed",
            EnumSet.of(INFO),
            "the space they held is free again; a run killed mid-drill (SIGKILL, the OOM killer) leaves them, since nothing ran its cleanup", "",
            Source.reasoned("a file is removed only when its name has hostside's shape, it and its lock file are this user's regular files,"
                    + " and the lock's fcntl lock is free, so its owner is dead (harness.StaleTestFiles)"));

    /** Module 4's rules on the storage and network facts, as the rulebook lists them. */
    public static List<Rule> all() {
        return List.of(NETWORK_FS, READ_AHEAD, READ_ONLY, ROTATIONAL, NVME_LINK, NVME_SCHEDULER, MTU, RDMA_PORT, GPUDIRECT_RDMA, NUMA_NIC,
                NUMA_NVME, GDS, STALE_TEST_FILES);
    }
}
