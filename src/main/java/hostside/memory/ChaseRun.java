package hostside.memory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

import hostside.core.CpuSet;
import hostside.core.Stats;
import hostside.fs.FsRoot;
import hostside.fs.Smaps;
import hostside.harness.Sampling;

/**
 * Idle memory latency, as a dependent pointer chase measures it (Intel MLC's idle latency,
 * lmbench's lat_mem_rd): a working set far beyond the caches, cut into 64-byte lines linked in
 * one random cycle (Sattolo's shuffle), so that every load misses the caches and no prefetcher can
 * guess the next; each line holds the offset of the next, so each load waits for the one before.
 * Transparent huge pages are asked for (where THP allows madvise): with base pages a random line
 * of a large set is also a TLB miss, and the figure would be page walks plus memory. The chain is
 * built, and so first touched, by the measuring thread itself, pinned to its CPU.
 */
final class ChaseRun {
    static final int LINE = 64;

    /**
     * @param ns        per load
     * @param placement where the set's pages are
     * @param hugeBytes how much of the set sits in transparent huge pages (AnonHugePages of its
     *                  mapping); null when /proc/self/smaps could not say
     */
    record Outcome(Stats ns, Placement placement, Long hugeBytes, int warmups) {}

    private ChaseRun() {}

    static volatile long sink;

    static Outcome run(FsRoot fs, int cpu, Integer node, long bytes, boolean huge, int loads, Sampling sampling, long pageSize) {
        int lines = Math.toIntExact(bytes / LINE);
        Outcome[] out = new Outcome[1];
        try (Team one = new Team(CpuSet.of(cpu)); Region r = Region.map((long) lines * LINE, node, huge)) {
            one.run(i -> {
                link(r.segment, lines, new SplittableRandom(7));
                Placement placement = Placement.of(r.segment, pageSize, node);
                java.util.OptionalLong h = Smaps.anonHugeBytes(fs, r.segment.address());
                Long hugeBytes = h.isPresent() ? h.getAsLong() : null;
                long[] at = {0};
                // made before the JIT warms up, as StreamRun's kernels
                Runnable chase = () -> at[0] = Kernels.chase(r.segment, at[0], loads);
                java.util.function.IntToDoubleFunction sample = s -> {
                    long t0 = System.nanoTime();
                    chase.run();
                    return (System.nanoTime() - t0) / (double) loads;
                };
                // compiled on the set itself, in short rounds: a sample's round is half a second, and the
                // first would run in the interpreter. A chase waits on memory, compiled or not, so the
                // short rounds cost what their loads do. (Compiled on a small set first, C2's code
                // met the large one with an uncommon trap and was compiled again.)
                Warmup.compile(() -> at[0] = Kernels.chase(r.segment, at[0], SMALL_LOADS), SMALL_ROUNDS);
                int warmups = Warmup.untilCompiled(chase, sampling.warmups(), StreamRun.MAX_WARMUPS);
                Stats ns = new Sampling(0, sampling.samples()).stats(sample);
                sink = at[0];
                out[0] = new Outcome(ns, placement, hugeBytes, warmups);
            });
        }
        return out[0];
    }

    /** Loads of a compiling round: half a millisecond at 100 ns a load. */
    static final int SMALL_LOADS = 4096;
    /** Compiling rounds at least: C2 has compiled the chase's loop well before the last. */
    static final int SMALL_ROUNDS = 200;

    /**
     * Links every line of {@code set} into one cycle in random order: Sattolo's shuffle gives a
     * permutation with a single cycle, so a chase from any line visits every line before it
     * returns. Lines are written in address order: the first touch is sequential, which lets a
     * huge page be allocated at each 2 MiB boundary.
     */
    static void link(MemorySegment set, int lines, SplittableRandom random) {
        int[] next = cycle(lines, random);
        for (int i = 0; i < lines; i++) set.set(ValueLayout.JAVA_LONG, (long) i * LINE, (long) next[i] * LINE);
    }

    /** A random cyclic permutation of 0..n-1 (Sattolo): next[i] is the element after i. */
    static int[] cycle(int n, SplittableRandom random) {
        int[] next = new int[n];
        for (int i = 0; i < n; i++) next[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i); // j < i: Sattolo's, not Fisher-Yates' j <= i
            int t = next[i];
            next[i] = next[j];
            next[j] = t;
        }
        return next;
    }
}
