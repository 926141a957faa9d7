package hostside.memory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import hostside.core.CpuSet;
import hostside.core.Stats;
import hostside.core.Sweep;
import hostside.core.Unit;
import hostside.core.Units;

/**
 * How much cache a run's threads have together, measured where sysfs names no size (many VMs
 * hide their caches): a pointer chase with one thread on each CPU of the run, each through a
 * set of its own, at working sets growing by a factor of √2; where the latency leaves the
 * caches' level for memory's is where the caches run out. STREAM sizes its arrays from "the
 * available cache memory" of the run, with OpenMP the caches of every processor it uses
 * (stream.c 5.10, instruction 1a: "Two Xeon E5's with 20 MB L3 cache each": 20 million
 * elements, 153 MB an array, four times the 40 MB of both); the chase's threads are STREAM's, so
 * the step they see is that sum.
 *
 * <p>The knee is the first working set from which every larger one took more than halfway from
 * the curve's lowest latency to the largest set's (memory's): a set that fits leaves most loads to
 * the caches (on the dev VM its L3 answered in 13-16 ns, memory in 140-180), a set past them leaves
 * most to memory. The
 * caches then hold less than the knee; a replacement policy that keeps part of a set too large
 * (an adaptive L3) moves the knee up, never down, so four times the knee is at least STREAM's
 * four times the caches. Requiring every larger set to stay above halfway keeps one slow sample
 * (a neighbour on a shared CPU) from putting the knee below the caches.
 *
 * <p>The chain: each thread's set is a run of 4 KiB pages visited in a random order, one line of
 * a page per visit, a different line of it each round, so that consecutive loads never share a
 * page (no prefetcher learns anything) and a set is chased in full before any line comes back.
 * Transparent huge pages are asked for: with base pages a set of more than a few MiB would also
 * miss the TLB on each load, a step of its own that the knee could take for the caches' end.
 * The links are written in address order (the writes stream; no load waits on them) and the
 * set is chased once before it is timed, up to {@link #WARM_LOADS} loads.
 *
 * <p>Cost: the working sets go from 512 KiB a thread up to {@code maxBytes} in all, stopping
 * once three in a row took memory's time ({@link #atMemory}); with the chase's compilation
 * (at most 0.5 s, where a loaded machine starves the compiler) about a second on the 2-vCPU dev VM
 * under the load of two other builds (docs/measurements/2026-12-07-memsize.md).
 */
public final class CacheKnee {
    /** The smallest set a thread chases: in its L2 on any server core, so the curve starts below the last level. */
    static final long FIRST_PER_THREAD = 512L << 10;
    /** The largest set of all threads together, unless memory is shorter: a cache past this is not told apart from one this size. */
    public static final long MAX_BYTES = 256L << 20;
    static final int LINE = 64, PAGE = 4096, LINES_PER_PAGE = PAGE / LINE;
    /** A page's line in round r is its own offset plus r times this (odd, so all 64 lines come round once in 64 rounds). */
    static final int ROUND_STEP = 23;
    /** Loads timed in one sample, samples per size, and the most loads chased before them. */
    static final int SAMPLE_LOADS = 1 << 14, SAMPLES = 3, WARM_LOADS = 1 << 15;
    /**
     * Where the curve has flattened: three sets in a row within this of each other. Memory's
     * latency moved 15-25% between samples on the loaded dev VM; the last level's plateau lies far
     * below memory's, so the tolerance cannot take one for the other ({@link #MEMORY_OVER_LOW}).
     */
    static final double FLAT = 1.25;
    /** Still climbing: the largest set took this much more than the set a doubling below it. */
    static final double CLIMBING = 1.5;
    /** Where memory answers: at least this many times the curve's lowest latency (an L2 hit). */
    static final double MEMORY_OVER_LOW = 10;
    /** A curve whose largest set took less than this times its lowest latency has no step from the caches to memory. */
    static final double MIN_RISE = 1.5;

    private CacheKnee() {}

