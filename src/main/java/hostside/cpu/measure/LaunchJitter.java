package hostside.cpu.measure;

import java.util.List;
import java.time.Duration;
import java.util.Optional;

import org.HdrHistogram.Histogram;

import hostside.core.CpuSet;
import hostside.core.Distribution;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.bench.GpuBench;
import hostside.harness.Result;
import hostside.harness.TestCase;

/**
 * Wake-up jitter of a thread that works at a fixed cadence, many thousand ticks, the way a
 * training loop's Python thread feeds the GPU. Each tick the feeder sleeps until an absolute
 * deadline, then (in the launch conditions) launches an empty kernel; recorded are how late it
 * woke, how long the launch call took and the gap between launches, as distributions
 * (HdrHistogram).
 * <p>
 * Two conditions time the timer alone, as {@code refs timer PERIOD_US TICKS} does (cyclictest's
 * loop without SCHED_FIFO: clock_nanosleep TIMER_ABSTIME on a fixed cadence, lateness = wake time
 * - deadline, ticks already passed skipped and counted as missed): quiet, and under a CPU hog for
 * every CPU as {@code refs hog N SECONDS} makes them ({@link CpuHogs}). Their p99, p99.9 and
 * missed ticks are the C loop's figures. Four conditions add a launch per tick, on a GPU only
 * (without one they are not run): quiet; noisy (the hogs); pinned (the feeder alone on one of
 * the GPU's local CPUs, the hogs on the others); and a CUDA graph that replays
 * {@link #GRAPH_KERNELS} kernels per launch. A launch condition's lateness less the timer's is
 * the launch's own share.
 * <p>
 * A wake-up so late that later ticks have passed skips them ({@link Schedule}), as cyclictest
 * does: one stall is one late sample plus a count of missed ticks, not a run of back-to-back
 * "late" ticks that never slept. Recording the backlog instead made a 3.5 ms stall at a 100 us
 * period into 35 samples and p99 under load 12-34x cyclictest's (docs/measurements/2026-12-02-cpu.md).
 * <p>
 * The recording is cut into {@link #SEGMENTS} equal parts, each with its own p99, p99.9 and
 * missed ticks: their range is the run's own spread, which a comparison of two conditions must
 * exceed to count ({@link hostside.core.Versus}).
 */
public record LaunchJitter(Condition condition) implements TestCase<CpuTarget> {
    public static final int GRAPH_KERNELS = 10;
    /** Parts of the recording with figures of their own (the spread of one run). */
    public static final int SEGMENTS = 5;
    static final long MAX_NS = 10_000_000_000L;
    /** What the timer conditions mirror. */
    public static final String TIMER_ANCHOR = "refs timer: cyclictest's loop without SCHED_FIFO";

    /** Which CPUs get a hog process each. */
    enum HogPlacement { NONE, EVERY_CPU, OTHER_CPUS }

    public enum Condition {
        TIMER_QUIET("timer_jitter_quiet", "timer quiet", false, HogPlacement.NONE, "the timer alone, nothing else running"),
        TIMER_NOISY("timer_jitter_noisy", "timer noisy", false, HogPlacement.EVERY_CPU, "the timer alone, a CPU hog process for every CPU"),
        QUIET("launch_jitter_quiet", "quiet", true, HogPlacement.NONE, "nothing else running"),
        NOISY("launch_jitter_noisy", "noisy", true, HogPlacement.EVERY_CPU, "a CPU hog process for every CPU"),
        PINNED("launch_jitter_pinned", "pinned", true, HogPlacement.OTHER_CPUS, "the feeder alone on a GPU-local CPU, hogs on the others"),
        GRAPH("launch_jitter_graph", "graph", true, HogPlacement.NONE, "a CUDA graph of " + GRAPH_KERNELS + " kernels per launch, nothing else running");

        final String key, label, what;
        final boolean launches;
        final HogPlacement hogs;

        Condition(String key, String label, boolean launches, HogPlacement hogs, String what) {
            this.key = key;
            this.label = label;
            this.launches = launches;
            this.hogs = hogs;
            this.what = what;
        }

        /** The case's key: timer_jitter_quiet, launch_jitter_noisy... */
        public String key() {
            return key;
        }

        /** Its name in a table: "timer quiet", "noisy"... */
        public String label() {
            return label;
        }

        /** Whether it launches on a GPU each tick (and is not run without one). */
        public boolean launches() {
            return launches;
        }

        /** The condition of {@code key}; empty for a key that is none. */
        public static Optional<Condition> of(String key) {
            return java.util.Arrays.stream(values()).filter(c -> c.key.equals(key)).findFirst();
        }
    }

