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

    public void copyDeviceToHost(HostBuffer dst, DeviceBuffer src, long bytes) {
        cuda.call("cuMemcpyDtoHAsync", dst.segment, src.address, bytes, handle);
    }

    public void copyDeviceToDevice(DeviceBuffer dst, DeviceBuffer src, long bytes) {
        cuda.call("cuMemcpyDtoDAsync", dst.address, src.address, bytes, handle);
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        cuda.call("cuStreamDestroy", handle);
    }
}
