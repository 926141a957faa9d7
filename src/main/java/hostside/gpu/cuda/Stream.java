package hostside.gpu.cuda;

import java.lang.foreign.MemorySegment;

/** A non-blocking stream (it does not wait for the legacy default stream). */
public final class Stream implements AutoCloseable {
    private final Cuda cuda;
    final MemorySegment handle;
    private boolean closed;

    Stream(Cuda cuda) {
        this.cuda = cuda;
        this.handle = cuda.outPointer("cuStreamCreate", Cuda.STREAM_NON_BLOCKING);
    }

    private Stream(Cuda cuda, MemorySegment handle) {
        this.cuda = cuda;
        this.handle = handle;
        this.closed = true; // the legacy default stream is the driver's, never destroyed
    }

    /** The legacy default stream (handle 0), which PyTorch's current stream is unless set otherwise. */
    public static Stream legacyDefault(Cuda cuda) {
        return new Stream(cuda, MemorySegment.NULL);
    }

    public void synchronize() {
        cuda.call("cuStreamSynchronize", handle);
    }

    public void record(Event e) {
        cuda.call("cuEventRecord", e.handle, handle);
    }

    public void copyHostToDevice(DeviceBuffer dst, HostBuffer src, long bytes) {
        cuda.call("cuMemcpyHtoDAsync", dst.address, src.segment, bytes, handle);
    }

    /**
     * A host-to-device copy made ready once (the downcall handle looked up), so that a loop of
     * submissions times cuMemcpyHtoDAsync itself and not the boxing of {@link #copyHostToDevice}'s
     * arguments, which costs about as much as the call on a fast host.
     */
    public Submission prepareHostToDevice(DeviceBuffer dst, HostBuffer src, long bytes) {
        return new Submission(cuda.exact("cuMemcpyHtoDAsync"), dst.address, src.segment, bytes);
    }

    /** One prepared host-to-device copy on this stream; each {@link #submit} queues it again. */
    public final class Submission {
        private final java.lang.invoke.MethodHandle copy;
        private final long dst, bytes;
        private final MemorySegment src;

        private Submission(java.lang.invoke.MethodHandle copy, long dst, MemorySegment src, long bytes) {
            this.copy = copy;
            this.dst = dst;
            this.src = src;
            this.bytes = bytes;
        }

        /** One cuMemcpyHtoDAsync; a failure is a CudaException as anywhere else. */
        public void submit() {
            int r;
            try {
                r = (int) copy.invokeExact(dst, src, bytes, handle);
            } catch (Throwable t) {
                throw new CudaException("cuMemcpyHtoDAsync: call failed: " + t);
            }
            if (r != 0) throw new CudaException("cuMemcpyHtoDAsync", r, cuda.errorName(r));
        }
    }

    public void copyDeviceToHost(HostBuffer dst, DeviceBuffer src, long bytes) {
        cuda.call("cuMemcpyDtoHAsync", dst.segment, src.address, bytes, handle);
    }

    public void copyDeviceToDevice(DeviceBuffer dst, DeviceBuffer src, long bytes) {
        cuda.call("cuMemcpyDtoDAsync", dst.address, src.address, bytes, handle);
    }

    /**
     * A copy between any two buffers by address (cuMemcpyAsync, unified addressing), as
     * nvbandwidth issues its device-to-device copies: between GPUs with peer access it goes
     * straight over the link, without it the driver stages it through host memory.
     */
    public void copy(DeviceBuffer dst, DeviceBuffer src, long bytes) {
        cuda.call("cuMemcpyAsync", dst.address, src.address, bytes, handle);
    }

    /** Work queued after this call waits for {@code e} (cuStreamWaitEvent; the event may be another GPU's). */
    public void waitFor(Event e) {
        cuda.call("cuStreamWaitEvent", handle, e.handle, 0);
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        cuda.call("cuStreamDestroy", handle);
    }
}
