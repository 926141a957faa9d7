package hostside.gpu.bench;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

import hostside.gpu.cuda.Cuda;
import hostside.gpu.cuda.Event;
import hostside.gpu.cuda.Gpu;
import hostside.gpu.cuda.HostBuffer;
import hostside.gpu.cuda.Module;
import hostside.gpu.cuda.Stream;

/**
 * One GPU set up for measuring: its context, the PTX kernels, two streams and a mapped host
 * word that releases the spin kernel. Copies are timed the way NVIDIA's nvbandwidth times
 * them: the stream is blocked behind a spin kernel, the copies are queued, then released, and
 * CUDA events on the GPU's clock bracket them, so neither launch nor submission cost is in the
 * figure.
 */
public final class GpuBench implements AutoCloseable {
    /** A spin kernel gives up after this long, so a host that never releases it cannot hang the GPU. */
    static final long SPIN_TIMEOUT_NS = 10_000_000_000L;
    private static final VarHandle FLAG = JAVA_INT.varHandle();

    public final Cuda cuda;
    public final Gpu gpu;
    public final String name;
    public final String pciAddress;
    public final Module kernels;
    public final Module.Kernel spin, copy, chase, empty;
    public final Stream stream, other;
    /** The legacy default stream, for pageable copies issued as PyTorch issues them. */
    public final Stream legacy;
    private final HostBuffer flag;
    private final long flagOnGpu;
    private final Event start, end, start2, end2;

    public GpuBench(Cuda cuda, int ordinal) {
        this.cuda = cuda;
        // What is made is released again if a later step fails (a PTX the driver rejects, no
        // pinned memory left): the constructor throws, so no caller could close it.
        java.util.ArrayDeque<AutoCloseable> made = new java.util.ArrayDeque<>();
        try {
            this.gpu = keep(made, new Gpu(cuda, ordinal));
            this.name = cuda.deviceName(gpu.device());
            this.pciAddress = cuda.pciBusId(gpu.device());
            this.kernels = keep(made, Module.fromResource(cuda, "/hostside/gpu/kernels.ptx"));
            this.spin = kernels.kernel("hostside_spin");
            this.copy = kernels.kernel("hostside_copy");
            this.chase = kernels.kernel("hostside_chase");
            this.empty = kernels.kernel("hostside_empty");
            this.stream = keep(made, gpu.stream());
            this.other = keep(made, gpu.stream());
            this.legacy = Stream.legacyDefault(cuda);
            this.flag = keep(made, HostBuffer.pinned(cuda, 4096));
            this.flagOnGpu = flag.devicePointer();
            this.start = keep(made, gpu.event());
            this.end = keep(made, gpu.event());
            this.start2 = keep(made, gpu.event());
            this.end2 = keep(made, gpu.event());
        } catch (RuntimeException e) {
            closeAll(made);
            throw e;
        }
    }

    private static <T extends AutoCloseable> T keep(java.util.ArrayDeque<AutoCloseable> made, T resource) {
        made.push(resource);
        return resource;
    }

    /** Closes newest first; each close is tried even when an earlier one failed. */
    private static void closeAll(java.util.ArrayDeque<AutoCloseable> made) {
        while (!made.isEmpty()) {
            try {
                made.pop().close();
            } catch (Exception e) {
                // keep releasing the rest
            }
        }
    }

    /** Milliseconds that {@code work} took on {@code s}, queued behind a spin kernel and then released. */
    public double blockedMs(Stream s, Consumer<Stream> work) {
        FLAG.setVolatile(flag.segment(), 0L, 0);
        spin.launch(s, 1, 1, flagOnGpu, SPIN_TIMEOUT_NS);
        s.record(start);
        work.accept(s);
        s.record(end);
        FLAG.setVolatile(flag.segment(), 0L, 1);
        end.synchronize();
        return end.msSince(start);
    }

