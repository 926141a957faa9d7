package hostside.cpu.dataloader;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import hostside.core.Stats;
import hostside.core.Unit;
import hostside.cpu.dataloader.ProcMemory.Sample;
import hostside.harness.Result;
import hostside.harness.TestCase;

/**
 * Module 3's DataLoader copy-on-write growth, measured: fork()ed workers go over a dataset held
 * as a Python list or as one numpy array, and each worker's USS is read from smaps_rollup before
 * and after. The figure is the growth of a worker's private memory as a percentage of the
 * dataset, over the workers.
 */
public record CowGrowth(DatasetKind kind) implements TestCase<DataLoaderTarget> {
    public CowGrowth {
        if (kind == null) throw new IllegalArgumentException("no dataset kind");
    }

    /** No established tool measures this growth: smem reads the same USS at one moment, not its growth over a run. */
    @Override
    public String anchor() {
        return null;
    }

    @Override
    public Class<CowDetail> detailType() {
        return CowDetail.class;
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

    /**
     * Only what costs nothing. Whether numpy imports, for the array, is the run's own first answer
     * (cow_workers.py's to "prepare array", in the interpreter that then builds the array): a
     * probe here cost a second interpreter and a second import of numpy.
     */
    @Override
    public Optional<String> notApplicable(DataLoaderTarget t) {
        if (!t.fs().isLive()) return Optional.of("a recorded machine: nothing is measured on a recording");
        if (!t.hasPython()) return Optional.of("no python3 on PATH");
        return Optional.empty();
    }

    /**
     * The window it records: the workers' {@code passes} passes over the dataset, each made to last
     * at least {@code passTime} (cow_workers.py sleeps out what a pass leaves), the workers side by
     * side. The script's start and the dataset's build are not counted, as a jitter run's warm-up is not: only the machine
     * tells how long a list of 256 MiB takes to build (the H100 VM's report: 3.9 s for the list
     * and 4.2 s for the array, against 3 s of passes). None where it is not run for what costs
     * nothing to see (a recording, no python3); the array's passes where numpy turns out missing,
     * which only the run can tell.
     */
    @Override
    public Optional<Duration> cost(DataLoaderTarget t) {
        if (!t.fs().isLive() || !t.hasPython()) return Optional.empty(); // not run, as notApplicable says: no time
        return Optional.of(t.passTime().multipliedBy(t.passes()));
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
        } catch (RunFailed e) {
            return e.notRun() ? Result.notRun(this, e.getMessage()) : Result.failed(this, e.getMessage());
        }
        return result(r, t);
    }

    Result result(CowRun r, DataLoaderTarget t) {
        double[] growth = new double[r.workers().size()];
        List<CowDetail.Worker> perWorker = new ArrayList<>();
        long maxRssGap = 0;
        for (int i = 0; i < growth.length; i++) {
            Series w = r.workers().get(i);
            growth[i] = r.growthPercent(w);
            Sample first = w.first().orElseThrow(), last = w.last().orElseThrow();
            perWorker.add(new CowDetail.Worker(i, w.pid(), first.uss(), last.rss(), last.vmRss(), last.pss(), last.uss(), last.shared(),
                    CowRun.growthBytes(w), round(growth[i]), w.vanishedLooks(), w.unreadableLooks(), w.unreadableLooks() > 0 ? w.problem() : null,
                    CowDetail.MemoryPoint.of(w.samples())));
            if (last.vmRss() >= 0) maxRssGap = Math.max(maxRssGap, Math.abs(last.vmRss() - last.rss()));
        }
        double mean = 0;
        for (double g : growth) mean += g / growth.length;

        Sample mainLast = r.main().last().orElse(r.mainAfterBuild());
        var main = new CowDetail.MainProcess(r.main().pid(), r.mainBeforeBuild().uss(), r.mainAfterBuild().uss(), mainLast.rss(), mainLast.pss(),
                mainLast.uss(), CowDetail.MemoryPoint.of(r.main().samples()));
        Optional<PeakRss> peak = peakRss(r);
        CowDetail d = new CowDetail(kind, r.datasetBytes(),
                r.measuredDataset() ? CowDetail.DatasetMeasure.MAIN_USS_GROWTH : CowDetail.DatasetMeasure.SCRIPT_ESTIMATE, r.estimateBytes(), r.items(),
                r.workers().size(), t.passes(), t.passTime().toMillis(), round(mean), r.workers().stream().mapToLong(CowRun::growthBytes).sum(),
                r.totalPss(), r.totalPssAtStart(), round(r.totalPss() / (double) r.datasetBytes()), main, perWorker, r.rounds(),
                CowSampler.TICK.toMillis(), round(r.seconds()), r.pageSize(), maxRssGap, peak.map(PeakRss::bytes).orElse(null),
                peak.map(PeakRss::of).orElse(null), r.pythonVersion(), null);
        return Result.ok(this, Unit.PERCENT, Stats.of(growth),
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
}
