package hostside.machine;

import java.util.ArrayList;
import java.util.List;

import hostside.core.CpuSet;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.bench.AllGpus;
import hostside.gpu.bench.Copies;
import hostside.gpu.bench.LaunchCost;
import hostside.gpu.bench.NodeCopies;
import hostside.gpu.bench.PinCost;
import hostside.gpu.bench.SmAccess;
import hostside.gpu.bench.Sweep;
import hostside.gpu.peer.NotMeasured;
import hostside.gpu.peer.PeerCe;
import hostside.gpu.peer.PeerDetail;
import hostside.gpu.peer.PeerMatrix;
import hostside.gpu.peer.PeerSm;
import hostside.harness.Detail;
import hostside.harness.Result;
import hostside.harness.TestCase;

/**
 * Measured results built by hand, each with the detail record its case keeps, as the drill makes
 * them: the H200's one GPU with every per-GPU case (figures from its report of 2026-12-03), and
 * the all-GPU cases on two bridged RTX 3090s. What the views, the document and the read-back
 * tests draw on.
 */
public final class GpuResults {
    private GpuResults() {}

    public static final String H200 = "0000:00:06.0";
    static final String H200_GPU = "NVIDIA H200 (" + H200 + ")";
    static final long MIB = 1L << 20;

    /** A figure of five samples with a spread of 1% either side. */
    public static Stats around(double median) {
        return new Stats(median, median * 0.99, median * 1.01, 5);
    }

    public static Result ok(TestCase<?> t, Unit unit, Stats value, Detail detail) {
        return Result.ok(t, unit, value, "nvbandwidth's", detail);
    }

    /** A result without a detail (a verdict's input). */
    public static Result ok(TestCase<?> t, Unit unit, Stats value) {
        return Result.ok(t, unit, value, "nvbandwidth's", (Detail) null);
    }

    public static Result copy(TestCase<?> t, double gbs) {
        return ok(t, Unit.GB_PER_S, around(gbs), new Copies.CopyDetail(H200_GPU, 512 * MIB, 8));
    }

    /** The pinned sweep as the H200 measured it, 4 KiB to 1 GiB. */
    public static Result sweep(boolean pinned) {
        double[] gbs = pinned ? new double[] {1.60, 5.84, 17.55, 35.69, 47.97, 53.27, 54.41, 55.06, 55.37, 55.29}
                : new double[] {0.61, 2.05, 6.21, 10.87, 14.02, 11.93, 9.40, 7.75, 6.92, 6.60};
        List<Sweep.Point> points = new ArrayList<>();
        for (int i = 0; i < gbs.length; i++) {
            long bytes = 4096L << (2 * i);
            points.add(new Sweep.Point(bytes, (int) Math.max(2, Math.min(pinned ? 256 : 64, (64L << 20) / bytes)),
                    new Stats(gbs[i], gbs[i] * 0.98, gbs[i] * 1.01, 3)));
        }
        Sweep.SweepDetail d = Sweep.SweepDetail.of(H200_GPU, points);
        Stats peak = points.stream().filter(p -> p.bytes() == d.peakAtBytes()).findFirst().orElseThrow().gbs();
        return Result.ok(new Sweep(pinned), Unit.GB_PER_S, peak, "at each size", d);
    }