    /** Whether {@code key} is a jitter case's, timer or launch. */
    public static boolean isJitter(String key) {
        return Condition.of(key).isPresent();
    }

    /**
     * The figures of one part of a recording.
     *
     * @param wakes  wake-ups recorded in it
     * @param p99Ns  p99 of their lateness, ns
     * @param p999Ns p99.9 of their lateness, ns
     * @param missed ticks skipped by its wake-ups
     */
    public record Segment(long wakes, long p99Ns, long p999Ns, long missed) {}

    /**
     * What one condition's run gives beside its figure (the median lateness).
     *
     * @param launches           launches (or timer ticks) asked for
     * @param periodNs           the cadence, ns
     * @param gpu                the GPU launched on, "name (PCI address)"; null without one (the timer conditions)
     * @param feederCpu          the CPU the feeder was pinned to (pinned only); null when it was not pinned
     * @param hogCpus            the CPUs with a hog process each (none when quiet); the scheduler places them there, as refs hog's
     * @param timerSlackNs       the feeder thread's timer slack: how late the kernel may wake it on purpose
     * @param missedTicks        ticks already passed when the feeder woke, skipped as cyclictest skips them
     * @param warmupTicks        ticks of warm-up before recording
     * @param warmupMs           how long the warm-up took
     * @param jitSettledInWarmup whether the JIT had gone quiet by the end of the warm-up
     * @param stoppedAtTimeBound whether the run stalled so long that the time bound cut it short
     * @param lateNs             how late each wake-up was after its deadline
     * @param launchNs           how long each launch call took; null without a launch
     * @param gapNs              the time between one launch (or wake-up) and the next
     * @param kernelsPerLaunch   kernels in the CUDA graph (graph only); null for single launches
     * @param segments           the recording in {@link #SEGMENTS} parts, in order; null in a report from before they were kept
     * @param jitInRecordingMs   how long the JIT spent on compilations that ended during the recording, ms (the JVM's
     *                           total compilation time before and after it, whatever code it compiled; 0: none
     *                           seen); a compiler thread then ran beside the feeder, and where the tick itself was
     *                           compiled again the feeder ran slower code until it was. Null where the JVM does not
     *                           count it, and in a report from before it was kept
     */
    public record Detail(int launches, long periodNs, String gpu, Integer feederCpu, CpuSet hogCpus,
                         long timerSlackNs, long missedTicks, long warmupTicks, long warmupMs, boolean jitSettledInWarmup, boolean stoppedAtTimeBound,
                         Distribution lateNs,
                         Distribution launchNs,
                         Distribution gapNs,
                         Integer kernelsPerLaunch, List<Segment> segments, Long jitInRecordingMs) implements hostside.harness.Detail {
        public Detail {
            segments = segments == null ? null : List.copyOf(segments);
        }

        /** Ticks skipped as a share of all ticks ({@code wakes} woken plus those skipped); 0 when none was skipped. */
        public double missedShare(long wakes) {
            return missedTicks <= 0 ? 0 : (double) missedTicks / (wakes + missedTicks);
        }

        /** The lateness p99 in us, with the lowest and highest of the segments' as its spread. */
        public Stats p99Us() {
            return spread(lateNs.p99() / 1e3, s -> s.p99Ns() / 1e3);
        }

        /** The lateness p99.9 in us, with the segments' range as its spread. */
        public Stats p999Us() {
            return spread(lateNs.p999() / 1e3, s -> s.p999Ns() / 1e3);
        }

        /** Ticks missed per segment: the median segment's, with the range over segments. */
        public Stats missedPerSegment() {
            if (segments == null || segments.isEmpty()) return Stats.of(missedTicks / (double) SEGMENTS);
            return Stats.of(segments.stream().mapToDouble(Segment::missed).toArray());
        }

        /** {@code whole} with the range of {@code part} over the segments (none kept: no spread). */
        private Stats spread(double whole, java.util.function.ToDoubleFunction<Segment> part) {
            if (segments == null || segments.isEmpty()) return new Stats(whole, whole, whole, 1);
            double[] v = segments.stream().mapToDouble(part).toArray();
            double lo = Math.min(whole, java.util.Arrays.stream(v).min().orElse(whole)), hi = Math.max(whole, java.util.Arrays.stream(v).max().orElse(whole));
            return new Stats(whole, lo, hi, v.length);
        }
    }

    public static List<TestCase<CpuTarget>> all() {
        return java.util.Arrays.stream(Condition.values()).<TestCase<CpuTarget>>map(LaunchJitter::new).toList();
    }

    public String key() {
        return condition.key;
    }

