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

    /**
     * Lets this GPU's context reach {@code peer}'s memory (cuCtxEnablePeerAccess, one way only),
     * making this context current. False when it already could (PEER_ACCESS_ALREADY_ENABLED, not
     * this call's doing, so not this caller's to undo); a pair that cannot is a CudaException
     * (PEER_ACCESS_UNSUPPORTED).
     */
    public boolean enablePeerAccess(Gpu peer) {
        makeCurrent();
        int r = cuda.raw("cuCtxEnablePeerAccess", peer.context, 0);
        if (r == Cuda.ERROR_PEER_ACCESS_ALREADY_ENABLED) return false;
        if (r != 0) throw new CudaException("cuCtxEnablePeerAccess", r, cuda.errorName(r));
        return true;
    }

    /** Undoes {@link #enablePeerAccess}, making this context current; false when it was not enabled (PEER_ACCESS_NOT_ENABLED). */
    public boolean disablePeerAccess(Gpu peer) {
        makeCurrent();
        int r = cuda.raw("cuCtxDisablePeerAccess", peer.context);
        if (r == Cuda.ERROR_PEER_ACCESS_NOT_ENABLED) return false;
        if (r != 0) throw new CudaException("cuCtxDisablePeerAccess", r, cuda.errorName(r));
        return true;
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
