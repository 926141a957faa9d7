package hostside.gpu.bench;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.util.List;
import java.util.Random;

import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.cuda.DeviceBuffer;
import hostside.gpu.cuda.HostBuffer;
import hostside.harness.Detail;
import hostside.harness.Result;
import hostside.harness.TestCase;

/**
 * Module 5's comparison: SMs reading or writing CPU memory themselves (a copy kernel over a
 * mapped pinned buffer), against the copy engines of {@link Copies}; and the round trip of one
 * load from the GPU to host memory.
 */
public final class SmAccess {
    /** Multiprocessor count attribute (cuda.h). */
    public static final int ATTR_SM_COUNT = 16;
    public static final int THREADS = 512, BLOCKS_PER_SM = 4;

    private SmAccess() {}

    /**
     * A copy kernel's conditions: those of a copy-engine copy, and its grid.
     *
     * @param grid blocks and threads, and what each thread moves per step
     */
    public record SmCopyDetail(String gpu, long bufferBytes, int copiesPerSample, String grid) implements Detail {}

    /**
     * The pointer chase's conditions.
     *
     * @param chain          how many pointers, how far apart, in what order
     * @param stepsPerSample dependent loads timed in one sample
     */
    public record LatencyDetail(String gpu, String chain, int stepsPerSample) implements Detail {}

    /** A copy kernel whose one side is host memory. */
    public record SmCopy(boolean toDevice) implements TestCase<Target> {
        public String key() {
            return toDevice ? "host_to_device_sm" : "device_to_host_sm";
        }

        public String description() {
            return toDevice ? "SMs read pinned host memory into GPU memory" : "SMs write GPU memory out to pinned host memory";
        }

        @Override
        public String anchor() {
            return toDevice ? "nvbandwidth host_to_device_memcpy_sm" : "nvbandwidth device_to_host_memcpy_sm";
        }

        @Override
        public Class<SmCopyDetail> detailType() {
            return SmCopyDetail.class;
        }

        public Result run(Target t) {
            long bytes = t.hostBuffer(Target.DEFAULT_BUFFER);
            GpuBench b = t.bench();
            int sms = b.cuda.attribute(b.gpu.device(), ATTR_SM_COUNT).orElse(1);
            int blocks = sms * BLOCKS_PER_SM;
            try (HostBuffer host = HostBuffer.pinned(b.cuda, bytes); DeviceBuffer dev = b.gpu.alloc(bytes)) {
                dev.fill(0x5a5a5a5a);
                long h = host.devicePointer(), d = dev.address();
                long src = toDevice ? h : d, dst = toDevice ? d : h;
                int copies = Copies.COPIES;
                double[] s = Copies.blockedGbs(b, bytes * copies, st -> {
                    for (int c = 0; c < copies; c++) b.copy.launch(st, blocks, THREADS, dst, src, bytes / 16);
                });
                return Result.ok(this, Unit.GB_PER_S, Stats.of(s), "copy kernel behind a spin kernel, timed with CUDA events (nvbandwidth's)",
                        Copies.nvbandwidth(anchor(), bytes), new SmCopyDetail(Copies.gpuName(b), bytes, copies, blocks + " blocks x " + THREADS + " threads, 16 bytes per thread per step"));
            }
        }
    }

    /** One GPU thread chasing pointers through pinned host memory: a PCIe (or C2C) round trip per step. */
    public record Latency() implements TestCase<Target> {
        static final int SLOTS = 1 << 14, STRIDE = 64, STEPS = 20_000;

        public String key() {
            return "host_device_latency_sm";
        }

        public String description() {
            return "one GPU thread follows pointers through pinned host memory: the round trip of a load";
        }

        @Override
        public String anchor() {
            return "nvbandwidth host_device_latency_sm";
        }

        @Override
        public Class<LatencyDetail> detailType() {
            return LatencyDetail.class;
        }

        public Result run(Target t) {
            GpuBench b = t.bench();
            long bytes = (long) SLOTS * STRIDE;
            try (HostBuffer chain = HostBuffer.pinned(b.cuda, bytes); HostBuffer out = HostBuffer.pinned(b.cuda, 4096)) {
                long base = chain.devicePointer();
                int[] order = randomCycle(SLOTS);
                for (int i = 0; i < SLOTS; i++) {
                    int from = order[i], to = order[(i + 1) % SLOTS];
                    chain.segment().set(JAVA_LONG, (long) from * STRIDE, base + (long) to * STRIDE);
                }
                long outPtr = out.devicePointer();
                Stats s = Copies.SAMPLING.stats(i -> {
                    b.chase.launch(b.stream, 1, 1, base + (long) order[0] * STRIDE, STEPS, outPtr);
                    b.stream.synchronize();
                    return (double) out.segment().get(JAVA_LONG, 0) / STEPS;
                });
                return Result.ok(this, Unit.NS, s, "pointer chase by one thread, timed by the GPU's global timer",
                        new LatencyDetail(Copies.gpuName(b), SLOTS + " pointers " + STRIDE + " bytes apart, random order", STEPS));
            }
        }
    }

    public static List<TestCase<Target>> all() {
        return List.of(new SmCopy(true), new SmCopy(false), new Latency());
    }

    /**
     * The slots of a pointer chase in a random cycle (a fixed seed, so runs compare), so that no
     * prefetcher guesses the next address.
     */
    public static int[] randomCycle(int slots) {
        int[] order = new int[slots];
        for (int i = 0; i < slots; i++) order[i] = i;
        Random random = new Random(42);
        for (int i = slots - 1; i > 0; i--) {
            int j = random.nextInt(i + 1), x = order[i];
            order[i] = order[j];
            order[j] = x;
        }
        return order;
    }
}
