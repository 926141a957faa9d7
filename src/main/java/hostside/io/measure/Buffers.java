package hostside.io.measure;

import java.lang.foreign.MemorySegment;

import hostside.libc.Libc;

/**
 * The read buffers, made the way fio makes its own, because on a VM an O_DIRECT read's speed
 * depends on its buffer ({@link PhysicalPieces}). fio mallocs iodepth blocks plus a page for
 * alignment, which glibc serves with a fresh anonymous mapping and fio aligns up to the next page;
 * nothing touches it before the reads, so the kernel faults its pages in during the first reads
 * (for O_DIRECT, while pinning them for the DMA). Here: the same mapping, the buffers from its
 * second page, untouched. A buffer zeroed and filled by the JVM instead gets its pages in another
 * order and, with them, another layout in physical memory.
 */
final class Buffers {
    private Buffers() {}

    /** The mapping that holds {@code depth} blocks from its second page; the caller unmaps it. */
    static MemorySegment map(int block, int depth, long pageSize) {
        return Libc.mmap(bytes(block, depth, pageSize), Libc.PROT_READ | Libc.PROT_WRITE, Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
    }

    /** The blocks and two pages: fio's alignment page, and glibc's chunk header rounded up to one. */
    static long bytes(int block, int depth, long pageSize) {
        return (long) block * depth + 2 * pageSize;
    }

    /** The {@code depth} blocks of {@code mapping}, from its second page, page-aligned for O_DIRECT. */
    static MemorySegment of(MemorySegment mapping, int block, int depth, long pageSize) {
        return mapping.asSlice(pageSize, (long) block * depth);
    }
}
