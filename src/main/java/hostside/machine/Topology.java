package hostside.machine;

import java.util.List;

import hostside.core.CpuSet;

/**
 * How the CPUs and memory are wired, counted as hwloc counts them (docs/contract.md, Counted as hwloc counts): only
 * online CPUs inside this process's cpuset count; NUMA nodes outside it do not either.
 *
 * @param packages   sockets holding at least one counted CPU (or an allowed NUMA node)
 * @param cores      sets of counted CPUs that share a core
 * @param threads    counted CPUs (hardware threads)
 * @param cpuModel   the model name /proc/cpuinfo gives, "" when it gives none
 * @param coreKinds  big and small cores; one entry on a uniform machine
 * @param whole      the machine beside the cpuset: what a container user needs to know too
 */
public record Topology(
        int packages,
        int cores,
        int threads,
        String cpuModel,
        List<NumaNode> numaNodes,
        List<Cache> caches,
        List<CoreKind> coreKinds,
        Whole whole) {

    /**
     * @param distances the node's row of the kernel's distance matrix (10 = local), in the order of
     *                  the node ids of {@link Topology#numaNodes}; empty when the kernel gives none
     * @param gpu       for a node holding a GPU's memory, that GPU's PCI address
     */
    public record NumaNode(int id, CpuSet cpus, Long memTotalBytes, boolean gpuMemory, String gpu, List<Integer> distances) {}

    /**
     * One cache instance. {@code type} is unified, data or instruction; {@code sizeBytes} is null
     * when the kernel gives no (readable) size: the cache is still there, as hwloc shows it.
     */
    public record Cache(int level, String type, Long sizeBytes, CpuSet cpus, Integer lineSizeBytes, Integer ways) {}

    /**
     * One kind of core on a hybrid machine (P-cores and E-cores, Cortex-X and Cortex-A parts).
     *
     * @param name    "P-core" / "E-core", an Arm part name, or "uniform"
     * @param source  what told: "cpu_core/cpu_atom PMUs", "cpu_capacity", "MIDR", "base frequency"
     * @param detail  the numbers behind it (capacity, frequencies), for people
     */
    public record CoreKind(String name, CpuSet cpus, int cores, int threads, String source, String detail) {}

    /**
     * @param onlineCpus   every online CPU, in or out of the cpuset
     * @param offlineCpus  present but offline
     * @param allowedCpus  the cpuset's CPUs, "" when unrestricted
     * @param allowedNodes the cpuset's memory nodes, "" when unrestricted
     * @param cpusetSource the file the cpuset came from, "" when unrestricted
     * @param memTotalBytes MemTotal of /proc/meminfo: all memory the kernel manages, null when unreadable
     * @param nodes        every NUMA node, in or out of the cpuset
     */
    public record Whole(CpuSet onlineCpus, CpuSet offlineCpus, CpuSet allowedCpus, CpuSet allowedNodes, String cpusetSource,
                        Long memTotalBytes, CpuSet nodes) {}
}
