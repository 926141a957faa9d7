package hostside.cpu.measure;

import java.util.List;

import hostside.gpu.bench.GpuBench;

/**
 * What Module 3's measurements run against.
 *
 * @param cpus          the CPUs this process may run on (its affinity), in order
 * @param feederCpus    where a GPU-feeding thread belongs: the GPU's local CPUs that this process
 *                      may use (all of {@code cpus} without a GPU or a known locality)
 * @param gpu           the GPU to launch on, or null (the jitter cases then drive a timer)
 * @param launches      launches (or timer ticks) per jitter condition
 * @param periodNs      the cadence of launches in the jitter cases
 */
public record CpuTarget(List<Integer> cpus, List<Integer> feederCpus, GpuBench gpu, int launches, long periodNs) {
    public static final int DEFAULT_LAUNCHES = 20_000;
    public static final long DEFAULT_PERIOD_NS = 100_000;

    public boolean twoCpus() {
        return cpus.size() >= 2;
    }
}
