package hostside.machine;

import static hostside.core.Severity.BAD;
import static hostside.core.Severity.INFO;
import static hostside.core.Severity.OK;
import static hostside.core.Severity.UNKNOWN;
import static hostside.core.Severity.WARN;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import hostside.core.Bounds;
import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Source;
import hostside.core.Unit;
import hostside.core.Units;

/**
 * Module 1's rules on the machine's facts, read from sysfs and procfs alone: PCIe links below
 * their maximum, where GPUs sit among the NUMA nodes, nodes that hold GPU memory, node memory that
 * does not add up to the machine's, a cpuset narrower than the machine, offline CPUs, an IOMMU
 * that translates, and how far each GPU is from its nearest NIC ({@link Affinity}). Nothing here is
 * measured, so no finding turns unknown on a busy machine; the measured rules are
 * {@link GpuRules}' and {@link PeerRules}'.
 */
public final class TopologyRules {
    private TopologyRules() {}

    /** Node memory that differs from /proc/meminfo's MemTotal by more than this share is a mismatch. */
    static final double NODE_MEMORY_SLACK = 0.05;

    static final Source PCIE_RATES = Source.document("PCI Express Base Specification: 2.5 and 5.0 GT/s per lane with 8b/10b encoding"
            + " (Gen1, Gen2), 8.0, 16.0 and 32.0 GT/s with 128b/130b (Gen3 to Gen5); Linux sysfs-bus-pci ABI: current_link_speed,"
            + " current_link_width, max_link_speed, max_link_width");

    public static final Rule LINK_BELOW_MAX = Rule.of("M1-LINK-BELOW-MAX", "a GPU's, NIC's or NVMe drive's PCIe link below its maximum width or speed",
            EnumSet.of(BAD),
            "every copy over the link runs at most at the trained rate, not the device's: host-to-GPU batches, GPUDirect traffic"
                    + " and checkpoint reads all slow to it; idle GPUs lower their link's speed, not its width, and a GPU that stays"
                    + " slow under copy load is trained down, not idling",
            "reseat the card or its riser, move it to a slot wired for its full width (the motherboard manual), set the slot's PCIe"
                    + " generation to Auto or its maximum in the BIOS; lspci -vv -s <address> shows LnkCap against LnkSta",
            PCIE_RATES,
            Source.reasoned("below its own max_link_speed or max_link_width for certain: a width below the maximum, a speed below it on"
                    + " a device that does not downtrain when idle, or a GPU's that stays there during a copy"));

    public static final Rule LINK_IDLE = Rule.of("M1-LINK-IDLE", "an idle GPU's PCIe link below its maximum speed, settled by a reading under copy load",
            EnumSet.of(WARN, INFO),
            "GPUs lower their link speed when idle to save power and raise it under load, so an idle reading below the maximum is a"
                    + " fault only if it stays there while data moves; the GPU drill reads the link during its copies and settles it",
            "read the link while a copy runs: nvidia-smi --query-gpu=pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current"
                    + " --format=csv (or run hostside's GPU drill, which reads it under load)",
            Source.thread("NVIDIA/open-gpu-kernel-modules#731, NVIDIA's answer: the PCIe link speed follows the GPU's performance state"
                    + " (pcie.link.gen.gpucurrent 1 at P8, 3 at P0 on a GPU of maximum 4), and the PMU changes the state with the load;"
                    + " #1010: an RTX 5090 idles at 2.5 GT/s and retrains to 32 GT/s under load"),
            PCIE_RATES);

