package hostside.cpu.measure;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import hostside.core.CpuSet;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.harness.Result;
import hostside.harness.Sampling;
import hostside.harness.TestCase;
import hostside.libc.Sched;

/**
 * What the kernel charges the threads that feed a GPU: entering it (a syscall), handing the CPU
 * to another thread (a context switch, by futex ping-pong of two threads, on one core and across
 * two), waking a sleeping thread, and moving a thread to another CPU. Every figure is a median
 * over samples, each sample a loop of many operations timed by the host clock. The syscall and
 * the ping-pongs do what the C references do ({@code refs syscall}, {@code refs pingpong
 * futex}), call for call, so that their figures are the C loops'.
 */
public final class SchedCosts {
    /**
     * Samples kept at least, and at most: five, and more until the median is known within 5%
     * (the C loops' own runs differ more on a VM), at most nine or two seconds of samples. The C
     * loops take seven; on the H100 VM the ping-pongs and the migration that did not settle within
     * fifteen samples or 3 s had their medians known to 5-18% (0.8-3.0 s) (docs/measurements/2026-12-07-report-h100.md): a noisy
     * scheduler is said ({@link hostside.harness.Settling}), not waited out.
     */
    static final int SAMPLES = 5, MOST_SAMPLES = 9;
    static final double WITHIN = 0.05;
    static final Duration CAP = Duration.ofSeconds(2);
    private static final VarHandle WORD = JAVA_INT.varHandle();
    /** One warm-up round, as refs pingpong runs one before timing (and lat_ctx and perf bench do). */
    static final Sampling SAMPLING = Sampling.untilSettled(1, SAMPLES, MOST_SAMPLES, WITHIN, CAP);
    /**
     * The ping-pong's: a second warm-up round, so that the C2 compilation of {@link #handOvers},
     * started within the first, has finished on a machine whose compiler is still busy with start-up.
     */
    static final Sampling WARM_SAMPLING = Sampling.untilSettled(2, SAMPLES, MOST_SAMPLES, WITHIN, CAP);
    /**
     * Hand-overs per call of {@link #handOvers}. A loop entered once per sample runs in the
     * interpreter and then in profiling code until on-stack replacement compiles it, some 100,000
     * iterations in: five samples of 20,000 round trips, so the median was one of those. A method
     * called thousands of times a sample is compiled whole within the first warm-up round.
     */
    static final int CHUNK = 10;
    /** Where the syscall loop's results go, so that no compiler may drop the calls themselves. */
    static volatile long sink;

    private SchedCosts() {}

    public static List<TestCase<CpuTarget>> all() {
        return List.of(new Syscall(Syscall.CALLS), new PingPong(true, PingPong.ROUNDS), new PingPong(false, PingPong.ROUNDS),
                new Wakeup(Wakeup.WAKEUPS), new Migration(Migration.MOVES));
    }

    /**
     * getppid(2): the round trip into the kernel and back, the whole call as a C loop calling
     * syscall(2) makes it (the call is linked critical: no thread-state transition, which a C
     * caller does not have either). A native call that stays in user space is timed apart, so
     * that the kernel's own share can be given beside.
     */
    public record Syscall(int calls) implements TestCase<CpuTarget> {
        static final int CALLS = 200_000;

        /**
         * @param nativeCallNs   a native call that does not enter the kernel (labs, linked as getppid is), ns: what the call itself costs
         * @param kernelNs       the syscall's median less the native call's: the kernel's own share (the headline, like the C loop, includes the call)
         * @param callsPerSample calls timed together per sample
         */
        public record Detail(double nativeCallNs, double kernelNs, int callsPerSample) implements hostside.harness.Detail {}

        /** One sample: ns per syscall and ns per plain native call, timed back to back. */
        record Sample(double syscallNs, double callNs) {}

        public String key() {
            return "syscall_getppid";
        }

        public String description() {
            return "a trivial syscall (getppid), ns per call: the whole call, as a C loop makes it (the kernel's share beside)";
        }

        @Override
        public String anchor() {
            return ANCHOR;
        }

        static final String ANCHOR = "refs syscall (getppid by syscall(2) in a C loop)";

        @Override
        public Class<Detail> detailType() {
            return Detail.class;
        }

        public Result run(CpuTarget t) {
            List<Sample> samples = WARM_SAMPLING.each(i -> sample(calls), Sample::syscallNs);
            Stats sys = Stats.of(samples.stream().mapToDouble(Sample::syscallNs).toArray());
            Stats call = Stats.of(samples.stream().mapToDouble(Sample::callNs).toArray());
            return Result.ok(this, Unit.NS, sys, "getppid by syscall(2) through java.lang.foreign linked critical (no thread-state transition, as in C), "
                    + "whole call, host clock; labs(3) linked the same way for the call's own cost", new Detail(call.median(), sys.median() - call.median(), calls));
        }

        static Sample sample(int calls) {
            return new Sample(syscalls(calls), noops(calls));
        }