    /** What the curve says about the caches' size. */
    public enum Shape {
        /** The latency steps up and flattens again: the knee is where the caches end. */
        STEP,
        /** No step: the caches are smaller than the first set or larger than the last. */
        FLAT,
        /** The latency still climbs at the last set: the caches may reach beyond it. */
        STILL_RISING
    }

    /**
     * The measured curve and what it says.
     *
     * @param curve     ns per load at each working set (all threads' sets together), smallest first: over the threads, each one's fastest sample;
     *                  the knee reads the fastest of all ({@link #ns})
     * @param shape     whether the curve shows where the caches end
     * @param kneeBytes the first set from which the latency stayed past halfway to memory's: the
     *                  caches hold less; with no step, the largest set chased
     * @param threads   one chasing thread per CPU of the run
     * @param hugePages whether transparent huge pages were asked for (THP allows madvise)
     * @param ms        what finding it took, the chase's compilation included
     */
    public record Knee(Sweep curve, Shape shape, long kneeBytes, int threads, boolean hugePages, double ms) {
        /** One line for people: the size taken and why. */
        public String why() {
            List<Sweep.Point> p = curve.points();
            double low = lowest(p), high = memory(p);
            String range = String.format(Locale.ROOT, "%.1f ns at the smallest set, %.1f ns at the largest", ns(p.getFirst()),
                    ns(p.getLast()));
            return switch (shape) {
                case STEP -> String.format(Locale.ROOT,
                        "a pointer chase with %d thread%s found the caches' end at %s: from there on each load took more than halfway from %.1f ns to %.1f ns (%s)",
                        threads, threads == 1 ? "" : "s", Units.bytes(kneeBytes), low, high, range);
                case FLAT -> String.format(Locale.ROOT,
                        "a pointer chase with %d thread%s found no step from the caches to memory between %s and %s (%s): the caches were taken as %s, the largest set",
                        threads, threads == 1 ? "" : "s", Units.bytes(p.getFirst().bytes()), Units.bytes(p.getLast().bytes()), range,
                        Units.bytes(kneeBytes));
                case STILL_RISING -> String.format(Locale.ROOT,
                        "a pointer chase with %d thread%s still slowed at %s, its largest set (%s): the caches may reach beyond, and were taken as %s",
                        threads, threads == 1 ? "" : "s", Units.bytes(p.getLast().bytes()), range, Units.bytes(kneeBytes));
            };
        }
    }

    /** The working sets, all threads together: from {@link #FIRST_PER_THREAD} a thread, by √2, to {@code maxBytes} (each a whole page a thread). */
    static List<Long> sizes(int threads, long maxBytes) {
        List<Long> s = new ArrayList<>();
        for (int k = 0; ; k++) {
            long perThread = (long) (FIRST_PER_THREAD * Math.pow(2, k / 2.0)) / PAGE * PAGE;
            long all = perThread * threads;
            if (all > maxBytes && !s.isEmpty()) break;
            s.add(all);
            if (all > maxBytes) break;
        }
        return s;
    }

    /**
     * The knee of a measured curve: the first set from which every larger one took more than
     * halfway from the lowest latency to the largest set's. FLAT when the largest set's is under
     * {@link #MIN_RISE} times the lowest, STILL_RISING when it is {@link #CLIMBING} times the
     * latency a doubling below it (a noisy sample moves one point, not a doubling's climb); both
     * take the largest set.
     */
    static Knee judge(Sweep curve, int threads, boolean huge, double ms) {
        List<Sweep.Point> p = curve.points();
        long last = p.getLast().bytes();
        double low = lowest(p), high = memory(p);
        if (high < MIN_RISE * low) return new Knee(curve, Shape.FLAT, last, threads, huge, ms);
        Sweep.Point halfway = null; // the largest set at most half the largest: a doubling below it
        for (Sweep.Point x : p) if (2 * x.bytes() <= last) halfway = x;
        if (halfway != null && high > CLIMBING * ns(halfway)) return new Knee(curve, Shape.STILL_RISING, last, threads, huge, ms);
        double half = (low + high) / 2;
        int knee = p.size() - 1;
        while (knee > 0 && ns(p.get(knee - 1)) > half) knee--;
        return new Knee(curve, Shape.STEP, p.get(knee).bytes(), threads, huge, ms);
    }

