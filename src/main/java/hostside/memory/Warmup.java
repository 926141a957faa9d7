package hostside.memory;

import hostside.harness.JitWatch;

/**
 * Warm-up rounds until the JIT has compiled what they run: at least {@code min}, then more while a
 * compilation finished during the last one, up to {@code max}. A kernel that is still interpreted,
 * or that a compiler thread is compiling beside the measuring threads (on a 2-CPU machine it takes
 * one of the two CPUs), is not the kernel the samples are about.
 */
final class Warmup {
    private Warmup() {}

    /** Runs {@code round} as described; returns how many rounds ran. */
    static int untilCompiled(Runnable round, int min, int max) {
        JitWatch jit = new JitWatch();
        jit.quietFor(System.nanoTime(), 0);
        int n = 0;
        while (n < max) {
            long start = System.nanoTime();
            round.run();
            n++;
            long now = System.nanoTime();
            // quiet for as long as the round took: no compilation ended during it
            if (jit.quietFor(now, now - start) && n >= min) break;
        }
        return n;
    }
}