    /**
     * Every per-GPU case of the drill: what a whole run of `hostside machine` gives on the H200. Measured
     * there, but for the two newest cases (launch cost by core kind, copies by node), marked below.
     */
    public static List<Result> h200() {
        return List.of(copy(new Copies.CePinned(true), 55.46), copy(new Copies.CePinned(false), 55.31),
                ok(new Copies.CeBidirectional(), Unit.GB_PER_S, around(51.35), new Copies.BidirectionalDetail(H200_GPU, 512 * MIB, 8, around(50.86))),
                copy(new Copies.CePageable(true), 6.52), copy(new Copies.CePageable(false), 12.84), copy(new Copies.DeviceLocal(), 1812.4),
                ok(new PinCost(false), Unit.MS_PER_GIB, around(563.2), new PinCost.PinDetail(H200_GPU, 1L << 30)),
                ok(new PinCost(true), Unit.MS_PER_GIB, around(131.7), new PinCost.PinDetail(H200_GPU, 1L << 30)),
                sweep(true), sweep(false),
                ok(new SmAccess.SmCopy(true), Unit.GB_PER_S, around(51.12), new SmAccess.SmCopyDetail(H200_GPU, 512 * MIB, 8, "528 blocks x 512 threads, 16 bytes per thread per step")),
                ok(new SmAccess.SmCopy(false), Unit.GB_PER_S, around(53.08), new SmAccess.SmCopyDetail(H200_GPU, 512 * MIB, 8, "528 blocks x 512 threads, 16 bytes per thread per step")),
                ok(new SmAccess.Latency(), Unit.NS, around(1205.3), new SmAccess.LatencyDetail(H200_GPU, "16384 pointers 64 bytes apart, random order", 20_000)),
                // measured on the H200 VM on 2026-12-05 (docs/measurements/2026-12-05-memory-vs-stream-h200.md)
                launchCost(core(LaunchCost.UNIFORM, 1, 4156.8, 2141.4)),
                byNode(null, new NodeCopies.Row(0, CpuSet.range(0, 15), around(53.52), around(55.32), around(8.44), around(16.11), "", 1.0)));
    }

    /** The copies from each node: the case's figure is the slowest node's share of the own node's (of the fastest's without one). */
    public static Result byNode(Integer ownNode, NodeCopies.Row... rows) {
        NodeCopies.NodeDetail d = new NodeCopies.NodeDetail(H200_GPU, 512 * MIB, 256 * MIB, ownNode, List.of(rows));
        double share = d.share();
        return ok(new NodeCopies(), Unit.PERCENT, new Stats(share, share, share, 5), d);
    }

    /** The launch costs from each kind of core: the case's figure is the first core's launch. */
    public static Result launchCost(LaunchCost.Row... rows) {
        LaunchCost.LaunchDetail d = new LaunchCost.LaunchDetail(H200_GPU, LaunchCost.CALLS, LaunchCost.BATCH, LaunchCost.COPY_BYTES, List.of(rows));
        return Result.ok(new LaunchCost(), Unit.NS, rows[0].launchNs(), "the host time of one kernel launch", d);
    }

    /** A core's row, ns per launch and per copy submission, each with a spread of 1% either side. */
    public static LaunchCost.Row core(String kind, int cpu, double launchNs, double submitNs) {
        return new LaunchCost.Row(kind, cpu, around(launchNs), around(submitNs));
    }

    /** A node's row with a spread of 1% either side on each copy, pageable copies a tenth of pinned ones. */
    public static NodeCopies.Row node(int node, CpuSet cpus, double h2dPinned) {
        return new NodeCopies.Row(node, cpus, around(h2dPinned), around(h2dPinned), around(h2dPinned / 10), around(h2dPinned / 5), "", 1.0);
    }

    /** Two RTX 3090s with an NVLink bridge (NvlinkBoxes.twoBridgedPci): GPU0 at 0000:01:00.0, GPU1 at 0000:2d:00.0. */
    public static final List<String> TWO = List.of("0000:01:00.0", "0000:2d:00.0");

    /** A matrix as the peer cases build it: labels "ordinal name (address)", null on the diagonal, each pair's spread 0.1 either side. */
    public static PeerMatrix matrix(List<String> addresses, String rows, String columns, Double[]... values) {
        List<String> gpus = new ArrayList<>();
        for (int i = 0; i < addresses.size(); i++) gpus.add(i + " NVIDIA GeForce RTX 3090 (" + addresses.get(i) + ")");
        List<List<Double>> v = new ArrayList<>(), lo = new ArrayList<>(), hi = new ArrayList<>();
        for (Double[] row : values) {
            v.add(java.util.Arrays.asList(row));
            lo.add(java.util.Arrays.stream(row).map(x -> x == null ? null : x - 0.1).collect(java.util.stream.Collectors.toList()));
            hi.add(java.util.Arrays.stream(row).map(x -> x == null ? null : x + 0.1).collect(java.util.stream.Collectors.toList()));
        }
        return new PeerMatrix(gpus, addresses, rows, columns, v, lo, hi);
    }

