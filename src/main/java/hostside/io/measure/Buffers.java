package hostside.io.measure;

import java.lang.foreign.MemorySegment;

import hostside.libc.Libc;

/**
 * The read buffers: one page-aligned region for all the requests in flight, as fio's
 * {@code --iomem} options make theirs, left untouched for the first reads (the warm-up's) to fault
 * in, as fio's read job leaves its buffers (backend.c, init_io_u_buffers, fills them for writes
 * only).
 *
 * <p>Where the pages land physically is the page allocator's choice, and it matters twice. With
 * O_DIRECT each physically contiguous piece of a buffer is one DMA segment ({@link PhysicalPieces}):
 * a virtual disk hands each to its host on its own and takes at most {@code queue/max_segments} of
 * them per request (254 on a Firecracker guest's virtio-blk), so a 1 MiB buffer in 256 pieces is
 * two requests where one in fewer pieces is one. In fresh base pages the count is a lottery, for
 * fio as for hostside: on the dev VM fio's {@code --iomem=mmap} jobs read 0.95-1.26 GB/s when each
 * read was split in two requests (7 runs of 9) and 1.35-1.97 when not, hostside's 0.97-1.49 in 128-243
 * pieces (docs/measurements/2026-12-07-odirect-whole-devvm.md). A figure that depends
 * on a draw compares with nothing, not with a fleet's other nodes nor with the same node tomorrow. So
 * the O_DIRECT buffers are made {@link #whole}, of transparent huge pages: every request one piece,
 * the disk's own figure (1.97-2.54 GB/s there), which fio measures with {@code --iomem=shmhuge}
 * (2.24-2.55). Through the page cache the kernel copies into the buffer with the CPU, and the
 * buffer is {@link #map one fresh mapping} in base pages, as {@code --iomem=mmap} makes fio's: a
 * buffer on every other physical frame read cached files 4-14% slower than one touched in order
 * on the dev VM (within 1% on the H100; bench/c/layout_read.c), and huge pages would be a
 * different copy from fio's and a loader's.
 */
record Buffers(MemorySegment mapping, MemorySegment blocks) implements AutoCloseable {

    /** The {@code depth} blocks of {@code block} bytes, back to back in one fresh page-aligned mapping of base pages. */
    static Buffers map(int block, int depth) {
        MemorySegment m = Libc.mmap((long) block * depth, Libc.PROT_READ | Libc.PROT_WRITE, Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
        return new Buffers(m, m);
    }

    /**
     * The same blocks in transparent huge pages: a mapping one huge page longer than the whole
     * pages they need, so that a huge-page-aligned start lies inside it, asked for huge pages
     * (MADV_HUGEPAGE, which THP's {@code madvise} policy needs and {@code always} allows). Each
     * block of at most a huge page then lies in one physical piece once faulted in, unless the
     * kernel found no free huge page at the fault (memory fragmented, THP's defrag off), which
     * the pieces counted after the run show.
     */
    static Buffers whole(int block, int depth, HugePage huge) {
        long bytes = (long) block * depth, region = huge.pagesFor(bytes) * huge.bytes();
        MemorySegment m = Libc.mmap(region + huge.bytes(), Libc.PROT_READ | Libc.PROT_WRITE, Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
        try {
            MemorySegment aligned = m.asSlice(alignment(m.address(), huge.bytes()), region);
            Libc.madvise(aligned, Libc.MADV_HUGEPAGE);
            return new Buffers(m, aligned.asSlice(0, bytes));
        } catch (RuntimeException e) {
            Libc.munmap(m);
            throw e;
        }
    }

    /** Bytes from {@code address} to the next multiple of {@code page} (0 when it is one). */
    static long alignment(long address, long page) {
        return Math.floorMod(-address, page);
    }

    @Override
    public void close() {
        Libc.munmap(mapping);
    }
}