    /** Two streams released together: the milliseconds each took, for copies both ways at once. */
    public double[] blockedMs2(Consumer<Stream> first, Consumer<Stream> second) {
        FLAG.setVolatile(flag.segment(), 0L, 0);
        spin.launch(stream, 1, 1, flagOnGpu, SPIN_TIMEOUT_NS);
        spin.launch(other, 1, 1, flagOnGpu, SPIN_TIMEOUT_NS);
        stream.record(start);
        other.record(start2);
        first.accept(stream);
        second.accept(other);
        stream.record(end);
        other.record(end2);
        FLAG.setVolatile(flag.segment(), 0L, 1);
        end.synchronize();
        end2.synchronize();
        return new double[] {end.msSince(start), end2.msSince(start2)};
    }

    /** One stream's work in {@link #blockedTogether}: queued on a stream of {@code bench}'s GPU. */
    public record Lane(GpuBench bench, Consumer<Stream> work) {}

    /**
     * nvbandwidth's timing of several streams at once, possibly on several GPUs, from this one
     * thread: each stream is blocked behind a spin kernel on the same host word, the others wait
     * for the first stream's start event so that all start together, each lane's work is queued
     * between its own start and end events, then the word releases them all. The milliseconds of
     * each lane, in order. A GPU may carry two lanes (its two streams), not more.
     *
     * <p>The first lane's flag serves every GPU: it is pinned portable and mapped, and with
     * unified addressing its device pointer is the same in every context.
     */
    public static double[] blockedTogether(java.util.List<Lane> lanes) {
        int n = lanes.size();
        Stream[] streams = new Stream[n];
        Event[] starts = new Event[n], ends = new Event[n];
        java.util.Map<GpuBench, Integer> uses = new java.util.IdentityHashMap<>();
        for (int i = 0; i < n; i++) {
            GpuBench b = lanes.get(i).bench();
            int use = uses.merge(b, 1, Integer::sum);
            if (use > 2) throw new IllegalArgumentException("more than two lanes on " + b.name);
            streams[i] = use == 1 ? b.stream : b.other;
            starts[i] = use == 1 ? b.start : b.start2;
            ends[i] = use == 1 ? b.end : b.end2;
        }
        GpuBench first = lanes.getFirst().bench();
        FLAG.setVolatile(first.flag.segment(), 0L, 0);
        try {
            for (int i = 0; i < n; i++) {
                GpuBench b = lanes.get(i).bench();
                b.gpu.makeCurrent();
                b.spin.launch(streams[i], 1, 1, first.flagOnGpu, SPIN_TIMEOUT_NS);
                if (i == 0) {
                    streams[0].record(starts[0]);
                } else {
                    streams[i].waitFor(starts[0]);
                    streams[i].record(starts[i]);
                }
            }
            for (int i = 0; i < n; i++) {
                lanes.get(i).bench().gpu.makeCurrent();
                lanes.get(i).work().accept(streams[i]);
                streams[i].record(ends[i]);
            }
        } finally {
            // released on every path: a spin kernel left waiting would hold its GPU for the timeout
            FLAG.setVolatile(first.flag.segment(), 0L, 1);
        }
        double[] ms = new double[n];
        for (int i = 0; i < n; i++) {
            lanes.get(i).bench().gpu.makeCurrent();
            ends[i].synchronize();
            ms[i] = ends[i].msSince(starts[i]);
        }
        return ms;
    }

    /**
     * Milliseconds of {@code work} on {@code s} between two events, without the spin kernel: for
     * copies the driver may stage through its own buffers, where the host waits for the GPU to
     * free one, so a stream blocked ahead would wait on the host that waits on it.
     */
    public double unblockedMs(Stream s, Consumer<Stream> work) {
        s.record(start);
        work.accept(s);
        s.record(end);
        end.synchronize();
        return end.msSince(start);
    }

    /** Free and total memory of this GPU, bytes. */
    public long[] memory() {
        return cuda.memoryInfo();
    }

    @Override
    public void close() {
        java.util.ArrayDeque<AutoCloseable> all = new java.util.ArrayDeque<>();
        for (AutoCloseable c : new AutoCloseable[] {gpu, kernels, stream, other, flag, start, end, start2, end2}) all.push(c);
        closeAll(all);
    }
}
