package hostside.cpu.measure;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.HdrHistogram.Histogram;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

import hostside.core.CpuSet;
import hostside.core.Distribution;
import hostside.gpu.bench.GpuBench;
import hostside.gpu.cuda.Graph;
import hostside.gpu.cuda.Module;
import hostside.harness.Child;
import hostside.harness.Children;
import hostside.harness.Result;
import hostside.core.Stats;
import hostside.harness.TestCase;
import hostside.libc.Sched;

/**
 * Launch jitter: a feeder thread issues an empty kernel at a fixed cadence, many thousand times,
 * the way a training loop's Python thread feeds the GPU. Each tick the feeder sleeps until an
 * absolute deadline (cyclictest's method), then launches; recorded are how late it woke, how
 * long the launch call took and the gap between launches, as distributions (HdrHistogram).
 * Four conditions: quiet; noisy (a CPU hog on every CPU); pinned (the feeder alone on one of
 * the GPU's local CPUs, the hogs on the others); and a CUDA graph that replays
 * {@link #GRAPH_KERNELS} kernels per launch. Without a GPU the feeder drives the same timer and
 * does no launch (the graph condition then wakes once per {@link #GRAPH_KERNELS} ticks).
 * <p>
 * A wake-up so late that later ticks have passed skips them ({@link Schedule}), as cyclictest
 * does: one stall is one late sample plus a count of missed ticks, not a run of back-to-back
 * "late" ticks that never slept. Recording the backlog instead made a 3.5 ms stall at a 100 us
 * period into 35 samples and p99 under load 12-34x cyclictest's (docs/measurements/2026-12-02-cpu.md).
 */
public record LaunchJitter(Condition condition) implements TestCase<CpuTarget> {
    public static final int GRAPH_KERNELS = 10;
    static final long MAX_NS = 10_000_000_000L;

    public enum Condition {
        QUIET("quiet", "nothing else running"),
        NOISY("noisy", "a CPU hog process on every CPU"),
        PINNED("pinned", "the feeder alone on a GPU-local CPU, hogs on the others"),
        GRAPH("graph", "a CUDA graph of " + GRAPH_KERNELS + " kernels per launch, nothing else running");

        final String key, what;

        Condition(String key, String what) {
            this.key = key;
            this.what = what;
        }
    }

    /**
     * What one condition's run gives beside its figure (the median lateness).
     *
     * @param launches           launches (or timer ticks) asked for
     * @param periodNs           the cadence, ns
     * @param gpu                the GPU launched on, "name (PCI address)"; null without one (a timer-driven feeder)
     * @param feederCpu          the CPU the feeder was pinned to (pinned only); null when it was not pinned
     * @param hogCpus            the CPUs a hog process busy-looped on (none when quiet)
     * @param timerSlackNs       the feeder thread's timer slack: how late the kernel may wake it on purpose
     * @param missedTicks        ticks already passed when the feeder woke, skipped as cyclictest skips them
     * @param warmupTicks        ticks of warm-up before recording
     * @param warmupMs           how long the warm-up took
     * @param jitSettledInWarmup whether the JIT had gone quiet by the end of the warm-up
     * @param stoppedAtTimeBound whether the run stalled so long that the time bound cut it short
     * @param lateNs             how late each wake-up was after its deadline
     * @param launchNs           how long each launch call took; null without a GPU
     * @param gapNs              the time between one launch (or wake-up) and the next
     * @param kernelsPerLaunch   kernels in the CUDA graph (graph only); null for single launches
     */
    public record Detail(int launches, long periodNs, String gpu, Integer feederCpu, @JsonDeserialize(using = CpuLists.class) CpuSet hogCpus,
                         long timerSlackNs, long missedTicks, long warmupTicks, long warmupMs, boolean jitSettledInWarmup, boolean stoppedAtTimeBound,
                         @JsonDeserialize(using = NsDistributions.Reader.class) Distribution lateNs,
                         @JsonDeserialize(using = NsDistributions.Reader.class) Distribution launchNs,
                         @JsonDeserialize(using = NsDistributions.Reader.class) Distribution gapNs,
                         Integer kernelsPerLaunch) implements hostside.harness.Detail {

        /** Ticks skipped as a share of all ticks ({@code wakes} woken plus those skipped); 0 when none was skipped. */
        public double missedShare(long wakes) {
            return missedTicks <= 0 ? 0 : (double) missedTicks / (wakes + missedTicks);
        }
    }