    /**
     * Whether the last three sets (a doubling, √2 apart) took within {@link #FLAT} of each other,
     * at least {@link #MEMORY_OVER_LOW} times the lowest latency: memory's level, past the caches,
     * so larger sets would add time and not information. On the dev VM memory took 22-27 times
     * its L2's latency (6-7 ns at 1 MiB, 140-180 ns from 8 MiB) and its L3 2-3 times: a last level
     * slower than ten L2 hits would end the sweep on its own plateau, and the knee would then be the
     * L2's end, which the kept curve shows. Only with huge pages: with base pages a plateau of TLB
     * misses could pass for memory's.
     */
    static boolean atMemory(List<Sweep.Point> p) {
        if (p.size() < 4) return false;
        List<Sweep.Point> last = p.subList(p.size() - 3, p.size());
        double min = lowest(last), max = last.stream().mapToDouble(CacheKnee::ns).max().orElse(0);
        return min >= MEMORY_OVER_LOW * lowest(p) && max <= FLAT * min;
    }

    private static double lowest(List<Sweep.Point> p) {
        return p.stream().mapToDouble(CacheKnee::ns).min().orElse(0);
    }

    /**
     * Memory's latency: the largest set's, where the curve has flattened. Not the highest point:
     * a sample slowed by a neighbour on a shared CPU would raise halfway above memory's own level.
     */
    private static double memory(List<Sweep.Point> p) {
        return ns(p.getLast());
    }

    /**
     * A set's latency as the knee reads it: the fastest sample of any thread. A neighbour on a
     * shared CPU only ever adds time to a chase, and on the loaded dev VM one thread's three
     * samples could all land in another process's time slice (662 ns against its twin's 164).
     * The curve keeps every thread's fastest (median, min, max over the threads).
     */
    static double ns(Sweep.Point p) {
        return p.value().min();
    }

    /**
     * The curve measured with a thread pinned to each of {@code cpus}, up to {@code maxBytes} of
     * sets in all, each thread's set in a mapping of its own that it touches first.
     */
    public static Knee measure(CpuSet cpus, long maxBytes, boolean huge) {
        long began = System.nanoTime();
        int n = cpus.size();
        List<Long> sizes = sizes(n, maxBytes);
        long perThreadMax = sizes.getLast() / n;
        Region[] sets = new Region[n];
        try (Team team = new Team(cpus)) {
            for (int i = 0; i < n; i++) sets[i] = Region.map(perThreadMax, null, huge);
            compileChase(team, sets);
            List<Sweep.Point> points = new ArrayList<>();
            double[][] perThread = new double[n][SAMPLES];
            for (long size : sizes) {
                long bytes = size / n;
                team.run(i -> chaseOne(sets[i].segment, bytes, new SplittableRandom(size * 31 + i), perThread[i]));
                // each thread's fastest sample: a neighbour on a shared CPU only ever adds time to a chase
                double[] fastest = new double[n];
                for (int i = 0; i < n; i++) fastest[i] = Stats.of(perThread[i]).min();
                points.add(new Sweep.Point(size, Stats.of(fastest)));
                if (huge && atMemory(points)) break;
            }
            return judge(new Sweep(Unit.NS, points), n, huge, (System.nanoTime() - began) / 1e6);
        } finally {
            for (Region r : sets) if (r != null) r.close();
        }
    }

    static volatile long sink;

