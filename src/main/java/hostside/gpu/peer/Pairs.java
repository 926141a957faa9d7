package hostside.gpu.peer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import hostside.gpu.bench.GpuBench;
import hostside.gpu.bench.Held;
import hostside.gpu.bench.Target;
import hostside.gpu.cuda.DeviceBuffer;
import hostside.harness.Result;
import hostside.harness.Stats;
import hostside.harness.TestCase;

/**
 * What every peer test case shares: nvbandwidth's loop over ordered pairs (row, column), peer
 * access opened around each pair, and the matrix the figures go into. All on the calling thread:
 * each step makes its GPU's context current first, as nvbandwidth does.
 */
final class Pairs {
    /** nvbandwidth takes the median of 3 samples; one warm-up before them, as hostside's other copies. */
    static final int WARMUPS = 1, SAMPLES = 3, COPIES = 8;
    static final String ONE_GPU = "one GPU in this machine";
    static final String NO_PEERS = "no GPU pair can reach its peer's memory (cuDeviceCanAccessPeer is 0 for every pair): "
            + "copies between them go through host memory, as device_to_device_memcpy_staged_ce measures";

    private Pairs() {}

    /** One pair's figures, one per matrix the test case fills (medians of its samples). */
    interface Measure {
        double[] run(Target row, Target column, Held held);
    }

    /** The matrices of one run, and the pairs left out with why. */
    record Matrices(List<PeerMatrix> matrices, List<String> notMeasured) {}

    static Optional<String> needsPeers(List<Target> gpus) {
        if (gpus.size() < 2) return Optional.of(ONE_GPU);
        for (Target a : gpus) {
            for (Target b : gpus) {
                if (a != b && PeerLink.canAccess(a.bench(), b.bench())) return Optional.empty();
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
     * each matrix {@code m} fills: {rows, columns} per matrix.
     */
    static Matrices run(List<Target> gpus, boolean peer, List<String[]> names, Measure m) {
        int n = gpus.size(), k = names.size();
        Double[][][] v = new Double[k][n][n];
        List<String> notMeasured = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                if (r == c) continue;
                Target row = gpus.get(r), column = gpus.get(c);
                double[] got;
                try (Held held = new Held()) {
                    if (peer) {
                        Optional<PeerLink> link = PeerLink.open(row.bench(), column.bench());
                        if (link.isEmpty()) {
                            notMeasured.add(r + " to " + c + ": cuDeviceCanAccessPeer is 0");
                            continue;
                        }
                        held.keep(link.get());
                    } else {
                        held.keep(new NoPeerAccess(row.bench().gpu, column.bench().gpu));
                    }
                    got = m.run(row, column, held);
                }
                for (int i = 0; i < k; i++) v[i][r][c] = got[i];
            }
        }
        List<String> labels = gpus.stream().map(t -> label(t.bench())).toList();
        List<PeerMatrix> out = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            out.add(new PeerMatrix(labels, gpus.stream().map(t -> t.bench().pciAddress).toList(), names.get(i)[0], names.get(i)[1],
                    Arrays.stream(v[i]).map(row -> Arrays.asList(row.clone())).toList()));
        }
        return new Matrices(out, notMeasured);
    }

    /** A buffer on {@code b}'s GPU, in its context, filled so that reads are of written memory. */
    static DeviceBuffer alloc(Held held, GpuBench b, long bytes) {
        b.gpu.makeCurrent();
        DeviceBuffer d = held.keep(b.gpu.alloc(bytes));
        d.fill(0x5a5a5a5a);
        return d;
    }

    /** The buffer each of the two GPUs can hold {@code perGpu} times: a multiple of 1 MiB, or of 4 KiB when less. */
    static long bytes(Target a, Target b, int perGpu) {
        long x = Math.min(a.buffer(Target.DEFAULT_BUFFER), b.buffer(Target.DEFAULT_BUFFER)) / perGpu;
        return x >= 1L << 20 ? x & ~((1L << 20) - 1) : Math.max(4096, x & ~4095L);
    }

    /** The median of SAMPLES runs of {@code sample} after WARMUPS. */
    static double median(java.util.function.DoubleSupplier sample) {
        double[] s = new double[SAMPLES];
        for (int i = -WARMUPS; i < SAMPLES; i++) {
            double x = sample.getAsDouble();
            if (i >= 0) s[i] = x;
        }
        return Stats.of(s).median();
    }

    /**
     * The result of a matrix test: its value is the median over the measured pairs (each pair's
     * figure itself the median of its samples), min and max the slowest and the fastest pair; the
     * first matrix is the one summarised; for GB/s the detail adds nvbandwidth's SUM line.
     */
    static Result result(TestCase<?> t, String unit, String method, Matrices m, List<String> matrixNames, Map<String, Object> extra) {
        PeerMatrix main = m.matrices().getFirst();
        double[] pairs = main.measured();
        if (pairs.length == 0) throw new IllegalStateException("no pair of GPUs could be measured: " + String.join("; ", m.notMeasured()));
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("value", "the median over " + pairs.length + " pairs of " + matrixNames.getFirst() + "; min and max: the slowest and fastest pair");
        for (int i = 0; i < m.matrices().size(); i++) d.put(matrixNames.get(i), m.matrices().get(i));
        if (unit.equals("GB/s")) d.put("sum", main.sum());
        d.put("notMeasured", m.notMeasured());
        d.put("samplesPerPair", SAMPLES);
        d.putAll(extra);
        return Result.ok(t, unit, Stats.of(pairs), method, d);
    }
}
