package hostside.cpu;

import java.util.ArrayList;
import java.util.List;

import hostside.core.CpuSet;
import hostside.core.Distribution;
import hostside.core.Finding;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.cpu.dataloader.CowDetail;
import hostside.cpu.dataloader.DataLoaderVerdicts;
import hostside.cpu.dataloader.DatasetKind;
import hostside.cpu.dataloader.SpawnDetail;
import hostside.cpu.facts.CpuFactsReader;
import hostside.cpu.facts.CpuVerdicts;
import hostside.cpu.measure.LaunchJitter;
import hostside.cpu.measure.NsDistributions;
import hostside.cpu.measure.SchedCosts;
import hostside.fs.FsRoot;
import hostside.harness.Cut;
import hostside.harness.Detail;
import hostside.harness.Result;
import hostside.harness.Status;
import hostside.machine.MachineReader;

/** Module 3's results built by hand, typed as the drill makes them: for the verdicts', the figures', the read-back's and the document's tests. */
public final class Runs {
    private Runs() {}

    /** A result that ran, with its detail record and its case's anchor. */
    public static Result ok(String key, Unit unit, Stats value, Detail detail) {
        String anchor = CpuDrill.DRILL.cases().stream().filter(c -> c.key().equals(key)).findFirst().map(c -> c.anchor()).orElse(null);
        return new Result(key, key + ", by hand", Status.OK, "", unit, value, unit.usually, "by hand", anchor, detail);
    }

    public static Result ok(String key, double median, Detail detail) {
        return ok(key, Unit.NS, Stats.of(median), detail);
    }

    /** A distribution in ns without a histogram. */
    public static Distribution ns(long p50, long p99, long p999, long max) {
        return new Distribution(Unit.NS, 0, p50, p99, p999, max, List.of());
    }

    /**
     * {@code d}'s quantiles over {@code count} samples with a histogram that agrees with them: all
     * but 1% in p50's bucket, all but 0.1% up to p99's, the rest up to p99.9's, one at the max.
     */
    public static Distribution withHistogram(Distribution d, long count) {
        java.util.TreeMap<Long, long[]> b = new java.util.TreeMap<>();
        long[][] parts = {{(long) d.p50(), count - count / 100}, {(long) d.p99(), count / 100 - count / 1000}, {(long) d.p999(), count / 1000 - 1},
                {(long) d.max(), 1}};
        for (long[] p : parts) {
            long[] range = NsDistributions.bucket(p[0]);
            b.computeIfAbsent(range[0], k -> new long[] {range[0], range[1], 0})[2] += p[1];
        }
        return new Distribution(d.unit(), count, d.p50(), d.p99(), d.p999(), d.max(),
                b.values().stream().map(x -> new Distribution.Bucket(x[0], x[1], x[2])).toList());
    }

    /** A launch-jitter detail, its fields set one by one; defaults as a quiet run on the timer at 100 us. */
    public static final class Jitter {
        int launches = 20_000;
        long periodNs = 100_000;
        String gpu;
        Integer feederCpu;
        CpuSet hogs = CpuSet.EMPTY;
        long slackNs = 50_000, missed, warmupTicks = 13_000, warmupMs = 1_300;
        boolean cut;
        Distribution late = ns(55_000, 62_000, 89_000, 1_200_000), launch, gap = ns(100_000, 106_000, 135_000, 1_300_000);
        Integer kernels;
        List<LaunchJitter.Segment> segments;
        Long jitInRecordingMs = 0L;

        /** Lateness p50 and p99 in us; p99.9 twice p99, max three times. */
        public static Jitter late(long p50Us, long p99Us) {
            Jitter j = new Jitter();
            j.late = ns(p50Us * 1000, p99Us * 1000, p99Us * 2000, p99Us * 3000);
            return j;
        }

        /** Launch time p50 in us; p99 twice that, p99.9 three times, max four times. */
        public Jitter launch(long p50Us) {
            launch = ns(p50Us * 1000, p50Us * 2000, p50Us * 3000, p50Us * 4000);
            gpu = "NVIDIA H200 (0000:00:06.0)";
            return this;
        }

        public Jitter late(Distribution d) {
            late = d;
            return this;
        }

        public Jitter launch(Distribution d) {
            launch = d;
            gpu = "NVIDIA H200 (0000:00:06.0)";
            return this;
        }

        public Jitter missed(long ticks) {
            missed = ticks;
            return this;
        }

        public Jitter pinnedTo(int cpu, CpuSet hogCpus) {
            feederCpu = cpu;
            hogs = hogCpus;
            return this;
        }

        public Jitter hogs(CpuSet hogCpus) {
            hogs = hogCpus;
            return this;
        }

