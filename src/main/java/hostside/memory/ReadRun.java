package hostside.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import hostside.core.CpuSet;
import hostside.core.Stats;
import hostside.harness.Sampling;

/**
 * Read bandwidth as Intel MLC's matrix measures it by default: every thread of a set only reads
 * (no write, so no write-allocate traffic), memory on one node. One array, touched first by the
 * threads that read it (their slices), bound to the node, in transparent huge pages where THP
 * allows (as the chase: the figure is memory's, not page walks'); each sample every thread reads its
 * slice once ({@link Kernels#read}: through a buffer that stays in its L1 cache), timed over the
 * whole parallel region. GB/s in 10^9 bytes read per second.
 */
final class ReadRun {
    record Outcome(Stats gbs, Placement placement, int warmups) {}

    private ReadRun() {}

    /** What the readers saw last, so that the reads are not dropped as dead code. */
    static volatile double sink;

    static Outcome run(CpuSet cpus, Integer node, long bytes, boolean huge, Sampling sampling, long pageSize) {
        long elements = bytes / 8;
        try (Team team = new Team(cpus); Region r = Region.map(elements * 8, node, huge); Arena arena = Arena.ofShared()) {
            int n = team.size();
            MemorySegment[] slice = new MemorySegment[n], buffer = new MemorySegment[n];
            for (int i = 0; i < n; i++) {
                long from = Team.from(elements, i, n), to = Team.from(elements, i + 1, n);
                slice[i] = r.segment.asSlice(from * 8, (to - from) * 8);
                // a page each: no two readers' buffers share a line
                buffer[i] = arena.allocate(Kernels.READ_CHUNK, 4096);
            }
            team.run(i -> {
                Kernels.fill(slice[i]);
                buffer[i].fill((byte) 0);
            });
            Placement placement = Placement.of(r.segment, pageSize, node);
            double[] seen = new double[n];
            int warmups = Warmup.untilCompiled(() -> team.run(i -> seen[i] = Kernels.read(slice[i], buffer[i])), sampling.warmups(), StreamRun.MAX_WARMUPS);
            for (double v : seen) {
                if (v != 1.0) throw new IllegalStateException("the read pass saw " + v + " where it wrote 1.0: the reads went wrong");
            }
            Stats gbs = new Sampling(0, sampling.samples()).stats(s -> {
                long ns = team.run(i -> seen[i] = Kernels.read(slice[i], buffer[i]));
                sink = seen[0];
                return 8.0 * elements / ns;
            });
            return new Outcome(gbs, placement, warmups);
        }
    }
}
