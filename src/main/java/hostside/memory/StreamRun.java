package hostside.memory;

import java.lang.foreign.MemorySegment;

import hostside.core.CpuSet;
import hostside.core.Stats;
import hostside.harness.Sampling;

/**
 * STREAM's run (McCalpin's stream.c, 5.10): three arrays, initialised in parallel by the threads
 * that will use them (first touch, or a node's memory when one is given), then each sample runs
 * Copy, Scale, Add and Triad in that order, each timed over the whole parallel region. Bytes are
 * counted as STREAM counts them (2 arrays moved by Copy and Scale, 3 by Add and Triad; the write
 * allocate's extra read is not counted), GB/s in 10^9. STREAM reports each kernel's best sample
 * and skips its first; hostside keeps the median, min and max of the samples after its warm-ups,
 * the max being STREAM's figure.
 */
final class StreamRun {
    enum Kernel {
        COPY(2), SCALE(2), ADD(3), TRIAD(3);

        final int arrays;

        Kernel(int arrays) {
            this.arrays = arrays;
        }
    }

    /**
     * @param stats     per kernel, in {@link Kernel} order: GB/s
     * @param placement where the first array's pages are, sampled after the first touch
     * @param validated whether the arrays hold what STREAM's checkSTREAMresults expects after the run
     * @param warmups   the rounds of the four kernels run before the samples ({@link Warmup})
     */
    record Outcome(Stats[] stats, Placement placement, boolean validated, int warmups) {
        Stats of(Kernel k) {
            return stats[k.ordinal()];
        }
    }

    /**
     * Where each array starts in its mapping. Mappings of a power-of-two size line up: a[i], b[i]
     * and c[i] then share their low address bits, so the loads of an iteration can wait on its
     * store (4 KiB aliasing) and the three streams share cache and TLB sets. STREAM's source pads
     * its arrays (OFFSET) for the same reason; these move b and c by 7 and 13 pages and some cache
     * lines. On the 2-CPU VM one thread's Triad over arrays of exactly 128 MiB or 640 MiB ran 10%
     * below arrays a few pages longer with offsets of one and two pages, 0-7% below with these
     * (docs/measurements/2026-12-04-issue18.md).
     */
    static final long[] OFFSET = {0, 7 * 4096 + 64 * 5, 13 * 4096 + 64 * 11};

    /** Warm-up rounds at most (and {@link Warmup#MAX_NS} of them), however busy the JIT stays. */
    static final int MAX_WARMUPS = 50;

    private StreamRun() {}

    static Outcome run(CpuSet cpus, Integer node, long arrayBytes, Sampling sampling, long pageSize) {
        long elements = arrayBytes / 8;
        try (Team team = new Team(cpus);
             Region ra = Region.map(elements * 8 + OFFSET[0], node, false);
             Region rb = Region.map(elements * 8 + OFFSET[1], node, false);
             Region rc = Region.map(elements * 8 + OFFSET[2], node, false)) {
            int n = team.size();
            MemorySegment[][] slices = new MemorySegment[3][n];
            Region[] regions = {ra, rb, rc};
            for (int i = 0; i < n; i++) {
                long from = Team.from(elements, i, n), to = Team.from(elements, i + 1, n);
                for (int k = 0; k < 3; k++) slices[k][i] = regions[k].segment.asSlice(OFFSET[k] + from * 8, (to - from) * 8);
            }
            MemorySegment[] a = slices[0], b = slices[1], c = slices[2];
            team.run(i -> Kernels.init(a[i], b[i], c[i]));
            Placement placement = Placement.of(ra.segment, pageSize, node);
            double[][] gbs = new double[Kernel.values().length][sampling.samples()];
            Runnable round = () -> {
                team.run(i -> Kernels.copy(a[i], c[i]));
                team.run(i -> Kernels.scale(b[i], c[i]));
                team.run(i -> Kernels.add(a[i], b[i], c[i]));
                team.run(i -> Kernels.triad(a[i], b[i], c[i]));
            };
            int warmups = Warmup.untilCompiled(round, sampling.warmups(), MAX_WARMUPS);
            for (int s = 0; s < sampling.samples(); s++) {
                double[] t = {
                        team.run(i -> Kernels.copy(a[i], c[i])),
                        team.run(i -> Kernels.scale(b[i], c[i])),
                        team.run(i -> Kernels.add(a[i], b[i], c[i])),
                        team.run(i -> Kernels.triad(a[i], b[i], c[i]))};
                for (Kernel k : Kernel.values()) gbs[k.ordinal()][s] = k.arrays * 8.0 * elements / t[k.ordinal()];
            }
            Stats[] stats = new Stats[gbs.length];
            for (int k = 0; k < gbs.length; k++) stats[k] = Stats.of(gbs[k]);
            return new Outcome(stats, placement, validates(ra.segment.asSlice(OFFSET[0], elements * 8), rb.segment.asSlice(OFFSET[1], elements * 8), rc.segment.asSlice(OFFSET[2], elements * 8), elements, warmups + sampling.samples()), warmups);
        }
    }

    /**
     * STREAM's check: the values every element must hold after {@code times} rounds of the four
     * kernels from a=1, b=2, c=0, compared at a few elements spread over the arrays (STREAM sums
     * every element; a kernel that skipped a slice would show at its start).
     */
    static boolean validates(MemorySegment a, MemorySegment b, MemorySegment c, long elements, int times) {
        double aj = 1.0, bj = 2.0, cj = 0.0;
        for (int k = 0; k < times; k++) {
            cj = aj;
            bj = Kernels.SCALAR * cj;
            cj = aj + bj;
            aj = bj + Kernels.SCALAR * cj;
        }
        for (int probe = 0; probe <= 64; probe++) {
            long i = Math.min(elements - 1, elements * probe / 64); // the 65th probe: the last element
            if (!close(a.get(Kernels.D, 8 * i), aj) || !close(b.get(Kernels.D, 8 * i), bj) || !close(c.get(Kernels.D, 8 * i), cj)) return false;
        }
        return true;
    }

    private static boolean close(double v, double expected) {
        return Math.abs(v - expected) <= 1e-13 * Math.abs(expected);
    }
}