    static String value(PeerMatrix m, String name) {
        return "the median over " + m.measured().length + " pairs of " + name + "; min and max: the slowest and fastest pair";
    }

    /** A one-way peer copy's result over {@code m}: its summary the median over the pairs, its SUM line. */
    public static Result oneWay(TestCase<?> t, PeerMatrix m, List<NotMeasured> notMeasured) {
        return Result.ok(t, Unit.GB_PER_S, Stats.of(m.measured()), "nvbandwidth's",
                new PeerDetail.OneWay(value(m, "matrix"), m, m.sum(), notMeasured, 3, 512 * MIB, 16));
    }

    /** Each GPU's copy while all copy, and their sum. */
    public static Result allGpus(boolean toDevice, List<AllGpus.PerGpu> each) {
        double median = 0, min = 0, max = 0;
        for (AllGpus.PerGpu g : each) {
            median += g.gbs().median();
            min += g.gbs().min();
            max += g.gbs().max();
        }
        return Result.ok(new AllGpus(toDevice), Unit.GB_PER_S, new Stats(median, min, max, each.getFirst().gbs().samples()), "nvbandwidth's",
                new AllGpus.AllGpusDetail(each, 512 * MIB, 1024 * MIB, 8));
    }

    /** The all-GPU cases on the two RTX 3090s: host to all, the read copy, the bidirectional write, latency, a failed staged copy. */
    public static List<Result> twoGpus() {
        Result host = allGpus(true, List.of(new AllGpus.PerGpu("NVIDIA GeForce RTX 3090", TWO.get(0), new Stats(12.31, 12.2, 12.4, 3)),
                new AllGpus.PerGpu("NVIDIA GeForce RTX 3090", TWO.get(1), new Stats(11.87, 11.8, 11.9, 3))));
        PeerMatrix read = matrix(TWO, "the GPU that issues the copy in its context and receives the data (it reads)", "the GPU read from",
                new Double[] {null, 48.31}, new Double[] {47.92, null});
        PeerMatrix total = matrix(TWO, "both directions at once, added", "the other GPU of the pair", new Double[] {null, 96.42}, new Double[] {96.15, null});
        PeerMatrix write1 = matrix(TWO, "the GPU data flows into (write1)", "the GPU it comes from", new Double[] {null, 48.2}, new Double[] {48.07, null});
        PeerMatrix write2 = matrix(TWO, "the GPU data flows out of (write2)", "the GPU it goes to", new Double[] {null, 48.22}, new Double[] {48.08, null});
        PeerMatrix latency = matrix(TWO, "the GPU whose thread loads", "the GPU whose memory holds the chain", new Double[] {null, 1321.7}, new Double[] {1318.2, null});
        return List.of(host, oneWay(new PeerCe.Unidirectional(true), read, List.of()),
                Result.ok(new PeerCe.Bidirectional(false), Unit.GB_PER_S, Stats.of(total.measured()), "nvbandwidth's",
                        new PeerDetail.BidirectionalWrite(value(total, "total"), total, write1, write2, total.sum(), List.of(), 3, 256 * MIB, 16)),
                Result.ok(new PeerSm.Latency(), Unit.NS, Stats.of(latency.measured()), "pointer chase",
                        new PeerDetail.Latency(value(latency, "matrix"), latency, List.of(), 3, 64 * MIB, 64, 50_000)),
                Result.failed(new PeerCe.Staged(), "cuMemcpyAsync: CUDA_ERROR_OUT_OF_MEMORY (2)"));
    }
}
