package hostside.memory;

import hostside.harness.JitWatch;

/**
 * Warm-up rounds until the JIT has compiled what they run: at least {@code min}, then more until
 * no compilation has ended for {@link #QUIET_NS} and for a whole round, up to {@code max} rounds or
 * {@link #MAX_NS}. A kernel that is still interpreted or in C1's code, or that a compiler thread is
 * compiling beside the measuring threads (on a 2-CPU machine it takes one of the two CPUs), is not
 * the kernel the samples are about. The quiet time has a floor because the JVM only says when a
 * compilation ends: a round shorter than a C2 compilation would look quiet while C2 is still at
 * work (on the 2-CPU VM, 128 MiB arrays: one thread's Triad came 13.6 GB/s after one round, 21.3
 * once the warm-up waited for the JIT).
 */
final class Warmup {
    static final long QUIET_NS = 300_000_000L, MAX_NS = 10_000_000_000L;

    private Warmup() {}

    /**
     * Compiles what {@code smallRound} runs before the measurement meets its real data: rounds over
     * a few KiB that stay in the caches, at least {@code minRounds} (enough calls for C2's
     * thresholds), then until the JIT is quiet as {@link #untilCompiled} decides, within
     * {@link #MAX_NS}. The same code compiled on GiB arrays costs seconds: its first rounds run in
     * the interpreter and C1 at a fraction of memory's speed (the H200 VM: 11 rounds of STREAM's
     * kernels over 1.2 GiB arrays before the JIT was quiet, 10 s for the whole case).
     */
    static int compile(Runnable smallRound, int minRounds) {
        return untilCompiled(smallRound, minRounds, Integer.MAX_VALUE);
    }

    /** Runs {@code round} as described; returns how many rounds ran. */
    static int untilCompiled(Runnable round, int min, int max) {
        JitWatch jit = new JitWatch();
        long began = System.nanoTime();
        jit.quietFor(began, 0);
        int n = 0;
        while (n < max) {
            long start = System.nanoTime();
            round.run();
            n++;
            long now = System.nanoTime();
            boolean quiet = jit.quietFor(now, Math.max(now - start, QUIET_NS));
            if (n >= min && (quiet || now - began > MAX_NS)) break;
        }
        return n;
    }
}
