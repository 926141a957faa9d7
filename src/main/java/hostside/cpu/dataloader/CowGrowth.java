package hostside.cpu.dataloader;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import hostside.cpu.dataloader.ProcMemory.Sample;
import hostside.harness.Result;
import hostside.core.Stats;
import hostside.harness.TestCase;

/**
 * Module 3's DataLoader copy-on-write growth, measured: fork()ed workers go over a dataset held
 * as a Python list or as one numpy array, and each worker's USS is read from smaps_rollup before
 * and after. The figure is the growth of a worker's private memory as a percentage of the
 * dataset, over the workers.
 */
public record CowGrowth(DatasetKind kind) implements TestCase<DataLoaderTarget> {
    /** How long the numpy probe may take (a cold import on a slow disk). */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);
    /** VmRSS and Rss are "the same" within this many base pages (VmRSS's per-CPU counters lag a little). */
    static final int RSS_AGREE_PAGES = 16;

    public CowGrowth {
        if (kind == null) throw new IllegalArgumentException("no dataset kind");
    }

    @Override
    public String key() {
        return "dataloader_cow_" + kind.key();
    }

    @Override
    public String description() {
        return kind == DatasetKind.LIST
                ? "fork()ed DataLoader workers reading a Python list: each worker's USS growth, % of the dataset"
                : "fork()ed DataLoader workers reading one numpy array: each worker's USS growth, % of the dataset";
    }

    @Override
    public Optional<String> notApplicable(DataLoaderTarget t) {
        if (!t.fs().isLive()) return Optional.of("a recorded machine: nothing is measured on a recording");
        if (!t.hasPython()) return Optional.of("no python3 on PATH");
        if (kind == DatasetKind.ARRAY) {
            try {
                return Python.numpyMissing(t.python(), PROBE_TIMEOUT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.of("interrupted while looking for numpy");
            }
        }
        return Optional.empty();
    }

    @Override
    public Result run(DataLoaderTarget t) {
        if (Thread.currentThread().isInterrupted()) return Result.failed(this, "interrupted");
        CowRun r;
        try {
            r = CowSampler.run(t, kind);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Result.failed(this, "interrupted (the script and its workers were killed)");
        } catch (CowSampler.RunFailed e) {
            return Result.failed(this, e.getMessage());
        }
        return result(r, t);
    }

    Result result(CowRun r, DataLoaderTarget t) {
        double[] growth = new double[r.workers().size()];
        List<Map<String, Object>> perWorker = new ArrayList<>();
        long maxRssGap = 0;
        for (int i = 0; i < growth.length; i++) {
            Series w = r.workers().get(i);
            growth[i] = r.growthPercent(w);
            Sample first = w.first().orElseThrow(), last = w.last().orElseThrow();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("worker", i);
            m.put("pid", w.pid());
            m.put("startUssBytes", first.uss());
            m.put("finalRssBytes", last.rss());
            m.put("finalVmRssBytes", last.vmRss());
            m.put("finalPssBytes", last.pss());
            m.put("finalUssBytes", last.uss());
            m.put("finalSharedBytes", last.shared());
            m.put("growthBytes", CowRun.growthBytes(w));
            m.put("growthPercent", round(growth[i]));
            m.put("vanishedLooks", w.vanishedLooks());
            if (w.unreadableLooks() > 0) m.put("unreadable", w.unreadableLooks() + " looks: " + w.problem());
            m.put("samples", w.samples().stream().map(Sample::toMap).toList());
            perWorker.add(m);
            if (last.vmRss() >= 0) maxRssGap = Math.max(maxRssGap, Math.abs(last.vmRss() - last.rss()));
        }
        double mean = 0;
        for (double g : growth) mean += g / growth.length;

        Map<String, Object> d = new LinkedHashMap<>();
        d.put("data", kind.key());
        d.put("datasetBytes", r.datasetBytes());
        d.put("datasetMeasuredBy", r.measuredDataset() ? "main's USS growth while it built the dataset" : "the script's estimate (getsizeof)");
        d.put("datasetEstimateBytes", r.estimateBytes());
        d.put("items", r.items());
        d.put("workers", r.workers().size());
        d.put("passes", t.passes());
        d.put("passMs", t.passTime().toMillis());
        d.put("meanGrowthPercent", round(mean));
        d.put("totalGrowthBytes", r.workers().stream().mapToLong(CowRun::growthBytes).sum());
        d.put("totalPssBytes", r.totalPss());
        d.put("totalPssAtStartBytes", r.totalPssAtStart());
        d.put("totalPssPerDataset", round(r.totalPss() / (double) r.datasetBytes()));
        Sample mainLast = r.main().last().orElse(r.mainAfterBuild());
        d.put("main", mapOf("pid", r.main().pid(), "beforeBuildUssBytes", r.mainBeforeBuild().uss(), "afterBuildUssBytes", r.mainAfterBuild().uss(),
                "finalRssBytes", mainLast.rss(), "finalPssBytes", mainLast.pss(), "finalUssBytes", mainLast.uss(),
                "samples", r.main().samples().stream().map(Sample::toMap).toList()));
        d.put("perWorker", perWorker);
        d.put("rounds", r.rounds());
        d.put("sampleIntervalMs", CowSampler.TICK.toMillis());
        d.put("seconds", round(r.seconds()));
        d.put("pageSize", r.pageSize());
        d.put("rssCheck", maxRssGap <= RSS_AGREE_PAGES * r.pageSize()
                ? "VmRSS (/proc/PID/status) and Rss (smaps_rollup) agree within " + maxRssGap / 1024 + " KiB for every worker"
                : "VmRSS and Rss differ by up to " + maxRssGap / 1024 + " KiB (more than " + RSS_AGREE_PAGES + " pages)");
        d.put("rssCheckMaxGapBytes", maxRssGap);
        peakRss(r).ifPresent(peak -> {
            d.put("peakRssBytes", peak.bytes());
            d.put("peakRssOf", peak.of());
        });
        d.put("python", r.pythonVersion());
        return Result.ok(this, hostside.core.Unit.PERCENT, Stats.of(growth),
                "python3 cow_workers.py: " + r.items() + " items as a " + kind.label() + ", " + r.workers().size()
                        + " workers started with os.fork() each reading every item " + t.passes()
                        + " times; /proc/PID/smaps_rollup every " + CowSampler.TICK.toMillis()
                        + " ms (USS = Private_Clean + Private_Dirty); growth = a worker's USS after its last pass minus before its first, % of the dataset's own USS in main",
                d);
    }

    /** The largest VmHWM of main and the workers, and whose it is. */
    record PeakRss(long bytes, String of) {}

    /**
     * The run's peak RSS as /usr/bin/time -v reports it ("Maximum resident set size"): wait4's
     * ru_maxrss is the largest peak of the process and its waited-for children, each peak the
     * kernel's VmHWM, read here from each process's last sample.
     */
    static java.util.Optional<PeakRss> peakRss(CowRun r) {
        PeakRss best = null;
        long mainPeak = r.main().last().map(Sample::vmHwm).orElse(-1L);
        if (mainPeak > 0) best = new PeakRss(mainPeak, "main");
        for (int i = 0; i < r.workers().size(); i++) {
            long w = r.workers().get(i).last().map(Sample::vmHwm).orElse(-1L);
            if (w > 0 && (best == null || w > best.bytes())) best = new PeakRss(w, "worker " + i);
        }
        return java.util.Optional.ofNullable(best);
    }

    static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    static Map<String, Object> mapOf(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }
}