    /** Builds the chain over the first {@code bytes} of {@code set}, chases it once (within {@link #WARM_LOADS}), then times {@link #SAMPLES} samples into {@code ns}. */
    private static void chaseOne(MemorySegment set, long bytes, SplittableRandom random, double[] ns) {
        long at = link(set, (int) (bytes / PAGE), random);
        long lines = bytes / LINE;
        at = Kernels.chase(set, at, (int) Math.min(lines, WARM_LOADS));
        for (int s = 0; s < ns.length; s++) {
            long t0 = System.nanoTime();
            at = Kernels.chase(set, at, SAMPLE_LOADS);
            ns[s] = (System.nanoTime() - t0) / (double) SAMPLE_LOADS;
        }
        sink = at;
    }

    /**
     * Links every line of the first {@code pages} pages of {@code set} into one cycle: round r
     * visits the pages in a random order, page p at line (offset(p) + r * {@link #ROUND_STEP})
     * mod 64; the last page of a round leads to the first of the next, the last round back to the
     * first. Written in address order; returns the offset the cycle starts at.
     */
    static long link(MemorySegment set, int pages, SplittableRandom random) {
        int[] order = new int[pages];
        for (int i = 0; i < pages; i++) order[i] = i;
        for (int i = pages - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        int[] position = new int[pages];
        for (int i = 0; i < pages; i++) position[order[i]] = i;
        int[] offset = new int[pages];
        for (int i = 0; i < pages; i++) offset[i] = random.nextInt(LINES_PER_PAGE);
        for (int p = 0; p < pages; p++) {
            for (int line = 0; line < LINES_PER_PAGE; line++) {
                int round = roundOf(line, offset[p]);
                int i = position[p] + 1, r = round;
                if (i == pages) {
                    i = 0;
                    r = (round + 1) % LINES_PER_PAGE;
                }
                int q = order[i];
                set.set(ValueLayout.JAVA_LONG, (long) p * PAGE + (long) line * LINE, address(q, offset[q], r));
            }
        }
        return address(order[0], offset[order[0]], 0);
    }

    /** The byte offset of page {@code page}'s line in round {@code round}. */
    static long address(int page, int offset, int round) {
        return (long) page * PAGE + (long) ((offset + round * ROUND_STEP) % LINES_PER_PAGE) * LINE;
    }

    /** The round in which a page whose offset is {@code offset} is visited at {@code line}: the r with offset + r * 23 = line (mod 64). */
    static int roundOf(int line, int offset) {
        // 23 * 39 = 897 = 14 * 64 + 1: 39 is 23's inverse mod 64
        return Math.floorMod((line - offset) * 39, LINES_PER_PAGE);
    }

    /** Loads of one compiling round, over a few pages of each thread's set (in its L1); rounds at least and at most, and the most time they take. */
    static final int SMALL_PAGES = 4, SMALL_LOADS = 1 << 14, MIN_ROUNDS = 30, MAX_ROUNDS = 2000;
    static final long MAX_COMPILE_NS = 500_000_000L;

    /**
     * The chase compiled before the curve is timed: rounds over a few pages of each thread's own
     * set until a round has not been faster by 5% for {@link #MIN_ROUNDS} rounds (C2's code is
     * in), at most {@link #MAX_COMPILE_NS}. Not {@link Warmup#compile}, which waits for the whole
     * JIT to fall quiet: early in a run the JVM compiles other code for seconds, and the chase's
     * loop is one small method. What the rounds leave unsettled the samples' minimum absorbs.
     */
    private static void compileChase(Team team, Region[] sets) {
        long[] at = new long[sets.length];
        team.run(i -> at[i] = link(sets[i].segment, SMALL_PAGES, new SplittableRandom(i)));
        long began = System.nanoTime();
        long best = Long.MAX_VALUE;
        for (int r = 0, sinceBest = 0; r < MAX_ROUNDS && sinceBest < MIN_ROUNDS && System.nanoTime() - began < MAX_COMPILE_NS; r++) {
            long ns = team.run(i -> at[i] = Kernels.chase(sets[i].segment, at[i], SMALL_LOADS));
            if (ns < best * 0.95) {
                best = ns;
                sinceBest = 0;
            } else {
                sinceBest++;
            }
        }
        sink = Arrays.stream(at).sum();
    }
}
