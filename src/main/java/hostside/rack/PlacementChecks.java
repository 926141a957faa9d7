package hostside.rack;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import hostside.core.CpuSet;
import hostside.cpu.facts.CpuFacts;
import hostside.machine.MachineFacts;
import hostside.machine.PciDevice;
import hostside.machine.Topology;
import hostside.rack.RackChecklist.Inputs;

/**
 * The rack checklist's placement items: where each GPU's feeders belong (binding), where this
 * process runs, and what the GPUs share (failure domain).
 */
final class PlacementChecks {
    private PlacementChecks() {}

    // ---- 7. per-GPU binding line: the GPU's CPU node, never its memory node (vllm#39361) ----

    static RackCheck binding(Inputs in) {
        RackItem item = RackItem.BINDING;
        List<PciDevice> gpus = RackChecklist.nvidiaGpus(in);
        if (gpus.isEmpty()) {
            return RackChecklist.noGpu(in) ? RackCheck.na(item, "no NVIDIA GPU")
                    : RackCheck.unknown(item, "the GPUs are in the driver's list but not among the PCI devices read: no locality to bind by", "");
        }
        List<Topology.NumaNode> nodes = in.machine().topology().numaNodes();
        // GPUs that share a node share a line: "GPU0, GPU1: numactl ..."
        Map<Integer, List<String>> byNode = new TreeMap<>();
        List<String> unknown = new ArrayList<>();
        for (PciDevice g : gpus) {
            Integer node = cpuNode(g, nodes);
            if (node == null) unknown.add(g.label());
            else byNode.computeIfAbsent(node, k -> new ArrayList<>()).add(g.label() + " (" + g.address() + ")");
        }
        List<String> lines = new ArrayList<>();
        byNode.forEach((node, names) -> {
            CpuSet cpus = nodes.stream().filter(n -> n.id() == node).findFirst().map(Topology.NumaNode::cpus).orElse(CpuSet.EMPTY);
            lines.add(String.join(", ", names) + ": numactl --cpunodebind=" + node + " --membind=" + node + " (or taskset -c " + cpus.toList() + ")");
        });
        if (lines.isEmpty()) {
            return RackCheck.unknown(item, "the kernel gives no NUMA node or local CPUs for " + String.join(", ", unknown) + " (a VM often does not): any node serves", "");
        }
        long cpuNodes = nodes.stream().filter(n -> n.cpus() != null && !n.cpus().isEmpty()).count();
        String why = cpuNodes <= 1 ? "one node with CPUs: binding changes nothing here, and the line is the same on every GPU"
                : "the feeding processes of each GPU (DataLoader workers, the launch thread) and their pinned buffers belong on the GPU's own CPU node; memory is bound to the CPU node, never to a GPU-memory node";
        if (!unknown.isEmpty()) why += "; no locality for " + String.join(", ", unknown);
        return RackCheck.of(item, unknown.isEmpty() ? RackVerdict.OK : RackVerdict.INFO, String.join("; ", lines), why, "");
    }

    /**
     * The CPU-bearing node a GPU's feeders belong on: its PCI numa_node when that node has CPUs;
     * else the node whose CPUs are the GPU's local CPUs (on coherent platforms NVML's NUMA id is
     * the GPU-memory node, which has none); null when the kernel says neither.
     */
    static Integer cpuNode(PciDevice g, List<Topology.NumaNode> nodes) {
        if (g.numaNode() != null) {
            for (Topology.NumaNode n : nodes) if (n.id() == g.numaNode() && !n.gpuMemory() && n.cpus() != null && !n.cpus().isEmpty()) return n.id();
        }
        if (g.localCpus() == null || g.localCpus().isEmpty()) return null;
        List<Topology.NumaNode> cpuNodes = nodes.stream().filter(n -> !n.gpuMemory() && n.cpus() != null && !n.cpus().isEmpty()).toList();
        CpuSet all = CpuSet.EMPTY;
        for (Topology.NumaNode n : cpuNodes) all = all.or(n.cpus());
        // every CPU local on a machine of several nodes says nothing (a VM's answer)
        if (cpuNodes.size() > 1 && g.localCpus().containsAll(all)) return null;
        Integer best = null;
        int most = 0;
        for (Topology.NumaNode n : cpuNodes) {
            int shared = n.cpus().and(g.localCpus()).size();
            if (shared > most) {
                most = shared;
                best = n.id();
            }
        }
        return best;
    }

    // ---- 8. this process's placement: live only ----

