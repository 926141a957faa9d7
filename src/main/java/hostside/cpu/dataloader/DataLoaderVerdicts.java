package hostside.cpu.dataloader;

import java.util.Locale;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import hostside.harness.Result;
import hostside.core.Units;

/**
 * What the DataLoader measurements mean for training, one line each, from the results of one
 * run; a line whose results did not run is left out.
 */
public final class DataLoaderVerdicts {
    /** A list worker that grew by at least this much of the dataset copied (nearly) all of it. */
    static final double COPIED = 50;
    /** An array worker that grew by less than this kept the dataset shared. */
    static final double SHARED = 10;

    private DataLoaderVerdicts() {}

    public static List<String> of(List<Result> results) {
        List<String> v = new ArrayList<>();
        cow(results).ifPresent(v::add);
        forkVsSpawn(results).ifPresent(v::add);
        return v;
    }

    /** The result of {@code key} that ran and holds its detail record (one read back from an old report may hold none). */
    static Optional<Result> ok(List<Result> rs, String key, Class<? extends hostside.harness.Detail> detail) {
        return rs.stream().filter(r -> r.key().equals(key) && r.isOk() && detail.isInstance(r.detail())).findFirst();
    }

    /**
     * "Python list: each worker's private memory grew by 98% of the dataset (refcount updates
     * copied every page): 4 workers x 256 MiB = 1 GiB more; a numpy array stayed shared (growth
     * 0.3%): keep datasets in numpy/torch tensors or use persistent workers with shared memory".
     */
    static Optional<String> cow(List<Result> rs) {
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
                    ? "Python list: each worker's private memory grew by " + pct(g) + " of the dataset (refcount updates copied every page): " + sizes
                    : "Python list: each worker's private memory grew by only " + pct(g) + " of the dataset here (" + sizes + ")");
        }
        if (array.isPresent()) {
            double g = array.get().value().median();
            parts.add((list.isPresent() ? "a" : "A") + (g < SHARED
                    ? " numpy array stayed shared (growth " + pct(g) + ")"
                    : " numpy array grew too (" + pct(g) + " of the dataset per worker)"));
        }
        String line = String.join("; ", parts);
        if (listCopied || array.isPresent() && array.get().value().median() < SHARED)
            line += ": keep datasets in numpy/torch tensors or use persistent workers with shared memory";
        return Optional.of(line);
    }

    /**
     * "a forked DataLoader worker cannot use CUDA: do GPU work in the main process, or use
     * multiprocessing_context='spawn'/'forkserver' (spawn costs X s per worker start)".
     */
    static Optional<String> forkVsSpawn(List<Result> rs) {
        Optional<Result> r = ok(rs, "fork_vs_spawn_cuda", SpawnDetail.class);
        if (r.isEmpty()) return Optional.empty();
        SpawnDetail d = (SpawnDetail) r.get().detail();
        String cost = "spawn costs " + String.format(Locale.ROOT, "%.1f", r.get().value().median()) + " s per worker start";
        if (d.fork().failed()) {
            return Optional.of("a forked DataLoader worker cannot use CUDA: do GPU work in the main process, or use "
                    + "multiprocessing_context='spawn'/'forkserver' (" + cost + ")");
        }
        return Optional.of("a forked worker used CUDA here without an error (unexpected: torch normally refuses); spawn works too (" + cost + ")");
    }

    /** 98% from 10 up, one decimal below (0.3%). */
    static String pct(double v) {
        return Math.abs(v) >= 10 ? String.format(Locale.ROOT, "%.0f%%", v) : String.format(Locale.ROOT, "%.1f%%", v);
    }
}
