package hostside.cpu.dataloader;

import java.util.Locale;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static hostside.core.Severity.INFO;
import static hostside.core.Severity.OK;
import static hostside.core.Severity.WARN;

import java.util.EnumSet;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.core.Source;
import hostside.core.Units;
import hostside.harness.Detail;
import hostside.harness.Result;
import hostside.process.MachineLoad;

/**
 * What the DataLoader measurements mean for training, a finding of one of {@link #RULES} each,
 * from the results of one run; a rule whose results did not run says nothing. The growth of a
 * worker's memory is no timing: a busy machine does not change it, so these are judged whatever
 * the load.
 */
public final class DataLoaderVerdicts {
    public static final Rule COW = Rule.of("M3-DATALOADER-COW", "whether forked DataLoader workers copy a dataset held in Python objects",
            EnumSet.of(OK, INFO, WARN),
            "a dataset of Python objects is copied page by page into every worker as reference counts are touched: workers x dataset of"
                    + " memory, which ends in the OOM killer on a large dataset",
            "keep datasets in numpy arrays or torch tensors (or Arrow, or files read per item), not lists and dicts of Python objects",
            Source.thread("pytorch/pytorch#13246 (DataLoader workers' memory grows with a Python list dataset: copy-on-access of refcounts)"),
            Source.document("Python/C API Reference Manual, Reference Counting (docs.python.org/3/c-api/refcounting.html): Py_INCREF writes the"
                    + " object's count, so a forked child's first touch of an object copies its page"));
    public static final Rule FORK_CUDA = Rule.of("M3-FORK-CUDA", "whether a forked worker can use CUDA, and what spawning one costs",
            EnumSet.of(INFO),
            "CUDA cannot be re-initialised in a forked child: a DataLoader worker that touches the GPU fails; spawn and forkserver workers"
                    + " start slower",
            "",
            Source.document("PyTorch documentation, Multiprocessing best practices, CUDA in multiprocessing (the fork start method is not supported)"));
    /** The DataLoader rules, as the rulebook lists them. */
    public static final java.util.List<Rule> RULES = java.util.List.of(COW, FORK_CUDA);

    /** A list worker that grew by at least this much of the dataset copied (nearly) all of it. */
    static final double COPIED = 50;
    /** An array worker that grew by less than this kept the dataset shared. */
    static final double SHARED = 10;

    private DataLoaderVerdicts() {}

    /** Every rule's finding; {@code load} as the drill began weighs on the spawn time alone (null: not read). */
    public static List<Finding> of(List<Result> results, MachineLoad load) {
        List<Finding> v = new ArrayList<>();
        cow(results).ifPresent(v::add);
        forkVsSpawn(results, load).ifPresent(v::add);
        return v;
    }

    private static Evidence evidence(Result r) {
        return Evidence.of(r.key(), r.value().median(), r.unit());
    }

    /** The result of {@code key} that ran and holds its detail record (one read back from an old report may hold none). */
    static Optional<Result> ok(List<Result> rs, String key, Class<? extends Detail> detail) {
        return rs.stream().filter(r -> r.key().equals(key) && r.isOk() && detail.isInstance(r.detail())).findFirst();
    }

    /**
     * "Python list: each worker's private memory grew by 98% of the dataset (refcount updates
     * copied every page): 4 workers x 256 MiB = 1 GiB more; a numpy array stayed shared (growth
     * 0.3%): keep datasets in numpy/torch tensors or use persistent workers with shared memory".
     */
    static Optional<Finding> cow(List<Result> rs) {
        Optional<Result> list = ok(rs, "dataloader_cow_list", CowDetail.class), array = ok(rs, "dataloader_cow_array", CowDetail.class);
        if (list.isEmpty() && array.isEmpty()) return Optional.empty();
        List<String> parts = new ArrayList<>();
        boolean listCopied = false;
        if (list.isPresent()) {
            Result r = list.get();
            double g = r.value().median();
            CowDetail d = (CowDetail) r.detail();
            int workers = d.workers();
            long dataset = d.datasetBytes();
            long total = d.totalGrowthBytes();
            listCopied = g >= COPIED;
            String sizes = workers + (workers == 1 ? " worker" : " workers") + " x " + Units.bytes(dataset) + " = " + Units.bytes(Math.max(0, total)) + " more";
            parts.add(listCopied
                    ? "Python list: each worker's private memory grew by " + Units.percent(g) + " of the dataset (refcount updates copied every page): " + sizes
                    : "Python list: each worker's private memory grew by only " + Units.percent(g) + " of the dataset here (" + sizes + ")");
        }
        if (array.isPresent()) {
            double g = array.get().value().median();
            parts.add((list.isPresent() ? "a" : "A") + (g < SHARED
                    ? " numpy array stayed shared (growth " + Units.percent(g) + ")"
                    : " numpy array grew too (" + Units.percent(g) + " of the dataset per worker)"));
        }
        String line = String.join("; ", parts);
        boolean arrayShared = array.isPresent() && array.get().value().median() < SHARED;
        if (listCopied || arrayShared) line += ": keep datasets in numpy/torch tensors or use persistent workers with shared memory";
        // a list copied is what costs memory; an array shared alone says the cure works here
        Severity s = listCopied ? WARN : arrayShared ? OK : INFO;
        return Optional.of(COW.finding(s, "DataLoader", line, java.util.stream.Stream.of(list, array).flatMap(Optional::stream).map(DataLoaderVerdicts::evidence).toList()));
    }

    /**
     * "a forked DataLoader worker cannot use CUDA: do GPU work in the main process, or use
     * multiprocessing_context='spawn'/'forkserver' (spawn costs X s per worker start)".
     */
    static Optional<Finding> forkVsSpawn(List<Result> rs, MachineLoad load) {
        Optional<Result> r = ok(rs, "fork_vs_spawn_cuda", SpawnDetail.class);
        if (r.isEmpty()) return Optional.empty();
        SpawnDetail d = (SpawnDetail) r.get().detail();
        String cost = "spawn costs " + String.format(Locale.ROOT, "%.1f", r.get().value().median()) + " s per worker start";
        List<Evidence> e = List.of(evidence(r.get()));
        if (load != null && load.busy()) cost += ", measured while the machine was busy (" + String.join(", ", load.reasons()) + ")";
        if (d.fork().failed()) {
            return Optional.of(FORK_CUDA.finding(INFO, "DataLoader", "a forked DataLoader worker cannot use CUDA: do GPU work in the main process, or use "
                    + "multiprocessing_context='spawn'/'forkserver' (" + cost + ")", e));
        }
        return Optional.of(FORK_CUDA.finding(INFO, "DataLoader",
                "a forked worker used CUDA here without an error (unexpected: torch normally refuses); spawn works too (" + cost + ")", e));
    }

}
