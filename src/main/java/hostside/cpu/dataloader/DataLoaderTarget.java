package hostside.cpu.dataloader;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import hostside.container.AvailableMemory;
import hostside.fs.FsRoot;
import hostside.harness.Cut;
import hostside.harness.TestCase;

/**
 * What the DataLoader measurements run against: the machine (read through {@code fs}), the
 * python3 to run (null when there is none on PATH), the size of the list dataset, how many
 * fork()ed workers go over it, how many passes each makes and how long one pass lasts at least
 * (so that a 100 ms sampler sees memory move), the most any one run may take, and the python3
 * processes the cases share ({@link PythonSession}; null: each case starts and ends its own).
 */
public record DataLoaderTarget(FsRoot fs, String python, long datasetBytes, int workers, int passes, Duration passTime,
                               Duration timeout, PythonSession session) {
    public static final long DEFAULT_DATASET_BYTES = 256L << 20;
    public static final int DEFAULT_WORKERS = 4;
    public static final int DEFAULT_PASSES = 3;
    /**
     * Half a second a pass: five of the sampler's 100 ms looks each. The figure is the same as at a
     * second a pass, in 3 s less per case: four interleaved rounds on the dev VM (the report's 51 MiB
     * and 4 workers) gave the list 93.80-93.85% at 1 s and 93.82-93.83% at 0.5 s, the array
     * 0.33-0.52% and 0.26-0.39%, in 3.2-3.5 s and 1.7-1.8 s a case
     * (docs/measurements/2026-12-07-cow-pass-time-devvm.md).
     */
    public static final Duration DEFAULT_PASS_TIME = Duration.ofMillis(500);
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(120);
    /** Beyond this a run says nothing more, and each worker is a process of its own. */
    public static final int MAX_WORKERS = 64;

    public DataLoaderTarget {
        if (fs == null) throw new IllegalArgumentException("no machine to read");
        if (datasetBytes < 1) throw new IllegalArgumentException("dataset size " + datasetBytes + ": must be positive");
        if (workers < 1 || workers > MAX_WORKERS)
            throw new IllegalArgumentException("--workers " + workers + ": choose 1 to " + MAX_WORKERS);
        if (passes < 1) throw new IllegalArgumentException("passes " + passes + ": must be positive");
        if (passTime == null || passTime.isNegative()) throw new IllegalArgumentException("pass time must not be negative");
        if (timeout == null || timeout.isNegative() || timeout.isZero())
            throw new IllegalArgumentException("timeout must be positive");
    }

    public DataLoaderTarget(FsRoot fs, String python, long datasetBytes, int workers, int passes, Duration passTime, Duration timeout) {
        this(fs, python, datasetBytes, workers, passes, passTime, timeout, null);
    }

    public DataLoaderTarget(FsRoot fs, String python, long datasetBytes, int workers, Duration timeout) {
        this(fs, python, datasetBytes, workers, DEFAULT_PASSES, DEFAULT_PASS_TIME, timeout);
    }

    /**
     * This machine, with python3 from PATH (resolved past any shim, {@link Python#find()}) and the dataset cut to {@link #boundedBytes} so that
     * main and every worker holding a full copy still fit in a quarter of MemAvailable.
     */
    public static DataLoaderTarget onThisMachine(long wantedBytes, int workers, Duration timeout) {
        FsRoot fs = FsRoot.live();
        return new DataLoaderTarget(fs, Python.find().orElse(null), boundedBytes(fs, wantedBytes, workers), workers, timeout);
    }

    /**
     * {@code wanted}, but at most a quarter of available memory (MemAvailable, or less where a
     * memory cgroup leaves less: {@link AvailableMemory}) divided by
     * (workers + 1): a list dataset ends up copied once per worker besides main's own. When
     * neither can be read, at most {@link #DEFAULT_DATASET_BYTES}.
     */
    public static long boundedBytes(FsRoot fs, long wanted, int workers) {
        Long avail = AvailableMemory.read(fs).bytes();
        long cap = avail != null ? avail / 4 / (workers + 1L) : DEFAULT_DATASET_BYTES;
        return Math.max(1L << 20, Math.min(wanted, cap));
    }

    /**
     * What {@link #boundedBytes} did to {@code wanted}, where it cut it: the bound and its figures,
     * for the line and the {@code detail.cut} a result carries.
     */
    public static Optional<Cut> cut(FsRoot fs, long wanted, int workers) {
        return cut(fs, wanted, boundedBytes(fs, wanted, workers), workers);
    }

    /**
     * The same for a target already made, whose dataset is {@code used} bytes: the cut names exactly
     * what ran, though available memory may have moved since the target was made.
     */
    public static Optional<Cut> cut(FsRoot fs, long wanted, long used, int workers) {
        Long avail = AvailableMemory.read(fs).bytes();
        String why = avail == null
                ? "available memory is unknown here, so at most the default " + Cut.size(DEFAULT_DATASET_BYTES)
                : "a quarter of available memory (" + Cut.size(avail) + ") over the " + workers + " worker"
                        + (workers == 1 ? "" : "s") + " and main, each of which may end up holding a copy";
        return Cut.of("--dataset-size", wanted, used, why);
    }

    public boolean hasPython() {
        return python != null && !python.isBlank();
    }

    /** The same target with other pass settings (the tests' short runs). */
    public DataLoaderTarget withPasses(int passes, Duration passTime) {
        return new DataLoaderTarget(fs, python, datasetBytes, workers, passes, passTime, timeout, session);
    }

    public DataLoaderTarget withTimeout(Duration timeout) {
        return new DataLoaderTarget(fs, python, datasetBytes, workers, passes, passTime, timeout, session);
    }

    /** The same target, its cases sharing {@code session}'s processes (which its maker closes). */
    public DataLoaderTarget withSession(PythonSession session) {
        return new DataLoaderTarget(fs, python, datasetBytes, workers, passes, passTime, timeout, session);
    }

    /** Module 3's DataLoader measurements, in the order they run. */
    public static List<TestCase<DataLoaderTarget>> tests() {
        return List.of(new CowGrowth(DatasetKind.LIST), new CowGrowth(DatasetKind.ARRAY), new ForkVsSpawn());
    }
}
