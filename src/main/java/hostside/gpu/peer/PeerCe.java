package hostside.gpu.peer;

import java.util.List;
import java.util.Optional;

import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.bench.Copies;
import hostside.gpu.bench.GpuBench;
import hostside.gpu.bench.Target;
import hostside.gpu.cuda.DeviceBuffer;
import hostside.harness.Result;
import hostside.harness.TestCase;

/**
 * Copies between two GPUs by copy engine (cuMemcpyAsync), as nvbandwidth's testcases_ce.cpp
 * defines them. A copy runs on a stream of the GPU whose context issues it, and that GPU's copy
 * engine does the work: a read pulls the other GPU's memory into its own, a write pushes its own
 * memory into the other's. nvbandwidth's matrices put the issuing GPU in the row in both.
 */
public final class PeerCe {
    private PeerCe() {}

    static final String[] READ = {"the GPU that issues the copy in its context and receives the data (it reads)", "the GPU read from"};
    static final String[] WRITE = {"the GPU that issues the copy in its context and sends the data (it writes)", "the GPU written to"};

    /** The detail of a one-way copy: its matrix and what it copied. */
    static java.util.function.Function<Pairs.Summary, PeerDetail> oneWay(Pairs.OneWay o) {
        return s -> new PeerDetail.OneWay(s.value(), s.matrices().getFirst(), s.sum(), s.notMeasured(), s.samplesPerPair(), o.bytes(), o.copies());
    }

    /**
     * device_to_device_memcpy_read_ce and _write_ce: one pair at a time, nothing else moving;
     * peer access enabled both ways where cuDeviceCanAccessPeer(row, column) allows, pairs that do
     * not are left out (null), as nvbandwidth leaves them.
     */
    public record Unidirectional(boolean read) implements Pairs.NeedsPeers {
        public String key() {
            return read ? "device_to_device_memcpy_read_ce" : "device_to_device_memcpy_write_ce";
        }

        public String description() {
            return read ? "each GPU pulls another's memory into its own through its copy engine (peer access on)"
                    : "each GPU pushes its memory into another's through its copy engine (peer access on)";
        }

        @Override
        public String anchor() {
            return "nvbandwidth " + key();
        }

        @Override
        public Class<PeerDetail.OneWay> detailType() {
            return PeerDetail.OneWay.class;
        }

        public Result run(List<Target> gpus) {
            Pairs.OneWay o = Pairs.oneWay(gpus, read ? READ : WRITE,
                    (r, mine, theirs, bytes) -> read ? st -> st.copy(mine, theirs, bytes) : st -> st.copy(theirs, mine, bytes));
            return Pairs.result(this, Unit.GB_PER_S, "nvbandwidth's: cuMemcpyAsync in the row GPU's context, queued behind a spin kernel, timed with CUDA events",
                    o.matrices(), "matrix", oneWay(o));
        }
    }

    /**
     * device_to_device_bidirectional_memcpy_read_ce and _write_ce: both directions of a pair at
     * once, each on a stream of its own GPU, released together. Read: each GPU pulls from the
     * other (the copy in the receiver's context); write: each pushes to the other (in the
     * sender's). Like nvbandwidth's newer versions, three matrices: the direction into the row GPU
     * (read1, or write1: the column GPU writing into the row's memory), the direction into the
     * column GPU (read2, write2), and their sum (total), which the value summarises.
     */
    public record Bidirectional(boolean read) implements Pairs.NeedsPeers {
        public String key() {
            return read ? "device_to_device_bidirectional_memcpy_read_ce" : "device_to_device_bidirectional_memcpy_write_ce";
        }

        public String description() {
            return read ? "two GPUs pull from each other at once through their copy engines (figure: both directions added)"
                    : "two GPUs push to each other at once through their copy engines (figure: both directions added)";
        }

        @Override
        public String anchor() {
            return "nvbandwidth " + key();
        }

        @Override
        public Class<? extends PeerDetail> detailType() {
            return read ? PeerDetail.BidirectionalRead.class : PeerDetail.BidirectionalWrite.class;
        }

