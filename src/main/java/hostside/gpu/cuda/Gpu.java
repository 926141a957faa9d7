package hostside.gpu.cuda;

import java.lang.foreign.MemorySegment;

/**
 * One GPU with its primary context retained and made current on the calling thread: the
 * context the CUDA runtime (and so PyTorch) would use. Closing releases it.
 */
public final class Gpu implements AutoCloseable {
    private final Cuda cuda;
    private final int ordinal;
    private final int device;
    private final MemorySegment context;
    private boolean closed;

    public Gpu(Cuda cuda, int ordinal) {
        this.cuda = cuda;
        this.ordinal = ordinal;
        this.device = cuda.device(ordinal);
        this.context = cuda.outPointer("cuDevicePrimaryCtxRetain", device);
        try {
            makeCurrent();
        } catch (CudaException e) {
            cuda.raw("cuDevicePrimaryCtxRelease", device); // the constructor throws: nobody else will release it
            throw e;
        }
    }

    /** Contexts are per thread: a worker thread calls this before using the GPU. */
    public void makeCurrent() {
        cuda.call("cuCtxSetCurrent", context);
    }

    public Cuda cuda() {
        return cuda;
    }

    public int ordinal() {
        return ordinal;
    }

    public int device() {
        return device;
    }

    public void synchronize() {
        cuda.call("cuCtxSynchronize");
    }

    public Stream stream() {
        return new Stream(cuda);
    }

    public Event event() {
        return new Event(cuda);
    }

    public DeviceBuffer alloc(long bytes) {
        return new DeviceBuffer(cuda, bytes);
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        cuda.call("cuDevicePrimaryCtxRelease", device);
    }
}