    public static List<TestCase<CpuTarget>> all() {
        return java.util.Arrays.stream(Condition.values()).<TestCase<CpuTarget>>map(LaunchJitter::new).toList();
    }

    public String key() {
        return "launch_jitter_" + condition.key;
    }

    public String description() {
        return "empty-kernel launches (or timer ticks without a GPU) at a fixed cadence, " + condition.what + ": wake-up lateness, launch time, gaps";
    }

    /** The timer method is cyclictest's: absolute deadlines, lateness on waking, passed ticks skipped. */
    @Override
    public String anchor() {
        return "cyclictest";
    }

    @Override
    public Class<Detail> detailType() {
        return Detail.class;
    }

    public Optional<String> notApplicable(CpuTarget t) {
        if (condition == Condition.PINNED && !t.twoCpus()) return Optional.of("this process may run on one CPU only: nowhere to put the hogs");
        return Optional.empty();
    }

    /**
     * The distributions of one run, in ns, with the ticks skipped, whether the time bound cut it
     * short, and the warm-up (ticks, ns; whether the JIT had gone quiet by its end).
     */
    record Series(Histogram late, Histogram launch, Histogram gap, long[] slackNs, long[] missed, boolean[] cut, long[] warmup, boolean[] jitSettled) {
        static Series create() {
            return new Series(new Histogram(MAX_NS, 3), new Histogram(MAX_NS, 3), new Histogram(MAX_NS, 3), new long[1], new long[1], new boolean[1],
                    new long[2], new boolean[1]);
        }

        /** Forgets the warm-up's figures. */
        void reset() {
            late.reset();
            launch.reset();
            gap.reset();
            missed[0] = 0;
        }
    }

    /**
     * cyclictest's tick schedule: absolute deadlines a period apart. After a wake-up the next
     * deadline is the first one still ahead; those already passed are counted as missed rather
     * than served at once.
     */
    static final class Schedule {
        private final long period;
        private long deadline, missed;

        Schedule(long first, long period) {
            this.deadline = first;
            this.period = period;
        }

        long deadline() {
            return deadline;
        }

        long missed() {
            return missed;
        }

        /** Moves past a wake-up at {@code woke}; returns the ticks skipped by it. */
        long advance(long woke) {
            long skipped = 0;
            deadline += period;
            if (woke > deadline) {
                skipped = (woke - deadline + period - 1) / period;
                deadline += skipped * period;
            }
            missed += skipped;
            return skipped;
        }
    }

    /** A run that stalls far beyond its nominal length stops here: three times nominal plus ten seconds. */
    static long timeBoundNs(int wakes, long periodNs) {
        return 3L * wakes * periodNs + 10_000_000_000L;
    }

