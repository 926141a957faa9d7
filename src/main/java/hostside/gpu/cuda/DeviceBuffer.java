package hostside.gpu.cuda;

/** GPU memory from cuMemAlloc. */
public final class DeviceBuffer implements AutoCloseable {
    private final Cuda cuda;
    final long address;
    private final long bytes;
    private boolean closed;

    DeviceBuffer(Cuda cuda, long bytes) {
        this.cuda = cuda;
        this.bytes = bytes;
        this.address = cuda.outLong("cuMemAlloc", bytes);
    }

    public long bytes() {
        return bytes;
    }

    public long address() {
        return address;
    }

    /** Fills with a 32-bit pattern, so that reads are of written memory. */
    public void fill(int pattern) {
        cuda.call("cuMemsetD32", address, pattern, bytes / 4);
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        cuda.call("cuMemFree", address);
    }
}
