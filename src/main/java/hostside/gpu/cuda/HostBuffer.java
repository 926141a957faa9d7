package hostside.gpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import hostside.libc.Libc;
import hostside.libc.Numa;

/**
 * Host memory for copies, of the three kinds that behave differently:
 * <ul>
 * <li>pinned: cuMemHostAlloc, page-locked and mapped for the GPU; the copy engines DMA from it
 * directly (what {@code pin_memory=True} gives a DataLoader)</li>
 * <li>registered: ordinary memory page-locked afterwards with cuMemHostRegister</li>
 * <li>pageable: ordinary memory; the driver copies it through a pinned staging buffer</li>
 * </ul>
 * All are touched once on creation, so that first-touch page faults are not in any timing.
 * A pageable buffer may be bound to a NUMA node first ({@link #pageable(Cuda, long, Integer)}); one
 * registered afterwards ({@link #register}) is pinned memory on that node.
 */
public final class HostBuffer implements AutoCloseable {
    public enum Kind { PINNED, REGISTERED, PAGEABLE }

    private final Cuda cuda;
    private final Kind kind;
    /** The memory of a registered or pageable buffer; null for cuMemHostAlloc's and for a mapping of its own. */
    private final Arena arena;
    /** Mapped with mmap (a buffer bound to a node): unmapped on close. */
    private final boolean mapped;
    final MemorySegment segment;
    private boolean closed;

    private HostBuffer(Cuda cuda, Kind kind, Arena arena, MemorySegment segment) {
        this(cuda, kind, arena, false, segment);
    }

    private HostBuffer(Cuda cuda, Kind kind, Arena arena, boolean mapped, MemorySegment segment) {
        this.cuda = cuda;
        this.kind = kind;
        this.arena = arena;
        this.mapped = mapped;
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

    /**
     * Pageable memory whose pages all come from NUMA node {@code node} (null: as {@link #pageable(Cuda, long)}).
     * It is mapped with mmap rather than taken from an arena, since an arena zeroes what it hands out
     * and so places every page by first touch before a binding could apply; the mapping is bound
     * (mbind, MPOL_BIND) while untouched, then touched. A node the kernel refuses is a
     * {@link hostside.libc.LibcException}, with nothing left mapped.
     */
    public static HostBuffer pageable(Cuda cuda, long bytes, Integer node) {
        if (node == null) return pageable(cuda, bytes);
        MemorySegment s = Libc.mmap(bytes, Libc.PROT_READ | Libc.PROT_WRITE,
                Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
        try {
            Numa.bind(s, node);
            s.fill((byte) 1);
        } catch (RuntimeException e) {
            Libc.munmap(s);
            throw e;
        }
        return new HostBuffer(cuda, Kind.PAGEABLE, null, true, s);
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
                    if (mapped) Libc.munmap(segment);
                    else arena.close();
                }
            }
        }
    }
}