    public static final Rule GPU_NODE_UNKNOWN = Rule.of("M1-GPU-NODE-UNKNOWN", "a GPU whose NUMA node the kernel does not know (numa_node -1)",
            EnumSet.of(WARN, INFO),
            "on a machine of several nodes, hostside and scripts that bind by numa_node cannot place the GPU, so its feeding"
                    + " threads and pinned buffers land on whichever node runs them; with one node every CPU is equally near",
            "bind the GPU's feeding processes by its local CPUs (cat /sys/bus/pci/devices/<address>/local_cpulist; taskset -c or"
                    + " numactl --physcpubind); in a VM, ask for the host's NUMA topology to be passed through",
            Source.document("Linux Documentation/ABI/testing/sysfs-bus-pci, /sys/bus/pci/devices/.../numa_node: the NUMA node the device"
                    + " is attached to, or -1 if the node is unknown; local_cpulist: the CPUs near the device"),
            Source.reasoned("warn only where the machine has more than one node with CPUs: with one, no placement is wrong"));

    public static final Rule GPU_MEMORY_NODES = Rule.of("M1-GPU-MEMORY-NODES", "NUMA nodes that hold GPU memory and no CPUs",
            EnumSet.of(INFO),
            "the driver onlines GPU memory as NUMA nodes of its own (coherent platforms: Grace Hopper, POWER9 with V100), so node"
                    + " numbers no longer match sockets and scripts that bind 'node N = socket N' or interleave over all nodes"
                    + " place host memory on a GPU",
            "",
            Source.source("open-mpi/hwloc tests/hwloc/linux/nvidiagpunumanodes (a POWER9 with six V100 nodes of GPU memory and no CPUs)"
                    + " and hwloc's linux backend, which marks them as GPU memory"),
            Source.source("open-mpi/hwloc commit 39fae7e3 (linux: don't hide the NVIDIA GPU node on non-POWER platforms): NVIDIA GPU"
                    + " memory nodes, hidden on POWER because interleaved allocations spread over GPU memory, and on Grace Hopper one GPU"
                    + " node per GPU beside a single CPU node"));

    public static final Rule NODE_MEMORY = Rule.of("M1-NODE-MEMORY", "NUMA nodes' memory against /proc/meminfo's MemTotal",
            EnumSet.of(WARN),
            "per-node figures (numactl -H, each node's meminfo) then miss part of the machine's memory, so a per-node budget or"
                    + " a --membind sized from them is wrong by that much",
            "size memory budgets from /proc/meminfo (free -g) and bind only to the nodes numactl -H lists; in a VM, the memory the"
                    + " hypervisor added outside the node view is not bound to any node",
            Source.document("Linux Documentation/filesystems/proc.rst, /proc/meminfo MemTotal; Documentation/ABI/stable/sysfs-devices-node,"
                    + " /sys/devices/system/node/nodeX/meminfo"),
            Source.reasoned(Math.round(100 * NODE_MEMORY_SLACK) + "% of MemTotal: the kernel's own reserves keep the two from matching"
                    + " exactly, and less is no reason to doubt the node view"));

    public static final Rule CPUSET = Rule.of("M1-CPUSET", "this process's cpuset against the machine's online CPUs",
            EnumSet.of(INFO),
            "DataLoader workers, OpenMP and BLAS threads sized to the machine's CPU count (os.cpu_count()) oversubscribe the CPUs this"
                    + " process may use; size them to the allowed count (len(os.sched_getaffinity(0)))",
            "",
            Source.document("Linux Documentation/admin-guide/cgroup-v2.rst, cpuset.cpus.effective; sched_setaffinity(2)"),
            Source.document("Python os.cpu_count(): the number of CPUs in the system, not the number the process may use"
                    + " (os.sched_getaffinity)"));

    public static final Rule CPU_OFFLINE = Rule.of("M1-CPU-OFFLINE", "CPUs the kernel lists as offline",
            EnumSet.of(WARN),
            "offline CPUs run nothing: the machine has fewer cores for feeding its GPUs than its CPU count says, and a node whose CPUs"
                    + " are offline has its GPU fed from another node",
            "bring them online (echo 1 > /sys/devices/system/cpu/cpuN/online) or drop maxcpus=/nr_cpus= from the kernel command line",
            Source.document("Linux Documentation/core-api/cpu_hotplug.rst: /sys/devices/system/cpu/offline and cpuN/online; the maxcpus="
                    + " and nr_cpus= boot parameters"));

