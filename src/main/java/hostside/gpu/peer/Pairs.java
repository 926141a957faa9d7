package hostside.gpu.peer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

import hostside.gpu.bench.Copies;
import hostside.gpu.bench.GpuBench;
import hostside.gpu.bench.Held;
import hostside.gpu.bench.Target;
import hostside.gpu.cuda.DeviceBuffer;
import hostside.gpu.cuda.Stream;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.harness.Result;
import hostside.harness.Sampling;
import hostside.harness.TestCase;

/**
 * What every peer test case shares: nvbandwidth's loop over ordered pairs (row, column), peer
 * access opened around each pair, and the matrix the figures go into. All on the calling thread:
 * each step makes its GPU's context current first, as nvbandwidth does.
 */
final class Pairs {
    /**
     * nvbandwidth's defaults: the median of 3 samples (its --testSamples), each timing 16 copies
     * (its --loopCount) of one buffer (--bufferSize, 512 MiB: Target.DEFAULT_BUFFER, less where
     * memory is short); one warm-up before them, as hostside's other copies.
     */
    static final int WARMUPS = 1, SAMPLES = 3, COPIES = 16;
    static final Sampling SAMPLING = new Sampling(WARMUPS, SAMPLES);
    static final String ONE_GPU = "one GPU in this machine";
    static final String NO_PEERS = "no GPU pair can reach its peer's memory (cuDeviceCanAccessPeer is 0 for every pair): "
            + "copies between them go through host memory, as device_to_device_memcpy_staged_ce measures";

    private Pairs() {}

    /** A test case over the ordered pairs of GPUs that copies through peer access: not run where no pair has it. */
    interface NeedsPeers extends TestCase<List<Target>> {
        @Override
        default Optional<String> notApplicable(List<Target> gpus) {
            return needsPeers(gpus);
        }
    }

    /** One pair's figures, one per matrix the test case fills (each the median, min and max of its samples). */
    interface Measure {
        Stats[] run(Target row, Target column, Held held);
    }

    /** The matrices of one run, and the pairs left out with why. */
    record Matrices(List<PeerMatrix> matrices, List<NotMeasured> notMeasured) {}

    static Optional<String> needsPeers(List<Target> gpus) {
        if (gpus.size() < 2) return Optional.of(ONE_GPU);
        for (int a = 0; a < gpus.size(); a++) {
            for (int b = 0; b < gpus.size(); b++) {
                if (a == b) continue;
                GpuBench x = gpus.get(a).bench(), y = gpus.get(b).bench();
                if (x == y || PeerLink.canAccess(x, y)) return Optional.empty();
            }
        }
        return Optional.of(NO_PEERS);
    }

    static String label(GpuBench b) {
        return b.gpu.ordinal() + " " + b.name + " (" + b.pciAddress + ")";
    }

