package hostside.machine;

import hostside.core.Finding;

import java.util.Locale;
import java.util.ArrayList;
import java.util.List;

import hostside.core.CpuSet;
import hostside.fs.FsRoot;

/** Reads {@link MachineFacts} through an {@link FsRoot}: facts only, nothing is measured here. */
public final class MachineReader {
    private MachineReader() {}

    public static MachineFacts read(FsRoot fs) {
        List<String> unknowns = new ArrayList<>();
        CpuInfo cpuinfo = CpuInfo.read(fs);
        Host host = Host.read(fs, cpuinfo);
        Topology topology = new TopologyReader(fs, unknowns).read();
        List<PciDevice> pci = new PciReader(fs, unknowns).read();
        Affinity affinity = Affinity.of(pci, topology);
        List<KernelCmdline.Item> cmdline = KernelCmdline.read(fs);
        Iommu iommu = Iommu.read(fs, cmdline);
        List<Finding> findings = findings(host, topology, pci, iommu);
        return new MachineFacts(MachineFacts.SCHEMA, host, topology, pci, affinity, iommu, cmdline, findings,
                List.copyOf(unknowns));
    }

    static List<Finding> findings(Host host, Topology topology, List<PciDevice> pci, Iommu iommu) {
        List<Finding> f = new ArrayList<>();
        java.util.Map<String, PciDevice> byAddress = new java.util.HashMap<>();
        for (PciDevice d : pci) byAddress.put(d.address(), d);
        for (PciDevice d : pci) {
            if (d.link() == null || !(d.isGpu() || d.isNic() || d.kind() == hostside.machine.PciKind.NVME)) continue;
            linkFinding(d, byAddress.get(d.upstream())).ifPresent(f::add);
        }
        long cpuNodes = topology.numaNodes().stream().filter(n -> !n.cpus().isEmpty()).count();
        for (PciDevice d : pci) {
            if (!d.isGpu() || d.numaNode() != null) continue;
            boolean vm = host.virtualization().startsWith("VM");
            if (cpuNodes > 1) {
                f.add(Finding.warn(d.label(), d.label() + "'s NUMA node is unknown (the kernel says -1" + (vm ? ", as VMs often do" : "")
                        + "): pin its feeding threads by its local CPUs " + (d.localCpus().isEmpty() ? "(unknown too)" : d.localCpus())
                        + ", and check the host's real topology"));
            } else {
                f.add(Finding.info(d.label(), d.label() + "'s NUMA node is unknown (the kernel says -1" + (vm ? ", as VMs often do" : "")
                        + "); with one NUMA node every CPU is equally near"));
            }
        }
        long gpuNodes = topology.numaNodes().stream().filter(Topology.NumaNode::gpuMemory).count();
        if (gpuNodes > 0) {
            f.add(Finding.info("NUMA", gpuNodes + " NUMA node(s) hold GPU memory and no CPUs: scripts that take 'NUMA node = socket' bind to the wrong nodes"));
        }
        Topology.Whole w = topology.whole();
        // GPU-memory nodes count too: memory the driver onlines as a node is in MemTotal (the POWER9
        // of hwloc's nvidiagpunumanodes: its two sockets and six V100 nodes add up to MemTotal exactly)
        // a recording's node sizes can add up past 2^63: then no comparison is made (-1), rather than one with a wrapped sum
        long nodeMemory = hostside.core.Bounds.sum(topology.numaNodes().stream().filter(n -> n.memTotalBytes() != null)
                .mapToLong(Topology.NumaNode::memTotalBytes).toArray()).orElse(-1);
        boolean allNodes = topology.numaNodes().size() >= Math.max(1, w.nodes().size());
        if (w.memTotalBytes() != null && allNodes && nodeMemory > 0
                && Math.abs(w.memTotalBytes() - nodeMemory) > w.memTotalBytes() / 20) {
            f.add(Finding.warn("NUMA", "the NUMA nodes add up to " + hostside.core.Units.bytes(nodeMemory) + " but /proc/meminfo has "
                    + hostside.core.Units.bytes(w.memTotalBytes()) + (host.virtualization().startsWith("VM") ? " (memory the VM added outside the node view)" : "")
                    + ": per-node figures (numactl -H, node meminfo) understate this machine's memory"));
        }
        if (!w.allowedCpus().isEmpty()) {
            int all = w.onlineCpus().size();
            if (topology.threads() < all) {
                f.add(Finding.info("cpuset", "this process may use " + topology.threads() + " of " + all
                        + " online CPUs (" + w.cpusetSource() + "): size DataLoader workers and OpenMP threads to " + topology.threads()));
            }
        }
        if (!w.offlineCpus().isEmpty()) {
            f.add(Finding.warn("CPU", "CPUs " + w.offlineCpus() + " are offline"));
        }
        if (iommu.state().equals("translating")) {
            f.add(Finding.info("IOMMU", "the IOMMU translates device DMA: pinning memory also creates IOMMU mappings; iommu=pt removes that cost where isolation is not needed"));
        }
        return f;
    }

    /**
     * A link below its maximum. Width loss is always a finding; speed loss on a GPU may be idle
     * power saving (GPUs drop to Gen1 when idle), so it is only a warning until seen under load.
     */
    static java.util.Optional<Finding> linkFinding(PciDevice d, PciDevice upstream) {
        PciLink l = d.link();
        if (l == null || l.maxSpeedGTs() == null || l.maxWidth() == null) return java.util.Optional.empty();
        String slot = "";
        if (upstream != null && upstream.link() != null && upstream.link().maxSpeedGTs() != null
                && upstream.link().maxSpeedGTs() < l.maxSpeedGTs() - 0.01) {
            slot = " (the slot above it, " + upstream.address() + ", tops out at Gen" + PciLink.generation(upstream.link().maxSpeedGTs()) + ")";
        }
        String cost = String.format(Locale.ROOT, "at most %.1f GB/s per direction instead of %.1f", l.currentGBs(), l.maxGBs());
        if (l.belowMaxWidth()) {
            return java.util.Optional.of(new Finding(hostside.core.Severity.BAD, d.label(), d.label() + " runs at " + l.current() + " of " + l.max() + ": " + cost + slot,
                    Finding.LINK_BELOW_MAX));
        }
        if (l.belowMaxSpeed()) {
            if (d.isGpu() && slot.isEmpty()) {
                return java.util.Optional.of(new Finding(hostside.core.Severity.WARN, d.label(), d.label() + " link is at " + l.current() + " of " + l.max()
                        + " now; idle GPUs downtrain, so this is a fault only if it stays there during a copy (" + cost + ")",
                        Finding.IDLE_LINK_BELOW_MAX));
            }
            return java.util.Optional.of(new Finding(hostside.core.Severity.BAD, d.label(), d.label() + " runs at " + l.current() + " of " + l.max() + ": " + cost + slot,
                    Finding.LINK_BELOW_MAX));
        }
        return java.util.Optional.empty();
    }
}