    public static final Rule IOMMU = Rule.of("M1-IOMMU", "an IOMMU that translates device DMA",
            EnumSet.of(INFO),
            "every DMA of a GPU or NIC is translated through the IOMMU's page tables, so host memory pinned for the GPU is also"
                    + " mapped in the IOMMU; passthrough (identity domains) leaves host devices on physical addresses, at the cost of"
                    + " the isolation between them",
            "",
            Source.document("Linux Documentation/ABI/testing/sysfs-kernel-iommu_groups, /sys/kernel/iommu_groups/<grp_id>/type: DMA, all"
                    + " DMA transactions from the group's devices are translated by the IOMMU; DMA-FQ, the same with lazily batched"
                    + " invalidation; identity, not translated"),
            Source.document("Linux Kconfig IOMMU_DEFAULT_PASSTHROUGH and kernel-parameters iommu.passthrough=1 (historically iommu=pt):"
                    + " identity-mapped devices get unrestricted access to memory with minimal performance overhead"));

    public static final Rule NIC_DISTANCE = Rule.of("M1-NIC-DISTANCE", "how far each GPU is from its nearest NIC, for GPUDirect RDMA",
            EnumSet.of(WARN, UNKNOWN, INFO, OK),
            "NCCL reads and writes GPU memory straight from an RDMA NIC (GPUDirect RDMA) only where the two are at most its"
                    + " NCCL_NET_GDR_LEVEL apart, PXB unless set: a GPU and NIC that meet only at the CPU (PHB, NODE) or across"
                    + " sockets (SYS) get their inter-node traffic staged through host memory. A NIC without an RDMA device carries"
                    + " NCCL's traffic over TCP through host memory wherever it sits. A superchip's GPU (GH200, GB200) reaches a NIC on its own"
                    + " Grace through NVLink-C2C, a path NCCL counts within reach while NCCL_NET_GDR_C2C is 1 (its default in current source)",
            "give each GPU's rank the NIC nearest it (NCCL_IB_HCA, or the job's rail mapping); across sockets, use a NIC on the GPU's"
                    + " node; where the GPU and NIC share the host bridge and GPUDirect RDMA through it is wanted, NCCL_NET_GDR_LEVEL=PHB",
            Source.source("NVIDIA/nccl src/graph/paths.cc (commit 7aa1c46f), ncclTopoCheckGdr: netGdrLevel = PATH_PXB unless"
                    + " NCCL_NET_GDR_LEVEL is set; a farther GPU-NIC path diverts the traffic through the CPU local to the GPU"),
            Source.document("NCCL User Guide, Environment Variables: NCCL_NET_GDR_LEVEL and NCCL_IB_HCA"),
            Source.source("NVIDIA/nccl src/graph/paths.cc (commit 04cdb808): NCCL_PARAM(NetGdrC2c, \"NET_GDR_C2C\", 1), \"On C2C platforms use"
                    + " GDRDMA on NICs which are connected to the CPUs\"; ncclTopoComputePaths makes a GPU's C2C path to its CPU plus that CPU's PHB"
                    + " path to a NIC one P2C path, and ncclTopoCheckGdr's reach is P2C while NET_GDR_C2C is set"),
            Source.document("nvidia-smi topo -m legend: PIX, PXB, PHB, NODE (between host bridges within a NUMA node), SYS (across the"
                    + " SMP interconnect between NUMA nodes)"));

    /** Module 1's rules on facts, as the rulebook lists them. */
    public static List<Rule> all() {
        return List.of(LINK_BELOW_MAX, LINK_IDLE, GPU_NODE_UNKNOWN, GPU_MEMORY_NODES, NODE_MEMORY, CPUSET, CPU_OFFLINE, IOMMU, NIC_DISTANCE);
    }

