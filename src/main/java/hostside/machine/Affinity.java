package hostside.machine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import hostside.core.Finding;

/**
 * How far apart GPUs and NICs are, in the vocabulary of {@code nvidia-smi topo -m}, computed
 * from the PCIe tree and NUMA data alone (so it works without NVML and on a recorded machine):
 * <ul>
 * <li>PIX: through at most one PCIe switch</li>
 * <li>PXB: through several switches, without the host bridge</li>
 * <li>PHB: through the host bridge (the CPU's root complex)</li>
 * <li>NODE: between host bridges of one NUMA node</li>
 * <li>SYS: across the interconnect between NUMA nodes (UPI, Infinity Fabric)</li>
 * </ul>
 *
 * @param devices labels of the GPUs then the NICs, in matrix order
 * @param matrix  matrix[i][j] is the level between devices i and j; "X" on the diagonal, "?" unknown
 * @param verdicts one finding per GPU of {@link TopologyRules#NIC_DISTANCE}: what its nearest NIC means for GPUDirect RDMA
 *                 (a report of an earlier version wrote them as lines: each reads back as an info finding)
 */
public record Affinity(List<String> devices, List<List<String>> matrix, List<Finding> verdicts) {

    public static final List<String> LEVELS = List.of("X", "PIX", "PXB", "PHB", "NODE", "SYS", "?");

    static Affinity of(List<PciDevice> pci, Topology topology) {
        Map<String, PciDevice> byAddress = new HashMap<>();
        for (PciDevice d : pci) byAddress.put(d.address(), d);
        List<PciDevice> gpus = pci.stream().filter(PciDevice::isGpu).toList();
        List<PciDevice> nics = pci.stream().filter(PciDevice::isNic).toList();
        List<PciDevice> all = new ArrayList<>(gpus);
        all.addAll(nics);
        int cpuNodes = (int) topology.numaNodes().stream().filter(n -> !n.cpus().isEmpty()).count();

        List<List<String>> matrix = new ArrayList<>();
        for (PciDevice a : all) {
            List<String> row = new ArrayList<>();
            for (PciDevice b : all) row.add(level(a, b, byAddress, cpuNodes));
            matrix.add(row);
        }
        List<Finding> verdicts = new ArrayList<>();
        for (int i = 0; i < gpus.size(); i++) {
            PciDevice gpu = gpus.get(i);
            PciDevice best = null;
            String bestLevel = "?";
            for (int j = gpus.size(); j < all.size(); j++) {
                String l = matrix.get(i).get(j);
                if (best == null || LEVELS.indexOf(l) < LEVELS.indexOf(bestLevel)) {
                    best = all.get(j);
                    bestLevel = l;
                }
            }
            verdicts.add(TopologyRules.nic(gpu, best, bestLevel));
        }
        return new Affinity(all.stream().map(PciDevice::label).toList(), matrix, verdicts);
    }

    /**
     * The level between two devices; see the class comment. {@code byAddress} must hold the
     * bridges above both (their chains are walked through it), {@code cpuNodes} is the number of
     * NUMA nodes with CPUs. Public for readers that place a few devices without the whole tree
     * (health's rail alignment of GPUs and RDMA NICs).
     */
    public static String level(PciDevice a, PciDevice b, Map<String, PciDevice> byAddress, int cpuNodes) {
        if (a.address().equals(b.address())) return "X";
        if (a.hostBridge() != null && a.hostBridge().equals(b.hostBridge())) {
            List<String> ca = chain(a, byAddress), cb = chain(b, byAddress);
            int k = 0;
            while (k < ca.size() - 1 && k < cb.size() - 1 && ca.get(k).equals(cb.get(k))) k++;
            if (k == 0) return "PHB";
            // Bridges on the path: each side's ancestors below the meeting point, and that point.
            // Below a root port (index 0) a switch is two levels, upstream then downstream port,
            // so bridge i belongs to switch (i + 1) / 2.
            java.util.Set<Integer> switches = new java.util.HashSet<>();
            for (int i = k - 1; i < ca.size() - 1; i++) if (i >= 1) switches.add((i + 1) / 2);
            for (int i = k; i < cb.size() - 1; i++) if (i >= 1) switches.add((i + 1) / 2);
            return switches.size() <= 1 ? "PIX" : "PXB";
        }
        if (a.numaNode() != null && b.numaNode() != null) return a.numaNode().equals(b.numaNode()) ? "NODE" : "SYS";
        if (cpuNodes <= 1) return "NODE";
        if (!a.localCpus().isEmpty() && !b.localCpus().isEmpty()) return a.localCpus().equals(b.localCpus()) ? "NODE" : "SYS";
        return "?";
    }

    /** The addresses from the top bridge below the host bridge down to the device itself (bounded: {@link UpstreamChain}). */
    static List<String> chain(PciDevice d, Map<String, PciDevice> byAddress) {
        return UpstreamChain.of(d, byAddress).addresses();
    }
}