        public Result run(List<Target> gpus) {
            String one = read ? "read1" : "write1", two = read ? "read2" : "write2";
            List<String[]> names = List.of(
                    new String[] {"both directions at once, added", "the other GPU of the pair"},
                    new String[] {"the GPU data flows into (" + one + ")", "the GPU it comes from"},
                    new String[] {"the GPU data flows out of (" + two + ")", "the GPU it goes to"});
            long[] used = new long[1];
            Pairs.Matrices m = Pairs.run(gpus, true, names, (row, column, held) -> {
                long bytes = Pairs.bytes(row, column, 2);
                used[0] = bytes;
                GpuBench r = row.bench(), c = column.bench();
                DeviceBuffer row1 = Pairs.alloc(held, r, bytes), row2 = Pairs.alloc(held, r, bytes);
                DeviceBuffer col1 = Pairs.alloc(held, c, bytes), col2 = Pairs.alloc(held, c, bytes);
                // lane 1 moves column -> row, lane 2 row -> column; read issues each in the receiver's context, write in the sender's
                GpuBench.Lane intoRow = new GpuBench.Lane(read ? r : c, Pairs.times(Pairs.COPIES, st -> st.copy(row1, col1, bytes)));
                GpuBench.Lane intoColumn = new GpuBench.Lane(read ? c : r, Pairs.times(Pairs.COPIES, st -> st.copy(col2, row2, bytes)));
                // each sample: the milliseconds of the two lanes, run together
                List<double[]> ms = Pairs.SAMPLING.each(i -> GpuBench.blockedTogether(List.of(intoRow, intoColumn)));
                double[] a = ms.stream().mapToDouble(x -> Copies.gbs(bytes * Pairs.COPIES, x[0])).toArray();
                double[] b = ms.stream().mapToDouble(x -> Copies.gbs(bytes * Pairs.COPIES, x[1])).toArray();
                Stats sa = Stats.of(a), sb = Stats.of(b);
                // the total as nvbandwidth gives it, the two medians added; its spread, the samples' sums
                double[] both = new double[a.length];
                for (int i = 0; i < a.length; i++) both[i] = a[i] + b[i];
                Stats sums = Stats.of(both);
                double total = sa.median() + sb.median();
                return new Stats[] {new Stats(total, Math.min(total, sums.min()), Math.max(total, sums.max()), sums.samples()), sa, sb};
            });
            return Pairs.result(this, Unit.GB_PER_S, "nvbandwidth's: two streams, one per GPU, each behind a spin kernel on one host word, released together; CUDA events",
                    m, "total", s -> read
                            ? new PeerDetail.BidirectionalRead(s.value(), s.matrices().get(0), s.matrices().get(1), s.matrices().get(2), s.sum(),
                            s.notMeasured(), s.samplesPerPair(), used[0], Pairs.COPIES)
                            : new PeerDetail.BidirectionalWrite(s.value(), s.matrices().get(0), s.matrices().get(1), s.matrices().get(2), s.sum(),
                            s.notMeasured(), s.samplesPerPair(), used[0], Pairs.COPIES));
        }
    }

    /**
     * device_to_device_memcpy_staged_ce (not nvbandwidth's; it skips pairs without peer access):
     * the same copy as the write test with peer access off both ways, so the driver stages it
     * through pinned host memory, two copies over PCIe and the CPU's memory in between. What
     * copies between GPUs cost where peer access is impossible (many VMs and consumer GPUs) or
     * off. Timed with CUDA events but without the spin kernel (GpuBench.unblockedMs says why).
     */
    public record Staged() implements TestCase<List<Target>> {
        /** Fewer than nvbandwidth's --loopCount (Pairs.COPIES): a staged copy runs at host speed. */
        static final int COPIES = 4;

        public String key() {
            return "device_to_device_memcpy_staged_ce";
        }

        public String description() {
            return "one GPU's memory into another's with peer access off: the driver stages it through host memory";
        }

        @Override
        public Class<PeerDetail.OneWay> detailType() {
            return PeerDetail.OneWay.class;
        }

        @Override
        public Optional<String> notApplicable(List<Target> gpus) {
            return gpus.size() < 2 ? Optional.of(Pairs.ONE_GPU) : Optional.empty();
        }

        public Result run(List<Target> gpus) {
            // a staged copy runs at host speed: buffers of at most 256 MiB
            Pairs.OneWay o = Pairs.oneWay(gpus, WRITE, false, 256L << 20, COPIES,
                    (r, mine, theirs, bytes) -> st -> st.copy(theirs, mine, bytes));
            return Pairs.result(this, Unit.GB_PER_S, "cuMemcpyAsync in the row GPU's context with peer access off, timed with CUDA events (no spin kernel)",
                    o.matrices(), "matrix", oneWay(o));
        }
    }
}