    /** What the facts say about the machine. */
    static List<Finding> findings(Host host, Topology topology, List<PciDevice> pci, Iommu iommu) {
        List<Finding> f = new ArrayList<>();
        Map<String, PciDevice> byAddress = new HashMap<>();
        for (PciDevice d : pci) byAddress.put(d.address(), d);
        for (PciDevice d : pci) {
            if (d.link() == null || !(d.isGpu() || d.isNic() || d.kind() == PciKind.NVME)) continue;
            link(d, byAddress.get(d.upstream())).ifPresent(f::add);
        }
        long cpuNodes = topology.numaNodes().stream().filter(n -> !n.cpus().isEmpty()).count();
        boolean vm = host != null && host.isVm();
        for (PciDevice d : pci) {
            if (!d.isGpu() || d.numaNode() != null) continue;
            String why = "(the kernel says -1" + (vm ? ", as VMs often do" : "") + ")";
            List<Evidence> e = List.of(Evidence.fact(sysfs(d, "numa_node"), "-1"),
                    Evidence.fact(sysfs(d, "local_cpulist"), d.localCpus().isEmpty() ? "" : d.localCpus().toString()),
                    Evidence.fact("numa.nodes_with_cpus", String.valueOf(cpuNodes)));
            if (cpuNodes > 1) {
                f.add(GPU_NODE_UNKNOWN.finding(WARN, d.label(), d.label() + "'s NUMA node is unknown " + why + " on a machine of " + cpuNodes
                        + " nodes: its feeders may run and pin buffers on the far one; its local CPUs are "
                        + (d.localCpus().isEmpty() ? "unknown too" : d.localCpus().toString()), e));
            } else {
                f.add(GPU_NODE_UNKNOWN.finding(INFO, d.label(), d.label() + "'s NUMA node is unknown " + why + "; with one NUMA node every CPU is equally near", e));
            }
        }
        List<Topology.NumaNode> gpuNodes = topology.numaNodes().stream().filter(Topology.NumaNode::gpuMemory).toList();
        if (!gpuNodes.isEmpty()) {
            f.add(GPU_MEMORY_NODES.finding(INFO, "NUMA", gpuNodes.size() + " NUMA node(s) (" + String.join(", ", gpuNodes.stream()
                            .map(n -> String.valueOf(n.id())).toList()) + ") hold GPU memory and no CPUs: node numbers are not sockets",
                    Evidence.fact("/sys/devices/system/node", String.join(",", gpuNodes.stream().map(n -> "node" + n.id()).toList()))));
        }
        Topology.Whole w = topology.whole();
        // GPU-memory nodes count too: memory the driver onlines as a node is in MemTotal (the POWER9
        // of hwloc's nvidiagpunumanodes: its two sockets and six V100 nodes add up to MemTotal exactly)
        // a recording's node sizes can add up past 2^63: then no comparison is made (-1), rather than one with a wrapped sum
        long nodeMemory = Bounds.sum(topology.numaNodes().stream().filter(n -> n.memTotalBytes() != null)
                .mapToLong(Topology.NumaNode::memTotalBytes).toArray()).orElse(-1);
        boolean allNodes = topology.numaNodes().size() >= Math.max(1, w.nodes().size());
        if (w.memTotalBytes() != null && allNodes && nodeMemory > 0
                && Math.abs(w.memTotalBytes() - nodeMemory) > NODE_MEMORY_SLACK * w.memTotalBytes()) {
            f.add(NODE_MEMORY.finding(WARN, "NUMA", String.format(Locale.ROOT, "the NUMA nodes add up to %s but /proc/meminfo has %s, %.0f%% apart%s:"
                            + " per-node figures misstate this machine's memory by that much", Units.bytes(nodeMemory), Units.bytes(w.memTotalBytes()),
                    100.0 * Math.abs(w.memTotalBytes() - nodeMemory) / w.memTotalBytes(), vm ? " (memory the VM added outside the node view)" : ""),
                    Evidence.of("numa.node_mem_total", nodeMemory, Unit.BYTES), Evidence.of("meminfo.mem_total", w.memTotalBytes(), Unit.BYTES)));
        }
        if (!w.allowedCpus().isEmpty()) {
            int all = w.onlineCpus().size();
            if (topology.threads() < all) {
                f.add(CPUSET.finding(INFO, "cpuset", "this process may use " + topology.threads() + " of " + all + " online CPUs ("
                                + w.cpusetSource() + "): threads sized to " + all + " share " + topology.threads(),
                        Evidence.fact(w.cpusetSource() == null || w.cpusetSource().isEmpty() ? "cpuset" : w.cpusetSource(), w.allowedCpus().toString()),
                        Evidence.fact("/sys/devices/system/cpu/online", w.onlineCpus().toString())));
            }
        }
        if (!w.offlineCpus().isEmpty()) {
            f.add(CPU_OFFLINE.finding(WARN, "CPU", "CPUs " + w.offlineCpus() + " (" + w.offlineCpus().size() + ") are offline: "
                            + w.onlineCpus().size() + " CPUs run work",
                    Evidence.fact("/sys/devices/system/cpu/offline", w.offlineCpus().toString())));
        }
        if (iommu != null && iommu.state().equals("translating")) {
            f.add(IOMMU.finding(INFO, "IOMMU", "the IOMMU translates device DMA (" + iommu.evidence() + "): pinned buffers are also"
                    + " IOMMU mappings, and each GPU and NIC DMA is translated", Evidence.fact("/sys/kernel/iommu_groups", iommu.evidence())));
        }
        return f;
    }

