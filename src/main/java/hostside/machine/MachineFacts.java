package hostside.machine;

import java.util.List;

import hostside.core.Finding;
import hostside.core.Schema;

/** Everything {@code hostside machine} knows, the top level of Module 1's document (docs/schema/machine.schema.json). */
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

    public static final String SCHEMA = Schema.CURRENT;

    public List<PciDevice> gpus() {
        return pci.stream().filter(PciDevice::isGpu).toList();
    }

    public List<PciDevice> nics() {
        return pci.stream().filter(PciDevice::isNic).toList();
    }

    /**
     * Why the PCIe tree is no tree: a cycle of upstream bridges, or more of them than PCIe allows
     * ({@link UpstreamChain}); empty when every function's chain ends at a root bus, as it always
     * does in facts hostside read (the reader cuts a recording's cycle and says so).
     */
    public java.util.Optional<String> pciTreeFault() {
        return pci == null ? java.util.Optional.empty() : UpstreamChain.firstFault(pci);
    }
}