        public Jitter kernels(int k) {
            kernels = k;
            return this;
        }

        /** The recording's parts, each with its p99 and p99.9 in us and its missed ticks, {@code wakes / parts} wake-ups each. */
        public Jitter segments(int wakes, long[]... p99p999Missed) {
            segments = java.util.Arrays.stream(p99p999Missed).map(x -> new LaunchJitter.Segment(wakes / p99p999Missed.length, x[0] * 1000, x[1] * 1000, x[2]))
                    .toList();
            return this;
        }

        /** How long the JIT compiled during the recording, ms; null: not counted. */
        public Jitter jitInRecording(Long ms) {
            jitInRecordingMs = ms;
            return this;
        }

        public Jitter cutAtTimeBound() {
            cut = true;
            return this;
        }

        public LaunchJitter.Detail build() {
            return new LaunchJitter.Detail(launches, periodNs, gpu, feederCpu, hogs, slackNs, missed, warmupTicks, warmupMs, true, cut, late, launch,
                    gap, kernels, segments, jitInRecordingMs);
        }

        /** The result of {@code key}: median lateness in us over {@code wakes} wake-ups. */
        public Result result(String key, int wakes) {
            return ok(key, Unit.US, new Stats(late.p50() / 1e3, late.p50() / 2e3, late.max() / 1e3, wakes), build());
        }
    }

    /** A copy-on-write detail whose worker rows add up to {@code totalGrowth}. */
    public static CowDetail cow(DatasetKind kind, double growth, int workers, long dataset, long totalGrowth, Cut cut) {
        List<CowDetail.Worker> ws = new ArrayList<>();
        List<CowDetail.MemoryPoint> points = List.of(new CowDetail.MemoryPoint(0, dataset + 4096, dataset / 2, 4096, dataset),
                new CowDetail.MemoryPoint(100, dataset + 4096, dataset, dataset, 4096));
        for (int i = 0; i < workers; i++) {
            ws.add(new CowDetail.Worker(i, 1000 + i, 2_252_800, dataset + 4096, dataset + 4096, dataset, dataset, 4096, totalGrowth / workers, growth, 1,
                    i == 0 ? 1 : 0, i == 0 ? "/proc/1000/smaps_rollup: Permission denied" : null, points));
        }
        return new CowDetail(kind, dataset, CowDetail.DatasetMeasure.MAIN_USS_GROWTH, dataset + 240_216, dataset / 136, workers, 3, 1000, growth,
                totalGrowth, (workers + 1) * dataset, dataset * 11 / 10, workers + 1.0, new CowDetail.MainProcess(999, 14_610_432, 14_610_432 + dataset,
                dataset + 8192, dataset, dataset, points), ws, 32, 100, 3.82, 4096, 0, dataset + 8192, "main", "3.12.3", cut);
    }

    public static Result cowResult(DatasetKind kind, double growth, int workers, long dataset, long totalGrowth) {
        return ok("dataloader_cow_" + kind.key(), Unit.PERCENT, Stats.of(growth, growth), cow(kind, growth, workers, dataset, totalGrowth, null));
    }

    /** Fork vs spawn as the H200 machine answered it: fork refused CUDA, three spawns worked. */
    public static SpawnDetail spawn(SpawnDetail.Outcome fork) {
        return new SpawnDetail(fork, SpawnDetail.Outcome.OK, SpawnDetail.Outcome.OK,
                List.of(new SpawnDetail.SpawnTry(1, true, 3.8064, 0.1734, null), new SpawnDetail.SpawnTry(2, true, 3.2059, 0.158, null),
                        new SpawnDetail.SpawnTry(3, true, 3.679, 0.1538, null)),
                0.158, 0.1631, "NVIDIA H200", "2.11.0+cu130", "13.0");
    }

    public static final SpawnDetail.Outcome FORK_REFUSED = SpawnDetail.Outcome.failed("RuntimeError: Cannot re-initialize CUDA in forked subprocess.");

    public static Result spawnResult(SpawnDetail.Outcome fork, double... seconds) {
        return ok("fork_vs_spawn_cuda", Unit.S, Stats.of(seconds), spawn(fork));
    }