    /**
     * Runs {@code m} on every ordered pair; {@code peer} says whether the pair needs peer access
     * (opened before, closed after) or must have none. {@code names} label the rows and columns of
     * each matrix {@code m} fills: {rows, columns} per matrix. A GPU listed twice ({@link Loopback})
     * reaches its own memory without peer access, so nothing is opened or closed for it.
     */
    static Matrices run(List<Target> gpus, boolean peer, List<String[]> names, Measure m) {
        int n = gpus.size(), k = names.size();
        Double[][][] v = new Double[k][n][n], low = new Double[k][n][n], high = new Double[k][n][n];
        List<NotMeasured> notMeasured = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                if (r == c) continue;
                Target row = gpus.get(r), column = gpus.get(c);
                Stats[] got;
                try (Held held = new Held()) {
                    boolean sameGpu = row.bench() == column.bench(); // its own context maps its memory already
                    if (peer && !sameGpu) {
                        Optional<PeerLink> link = PeerLink.open(row.bench(), column.bench());
                        if (link.isEmpty()) {
                            notMeasured.add(new NotMeasured(r, c, "cuDeviceCanAccessPeer is 0"));
                            continue;
                        }
                        held.keep(link.get());
                    } else if (!sameGpu) {
                        held.keep(new NoPeerAccess(row.bench().gpu, column.bench().gpu));
                    }
                    got = m.run(row, column, held);
                }
                for (int i = 0; i < k; i++) {
                    v[i][r][c] = got[i].median();
                    low[i][r][c] = got[i].min();
                    high[i][r][c] = got[i].max();
                }
            }
        }
        List<String> labels = gpus.stream().map(t -> label(t.bench())).toList();
        List<PeerMatrix> out = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            out.add(new PeerMatrix(labels, gpus.stream().map(t -> t.bench().pciAddress).toList(), names.get(i)[0], names.get(i)[1],
                    lists(v[i]), lists(low[i]), lists(high[i])));
        }
        return new Matrices(out, notMeasured);
    }

    private static List<List<Double>> lists(Double[][] m) {
        return Arrays.stream(m).map(row -> Arrays.asList(row.clone())).toList();
    }

    /**
     * One copy of {@code bytes} between the row GPU's buffer ({@code mine}) and the column GPU's
     * ({@code theirs}), queued on a stream of the row GPU: which way, and by what, is the test
     * case's. Asked once per pair, with the row GPU's context current.
     */
    interface Copy {
        Consumer<Stream> between(GpuBench row, DeviceBuffer mine, DeviceBuffer theirs, long bytes);
    }

    /** A one-way test's matrix of GB/s, the buffer the last pair measured copied, and its copies per sample. */
    record OneWay(Matrices matrices, long bytes, int copies) {}

    /**
     * nvbandwidth's one-way copy on every ordered pair, peer access on: the row GPU, in its
     * context, copies {@link #COPIES} times per sample between its buffer and the column GPU's,
     * queued behind the spin kernel; each pair's figure the median GB/s.
     */
    static OneWay oneWay(List<Target> gpus, String[] names, Copy copy) {
        return oneWay(gpus, names, true, Target.DEFAULT_BUFFER, COPIES, copy);
    }

    /**
     * The same with peer access on or off: off, the driver stages each copy through host memory,
     * so it is timed without the spin kernel (GpuBench.unblockedMs says why); buffers of at most
     * {@code most} bytes, {@code copies} copies per sample.
     */
    static OneWay oneWay(List<Target> gpus, String[] names, boolean peer, long most, int copies, Copy copy) {
        long[] used = new long[1];
        Matrices m = run(gpus, peer, List.<String[]>of(names), (row, column, held) -> {
            long bytes = Math.min(most, bytes(row, column, 1));
            used[0] = bytes;
            GpuBench r = row.bench();
            DeviceBuffer mine = alloc(held, r, bytes), theirs = alloc(held, column.bench(), bytes);
            r.gpu.makeCurrent();
            Consumer<Stream> sample = times(copies, copy.between(r, mine, theirs, bytes));
            return new Stats[] {stats(() -> Copies.gbs(bytes * copies, peer ? r.blockedMs(r.stream, sample) : r.unblockedMs(r.stream, sample)))};
        });
        return new OneWay(m, used[0], copies);
    }

    /** {@code copy} {@code copies} times over on the stream: one sample's work. */
    static Consumer<Stream> times(int copies, Consumer<Stream> copy) {
        return st -> {
            for (int i = 0; i < copies; i++) copy.accept(st);
        };
    }

    /** A buffer on {@code b}'s GPU, in its context, filled so that reads are of written memory. */
    static DeviceBuffer alloc(Held held, GpuBench b, long bytes) {
        b.gpu.makeCurrent();
        DeviceBuffer d = held.keep(b.gpu.alloc(bytes));
        d.fill(0x5a5a5a5a);
        return d;
    }

    /**
     * The buffer each of the two GPUs can hold {@code perGpu} times: nvbandwidth's 512 MiB each
     * where the bounds allow (its bidirectional cases allocate all four buffers at full size), a
     * multiple of 1 MiB, or of 4 KiB when less.
     */
    static long bytes(Target a, Target b, int perGpu) {
        long wanted = Target.DEFAULT_BUFFER * perGpu;
        long x = Math.min(a.buffer(wanted), b.buffer(wanted)) / perGpu;
        return x >= 1L << 20 ? x & ~((1L << 20) - 1) : Math.max(4096, x & ~4095L);
    }

    /** The median, min and max of SAMPLES runs of {@code sample} after WARMUPS. */
    static Stats stats(java.util.function.DoubleSupplier sample) {
        return SAMPLING.stats(i -> sample.getAsDouble());
    }

    /**
     * What a matrix test's detail is made of: the words for what the summary is of, the matrices
     * (the summarised one first), nvbandwidth's SUM line (null but for GB/s), the pairs left out,
     * and the samples behind each pair's figure.
     */
    record Summary(String value, List<PeerMatrix> matrices, Double sum, List<NotMeasured> notMeasured, int samplesPerPair) {}

    /**
     * The result of a matrix test: its value is the median over the measured pairs (each pair's
     * figure itself the median of its samples), min and max the slowest and the fastest pair; the
     * first matrix is the one summarised, named {@code mainName} in the words; for GB/s the detail
     * holds nvbandwidth's SUM line. {@code detail} makes the case's own record of the summary.
     */
    static Result result(TestCase<?> t, Unit unit, String method, Matrices m, String mainName, Function<Summary, PeerDetail> detail) {
        PeerMatrix main = m.matrices().getFirst();
        double[] pairs = main.measured();
        if (pairs.length == 0) throw new IllegalStateException("no pair of GPUs could be measured: " + String.join("; ", m.notMeasured().stream().map(n -> n.named(List.of())).toList()));
        Summary s = new Summary("the median over " + pairs.length + " pairs of " + mainName + "; min and max: the slowest and fastest pair",
                m.matrices(), unit == Unit.GB_PER_S ? main.sum() : null, m.notMeasured(), SAMPLES);
        return Result.ok(t, unit, Stats.of(pairs), method, detail.apply(s));
    }
}
