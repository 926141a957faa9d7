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