    /** Every measurement of the drill, measured on a GPU: the H200's figures of 2026-12-03, with histograms. */
    public static List<Result> measured() {
        CpuSet all = CpuSet.range(0, 15);
        Distribution late = new Distribution(Unit.NS, 20_000, 55_519, 61_791, 89_023, 1_242_111, List.of(
                new Distribution.Bucket(40_000, 50_000, 310), new Distribution.Bucket(50_000, 60_000, 19_210),
                new Distribution.Bucket(60_000, 80_000, 440), new Distribution.Bucket(80_000, 100_000, 38),
                new Distribution.Bucket(1_200_000, 1_250_000, 2)));
        Distribution timerQuiet = withHistogram(ns(54_303, 60_127, 79_103, 151_295), 20_000), timerNoisy = withHistogram(ns(54_911, 61_759, 76_031, 3_913_727), 20_000);
        return List.of(
                ok("syscall_getppid", Unit.NS, new Stats(150.8, 144.4, 156.6, 7), new SchedCosts.Syscall.Detail(11.6, 139.2, 200_000)),
                ok("context_switch_same_core", Unit.NS, new Stats(1462.8, 1302.0, 1802.9, 7), new SchedCosts.PingPong.Detail(CpuSet.of(0), 20_000)),
                ok("context_switch_cross_core", Unit.NS, new Stats(6236.5, 5763.7, 6473.7, 7), new SchedCosts.PingPong.Detail(CpuSet.of(0, 1), 20_000)),
                ok("futex_wakeup_cross_core", Unit.NS, new Stats(5341, 5152, 6464, 7), new SchedCosts.Wakeup.Detail(CpuSet.of(0, 1), 5_000)),
                ok("thread_migration", Unit.NS, new Stats(11875.4, 11338.8, 12778.4, 7), new SchedCosts.Migration.Detail(CpuSet.of(0, 1), 10_000, 0)),
                new Jitter().late(timerQuiet).missed(9).segments(20_000, new long[] {59, 78, 2}, new long[] {60, 80, 1}, new long[] {61, 79, 3},
                        new long[] {58, 77, 0}, new long[] {60, 81, 3}).result("timer_jitter_quiet", 20_000),
                new Jitter().late(timerNoisy).hogs(all).missed(38).segments(20_000, new long[] {61, 74, 9}, new long[] {62, 77, 6}, new long[] {61, 76, 8},
                        new long[] {63, 75, 7}, new long[] {62, 79, 8}).result("timer_jitter_noisy", 20_000),
                new Jitter().late(late).launch(ns(5_111, 16_959, 20_927, 52_415)).missed(27).result("launch_jitter_quiet", 20_000),
                new Jitter().late(withHistogram(ns(55_071, 56_831, 96_319, 7_081_983), 20_000)).launch(ns(4_727, 7_075, 16_183, 34_783)).hogs(all).missed(451)
                        .result("launch_jitter_noisy", 20_000),
                new Jitter().late(withHistogram(ns(54_687, 58_399, 103_103, 5_296_127), 20_000)).launch(ns(4_567, 12_775, 25_215, 123_135))
                        .pinnedTo(0, CpuSet.range(1, 15)).missed(234).result("launch_jitter_pinned", 20_000),
                new Jitter().late(withHistogram(ns(55_327, 59_871, 67_455, 545_791), 20_000)).launch(ns(2_739, 3_945, 8_027, 28_687)).kernels(10).missed(6)
                        .result("launch_jitter_graph", 20_000));
    }

    /** Every DataLoader case, measured; the list's dataset cut to fit. */
    public static List<Result> dataloader() {
        Cut cut = new Cut("--dataset-size", 1L << 40, 269_533_184, "a quarter of available memory (20.0 GiB) over the 4 workers and main");
        return List.of(
                ok("dataloader_cow_list", Unit.PERCENT, new Stats(94.1, 94.0, 94.2, 4), cow(DatasetKind.LIST, 94.1, 4, 269_533_184, 1_014_562_816, cut)),
                ok("dataloader_cow_array", Unit.PERCENT, new Stats(0.13, 0.12, 0.14, 4), cow(DatasetKind.ARRAY, 0.13, 4, 31_584_256, 167_936, cut)),
                ok("fork_vs_spawn_cuda", Unit.S, new Stats(3.679, 3.2059, 3.8064, 3), spawn(FORK_REFUSED)));
    }

    /** A whole run on the H200 recording's facts, every case measured by hand. */
    public static CpuRun full() {
        FsRoot h200 = FsRoot.open(hostside.Fixtures.h200().toString());
        var machine = MachineReader.read(h200);
        var facts = CpuFactsReader.read(h200, machine);
        List<Result> m = measured(), dl = dataloader();
        List<Finding> verdicts = new ArrayList<>(MeasuredVerdicts.of(machine.host(), m, true, null));
        verdicts.addAll(DataLoaderVerdicts.of(dl, null));
        return new CpuRun(machine.host(), facts, CpuVerdicts.of(facts), new CpuDrill.Measured(m, "GPU0: NVIDIA H200 (0000:00:06.0)", ""),
                dl, verdicts);
    }
}
