package hostside.gpu.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Unified (managed) memory from cuMemAllocManaged: one address valid on the CPU and the GPU,
 * whose pages the driver migrates to whichever side touches them (on GPUs with
 * concurrentManagedAccess), or that prefetches move ahead of time.
 */
public final class ManagedBuffer implements AutoCloseable {
    private final Cuda cuda;
    private final long address;
    private final long bytes;
    private boolean closed;

    public ManagedBuffer(Cuda cuda, long bytes) {
        this.cuda = cuda;
        this.bytes = bytes;
        this.address = cuda.outLong("cuMemAllocManaged", bytes, Cuda.MEM_ATTACH_GLOBAL);
    }

    public long address() {
        return address;
    }

    public long bytes() {
        return bytes;
    }

    /** The CPU's view of the same memory. */
    public MemorySegment segment() {
        return MemorySegment.ofAddress(address).reinterpret(bytes);
    }

    /** Queues a migration of every page to GPU {@code device} (its CUdevice) on {@code stream}. */
    public void prefetchToDevice(int device, Stream stream) {
        prefetch(Cuda.MEM_LOCATION_TYPE_DEVICE, device, stream);
    }

    /** Queues a migration of every page back to host memory. */
    public void prefetchToHost(Stream stream) {
        prefetch(Cuda.MEM_LOCATION_TYPE_HOST, 0, stream);
    }

    private void prefetch(int type, int id, Stream stream) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment loc = a.allocate(Cuda.MEM_LOCATION);
            loc.set(java.lang.foreign.ValueLayout.JAVA_INT, 0, type);
            loc.set(java.lang.foreign.ValueLayout.JAVA_INT, 4, id);
            cuda.call("cuMemPrefetchAsync", address, bytes, loc, 0, stream.handle);
        }
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        cuda.call("cuMemFree", address);
    }
}
