package hostside.health.host;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import hostside.core.CpuSet;
import hostside.core.GarbageException;
import hostside.fs.FsRoot;
import hostside.machine.Affinity;
import hostside.machine.PciDevice;
import hostside.machine.PciReader;

/**
 * Which RDMA NIC is nearest each GPU, by machine's {@link Affinity#level} over the functions on
 * the GPUs' and NICs' PCIe paths (read through machine's {@link PciReader}, not the whole tree).
 * The NICs are the PCI functions of /sys/class/infiniband's devices (their device link,
 * NVIDIA/gpu-operator#2781), so an Ethernet NIC without RDMA is not one.
 */
public final class RailReader {
    /** The node list of nodes with CPUs (Documentation/ABI/stable/sysfs-devices-node, has_cpu). */
    static final String NODES_WITH_CPUS = "/sys/devices/system/node/has_cpu";

    private RailReader() {}

    /** Reads the RDMA devices itself; use {@link #read(FsRoot, List, IbPorts)} when {@link IbReader} has read them already. */
    public static Rails read(FsRoot fs, List<String> gpuAddresses) {
        return read(fs, gpuAddresses, IbReader.read(fs));
    }

    public static Rails read(FsRoot fs, List<String> gpuAddresses, IbPorts rdma) {
        List<String> unknowns = new ArrayList<>();
        PciReader pci = new PciReader(fs, unknowns);
        Map<String, PciDevice> byAddress = new HashMap<>();
        List<IbDevice> nics = new ArrayList<>();
        for (IbDevice d : rdma.devices()) {
            if (d.pciAddress() == null) {
                unknowns.add(d.name() + ": no PCI function (a software RDMA device): no rail");
                continue;
            }
            if (place(pci, d.pciAddress(), byAddress, unknowns)) nics.add(d);
        }
        int cpuNodes = cpuNodes(fs, unknowns);
        List<Rail> rails = new ArrayList<>();
        for (String gpu : gpuAddresses) {
            if (!place(pci, gpu, byAddress, unknowns)) {
                rails.add(new Rail(gpu, List.of()));
                continue;
            }
            List<NicDistance> distances = new ArrayList<>();
            for (IbDevice nic : nics) {
                String word = Affinity.level(byAddress.get(gpu), byAddress.get(nic.pciAddress()), byAddress, cpuNodes);
                distances.add(new NicDistance(nic.name(), nic.pciAddress(), PcieLevel.ofWord(word)));
            }
            distances.sort(Comparator.comparing(NicDistance::level)); // stable: ties keep the kernel's name order
            rails.add(new Rail(gpu, distances));
        }
        return new Rails(rails, unknowns);
    }

    /** Puts a function and the bridges above it in {@code byAddress}; false (with an unknown) when there is no such function. */
    private static boolean place(PciReader pci, String address, Map<String, PciDevice> byAddress, List<String> unknowns) {
        if (byAddress.containsKey(address)) return true;
        List<PciDevice> path = UpstreamPath.of(pci, address, unknowns);
        if (path.isEmpty()) {
            unknowns.add(address + ": no such PCI function: no rail");
            return false;
        }
        for (PciDevice d : path) byAddress.putIfAbsent(d.address(), d);
        return true;
    }

    /** NUMA nodes with CPUs; 1 when the kernel has no node folder (no NUMA) or the list is garbage, as Affinity counts a one-node machine. */
    static int cpuNodes(FsRoot fs, List<String> unknowns) {
        try {
            return fs.text(NODES_WITH_CPUS).map(t -> CpuSet.parseList(t).size()).filter(n -> n > 0).orElse(1);
        } catch (GarbageException e) {
            unknowns.add(NODES_WITH_CPUS + ": " + e.getMessage() + "; taken as one node");
            return 1;
        }
    }
}
