package hostside.cpu.measure;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import hostside.harness.Result;
import hostside.core.Stats;
import hostside.harness.TestCase;
import hostside.libc.Sched;

/**
 * What the kernel charges the threads that feed a GPU: entering it (a syscall), handing the CPU
 * to another thread (a context switch, by futex ping-pong as lmbench's lat_ctx and the
 * perf bench sched pipe do, on one core and across two), waking a sleeping thread, and moving a
 * thread to another CPU. Every figure is a median over samples, each sample a loop of many
 * operations timed by the host clock.
 */
public final class SchedCosts {
    static final int SAMPLES = 7;
    private static final VarHandle WORD = JAVA_INT.varHandle();

    private SchedCosts() {}

    public static List<TestCase<CpuTarget>> all() {
        return List.of(new Syscall(Syscall.CALLS), new PingPong(true, PingPong.ROUNDS), new PingPong(false, PingPong.ROUNDS),
                new Wakeup(Wakeup.WAKEUPS), new Migration(Migration.MOVES));
    }

    /** getppid(2): the round trip into the kernel and back. The FFM call itself is measured apart and reported beside. */
    public record Syscall(int calls) implements TestCase<CpuTarget> {
        static final int CALLS = 200_000;

        public String key() {
            return "syscall_getppid";
        }

        public String description() {
            return "a trivial syscall (getppid), ns per call including the native call (measured apart too)";
        }

        public Result run(CpuTarget t) {
            double[] sys = new double[SAMPLES], call = new double[SAMPLES];
            long sink = 0;
            for (int i = -2; i < SAMPLES; i++) {
                long t0 = System.nanoTime();
                for (int k = 0; k < calls; k++) sink += Sched.getppid();
                long t1 = System.nanoTime();
                for (int k = 0; k < calls; k++) sink += Sched.nativeNoop(k);
                long t2 = System.nanoTime();
                if (i < 0) continue;
                sys[i] = (t1 - t0) / (double) calls;
                call[i] = (t2 - t1) / (double) calls;
            }
            Map<String, Object> d = new LinkedHashMap<>();
            Stats c = Stats.of(call);
            d.put("nativeCallNs", c.median());
            d.put("kernelNs", Stats.of(sys).median() - c.median());
            d.put("callsPerSample", calls);
            // the results are used, so no compiler may drop the calls themselves
            if (sink == 42) d.put("sink", sink);
            return Result.ok(this, hostside.core.Unit.NS, Stats.of(sys), "getppid by syscall(2) through java.lang.foreign, host clock; labs(3) the same way for the call's own cost", d);
        }
    }

    /**
     * Two threads hand a token back and forth through a futex: each hand-over is a wake and a
     * wait, so one round trip is two context switches (on one core) or two cross-CPU wake-ups.
     */
    public record PingPong(boolean sameCore, int rounds) implements TestCase<CpuTarget> {
        static final int ROUNDS = 20_000;

        public String key() {
            return sameCore ? "context_switch_same_core" : "context_switch_cross_core";
        }

        public String description() {
            return sameCore ? "futex ping-pong between two threads pinned to one CPU: ns per switch"
                    : "futex ping-pong between two threads on two CPUs: ns per hand-over";
        }

        public Optional<String> notApplicable(CpuTarget t) {
            return !sameCore && !t.twoCpus() ? Optional.of("this process may run on one CPU only") : Optional.empty();
        }

        public Result run(CpuTarget t) {
            int a = t.cpus().get(0), b = sameCore ? a : t.cpus().get(1);
            double[] ns = new double[SAMPLES];
            for (int i = -1; i < SAMPLES; i++) {
                double perSwitch = pingPong(a, b, rounds) / (2.0 * rounds);
                if (i >= 0) ns[i] = perSwitch;
            }
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("cpus", sameCore ? List.of(a) : List.of(a, b));
            d.put("roundTripsPerSample", rounds);
            return Result.ok(this, hostside.core.Unit.NS, Stats.of(ns), "futex wait/wake ping-pong of two pinned threads (lat_ctx-style), host clock; half a round trip", d);
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
                for (int r = 0; r < rounds; r++) {
                    handOver(word, 0, 1);
                }
                waitFor(word, 0);
                elapsed[0] = System.nanoTime() - t0;
            };
            Runnable sideB = () -> {
                Sched.pin(cpuB);
                for (int r = 0; r < rounds; r++) handOver(word, 1, 0);
            };
            runPair(sideA, sideB);
            return elapsed[0];
        }
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

        public String key() {
            return "futex_wakeup_cross_core";
        }

        public String description() {
            return "a thread asleep on a futex, woken from another CPU: ns from the wake call to it running";
        }

        public Optional<String> notApplicable(CpuTarget t) {
            return t.twoCpus() ? Optional.empty() : Optional.of("this process may run on one CPU only");
        }

        public Result run(CpuTarget t) {
            int a = t.cpus().get(0), b = t.cpus().get(1);
            double[] ns = new double[SAMPLES];
            for (int i = -1; i < SAMPLES; i++) {
                long[] lat = SchedCosts.wakeups(a, b, count);
                java.util.Arrays.sort(lat);
                if (i >= 0) ns[i] = lat[lat.length / 2];
            }
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("cpus", List.of(a, b));
            d.put("wakeupsPerSample", count);
            return Result.ok(this, hostside.core.Unit.NS, Stats.of(ns), "the waker stamps the clock, then FUTEX_WAKE; the sleeper stamps it on return; median per sample", d);
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

        public String key() {
            return "thread_migration";
        }

        public String description() {
            return "moving a running thread to another CPU with sched_setaffinity: ns per move";
        }

        public Optional<String> notApplicable(CpuTarget t) {
            return t.twoCpus() ? Optional.empty() : Optional.of("this process may run on one CPU only");
        }

        public Result run(CpuTarget t) {
            int a = t.cpus().get(0), b = t.cpus().get(1);
            double[] ns = new double[SAMPLES];
            int[] misses = new int[1];
            Runnable mover = () -> {
                for (int i = -1; i < SAMPLES; i++) {
                    long t0 = System.nanoTime();
                    for (int k = 0; k < moves; k++) {
                        int target = (k & 1) == 0 ? b : a;
                        Sched.pin(target);
                        if (Sched.cpu() != target) misses[0]++;
                    }
                    if (i >= 0) ns[i] = (System.nanoTime() - t0) / (double) moves;
                }
            };
            runPair(mover, () -> { });
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("cpus", List.of(a, b));
            d.put("movesPerSample", moves);
            d.put("notOnTargetAfterCall", misses[0]);
            return Result.ok(this, hostside.core.Unit.NS, Stats.of(ns), "sched_setaffinity alternating between two CPUs, host clock (includes the syscall)", d);
        }
    }
}
