package hostside.health;

import java.util.List;

import hostside.gpu.nvml.NvmlHealth;
import hostside.health.host.IbPorts;
import hostside.health.host.PcieAer;
import hostside.health.host.Rails;
import hostside.health.host.SoftwareStack;
import hostside.health.host.VersionAgreement;
import hostside.health.host.VersionCheck;
import hostside.rack.RackFacts;

/**
 * What node health reads: NVML's answers for every GPU, every GPU's and NIC's PCIe link and the AER
 * counters on its path, the InfiniBand/RoCE ports, each GPU's nearest RDMA NIC, NVIDIA's software,
 * the fabric manager, and the Xids of the kernel log. Read, not measured, apart from the links of
 * GPUs that sat below their maximum at rest ({@link LinkLoad}).
 *
 * @param nvml          what NVML answered (on a recording: what it answered when the snapshot was taken)
 * @param links         the PCIe links of the GPUs and NICs on the bus
 * @param aer           the AER counters of each GPU and NIC and the bridges above it
 * @param ib            the RDMA devices' ports and their counters
 * @param rails         each GPU's RDMA NICs, nearest first
 * @param software      the kernel module, libraries, packages and NCCL copies
 * @param fabricManager NVSwitches on the bus and the fabric manager's unit and daemon
 * @param xids          the Xids of the kernel log
 * @param nvidiaGpusOnBus NVIDIA GPUs the PCI bus shows, whatever NVML says: a node whose bus shows
 *                        GPUs that NVML cannot read is not a node without GPUs
 * @param live          read on the machine itself; false for a recording (a snapshot, replayed)
 */
public record HealthFacts(NvmlHealth nvml, List<DeviceLink> links, PcieAer aer, IbPorts ib, Rails rails, SoftwareStack software,
                          RackFacts.FabricManager fabricManager, XidLog xids, int nvidiaGpusOnBus, boolean live) {
    public HealthFacts {
        links = List.copyOf(links);
    }

    /** Whether the versions that must agree do (derived, so not written: the software facts are). */
    public List<VersionCheck> versions() {
        return VersionAgreement.check(software);
    }
}