        /* Each loop in a method of its own: compiled on its own, so that the second loop's first run does not send the first's code back to the interpreter. */
        static double syscalls(int calls) {
            long s = 0;
            long t0 = System.nanoTime();
            for (int k = 0; k < calls; k++) s += Sched.getppid();
            long t1 = System.nanoTime();
            sink += s;
            return (t1 - t0) / (double) calls;
        }

        static double noops(int calls) {
            long s = 0;
            long t0 = System.nanoTime();
            for (int k = 0; k < calls; k++) s += Sched.nativeNoop(k);
            long t1 = System.nanoTime();
            sink += s;
            return (t1 - t0) / (double) calls;
        }
    }

    /**
     * Two threads hand a token back and forth through a futex: each hand-over is a wake and a
     * wait, so one round trip is two context switches (on one core) or two cross-CPU wake-ups.
     * Call for call what {@code refs pingpong futex} does: one word, FUTEX_WAIT_PRIVATE and
     * FUTEX_WAKE_PRIVATE by syscall(2), a sequentially consistent store between them.
     */
    public record PingPong(boolean sameCore, int rounds) implements TestCase<CpuTarget> {
        static final int ROUNDS = 20_000;

        /**
         * @param cpus                the CPU both threads ran on, or the two they ran on
         * @param roundTripsPerSample round trips timed together per sample
         */
        public record Detail(CpuSet cpus, int roundTripsPerSample)
                implements hostside.harness.Detail {}

        public String key() {
            return sameCore ? "context_switch_same_core" : "context_switch_cross_core";
        }

        public String description() {
            return sameCore ? "futex ping-pong between two threads pinned to one CPU: ns per switch"
                    : "futex ping-pong between two threads on two CPUs: ns per hand-over";
        }

        /**
         * The C reference that does the same, on the same CPUs. lmbench's lat_ctx and perf bench
         * sched pipe hand over through pipes between processes: a pipe's read and write cost more
         * than a futex's wait and wake, so they are not this figure's peers.
         */
        @Override
        public String anchor() {
            return sameCore ? "refs pingpong futex A A (C, two threads on one CPU)" : "refs pingpong futex A B (C, two threads on two CPUs)";
        }

        @Override
        public Class<Detail> detailType() {
            return Detail.class;
        }

        public Optional<String> notApplicable(CpuTarget t) {
            return !sameCore && !t.twoCpus() ? Optional.of("this process may run on one CPU only") : Optional.empty();
        }

        public Result run(CpuTarget t) {
            int a = t.cpus().get(0), b = sameCore ? a : t.cpus().get(1);
            Stats ns = WARM_SAMPLING.stats(i -> pingPong(a, b, rounds) / (2.0 * rounds));
            return Result.ok(this, Unit.NS, ns, "futex wait/wake ping-pong of two pinned threads, as refs pingpong futex, host clock; half a round trip",
                    new Detail(CpuSet.of(a, b), rounds));
        }
    }

