package hostside.memory;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.function.IntConsumer;

import hostside.core.CpuSet;
import hostside.core.Stats;
import hostside.harness.Sampling;

/**
 * STREAM's run (McCalpin's stream.c, 5.10): three arrays, initialised in parallel by the threads
 * that will use them (first touch, or a node's memory when one is given), then each sample runs
 * Copy, Scale, Add and Triad in that order, each timed over the whole parallel region, or Triad
 * alone ({@link Round#TRIAD_ALONE}). Bytes are
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

    /** What each sample runs, and the check the arrays must pass after all the rounds. */
    enum Round {
        /** STREAM's four kernels in its order, checked by STREAM's values after that many rounds. */
        ALL(List.of(Kernel.values())),
        /**
         * Triad alone: three of the ten array passes of STREAM's round. With one thread over the H100
         * VM's 1.2 GiB arrays the case took 6.7 s of a report with four samples of the four kernels and
         * 3.3 s with five of Triad (docs/measurements/2026-12-08-minute-cuts.md). Over arrays four times
         * the caches each kernel streams from memory whatever ran before it, so Triad alone moves what it
         * moves in STREAM's round. Checked by {@link #validatesTriad}.
         */
        TRIAD_ALONE(List.of(Kernel.TRIAD));

        final List<Kernel> kernels;

        Round(List<Kernel> kernels) {
            this.kernels = kernels;
        }

        boolean validates(MemorySegment a, MemorySegment b, MemorySegment c, long elements, int rounds) {
            return this == ALL ? StreamRun.validates(a, b, c, elements, rounds) : validatesTriad(a, b, c, elements);
        }
    }

    /**
     * @param stats     per kernel, in {@link Kernel} order: GB/s; null for a kernel not run
     * @param placement where the first array's pages are, sampled after the first touch
     * @param validated whether the arrays hold what STREAM's checkSTREAMresults expects after the run
     * @param warmups   the rounds of the kernels run before the samples ({@link Warmup})
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
     * (docs/measurements/2026-12-04-memory-vs-stream.md).
     */
    static final long[] OFFSET = {0, 7 * 4096 + 64 * 5, 13 * 4096 + 64 * 11};

    /** Warm-up rounds at most (and {@link Warmup#MAX_NS} of them), however busy the JIT stays. */
    static final int MAX_WARMUPS = 50;

    private StreamRun() {}

    /**
     * @param cpus       one thread pinned to each: the threads that run the kernels
     * @param touchCpus  the threads that touch the arrays first, each its own slice: {@code cpus}
     *                   itself (STREAM's parallel initialisation), or, for one thread, the CPUs of its
     *                   NUMA node, whose first touch places every page where its own would (STREAM
     *                   with OMP_NUM_THREADS=1 touches 3.6 GiB alone on the H200 VM: 2 s of faults at
     *                   its 2 us a 4 KiB fault)
     * @param node       the node every page is bound to; null leaves placement to first touch
     * @param round      what each round runs: STREAM's four kernels, or Triad alone
     */
    static Outcome run(CpuSet cpus, CpuSet touchCpus, Integer node, long arrayBytes, Sampling sampling, long pageSize, Round round) {
        List<Kernel> kernels = round.kernels;
        long elements = arrayBytes / 8;
        try (Team team = new Team(cpus);
             Region ra = Region.map(elements * 8 + OFFSET[0], node, false);
             Region rb = Region.map(elements * 8 + OFFSET[1], node, false);
             Region rc = Region.map(elements * 8 + OFFSET[2], node, false)) {
            Region[] regions = {ra, rb, rc};
            touch(team, touchCpus, regions, elements);
            Placement placement = Placement.of(ra.segment, pageSize, node);
            MemorySegment[][] slices = slices(regions, elements, team.size());
            MemorySegment[] a = slices[0], b = slices[1], c = slices[2];
            // the kernels' calls made before the JIT warms up: making a lambda compiles JDK code,
            // which would keep the JIT busy into the rounds
            IntConsumer[] every = {
                    i -> Kernels.copy(a[i], c[i]),
                    i -> Kernels.scale(b[i], c[i]),
                    i -> Kernels.add(a[i], b[i], c[i]),
                    i -> Kernels.triad(a[i], b[i], c[i])};
            IntConsumer[] run = kernels.stream().map(k -> every[k.ordinal()]).toArray(IntConsumer[]::new);
            long[] ns = new long[run.length];
            Runnable rounds = () -> {
                for (int k = 0; k < run.length; k++) ns[k] = team.run(run[k]);
            };
            compileKernels(team);
            int warmups = Warmup.untilCompiled(rounds, sampling.warmups(), MAX_WARMUPS);
            double[][] gbs = new double[run.length][sampling.samples()];
            for (int s = 0; s < sampling.samples(); s++) {
                rounds.run();
                for (int k = 0; k < run.length; k++) gbs[k][s] = kernels.get(k).arrays * 8.0 * elements / ns[k];
            }
            Stats[] stats = new Stats[Kernel.values().length];
            for (int k = 0; k < run.length; k++) stats[kernels.get(k).ordinal()] = Stats.of(gbs[k]);
            boolean valid = round.validates(ra.segment.asSlice(OFFSET[0], elements * 8), rb.segment.asSlice(OFFSET[1], elements * 8),
                    rc.segment.asSlice(OFFSET[2], elements * 8), elements, warmups + sampling.samples());
            return new Outcome(stats, placement, valid, warmups);
        }
    }

    /** The three arrays cut into {@code n} slices each (OpenMP's static schedule), past their offsets: [array][member]. */
    static MemorySegment[][] slices(Region[] regions, long elements, int n) {
        MemorySegment[][] slices = new MemorySegment[3][n];
        for (int i = 0; i < n; i++) {
            long from = Team.from(elements, i, n), to = Team.from(elements, i + 1, n);
            for (int k = 0; k < 3; k++) slices[k][i] = regions[k].segment.asSlice(OFFSET[k] + from * 8, (to - from) * 8);
        }
        return slices;
    }

    /** STREAM's initial values, written first by {@code touchCpus}: the kernels' own team when it is the same set. */
    private static void touch(Team team, CpuSet touchCpus, Region[] regions, long elements) {
        if (touchCpus.equals(team.cpus())) {
            init(team, regions, elements);
            return;
        }
        try (Team touchers = new Team(touchCpus)) {
            init(touchers, regions, elements);
        }
    }

    private static void init(Team team, Region[] regions, long elements) {
        MemorySegment[][] s = slices(regions, elements, team.size());
        team.run(i -> Kernels.init(s[0][i], s[1][i], s[2][i]));
    }

    /** Elements of each small array the kernels are compiled on: 4 KiB, in the L1 cache with the other two. */
    static final int SMALL_ELEMENTS = 512;
    /** Kernel rounds a small round repeats (from STREAM's initial values: 64 rounds grow them by 15^64, far from overflow). */
    static final int SMALL_REPEATS = 64;
    /** Small rounds at least: each kernel is called 25,600 times, past C2's thresholds. */
    static final int SMALL_ROUNDS = 400;

    /**
     * The four kernels compiled on small arrays ({@link Warmup#compile}), by the team's first member
     * while the others only take part in each run, so that the team's own synchronisation is
     * compiled too. One member is enough: compiled code serves every thread, and the other CPUs stay
     * free for the compiler threads (with a member busy on each CPU, C2 waited for a CPU and the
     * phase took seconds on the 2-CPU VM). The small arrays are a mapping like the large ones:
     * kernels compiled on an arena's segments met the mapping's with an uncommon trap and were
     * compiled again during the rounds.
     */
    static void compileKernels(Team team) {
        long bytes = SMALL_ELEMENTS * 8L;
        try (Region small = Region.map(3 * bytes, null, false)) {
            MemorySegment a = small.segment.asSlice(0, bytes), b = small.segment.asSlice(bytes, bytes), c = small.segment.asSlice(2 * bytes, bytes);
            Warmup.compile(() -> team.run(i -> {
                if (i != 0) return;
                Kernels.init(a, b, c);
                for (int r = 0; r < SMALL_REPEATS; r++) {
                    Kernels.copy(a, c);
                    Kernels.scale(b, c);
                    Kernels.add(a, b, c);
                    Kernels.triad(a, b, c);
                }
            }), SMALL_ROUNDS);
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
        return probes(a, b, c, elements, aj, bj, cj);
    }

    /**
     * The check after rounds of Triad alone: from a=1, b=2, c=0 every round writes a = b + 3c = 2
     * and leaves b and c as they were, so a 1 left anywhere is a slice Triad never wrote.
     */
    static boolean validatesTriad(MemorySegment a, MemorySegment b, MemorySegment c, long elements) {
        double bj = 2.0, cj = 0.0, aj = bj + Kernels.SCALAR * cj;
        return probes(a, b, c, elements, aj, bj, cj);
    }

    private static boolean probes(MemorySegment a, MemorySegment b, MemorySegment c, long elements, double aj, double bj, double cj) {
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