    public Result run(CpuTarget t) {
        int feederCpu = t.feederCpus().isEmpty() ? t.cpus().getFirst() : t.feederCpus().getFirst();
        List<Integer> hogCpus = switch (condition) {
            case NOISY -> t.cpus();
            case PINNED -> t.cpus().stream().filter(c -> c != feederCpu).toList();
            default -> List.of();
        };
        Series s;
        try (Hogs hogs = Hogs.start(hogCpus)) {
            s = feed(t, condition == Condition.PINNED ? feederCpu : -1);
        }
        Detail d = new Detail(t.launches(), t.periodNs(), t.gpu() == null ? null : t.gpu().name + " (" + t.gpu().pciAddress + ")",
                condition == Condition.PINNED ? feederCpu : null, CpuSet.of(hogCpus.stream().mapToInt(Integer::intValue).toArray()),
                s.slackNs()[0], s.missed()[0], s.warmup()[0], s.warmup()[1] / 1_000_000, s.jitSettled()[0], s.cut()[0],
                NsDistributions.of(s.late()), t.gpu() == null ? null : NsDistributions.of(s.launch()), NsDistributions.of(s.gap()),
                condition == Condition.GRAPH ? GRAPH_KERNELS : null);
        Histogram late = s.late();
        Stats v = new Stats(late.getValueAtPercentile(50) / 1e3, late.getMinValue() / 1e3, late.getMaxValue() / 1e3, (int) late.getTotalCount());
        String method = t.gpu() == null
                ? "clock_nanosleep(TIMER_ABSTIME) to each tick, lateness on wake, ticks already passed skipped (cyclictest's method), no GPU: no launch"
                : "clock_nanosleep(TIMER_ABSTIME) to each tick, then cuLaunchKernel" + (condition == Condition.GRAPH ? " of a graph (cuGraphLaunch)" : "")
                        + "; ticks already passed skipped (cyclictest's method); host clock; HdrHistogram";
        return Result.ok(this, hostside.core.Unit.US, v, method, d);
    }

