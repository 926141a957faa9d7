package hostside.machine;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Finding;
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

    /** What the facts say: {@link TopologyRules}' findings. */
    static List<Finding> findings(Host host, Topology topology, List<PciDevice> pci, Iommu iommu) {
        return TopologyRules.findings(host, topology, pci, iommu);
    }

    /** A link below its maximum: {@link TopologyRules#link}. */
    static java.util.Optional<Finding> linkFinding(PciDevice d, PciDevice upstream) {
        return TopologyRules.link(d, upstream);
    }
}
