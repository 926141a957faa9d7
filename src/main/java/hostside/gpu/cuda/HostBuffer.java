package hostside.gpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Host memory for copies, of the three kinds that behave differently:
 * <ul>
 * <li>pinned: cuMemHostAlloc, page-locked and mapped for the GPU; the copy engines DMA from it
 * directly (what {@code pin_memory=True} gives a DataLoader)</li>
 * <li>registered: ordinary memory page-locked afterwards with cuMemHostRegister</li>
 * <li>pageable: ordinary memory; the driver copies it through a pinned staging buffer</li>
 * </ul>
 * All are touched once on creation, so that first-touch page faults are not in any timing.
 */
public final class HostBuffer implements AutoCloseable {
    public enum Kind { PINNED, REGISTERED, PAGEABLE }

    private final Cuda cuda;
    private final Kind kind;
    private final Arena arena;
    final MemorySegment segment;
    private boolean closed;

    private HostBuffer(Cuda cuda, Kind kind, Arena arena, MemorySegment segment) {
        this.cuda = cuda;
        this.kind = kind;
        this.arena = arena;
        this.segment = segment;
    }

    public static HostBuffer pinned(Cuda cuda, long bytes) {
        MemorySegment p = cuda.outPointer("cuMemHostAlloc", bytes, Cuda.MEMHOSTALLOC_PORTABLE | Cuda.MEMHOSTALLOC_DEVICEMAP)
                .reinterpret(bytes);
        p.fill((byte) 1);
        return new HostBuffer(cuda, Kind.PINNED, null, p);
    }

    /** Pinned memory as cuMemHostAlloc returns it, not touched: for timing the allocation itself. */
    public static HostBuffer pinnedUntouched(Cuda cuda, long bytes) {
        MemorySegment p = cuda.outPointer("cuMemHostAlloc", bytes, Cuda.MEMHOSTALLOC_PORTABLE | Cuda.MEMHOSTALLOC_DEVICEMAP)
                .reinterpret(bytes);
        return new HostBuffer(cuda, Kind.PINNED, null, p);
    }

    public static HostBuffer pageable(Cuda cuda, long bytes) {
        Arena a = Arena.ofShared();
        MemorySegment s = a.allocate(bytes, 4096);
        s.fill((byte) 1);
        return new HostBuffer(cuda, Kind.PAGEABLE, a, s);
    }

    public static HostBuffer registered(Cuda cuda, long bytes) {
        Arena a = Arena.ofShared();
        MemorySegment s = a.allocate(bytes, 4096);
        s.fill((byte) 1);
        try {
            cuda.call("cuMemHostRegister", s, bytes, Cuda.MEMHOSTREGISTER_PORTABLE | Cuda.MEMHOSTREGISTER_DEVICEMAP);
        } catch (CudaException e) {
            a.close();
            throw e;
        }
        return new HostBuffer(cuda, Kind.REGISTERED, a, s);
    }

    private boolean registered;

    /** Page-locks this pageable buffer in place (cuMemHostRegister); {@link #unregister} or close undoes it. */
    public void register() {
        if (kind != Kind.PAGEABLE || registered) throw new IllegalStateException("register a pageable buffer once");
        cuda.call("cuMemHostRegister", segment, segment.byteSize(), Cuda.MEMHOSTREGISTER_PORTABLE | Cuda.MEMHOSTREGISTER_DEVICEMAP);
        registered = true;
    }

    public void unregister() {
        if (!registered) return;
        registered = false;
        cuda.call("cuMemHostUnregister", segment);
    }

    public Kind kind() {
        return kind;
    }

    public long bytes() {
        return segment.byteSize();
    }

    public MemorySegment segment() {
        return segment;
    }

    /** The address a kernel uses for this (pinned or registered) memory. */
    public long devicePointer() {
        MemorySegment out = cuda.arena.allocate(ADDRESS);
        cuda.call("cuMemHostGetDevicePointer", out, segment, 0);
        return out.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0);
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        switch (kind) {
            case PINNED -> cuda.call("cuMemFreeHost", segment);
            case REGISTERED -> {
                try {
                    cuda.call("cuMemHostUnregister", segment);
                } finally {
                    arena.close();
                }
            }
            case PAGEABLE -> {
                try {
                    unregister();
                } finally {
                    arena.close();
                }
            }
        }
    }
}
