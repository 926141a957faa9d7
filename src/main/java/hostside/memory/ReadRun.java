package hostside.memory;

import java.lang.foreign.MemorySegment;

import hostside.core.CpuSet;
import hostside.core.Stats;
import hostside.harness.Sampling;

/**
 * Read bandwidth as Intel MLC's matrix measures it by default: every thread of a set only reads
 * (no write, so no write-allocate traffic), memory on one node. One array, touched first by the
 * threads that read it (their slices), bound to the node, in transparent huge pages where THP
 * allows (as the chase: the figure is memory's, not page walks'); each sample every thread sums its
 * slice, timed over the whole parallel region. GB/s in 10^9 bytes read per second.
 */
final class ReadRun {
    record Outcome(Stats gbs, Placement placement, int warmups) {}

    private ReadRun() {}

    /** Keeps the sums, so that the loads are not dropped as dead code. */
    static volatile double sink;

    static Outcome run(CpuSet cpus, Integer node, long bytes, boolean huge, Sampling sampling, long pageSize) {
        long elements = bytes / 8;
        try (Team team = new Team(cpus); Region r = Region.map(elements * 8, node, huge)) {
            int n = team.size();
            MemorySegment[] slice = new MemorySegment[n];
            for (int i = 0; i < n; i++) {
                long from = Team.from(elements, i, n), to = Team.from(elements, i + 1, n);
                slice[i] = r.segment.asSlice(from * 8, (to - from) * 8);
            }
            team.run(i -> Kernels.fill(slice[i]));
            Placement placement = Placement.of(r.segment, pageSize, node);
            double[] sums = new double[n];
            int warmups = Warmup.untilCompiled(() -> team.run(i -> sums[i] = Kernels.sum(slice[i])), sampling.warmups(), StreamRun.MAX_WARMUPS);
            Stats gbs = new Sampling(0, sampling.samples()).stats(s -> {
                long ns = team.run(i -> sums[i] = Kernels.sum(slice[i]));
                double total = 0;
                for (double v : sums) total += v;
                sink = total;
                return 8.0 * elements / ns;
            });
            return new Outcome(gbs, placement, warmups);
        }
    }
}