    static RackCheck processPlacement(Inputs in) {
        RackItem item = RackItem.PROCESS_PLACEMENT;
        if (!in.rack().live()) return RackCheck.notRun(item, RackChecklist.RECORDED);
        List<PciDevice> gpus = RackChecklist.nvidiaGpus(in);
        if (gpus.isEmpty()) return RackCheck.na(item, "no NVIDIA GPU");
        CpuFacts.ProcessCpus p = in.cpu().process();
        if (p == null || p.cpusAllowed() == null) return RackCheck.unknown(item, "/proc/self/status has no Cpus_allowed_list", "");
        List<Topology.NumaNode> nodes = in.machine().topology().numaNodes();
        List<String> far = new ArrayList<>();
        for (PciDevice g : gpus) {
            Integer node = cpuNode(g, nodes);
            if (node == null) continue;
            CpuSet local = nodes.stream().filter(n -> n.id() == node).findFirst().map(Topology.NumaNode::cpus).orElse(CpuSet.EMPTY);
            boolean cpusOk = p.cpusAllowed().intersects(local);
            boolean memOk = p.memsAllowed() == null || p.memsAllowed().contains(node);
            List<String> missing = new ArrayList<>();
            if (!cpusOk) missing.add("none of its CPUs");
            if (!memOk) missing.add("not its memory");
            if (!missing.isEmpty()) far.add(g.label() + " (node " + node + ": " + String.join(" and ", missing) + ")");
        }
        String value = "CPUs " + p.cpusAllowed().toList() + (p.memsAllowed() == null ? "" : ", memory nodes " + p.memsAllowed().toList());
        if (far.isEmpty()) return RackCheck.ok(item, value, "this process may run next to every GPU it measures");
        return RackCheck.of(item, RackVerdict.WARN, value, "measured from the far side for " + String.join(", ", far) + ": host-to-device figures are the cross-node ones",
                "run hostside bound to the GPU's node (the binding item's line)");
    }

    // ---- 21. failure domain: what the GPUs of this host share; tray and slot come from NVML ----

    static final String FAILURE_WHY = "GPUs that share a tray, a CPU node or a NIC fail, stall and are serviced together: a bad tray shrinks the NVLink clique, a busy Grace or NIC slows every GPU behind it";

    /**
     * @param positions one "GPU0: chassis ..., tray 3, slot 2" per GPU NVML placed; empty when none
     * @param noPosition what to say when {@code positions} is empty
     */
    static RackCheck failureDomain(MachineFacts machine, List<String> positions, String noPosition) {
        List<String> parts = new ArrayList<>(positions);
        if (positions.isEmpty()) parts.add(noPosition);
        parts.addAll(sharing(machine));
        return RackCheck.of(RackItem.FAILURE_DOMAIN, RackVerdict.INFO, String.join("; ", parts), FAILURE_WHY
                + (positions.isEmpty() ? "" : "; the chassis is shown by a hash of its serial number, never the number itself"), "");
    }

    /**
     * Which GPUs share a CPU node and which share their nearest NIC (one PCIe switch or a few,
     * nvidia-smi topo's PIX and PXB), from sysfs: a recording answers it.
     */
    static List<String> sharing(MachineFacts machine) {
        List<PciDevice> gpus = machine.gpus().stream().filter(g -> Platform.NVIDIA.equalsIgnoreCase(g.vendorId())).toList();
        List<Topology.NumaNode> nodes = machine.topology().numaNodes();
        Map<String, List<String>> byNode = new java.util.TreeMap<>();
        for (PciDevice g : gpus) {
            Integer n = cpuNode(g, nodes);
            if (n != null) byNode.computeIfAbsent("node " + n, k -> new ArrayList<>()).add(g.label());
        }
        Map<String, List<String>> byNic = new java.util.LinkedHashMap<>();
        var a = machine.affinity();
        if (a != null) {
            int gpuCount = (int) machine.gpus().size();
            for (int i = 0; i < Math.min(gpuCount, a.devices().size()); i++) {
                String gpu = a.devices().get(i);
                if (gpus.stream().noneMatch(g -> g.label().equals(gpu))) continue;
                for (int j = gpuCount; j < a.devices().size(); j++) {
                    String level = a.matrix().get(i).get(j);
                    if (level.equals("PIX") || level.equals("PXB")) byNic.computeIfAbsent(a.devices().get(j), k -> new ArrayList<>()).add(gpu);
                }
            }
        }
        List<String> out = new ArrayList<>();
        byNode.forEach((n, g) -> {
            if (g.size() > 1) out.add(String.join(", ", g) + " share " + n);
        });
        // NICs with the same GPUs behind them say one thing: "GPU0, GPU1 share mlx5_0, mlx5_1"
        Map<List<String>, List<String>> nicsByGpus = new java.util.LinkedHashMap<>();
        byNic.forEach((nic, g) -> nicsByGpus.computeIfAbsent(g, k -> new ArrayList<>()).add(nic));
        nicsByGpus.forEach((g, nics) -> {
            if (g.size() > 1) out.add(String.join(", ", g) + " share " + String.join(", ", nics) + " next to them");
        });
        long own = nicsByGpus.keySet().stream().filter(g -> g.size() == 1).count();
        if (own > 0 && own == gpus.size()) out.add("each GPU has a NIC of its own next to it");
        if (out.isEmpty()) out.add(gpus.size() <= 1 ? "one GPU" : "no CPU node or NIC shared by several GPUs");
        return out;
    }

}
