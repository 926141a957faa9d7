package hostside.cpu.dataloader;

import java.util.List;

import hostside.cpu.dataloader.ProcMemory.Sample;

/**
 * One measured run of cow_workers.py: the dataset, main's memory before and after building it,
 * and every process's samples from the moment the workers were ready (t = 0) to after their last
 * pass.
 *
 * @param items            items in the dataset (the array holds as many rows as the list holds tuples)
 * @param datasetBytes     what the dataset really takes: main's USS growth while building it, or
 *                         the script's own estimate when that growth could not be measured
 * @param estimateBytes    the script's estimate (getsizeof, pymalloc-rounded; nbytes for the array)
 * @param measuredDataset  true when {@code datasetBytes} is the measured growth
 * @param rounds           sampling rounds while the workers ran, the first and last included
 */
public record CowRun(DatasetKind kind, long items, long datasetBytes, long estimateBytes, boolean measuredDataset,
                     Sample mainBeforeBuild, Sample mainAfterBuild, Series main, List<Series> workers, int rounds,
                     double seconds, String pythonVersion, long pageSize) {

    /** A worker's USS after its last pass minus just before its first. */
    public static long growthBytes(Series w) {
        return w.last().orElseThrow().uss() - w.first().orElseThrow().uss();
    }

    public double growthPercent(Series w) {
        return 100.0 * growthBytes(w) / datasetBytes;
    }

    /** PSS of main and every worker at the end: what the run really holds, each shared page counted once. */
    public long totalPss() {
        long s = main.last().map(Sample::pss).orElse(0L);
        for (Series w : workers) s += w.last().map(Sample::pss).orElse(0L);
        return s;
    }

    /** The same at t = 0, after fork and before the first pass. */
    public long totalPssAtStart() {
        long s = main.first().map(Sample::pss).orElse(0L);
        for (Series w : workers) s += w.first().map(Sample::pss).orElse(0L);
        return s;
    }
}
