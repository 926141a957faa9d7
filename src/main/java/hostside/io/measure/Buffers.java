package hostside.io.measure;

import java.lang.foreign.MemorySegment;

import hostside.libc.Libc;

/**
 * The read buffers, made as the fio jobs hostside names make theirs ({@code --iomem=mmap}: fio's
 * memory.c maps bs times iodepth with one anonymous private mmap): one page-aligned region for all
 * the requests in flight, no madvise (transparent huge pages as the system's policy gives them to
 * any process), and left untouched: the first reads, in the warm-up, fault its pages in, as fio's
 * read job leaves its buffers for its first reads to fault in (backend.c, init_io_u_buffers, fills
 * them for writes only).
 *
 * <p>Why not a layout of our own. Where the pages land physically is the page allocator's choice,
 * and it matters twice. With O_DIRECT each physically contiguous piece of a buffer is one DMA
 * segment ({@link PhysicalPieces}): a virtual disk takes at most {@code queue/max_segments} of them
 * per request (254 on a Firecracker guest's virtio-blk), so a 1 MiB buffer in 256 pieces (every page
 * apart, which hostside laid out on purpose until 2026-12-07) is two requests of the disk where
 * fio's, in fewer pieces, is one. Through the page cache the kernel copies into the buffer with the
 * CPU, and a buffer on every other physical frame read cached files 4-14% slower than one touched in
 * order in the same minute on the dev VM (within 1% on the H100; bench/c/layout_read.c).
 * Both made hostside's figure a different thing from the fio job it names
 * (docs/measurements/2026-12-07-io-equal-to-fio.md). fio's default buffers, one malloc, may lie in
 * pages the process's allocator had handed out before, in whatever pieces those fell; a fresh mapping
 * is a loader's large buffer. So both programs map their buffers afresh, and the pieces an O_DIRECT
 * buffer fell into are said beside its figure.
 */
final class Buffers {
    private Buffers() {}

    /** The {@code depth} blocks of {@code block} bytes, back to back in one page-aligned mapping; the caller unmaps it. */
    static MemorySegment map(int block, int depth) {
        return Libc.mmap((long) block * depth, Libc.PROT_READ | Libc.PROT_WRITE, Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
    }
}