    public String description() {
        return condition.launches
                ? "empty-kernel launches at a fixed cadence, " + condition.what + ": wake-up lateness, launch time, gaps (not run without a GPU)"
                : "timer ticks at a fixed cadence (refs timer's loop), " + condition.what + ": wake-up lateness, missed ticks";
    }

    /**
     * The timer conditions measure what {@code refs timer} does, the same way; the launch
     * conditions measure that plus a launch, which no peer times: none.
     */
    @Override
    public String anchor() {
        return condition.launches ? null : TIMER_ANCHOR;
    }

    @Override
    public Class<Detail> detailType() {
        return Detail.class;
    }

    public Optional<String> notApplicable(CpuTarget t) {
        if (condition.launches && t.gpu() == null) {
            return Optional.of("no GPU to launch on; " + Condition.TIMER_QUIET.key + " and " + Condition.TIMER_NOISY.key + " time the same loop without a launch");
        }
        if (condition == Condition.PINNED && !t.twoCpus()) return Optional.of("this process may run on one CPU only: nowhere to put the hogs");
        return Optional.empty();
    }

    /** A run that stalls far beyond its nominal length stops here: three times nominal plus ten seconds. */
    static long timeBoundNs(int wakes, long periodNs) {
        return 3L * wakes * periodNs + 10_000_000_000L;
    }

    /**
     * The hogs' own CPU-time limit, s: the longest warm-up and the time bound of a run of
     * {@code ticks} at {@code periodNs}, and half a minute more (they are stopped when the run
     * ends; this is for when nothing else stops them).
     */
    static long hogLimitS(int ticks, long periodNs) {
        return (TickWarmup.MAX_WARMUP_NS + timeBoundNs(ticks, periodNs)) / 1_000_000_000L + 30;
    }

    /** Its ticks at their period: the window it records; the warm-up before it (at most {@link TickWarmup#MAX_WARMUP_NS}) is not counted. */
    @Override
    public Optional<Duration> cost(CpuTarget t) {
        return Optional.of(Duration.ofNanos(Math.multiplyExact((long) t.launches(), t.periodNs())));
    }

    public Result run(CpuTarget t) {
        int feederCpu = t.feederCpus().isEmpty() ? t.cpus().getFirst() : t.feederCpus().getFirst();
        List<Integer> hogCpus = switch (condition.hogs) {
            case EVERY_CPU -> t.cpus();
            case OTHER_CPUS -> t.cpus().stream().filter(c -> c != feederCpu).toList();
            case NONE -> List.of();
        };
        GpuBench gpu = condition.launches ? t.gpu() : null;
        Feeder.Series s;
        try (CpuHogs hogs = CpuHogs.start(hogCpus.size(), hogCpus, hogLimitS(t.launches(), t.periodNs()))) {
            s = Feeder.run(t, gpu, condition == Condition.GRAPH, condition == Condition.PINNED ? feederCpu : -1);
        }
        Detail d = new Detail(t.launches(), t.periodNs(), gpu == null ? null : gpu.name + " (" + gpu.pciAddress + ")",
                condition == Condition.PINNED ? feederCpu : null, CpuSet.of(hogCpus.stream().mapToInt(Integer::intValue).toArray()),
                s.slackNs()[0], s.missed()[0], s.warmup()[0], s.warmup()[1] / 1_000_000, s.jitSettled()[0], s.cut()[0],
                NsDistributions.of(s.late()), gpu == null ? null : NsDistributions.of(s.launch()), NsDistributions.of(s.gap()),
                condition == Condition.GRAPH ? GRAPH_KERNELS : null, s.segments(), s.jitInRecordingMs()[0] < 0 ? null : s.jitInRecordingMs()[0]);
        Histogram late = s.late();
        Stats v = new Stats(late.getValueAtPercentile(50) / 1e3, late.getMinValue() / 1e3, late.getMaxValue() / 1e3, (int) late.getTotalCount());
        return Result.ok(this, Unit.US, v, method(hogCpus.size()), d);
    }

    /** How the figure was taken, and how it differs from the C loop's. */
    String method(int hogs) {
        String timer = "clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) to each tick of a fixed cadence, lateness = wake time - tick,"
                + " ticks at or before the wake time skipped and counted as missed";
        String hogged = hogs == 0 ? "" : "; " + hogs + " hog processes spinning in user space, as refs hog's";
        if (!condition.launches) return timer + ": refs timer's loop (cyclictest's, without SCHED_FIFO), in a JVM thread; HdrHistogram" + hogged;
        return timer + ", then cuLaunchKernel" + (condition == Condition.GRAPH ? " of a graph (cuGraphLaunch)" : "")
                + ": the timer conditions' loop plus a launch (their lateness is the timer's share); host clock; HdrHistogram" + hogged;
    }
}