    private static String sysfs(PciDevice d, String file) {
        return "/sys/bus/pci/devices/" + d.address() + "/" + file;
    }

    private static List<Evidence> linkEvidence(PciDevice d, PciLink l) {
        List<Evidence> e = new ArrayList<>();
        e.add(Evidence.fact(sysfs(d, "current_link_speed"), l.speedGTs() == null ? "" : l.speedGTs() + " GT/s"));
        e.add(Evidence.fact(sysfs(d, "current_link_width"), l.width() == null ? "" : String.valueOf(l.width())));
        e.add(Evidence.fact(sysfs(d, "max_link_speed"), l.maxSpeedGTs() + " GT/s"));
        e.add(Evidence.fact(sysfs(d, "max_link_width"), String.valueOf(l.maxWidth())));
        return e;
    }

    /**
     * A link below its maximum. Width loss is always a finding; speed loss on a GPU may be idle
     * power saving (GPUs drop to Gen1 when idle), so it is only a warning until seen under load.
     */
    static Optional<Finding> link(PciDevice d, PciDevice upstream) {
        PciLink l = d.link();
        if (l == null || l.maxSpeedGTs() == null || l.maxWidth() == null) return Optional.empty();
        String slot = "";
        if (upstream != null && upstream.link() != null && upstream.link().maxSpeedGTs() != null
                && upstream.link().maxSpeedGTs() < l.maxSpeedGTs() - 0.01) {
            slot = " (the slot above it, " + upstream.address() + ", tops out at Gen" + PciLink.generation(upstream.link().maxSpeedGTs()) + ")";
        }
        String cost = String.format(Locale.ROOT, "at most %.1f GB/s per direction instead of %.1f", l.currentGBs(), l.maxGBs());
        List<Evidence> e = linkEvidence(d, l);
        if (l.belowMaxWidth() || l.belowMaxSpeed() && !(d.isGpu() && slot.isEmpty())) {
            return Optional.of(LINK_BELOW_MAX.finding(BAD, d.label(), d.label() + " runs at " + l.current() + " of " + l.max() + ": " + cost + slot, e));
        }
        if (l.belowMaxSpeed()) {
            return Optional.of(LINK_IDLE.finding(WARN, d.label(), d.label() + " link is at " + l.current() + " of " + l.max()
                    + " while idle: a fault only if it stays there during a copy (" + cost + ")", e));
        }
        return Optional.empty();
    }

