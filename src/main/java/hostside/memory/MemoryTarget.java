package hostside.memory;

import hostside.core.CpuSet;
import hostside.core.Scope;
import hostside.fs.FsRoot;

/**
 * Where one memory measurement runs and on how much memory.
 *
 * @param fs         the live machine's files (a measurement reads its own mappings' smaps)
 * @param scope      what its figures are about: the machine, a node, a (CPU node, memory node) pair, a CPU
 * @param label      the same for people, in progress lines: "all CPUs", "node 1", "CPUs of node 0, memory of node 1"
 * @param cpus       the threads' CPUs, one thread pinned to each
 * @param node       the node every page is bound to; null leaves placement to first touch, as STREAM's
 * @param arrayBytes each of STREAM's three arrays
 * @param readBytes  the read-only kernel's array
 * @param chaseBytes the pointer chase's working set
 * @param chaseLoads dependent loads in each chase sample
 * @param huge       whether transparent huge pages may be asked for (THP not "never")
 * @param pageSize   the base page size
 * @param sizeNote   why an array is smaller than STREAM asks (memory too short), or where the cache size
 *                   came from when sysfs names none; "" when neither
 * @param sizing     what decided the arrays' size ({@link MemorySizes})
 * @param nodeMates  the CPUs whose first touch puts a page where {@link #oneCpu()}'s own would: its
 *                   NUMA node's (with memory), or that CPU alone when the node is not known; a
 *                   one-thread case lets them touch its arrays in its stead, in parallel
 */
public record MemoryTarget(FsRoot fs, Scope scope, String label, CpuSet cpus, Integer node, long arrayBytes, long readBytes, long chaseBytes, int chaseLoads, boolean huge,
                           long pageSize, String sizeNote, ArraySizing sizing, CpuSet nodeMates) {

    /** The CPU of a one-thread measurement: the set's lowest CPU other than CPU 0 when it has another (CPU 0 takes housekeeping interrupts). */
    public int oneCpu() {
        return oneCpu(cpus);
    }

    /** {@link #oneCpu()} of a set. */
    public static int oneCpu(CpuSet cpus) {
        return cpus.stream().filter(c -> c != 0).findFirst().orElse(cpus.first());
    }
}