    /** The nanoseconds {@code rounds} round trips took between a thread on {@code cpuA} and one on {@code cpuB}. */
    static long pingPong(int cpuA, int cpuB, int rounds) {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment word = arena.allocate(64, 64); // 0: A's turn, 1: B's turn
            long[] elapsed = new long[1];
            Runnable sideA = () -> {
                Sched.pin(cpuA);
                long t0 = System.nanoTime();
                side(word, 0, 1, rounds);
                waitFor(word, 0);
                elapsed[0] = System.nanoTime() - t0;
            };
            Runnable sideB = () -> {
                Sched.pin(cpuB);
                side(word, 1, 0, rounds);
            };
            runPair(sideA, sideB);
            return elapsed[0];
        }
    }

    /** {@code rounds} hand-overs, {@link #CHUNK} at a time. */
    static void side(MemorySegment word, int mine, int theirs, int rounds) {
        for (int done = 0; done < rounds; done += CHUNK) handOvers(word, mine, theirs, Math.min(CHUNK, rounds - done));
    }

    static void handOvers(MemorySegment word, int mine, int theirs, int n) {
        for (int i = 0; i < n; i++) handOver(word, mine, theirs);
    }

    /** Waits for {@code mine}, then gives the turn to the other side and wakes it. */
    private static void handOver(MemorySegment word, int mine, int theirs) {
        waitFor(word, mine);
        WORD.setVolatile(word, 0L, theirs);
        Sched.futexWake(word, 1);
    }

    private static void waitFor(MemorySegment word, int value) {
        int v;
        while ((v = (int) WORD.getVolatile(word, 0L)) != value) Sched.futexWait(word, v);
    }

    /** Runs two platform threads to the end; a side that does not finish in time is an error, never a hang. */
    static void runPair(Runnable a, Runnable b) {
        Throwable[] failure = new Throwable[1];
        Thread ta = Thread.ofPlatform().name("hostside-a").daemon().unstarted(guard(a, failure));
        Thread tb = Thread.ofPlatform().name("hostside-b").daemon().unstarted(guard(b, failure));
        tb.start();
        ta.start();
        try {
            ta.join(TimeUnit.SECONDS.toMillis(60));
            tb.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
        if (ta.isAlive() || tb.isAlive()) throw new IllegalStateException("a ping-pong thread did not finish within 60 s");
        if (failure[0] != null) throw new IllegalStateException(failure[0].getMessage(), failure[0]);
    }

    private static Runnable guard(Runnable r, Throwable[] failure) {
        return () -> {
            try {
                r.run();
            } catch (Throwable t) {
                failure[0] = t;
            }
        };
    }

    /** A thread asleep on a futex, woken from another CPU: from the wake call to the sleeper running. */
    public record Wakeup(int count) implements TestCase<CpuTarget> {
        static final int WAKEUPS = 5_000;

        /**
         * @param cpus             the waker's CPU and the sleeper's
         * @param wakeupsPerSample wake-ups per sample, of which the sample is the median
         */
        public record Detail(CpuSet cpus, int wakeupsPerSample)
                implements hostside.harness.Detail {}

        public String key() {
            return "futex_wakeup_cross_core";
        }

        public String description() {
            return "a thread asleep on a futex, woken from another CPU: ns from the wake call to it running";
        }

        public Optional<String> notApplicable(CpuTarget t) {
            return t.twoCpus() ? Optional.empty() : Optional.of("this process may run on one CPU only");
        }

        /** The same one-way wake-up that the C program of testdata/h200/anchors.md timed through a pipe. */
        @Override
        public String anchor() {
            return "C loop: one-way pipe wake-up across cores";
        }

        @Override
        public Class<Detail> detailType() {
            return Detail.class;
        }

        public Result run(CpuTarget t) {
            int a = t.cpus().get(0), b = t.cpus().get(1);
            Stats ns = SAMPLING.stats(i -> {
                long[] lat = SchedCosts.wakeups(a, b, count);
                java.util.Arrays.sort(lat);
                return lat[lat.length / 2];
            });
            return Result.ok(this, Unit.NS, ns, "the waker stamps the clock, then FUTEX_WAKE; the sleeper stamps it on return; median per sample",
                    new Detail(CpuSet.of(a, b), count));
        }
    }

    /** Wake-up latencies (ns): B sleeps, A stamps and wakes it, B stamps on return and hands back. */
    static long[] wakeups(int cpuA, int cpuB, int n) {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment word = arena.allocate(64, 64);
            long[] stamp = new long[1];
            long[] lat = new long[n];
            Runnable waker = () -> {
                Sched.pin(cpuA);
                for (int r = 0; r < n; r++) {
                    waitFor(word, 0);
                    // let B reach its futex wait: a wake-up of a thread still running measures nothing
                    long until = System.nanoTime() + 20_000;
                    while (System.nanoTime() < until) Thread.onSpinWait();
                    stamp[0] = System.nanoTime();
                    WORD.setVolatile(word, 0L, 1);
                    Sched.futexWake(word, 1);
                }
            };
            Runnable sleeper = () -> {
                Sched.pin(cpuB);
                for (int r = 0; r < n; r++) {
                    waitFor(word, 1);
                    lat[r] = System.nanoTime() - stamp[0];
                    WORD.setVolatile(word, 0L, 0);
                    Sched.futexWake(word, 1);
                }
            };
            runPair(waker, sleeper);
            return lat;
        }
    }

    /** sched_setaffinity to the other CPU: the kernel moves the thread before the call returns. */
    public record Migration(int moves) implements TestCase<CpuTarget> {
        static final int MOVES = 10_000;

        /**
         * @param cpus                 the two CPUs the thread was moved between
         * @param movesPerSample       moves timed together per sample
         * @param notOnTargetAfterCall moves after which the thread was not yet on the CPU it was sent to (0: the kernel moves before returning)
         */
        public record Detail(CpuSet cpus, int movesPerSample,
                             int notOnTargetAfterCall) implements hostside.harness.Detail {}

        public String key() {
            return "thread_migration";
        }

        public String description() {
            return "moving a running thread to another CPU with sched_setaffinity: ns per move";
        }

        public Optional<String> notApplicable(CpuTarget t) {
            return t.twoCpus() ? Optional.empty() : Optional.of("this process may run on one CPU only");
        }

        @Override
        public Class<Detail> detailType() {
            return Detail.class;
        }

        public Result run(CpuTarget t) {
            int a = t.cpus().get(0), b = t.cpus().get(1);
            Stats[] ns = new Stats[1];
            int[] misses = new int[1];
            // the samples run on a thread of their own, so that the caller's affinity is left alone
            Runnable mover = Sampling.reportingToThisCase(() -> ns[0] = SAMPLING.stats(i -> {
                long t0 = System.nanoTime();
                for (int k = 0; k < moves; k++) {
                    int target = (k & 1) == 0 ? b : a;
                    Sched.pin(target);
                    if (Sched.cpu() != target) misses[0]++;
                }
                return (System.nanoTime() - t0) / (double) moves;
            }));
            runPair(mover, () -> { });
            return Result.ok(this, Unit.NS, ns[0], "sched_setaffinity alternating between two CPUs, host clock (includes the syscall)",
                    new Detail(CpuSet.of(a, b), moves, misses[0]));
        }
    }
}
