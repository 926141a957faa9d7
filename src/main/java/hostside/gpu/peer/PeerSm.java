package hostside.gpu.peer;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.util.List;

import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.bench.GpuBench;
import hostside.gpu.bench.SmAccess;
import hostside.gpu.bench.Target;
import hostside.gpu.cuda.DeviceBuffer;
import hostside.gpu.cuda.HostBuffer;
import hostside.harness.Result;

/**
 * Copies between two GPUs by SMs, and the latency of one load across the link, as nvbandwidth's
 * testcases_sm.cpp defines them: the kernel runs on the row GPU, reading the column GPU's memory
 * into its own (read) or writing its own into the column GPU's (write), through the peer mapping.
 */
public final class PeerSm {
    private PeerSm() {}

    /**
     * device_to_device_memcpy_read_sm and _write_sm: hostside's copy kernel (16 bytes per thread
     * per step, 4 blocks of 512 threads per SM, grid-stride) on the row GPU, as SmAccess copies
     * to and from the host; nvbandwidth's own kernel unrolls 12 loads per thread, so its figures
     * can be a little higher.
     */
    public record SmCopy(boolean read) implements Pairs.NeedsPeers {
        public String key() {
            return read ? "device_to_device_memcpy_read_sm" : "device_to_device_memcpy_write_sm";
        }

        public String description() {
            return read ? "each GPU's SMs read another GPU's memory into their own (peer access on)"
                    : "each GPU's SMs write their memory into another GPU's (peer access on)";
        }

        @Override
        public String anchor() {
            return "nvbandwidth " + key();
        }

        @Override
        public Class<PeerDetail.SmCopy> detailType() {
            return PeerDetail.SmCopy.class;
        }

        public Result run(List<Target> gpus) {
            String[] names = read ? new String[] {"the GPU whose SMs read and receive the data", "the GPU read from"}
                    : new String[] {"the GPU whose SMs write its data", "the GPU written to"};
            Pairs.OneWay o = Pairs.oneWay(gpus, names, (r, mine, theirs, bytes) -> {
                int blocks = r.cuda.attribute(r.gpu.device(), SmAccess.ATTR_SM_COUNT).orElse(1) * SmAccess.BLOCKS_PER_SM;
                long dst = read ? mine.address() : theirs.address(), src = read ? theirs.address() : mine.address();
                return st -> r.copy.launch(st, blocks, SmAccess.THREADS, dst, src, bytes / 16);
            });
            return Pairs.result(this, Unit.GB_PER_S, "copy kernel on the row GPU behind a spin kernel, timed with CUDA events (nvbandwidth's)",
                    o.matrices(), "matrix", s -> new PeerDetail.SmCopy(s.value(), s.matrices().getFirst(), s.sum(), s.notMeasured(), s.samplesPerPair(),
                            o.bytes(), o.copies(), SmAccess.BLOCKS_PER_SM + " blocks per SM x " + SmAccess.THREADS + " threads, 16 bytes per thread per step"));
        }
    }

    /**
     * device_to_device_latency_sm: one thread of the row GPU follows a chain of pointers that
     * lies in the column GPU's memory, so each step is one load across the link and back. Like
     * host_device_latency_sm: the chain is a random cycle (no prefetcher guesses the next line)
     * and the kernel reads the GPU's global timer around its steps. nvbandwidth walks its whole
     * buffer in 128-byte strides and times 1M loads with events; here 64 MiB of 64-byte slots,
     * pushed out of the owner's L2 once written ({@link #evictL2}), and each sample walks on from
     * where the last stopped, so no slot is loaded twice and every load goes to memory.
     */
    public record Latency() implements Pairs.NeedsPeers {
        static final int STRIDE = 64, MAX_SLOTS = 1 << 20, STEPS = 50_000;
        /** CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, in bytes. */
        static final int ATTR_L2_CACHE_SIZE = 38;

        public String key() {
            return "device_to_device_latency_sm";
        }

        public String description() {
            return "one thread of a GPU follows pointers through another GPU's memory: the round trip of a load over the link";
        }

        @Override
        public String anchor() {
            return "nvbandwidth " + key();
        }

        @Override
        public Class<PeerDetail.Latency> detailType() {
            return PeerDetail.Latency.class;
        }

        public Result run(List<Target> gpus) {
            long[] used = new long[1];
            Pairs.Matrices m = Pairs.run(gpus, true,
                    List.<String[]>of(new String[] {"the GPU whose thread loads", "the GPU whose memory holds the chain"}),
                    (row, column, held) -> {
                        GpuBench r = row.bench(), c = column.bench();
                        int slots = (int) Math.min(MAX_SLOTS, Math.min(row.buffer((long) MAX_SLOTS * STRIDE), column.buffer((long) MAX_SLOTS * STRIDE)) / STRIDE);
                        long bytes = (long) slots * STRIDE;
                        used[0] = bytes;
                        DeviceBuffer chain = Pairs.alloc(held, c, bytes);
                        int[] order = SmAccess.randomCycle(slots);
                        // the chain is written from pinned memory by the owner's copy engine
                        c.gpu.makeCurrent();
                        try (HostBuffer staging = HostBuffer.pinned(c.cuda, bytes)) {
                            for (int i = 0; i < slots; i++) {
                                staging.segment().set(JAVA_LONG, (long) order[i] * STRIDE, chain.address() + (long) order[(i + 1) % slots] * STRIDE);
                            }
                            c.stream.copyHostToDevice(chain, staging, bytes);
                            c.stream.synchronize();
                        }
                        evictL2(c, column);
                        r.gpu.makeCurrent();
                        HostBuffer out = held.keep(HostBuffer.pinned(r.cuda, 4096));
                        long outPtr = out.devicePointer();
                        int steps = Math.min(STEPS, slots);
                        // each sample walks on from where the last stopped: with slots to spare no line is
                        // loaded twice, so no sample finds the chain in the owner's L2 from the one before
                        long[] at = {0};
                        return new Stats[] {Pairs.stats(() -> {
                            long first = chain.address() + (long) order[(int) (at[0] % slots)] * STRIDE;
                            at[0] += steps;
                            r.chase.launch(r.stream, 1, 1, first, steps, outPtr);
                            r.stream.synchronize();
                            return (double) out.segment().get(JAVA_LONG, 0) / steps;
                        })};
                    });
            return Pairs.result(this, Unit.NS, "pointer chase by one thread of the row GPU through the column GPU's memory, timed by the GPU's global timer",
                    m, "matrix", s -> new PeerDetail.Latency(s.value(), s.matrices().getFirst(), s.notMeasured(), s.samplesPerPair(), used[0], STRIDE, STEPS));
        }

        /**
         * Pushes the freshly written chain out of its GPU's L2 by writing twice the L2's size
         * elsewhere: a load the L2 answers (tens of MB on a Hopper) is a fraction of a trip to
         * memory, and nvbandwidth's walk through 512 MiB finds little of its buffer there either.
         */
        static void evictL2(GpuBench owner, Target bounds) {
            long l2 = owner.cuda.attribute(owner.gpu.device(), ATTR_L2_CACHE_SIZE).orElse(64 << 20);
            owner.gpu.makeCurrent();
            try (DeviceBuffer scratch = owner.gpu.alloc(bounds.buffer(2 * Math.max(l2, 1L << 20)))) {
                scratch.fill(0);
                owner.stream.synchronize();
            }
        }
    }
}