    /**
     * The idle link settled by the reading under copy load: below its maximum still, a fault with
     * its cost; at it, power saving.
     */
    static Finding underLoad(String gpu, PciLink load) {
        List<Evidence> e = List.of(Evidence.fact("nvml.pcie_link_under_load." + gpu, load.current()),
                Evidence.fact("nvml.pcie_link_max." + gpu, load.max()));
        if (load.belowMaxSpeed() || load.belowMaxWidth()) {
            return LINK_BELOW_MAX.finding(BAD, gpu, String.format(Locale.ROOT, "%s stays at %s of %s under load: at most %.1f GB/s per direction instead of %.1f",
                    gpu, load.current(), load.max(), load.currentGBs(), load.maxGBs()), e);
        }
        return LINK_IDLE.finding(INFO, gpu, gpu + "'s link idles below its maximum and runs at " + load.current() + " under load: power saving, not a fault", e);
    }

    /** What the nearest NIC means for one GPU; {@code nic} null where the box has none. */
    static Finding nic(PciDevice gpu, PciDevice nic, String level) {
        String g = gpu.label();
        if (nic == null) {
            return NIC_DISTANCE.finding(INFO, g, g + " has no NIC in this box: traffic to other machines leaves through a NIC elsewhere",
                    Evidence.fact("pci.nics", "0"));
        }
        String n = nic.label();
        List<Evidence> e = List.of(Evidence.fact("affinity." + g + "." + n, level), Evidence.fact("pci." + n + ".rdma", String.valueOf(nic.rdma())));
        if (level.equals("?")) {
            return NIC_DISTANCE.unknown(g, g + " and " + n + ": distance unknown (no PCIe tree or NUMA data for them)", e);
        }
        if (!nic.rdma()) {
            return NIC_DISTANCE.finding(INFO, g, g + " and " + n + " are " + level + " apart, but " + n + " has no RDMA device: inter-node"
                    + " traffic goes over TCP through host memory whatever the distance", e);
        }
        if (gpu.superchipGpu() && (level.equals("PHB") || level.equals("NODE"))) {
            // NCCL's PATH_P2C (paths.cc at 04cdb808): a NIC on the CPU the GPU is C2C-attached to is in GPUDirect RDMA's reach
            return NIC_DISTANCE.finding(INFO, g, g + " reaches its Grace over NVLink-C2C and " + n + " hangs off that CPU (" + level + "):"
                    + " NCCL counts that path (P2C) within GPUDirect RDMA's reach while NCCL_NET_GDR_C2C is 1, its default in current NCCL;"
                    + " a release without it, or with it 0, stages inter-node traffic through host memory", e);
        }
        return switch (level) {
            case "PIX" -> NIC_DISTANCE.finding(OK, g, g + " and " + n + " share a PCIe switch (PIX): NCCL uses GPUDirect RDMA between them", e);
            case "PXB" -> NIC_DISTANCE.finding(OK, g, g + " reaches " + n + " through several PCIe switches without the CPU (PXB): within NCCL's"
                    + " default GPUDirect RDMA reach", e);
            case "PHB" -> NIC_DISTANCE.finding(WARN, g, g + " and " + n + " meet only at the CPU's host bridge (PHB): beyond NCCL's default"
                    + " GPUDirect RDMA reach, so inter-node traffic is staged through host memory", e);
            case "NODE" -> NIC_DISTANCE.finding(WARN, g, g + " and " + n + " hang off different host bridges of one NUMA node (NODE): NCCL"
                    + " stages inter-node traffic through host memory", e);
            default -> NIC_DISTANCE.finding(WARN, g, g + " and " + n + " are on different NUMA nodes (SYS): inter-node traffic is staged"
                    + " through host memory and crosses the CPU interconnect", e);
        };
    }
}
