package hostside.cpu.measure;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import hostside.harness.JitWatch;

/**
 * How long the jitter cases warm the feeder's tick up before they record: until the JIT has
 * compiled the branch of {@link Ticker#tick} a condition runs and is seen quiet, so that no
 * compilation (and no deoptimisation's wait for the VM thread) falls inside a recording. The
 * first condition of a branch in this JVM warms up for a second's worth of ticks; a later one of
 * the same branch for 5% of its run.
 */
final class TickWarmup {
    private TickWarmup() {}

    /** Warm-up ends once no compilation has finished for this long (or at {@link #MAX_WARMUP_NS}). */
    static final long JIT_QUIET_NS = 300_000_000L;
    static final long MAX_WARMUP_NS = 6_000_000_000L;


    /**
     * Ticks of warm-up at least where {@link Ticker#tick} runs a branch for the first time in this
     * JVM: 5% of the run, at least 100, and at least one second's worth. The second is for the
     * JIT: at the default 100 us period it is 10,000 calls of {@code tick}, past C2's threshold
     * (Tier4InvocationThreshold, 5,000 in {@code java -XX:+PrintFlagsFinal}), so that its compilation starts, and is seen to end
     * ({@link JitWatch}), before the recording; the JIT alone cannot tell a compilation that
     * has not started yet.
     */
    static int warmupTicks(int launches, long periodNs) {
        return (int) Math.max(leastTicks(launches), Math.min(100_000, 1_000_000_000L / periodNs));
    }

    /**
     * Ticks of warm-up at least where this JVM has already compiled the branch of
     * {@link Ticker#tick} that the condition runs (an earlier condition's warm-up ended with the
     * JIT quiet): 5% of the run, at least 100. The JIT must still be quiet for
     * {@link #JIT_QUIET_NS} before the recording starts, as in every warm-up: what the condition
     * itself set going (the hogs' start, a pinned thread) is compiled first.
     */
    static int leastTicks(int launches) {
        return Math.max(100, launches / 20);
    }

    /**
     * The branches of {@link Ticker#tick}: the timer alone, a launch, a graph's launch. A
     * condition whose branch an earlier condition compiled needs no second's warm-up of its own:
     * timer_jitter_noisy after timer_jitter_quiet, launch_jitter_noisy and _pinned after
     * launch_jitter_quiet. A branch never taken in the warm-up that compiled {@code tick} is
     * compiled as a trap, and its first run recompiles the method: such a condition warms up as
     * the first did. refs timer warms up for a second on every run; cyclictest, whose method it
     * is, not at all: the second here is the JIT's, which a compiled branch no longer needs.
     */
    enum TickCode {
        TIMER, LAUNCH, GRAPH;

        static TickCode of(boolean launches, boolean graph) {
            return graph ? GRAPH : launches ? LAUNCH : TIMER;
        }
    }

    /** The least warm-up of a condition that runs {@code code}: a second's worth the first time in this JVM, else 5% of the run. */
    static int warmupAtLeast(TickCode code, int launches, long periodNs) {
        return COMPILED.contains(code) ? leastTicks(launches) : warmupTicks(launches, periodNs);
    }

    /** The branches this JVM has compiled: a warm-up of each ended with the JIT quiet. */
    static final Set<TickCode> COMPILED = ConcurrentHashMap.newKeySet();
}