    /** The feeder loop on its own thread (pinned when {@code cpu} >= 0), so the caller's affinity is left alone. */
    private Series feed(CpuTarget t, int cpu) {
        Series s = Series.create();
        RuntimeException[] failure = new RuntimeException[1];
        Thread feeder = Thread.ofPlatform().name("hostside-feeder").unstarted(() -> {
            try {
                s.slackNs()[0] = Sched.timerSlackNs();
                if (cpu >= 0) Sched.pin(cpu);
                // a CUDA context is current per thread: this new thread must make the GPU's current
                if (t.gpu() != null) t.gpu().gpu.makeCurrent();
                loop(t, s);
            } catch (RuntimeException e) {
                failure[0] = e;
            }
        });
        feeder.start();
        try {
            feeder.join();
        } catch (InterruptedException e) {
            feeder.interrupt();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
        if (failure[0] != null) throw failure[0];
        return s;
    }

    private void loop(CpuTarget t, Series s) {
        GpuBench b = t.gpu();
        boolean graph = condition == Condition.GRAPH;
        int ticksPerWake = graph && b == null ? GRAPH_KERNELS : 1;
        try (Arena arena = Arena.ofConfined();
             Module.Prepared launch = b == null ? null : b.empty.prepare(b.stream, 1, 1);
             Graph g = b != null && graph ? Graph.capture(b.cuda, b.stream, () -> {
                 for (int k = 0; k < GRAPH_KERNELS; k++) launch.launch();
             }) : null) {
            MemorySegment ts = arena.allocate(16);
            long period = t.periodNs() * ticksPerWake;
            int wakes = t.launches() / ticksPerWake;
            int warmupAtLeast = warmupTicks(wakes, period);
            Schedule ticks = new Schedule(System.nanoTime() + 1_000_000, period);
            JitWatch jit = new JitWatch();
            // Warm-up runs the very loop that records, recording into the same histograms, which
            // are then cleared: a branch first taken after warm-up would be compiled then, and
            // each compilation's deoptimisation handshake makes the feeder wait for the VM thread,
            // which CPU hogs starve for a whole slice (ms-long stalls on the H200 machine)
            boolean warming = true;
            long previous = -1, recordingFrom = -1, warmStart = -1, bound = timeBoundNs(wakes, period);
            int warmed = 0, recorded = 0;
            for (long i = 0; recorded < wakes; i++) {
                long deadline = ticks.deadline();
                Sched.sleepUntil(deadline, ts);
                long woke = System.nanoTime();
                long t0 = woke, t1 = woke;
                if (b != null) {
                    t0 = System.nanoTime();
                    if (g != null) g.launch(b.stream);
                    else launch.launch();
                    t1 = System.nanoTime();
                }
                long skipped = ticks.advance(woke);
                s.late().recordValue(Math.min(MAX_NS, Math.max(0, woke - deadline)));
                if (b != null) s.launch().recordValue(Math.min(MAX_NS, t1 - t0));
                if (previous >= 0) s.gap().recordValue(Math.min(MAX_NS, t0 - previous));
                s.missed()[0] += skipped;
                previous = t0;
                if (warming) {
                    if (warmStart < 0) warmStart = woke;
                    warmed++;
                    boolean quiet = warmed >= warmupAtLeast && (i & 63) == 0 && jit.quietFor(woke, JIT_QUIET_NS);
                    if (quiet || warmed >= warmupAtLeast && woke - warmStart > MAX_WARMUP_NS) {
                        warming = false;
                        s.warmup()[0] = warmed;
                        s.warmup()[1] = woke - warmStart;
                        s.jitSettled()[0] = quiet;
                        s.reset();
                        recordingFrom = woke;
                    }
                } else {
                    recorded++;
                    if (woke - recordingFrom > bound) {
                        s.cut()[0] = true;
                        break;
                    }
                }
                // A GPU that falls behind would turn launch time into queue-full waits: drain now and then.
                if (b != null && (i & 1023) == 1023) b.stream.synchronize();
            }
            if (b != null) b.stream.synchronize();
        }
    }

    /** Warm-up ends once no compilation has finished for this long (or at {@link #MAX_WARMUP_NS}). */
    static final long JIT_QUIET_NS = 300_000_000L;
    static final long MAX_WARMUP_NS = 6_000_000_000L;

    /**
     * Whether the JIT has gone quiet: the JVM's total compilation time has not moved for a while.
     * Read every 64 ticks of the warm-up only, never while recording.
     */
    static final class JitWatch {
        private final java.lang.management.CompilationMXBean bean = java.lang.management.ManagementFactory.getCompilationMXBean();
        private long lastTotal = -1, lastChange;

        boolean quietFor(long now, long ns) {
            if (bean == null || !bean.isCompilationTimeMonitoringSupported()) return true;
            return settled(bean.getTotalCompilationTime(), now, ns);
        }

        /** The rule apart from the bean: a new total restarts the clock. */
        boolean settled(long total, long now, long ns) {
            if (total != lastTotal) {
                lastTotal = total;
                lastChange = now;
            }
            return now - lastChange >= ns;
        }
    }

    /** Ticks of warm-up at least: 5% of the run, at least 100, and at least one second's worth. */
    static int warmupTicks(int launches, long periodNs) {
        return (int) Math.max(Math.max(100, launches / 20), Math.min(100_000, 1_000_000_000L / periodNs));
    }

    /**
     * CPU hogs: one busy-looping process per CPU, pinned there. Processes, not threads of this
     * JVM, because what competes with a training loop's feeder is other processes (DataLoader
     * workers, other jobs); they stop when closed, at a hard time limit of their own, and when
     * this JVM exits.
     */
    static final class Hogs implements AutoCloseable {
        static final long LIMIT_S = 120;
        /** The busy loop: a shell loop that gives up by itself after LIMIT_S, should every other stop fail. */
        static final String LOOP = "end=$(( $(date +%s) + " + LIMIT_S + " )); while [ $(date +%s) -lt $end ]; do i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; done";
        private final List<Child> processes = new ArrayList<>();

        /** Each hog is a {@link Children} child: its own group, killed on close, with the JVM's hooks, and by the kernel if hostside is killed. */
        static Hogs start(List<Integer> cpus) {
            Hogs h = new Hogs();
            try {
                for (int cpu : cpus) {
                    Child c = Children.start(new ProcessBuilder("/bin/sh", "-c", LOOP)
                            .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD));
                    h.processes.add(c);
                    try {
                        Sched.pin(c.pid(), List.of(cpu));
                    } catch (RuntimeException e) {
                        // a CPU this process may not use: the hog runs unpinned
                    }
                }
            } catch (java.io.IOException e) {
                h.close();
                throw new IllegalStateException("cannot start the CPU hogs (/bin/sh): " + e.getMessage());
            }
            return h;
        }

        /** The hogs' pids (tests). */
        List<Long> pids() {
            return processes.stream().map(Child::pid).toList();
        }

        @Override
        public void close() {
            for (Child c : processes) c.close();
        }
    }
}
