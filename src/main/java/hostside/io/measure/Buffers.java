package hostside.io.measure;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import hostside.libc.Libc;
import hostside.libc.LibcException;

/**
 * The read buffers. On a VM an O_DIRECT read is as fast as the number of physically contiguous
 * pieces its buffer falls into ({@link PhysicalPieces}: one DMA segment each, which the virtual
 * disk hands to the host one by one), and left to the page allocator that number is an accident
 * of the process's history: a fresh JVM's buffer fell into 5-9 pieces per MiB on the H200 VM, the
 * same buffer inside {@code report} (after the machine and vm drills had freed gigabytes) into
 * 256, and the 1 MiB reads ran at 1.7-2.2 against 0.9 GB/s. fio's malloc'd buffers fell into
 * 130-256 pieces with one read in flight, fewer (56-198) as one 32 MiB buffer for 32. So the layout
 * is made, not left: every page of the buffers apart from its neighbours, one piece per page, as a
 * long-running process's buffers usually are. The figure is then the same alone and in the report;
 * on the dev VM it came out at 0.93 of fio's with one read in flight and 0.71 with 32, where fio's
 * buffer was in fewer pieces. A loader whose buffers are in fewer pieces reads faster on a VM, which
 * the pieces figure beside the result says.
 *
 * <p>How: the buffers' pages and a spacer's are first touched in turns (buffer page, spacer
 * page, ...), so the page allocator, which hands out frames in order, puts a spacer frame between
 * any two buffer frames; then the spacer is unmapped. Both without transparent huge pages, which
 * would make a 2 MiB run contiguous whatever the order.
 */
final class Buffers {
    private Buffers() {}

    /**
     * The {@code depth} blocks, one page-aligned mapping (as O_DIRECT needs), every page present
     * and physically apart from its neighbours; the caller unmaps it.
     */
    static MemorySegment map(int block, int depth, long pageSize) {
        long bytes = (long) block * depth;
        int rw = Libc.PROT_READ | Libc.PROT_WRITE, anon = Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS;
        MemorySegment mapping = Libc.mmap(bytes, rw, anon, -1, 0);
        MemorySegment spacer = null;
        try {
            spacer = Libc.mmap(bytes, rw, anon, -1, 0);
            noHugePages(mapping);
            noHugePages(spacer);
            interleave(mapping, spacer, pageSize);
            return mapping;
        } catch (RuntimeException e) {
            Libc.munmap(mapping);
            throw e;
        } finally {
            if (spacer != null) Libc.munmap(spacer);
        }
    }

    private static void noHugePages(MemorySegment region) {
        try {
            Libc.madvise(region, Libc.MADV_NOHUGEPAGE);
        } catch (LibcException e) {
            // EINVAL: a kernel without transparent huge pages, where there are none to turn off
        }
    }

    /** First-touches the pages of {@code a} and of {@code b} (as large) in turns, a's first: a write faults each page in. */
    private static void interleave(MemorySegment a, MemorySegment b, long pageSize) {
        for (long off = 0; off < a.byteSize(); off += pageSize) {
            a.set(ValueLayout.JAVA_BYTE, off, (byte) 0);
            b.set(ValueLayout.JAVA_BYTE, off, (byte) 0);
        }
    }

}
