package hostside.machine;

import hostside.core.Finding;

import java.util.List;

/** Everything {@code hostside machine} knows, as CONTRACT.md's facts JSON (schema hostside/1). */
public record MachineFacts(
        String schema,
        Host host,
        Topology topology,
        List<PciDevice> pci,
        Affinity affinity,
        Iommu iommu,
        List<KernelCmdline.Item> kernelCmdline,
        List<Finding> findings,
        List<String> unknowns) {

    public static final String SCHEMA = hostside.core.Schema.CURRENT;

    public List<PciDevice> gpus() {
        return pci.stream().filter(PciDevice::isGpu).toList();
    }

    public List<PciDevice> nics() {
        return pci.stream().filter(PciDevice::isNic).toList();
    }
}
