package hostside.io.facts;

import java.util.List;

import hostside.machine.PciLink;

/**
 * Module 4's facts: where the training data lies (the folders given, their file systems and the
 * disks behind them), the block devices, the network interfaces and RDMA ports, and whether
 * GPUDirect RDMA and GPUDirect Storage are there. Read through an {@code FsRoot}; nothing here is
 * measured.
 *
 * <p>A value that could not be read is null; {@link #unknowns} says which file and why (a missing
 * file of an optional feature is simply null).
 *
 * @param dataDirs     the folders asked about, in the order given
 * @param blockDevices whole disks (loop, ram and zram devices only when they back a data dir), by name
 * @param nics         network interfaces: physical ones, or the virtual ones when there is no other (a container)
 * @param rdmaDevices  /sys/class/infiniband: InfiniBand and RoCE devices
 * @param gpuDirect    nvidia_peermem, nvidia_fs and /etc/cufile.json
 * @param unknowns     what could not be read, with the path and why
 */
public record IoFacts(
        List<DataDir> dataDirs,
        List<BlockDevice> blockDevices,
        List<Nic> nics,
        List<RdmaDevice> rdmaDevices,
        GpuDirect gpuDirect,
        List<String> unknowns) {

    /**
     * A folder that training reads from or writes to, and what it lies on.
     *
     * @param path            as given, made absolute
     * @param realPath        with symlinks resolved; the path itself when it does not exist
     * @param exists          null on a recording, which holds /sys and /proc but not the data
     * @param filesystem      the mount it lies on; null when no mount table could be read
     * @param upperDir        for overlay (a container's root), the upperdir option; null otherwise
     * @param upper           the mount that upperdir lies on, when it is visible from here (on the host,
     *                        not inside the container); null otherwise
     * @param blockDevice     the block device the file system is on, partition or whole ("nvme0n1p2",
     *                        "dm-0"); null for network and memory file systems, or when unknown
     * @param disks           the whole physical disks behind it, device-mapper and md resolved
     * @param readAheadKb     the read-ahead the kernel applies to this file system, in KiB
     * @param readAheadSource the file it was read from, for the advice to change it
     */
    public record DataDir(String path, String realPath, Boolean exists, Filesystem filesystem, String upperDir,
                          Filesystem upper, String blockDevice, List<String> disks, Long readAheadKb,
                          String readAheadSource) {}

    /**
     * One mount.
     *
     * @param mountPoint where it is mounted
     * @param type       the file system type from the mount table ("ext4", "nfs4", "fuse.s3fs")
     * @param source     what is mounted ("/dev/nvme0n1p2", "server:/export")
     * @param device     "major:minor" from mountinfo; null when only /proc/mounts could be read
     * @param storage    {@link FsKind}: local, network, host-share, memory, overlay, fuse, pseudo or unknown
     * @param what       the file system named for people: "NFS", "Lustre", "s3fs (S3 through FUSE)"
     * @param options    the mount options that matter here: ro, atime handling, dax, sync, NFS transfer sizes
     */
    public record Filesystem(String mountPoint, String type, String source, String device, String storage,
                             String what, List<String> options) {}

    /**
     * A whole disk (/sys/block/NAME).
     *
     * @param name       "nvme0n1", "sda", "vda", "dm-0", "md127"
     * @param kind       nvme, virtio, scsi (SATA and SAS too), xen, mmc, pmem, md, dm, loop, ram, zram, rbd, nbd or other
     * @param model      the device's model, or what stands behind a dm or md device ("LVM vg0-data", "md raid0")
     * @param sizeBytes  capacity
     * @param rotational the kernel's rotational flag (virtio disks say 1 whatever the host's media are)
     * @param remote     what carries it when it is storage over a network ("NVMe over TCP", "iSCSI",
     *                   "Ceph RBD", "NBD"); null for local devices
     * @param queue      the block layer's queue settings
     * @param slaves     for dm and md: the devices it is built from, as the kernel lists them
     * @param physical   the whole disks at the bottom of the stack (itself for a plain disk)
     * @param controller the controller and PCI function behind it; null for virtual devices
     */
    public record BlockDevice(String name, BlockKind kind, String model, Long sizeBytes, Boolean rotational,
                              String remote, Queue queue, List<String> slaves, List<String> physical,
                              Controller controller) {}

    /**
     * /sys/block/NAME/queue.
     *
     * @param scheduler          the I/O scheduler in use ("none", "mq-deadline", "bfq", "kyber")
     * @param schedulers         every scheduler offered, in the kernel's order
     * @param nrRequests         requests the block layer queues per hardware queue
     * @param logicalBlockBytes  smallest addressable unit (the O_DIRECT alignment)
     * @param physicalBlockBytes smallest unit written without read-modify-write
     * @param readAheadKb        read-ahead for buffered sequential reads, KiB
     * @param maxSectorsKb       largest request the kernel issues, KiB
     * @param maxHwSectorsKb     largest request the device takes, KiB
     * @param maxSegments        most physically contiguous pieces one request may carry: an O_DIRECT read whose buffer lies
     *                           in more goes as two requests (docs/measurements/2026-12-07-odirect-split-devvm.md)
     */
    public record Queue(String scheduler, List<String> schedulers, Long nrRequests, Long logicalBlockBytes,
                        Long physicalBlockBytes, Long readAheadKb, Long maxSectorsKb, Long maxHwSectorsKb, Long maxSegments) {}

    /**
     * What a disk hangs off.
     *
     * @param name       the NVMe controller ("nvme0"); null for other kinds
     * @param transport  NVMe transport: pcie, tcp, rdma, fc or loop; null for other kinds or older kernels
     * @param pciAddress the PCI function of the controller or host adapter
     * @param numaNode   null where the kernel says -1
     * @param link       its PCIe link, current and maximum; null when sysfs does not say
     */
    public record Controller(String name, String transport, String pciAddress, Integer numaNode, PciLink link) {}

    /**
     * A network interface (/sys/class/net/NAME).
     *
     * @param name         "eth0", "ens1f0np0", "ib0"
     * @param virtual      true for interfaces with no device behind them (veth, bridges, VLANs, bonds)
     * @param type         ethernet, infiniband (IPoIB), or "ARP type N"
     * @param driver       the device's driver ("mlx5_core", "virtio_net"); null when none is linked
     * @param speedMbps    the link speed; null when unknown
     * @param speedUnknown why the speed is unknown ("the driver reports -1"); null when known
     * @param mtu          bytes
     * @param operstate    up, down, unknown, dormant...
     * @param pciAddress   its PCI function; null for virtual interfaces
     * @param numaNode     null where the kernel says -1
     * @param link         its PCIe link; null when sysfs does not say
     * @param rdmaDevices  the RDMA devices on the same function or port
     */
    public record Nic(String name, boolean virtual, String type, String driver, Long speedMbps, String speedUnknown,
                      Integer mtu, String operstate, String pciAddress, Integer numaNode, PciLink link,
                      List<String> rdmaDevices) {}

    /**
     * An RDMA device (/sys/class/infiniband/NAME).
     *
     * @param name       "mlx5_0"
     * @param hcaType    the adapter ("MT4129"); null when the driver does not say
     * @param firmware   fw_ver
     * @param pciAddress null for software devices (rxe, siw) and other non-PCI ones
     * @param numaNode   null where the kernel says -1
     * @param netdevs    the network interfaces it serves
     * @param ports      its ports in order
     */
    public record RdmaDevice(String name, String hcaType, String firmware, String pciAddress, Integer numaNode,
                             List<String> netdevs, List<RdmaPort> ports) {}

    /**
     * One port of an RDMA device (ports/N).
     *
     * @param port          the port number
     * @param state         ACTIVE, INIT, ARMED, DOWN (the logical state)
     * @param physicalState LinkUp, Polling, Disabled... (the cable)
     * @param rate          as the kernel says it: "400 Gb/sec (4X NDR)"
     * @param rateGbps      the rate's figure in Gb/s
     * @param linkLayer     InfiniBand, or Ethernet for RoCE
     * @param netdev        the interface a RoCE port carries (gid_attrs/ndevs/0); null otherwise
     */
    public record RdmaPort(int port, String state, String physicalState, String rate, Double rateGbps,
                           String linkLayer, String netdev) {}

    /**
     * GPUDirect RDMA and GPUDirect Storage.
     *
     * @param peermem       nvidia_peermem (or the older nv_peer_mem) loaded; null when module state is unknown
     * @param peermemModule which of the two is loaded; null when neither
     * @param nvidiaFs      nvidia_fs (GPUDirect Storage) loaded; null when unknown
     * @param modulesSource where module state was read ("/proc/modules", "/sys/module"), or why it is unknown
     *                      ("/proc/modules: missing, and no /sys/module")
     * @param cufile        /etc/cufile.json
     * @param openKernelModules the NVIDIA driver's kernel modules are its open ones (/proc/driver/nvidia/version says "Open
     *                      Kernel Module"), which DMA-BUF registration needs; null when no driver version was read
     * @param kernelRelease /proc/sys/kernel/osrelease ("6.8.0-49-generic"); null when unread
     */
    public record GpuDirect(Boolean peermem, String peermemModule, Boolean nvidiaFs, String modulesSource,
                            CuFile cufile, Boolean openKernelModules, String kernelRelease) {
        /** What a report of an earlier version recorded: the driver's flavour and the kernel unread. */
        public GpuDirect(Boolean peermem, String peermemModule, Boolean nvidiaFs, String modulesSource, CuFile cufile) {
            this(peermem, peermemModule, nvidiaFs, modulesSource, cufile, null, null);
        }

        /**
         * Whether GPUDirect RDMA can register GPU memory through DMA-BUF, as far as files tell: the
         * open kernel modules on Linux 5.12 or later (RDMA DMA-BUF registration, umem_dmabuf.c);
         * null when either is unknown. The NIC's driver and NCCL must use it too, which no file says.
         */
        public Boolean dmaBufPossible() {
            if (Boolean.FALSE.equals(openKernelModules)) return false;
            int[] v = kernelVersion(kernelRelease);
            if (v != null && (v[0] < 5 || v[0] == 5 && v[1] < 12)) return false;
            return openKernelModules == null || v == null ? null : true;
        }

        /** Major and minor of a kernel release ("6.8.0-49-generic": 6, 8); null when it does not start with them. */
        static int[] kernelVersion(String release) {
            if (release == null) return null;
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\d+)\\.(\\d+)").matcher(release.strip());
            return m.find() ? new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))} : null;
        }
    }

    /**
     * cuFile's configuration.
     *
     * @param path            where it was looked for
     * @param present         whether the file is there
     * @param error           why it could not be read or parsed; null when it was
     * @param allowCompatMode properties.allow_compat_mode: fall back to POSIX I/O when GDS cannot be used
     * @param usePollMode     properties.use_poll_mode: poll for completion of small I/O instead of waiting
     */
    public record CuFile(String path, boolean present, String error, Boolean allowCompatMode, Boolean usePollMode) {}
}
