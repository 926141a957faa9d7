package hostside.cpu.measure;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import hostside.harness.JitWatch;

/**
 * How long the jitter cases warm the feeder's tick up before they record: until the JIT has
 * compiled the branch of {@link Ticker#tick} a condition runs and is seen quiet, so that no
 * compilation (and no deoptimisation's wait for the VM thread) falls inside a recording. The
 * first condition of a branch in this JVM calls the recording {@link #BURST_CALLS} times at once, then
 * every condition ticks at its cadence for 5% of its run and until the JIT is quiet.
 */
final class TickWarmup {
    private TickWarmup() {}

    /**
     * Warm-up ends once no compilation has finished for this long (or at {@link #MAX_WARMUP_NS}): 150
     * ms. Since the burst compiles the recording before the warm-up at the cadence, the quiet window
     * waits for strays only; at 300 ms it was most of each condition's warm-up (six conditions in a
     * report). On the dev VM, three interleaved rounds of the two timer conditions: no JIT time
     * inside any recording at 150 ms or 300, warm-ups of 150-154 ms against 300-302 (the noisy
     * condition) and 376-410 against 535-587 (the quiet one, which has the burst), medians 68.4-73.7
     * us against 68.5-74.2 (docs/measurements/2026-12-08-fewer-loads-devvm.md). The compilations
     * around those conditions (-XX:+LogCompilation, the same VM) took 37 ms at the most, the tick's
     * own C2 compilation 20 ms; the memory kernels' took up to 279 ms, which is why their warm-up
     * ({@code hostside.memory.Warmup}) keeps 300. Each recording keeps the JIT time inside it
     * ({@code jitInRecordingMs}): a compilation the window missed shows there.
     */
    static final long JIT_QUIET_NS = 150_000_000L;
    static final long MAX_WARMUP_NS = 6_000_000_000L;

    /**
     * Calls of the feeder's recording ({@code Feeder.record}, a tick or two each: 11,250 ticks) that
     * make C2 compile it, and the branch of the tick it inlines, where this JVM has not run that
     * branch: 10,000, twice C2's Tier4InvocationThreshold (5,000 in {@code java -XX:+PrintFlagsFinal}),
     * so that the compilation starts before the warm-up at the cadence and is seen to end there
     * ({@link JitWatch}); the JIT alone cannot tell a compilation that has not started yet. They
     * used to be a second's worth of ticks at the cadence (10,000 at 100 us); in a burst, at
     * {@link #BURST_PERIOD_NS}, they take a fraction of a second (a launch's few us each on a GPU): the
     * same code, each tick sleeping to a deadline, here one already passed, and with the clearings of
     * {@link #BURST_RESET_EVERY} the same branches as a recording takes.
     */
    static final int BURST_CALLS = 10_000;

    /** The burst's cadence, 1 ns. */
    static final long BURST_PERIOD_NS = 1;

    /**
     * How far in the past each of the burst's deadlines lies, 1 ms: beyond the thread's timer
     * slack (50 us by default), by which the kernel may defer a wake-up on purpose. A deadline
     * only just passed, as a 1 ns cadence sets, still slept out the slack: 10,000 ticks took 0.7 s
     * on the dev VM.
     */
    static final long BURST_PAST_NS = 1_000_000;

    /**
     * Calls of the burst between two clearings of the histograms, 250: forty clearings, each
     * followed by a first value, new minima and maxima, as each recording starts. Without them the
     * burst's near-constant lateness left HdrHistogram's "new minimum" branch out of the profile,
     * C2 compiled it as a trap, the cadence's first wake-up took it, and the tick was compiled again
     * inside the recording; the clearings also compile the clearing (Arrays.fill) and the
     * minimum's and maximum's compare-and-set before the recording rather than at its start.
     */
    static final int BURST_RESET_EVERY = 250;

    /**
     * Ticks of warm-up at the cadence, after the burst where there is one: 5% of the run, at
     * least 100. The JIT must then be quiet for {@link #JIT_QUIET_NS} before the recording
     * starts: what the burst and the condition itself set going (the hogs' start, a pinned
     * thread) is compiled first.
     */
    static int leastTicks(int launches) {
        return Math.max(100, launches / 20);
    }

    /**
     * The branches of {@link Ticker#tick}: the timer alone, a launch, a graph's launch. A
     * condition whose branch an earlier condition compiled needs no burst of its own:
     * timer_jitter_noisy after timer_jitter_quiet, launch_jitter_noisy and _pinned after
     * launch_jitter_quiet. A branch never taken in the warm-up that compiled {@code tick} is
     * compiled as a trap, and its first run recompiles the method: such a condition has its own
     * burst. refs timer warms up for a second on every run; cyclictest, whose method it is, not
     * at all: the warm-up here is the JIT's.
     */
    enum TickCode {
        TIMER, LAUNCH, GRAPH;

        static TickCode of(boolean launches, boolean graph) {
            return graph ? GRAPH : launches ? LAUNCH : TIMER;
        }
    }

    /** The burst a condition that runs {@code code} starts with: {@link #BURST_CALLS} where this JVM has not compiled that branch, else none. */
    static int burstCalls(TickCode code) {
        return COMPILED.contains(code) ? 0 : BURST_CALLS;
    }

    /** The branches this JVM has compiled: a warm-up of each ended with the JIT quiet. */
    static final Set<TickCode> COMPILED = ConcurrentHashMap.newKeySet();
}
