package hostside.io.measure;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Into how many physically contiguous pieces a read buffer falls. An O_DIRECT read is a DMA into
 * the buffer's pages, one segment per piece; a virtual disk (virtio-blk) hands each segment to the
 * host on its own, so on a VM a 1 MiB read into 256 scattered pages costs several times one into
 * a contiguous 1 MiB (on a Firecracker guest, the same file: about 1.1 GB/s at 250 pieces, 2 GB/s
 * at 100, 4 GB/s at 18 to 1), and a request carries at most the queue's max_segments of them (254 on
 * a Firecracker guest): a 1 MiB buffer in 256 pieces is two requests. Neither fio nor hostside chooses
 * it: the page allocator does, per run ({@link Buffers}); the count is said beside the figure so that
 * runs can be compared by it. Read from /proc/self/pagemap, whose frame numbers only root sees (others
 * read zeros: then unknown).
 */
final class PhysicalPieces {
    static final Path PAGEMAP = Path.of("/proc/self/pagemap");
    private static final long PRESENT = 1L << 63, PFN_MASK = (1L << 55) - 1;

    private PhysicalPieces() {}

    /**
     * The mean pieces per block over {@code count} blocks of {@code block} bytes from the start of
     * {@code buffers}, or null when the frame numbers cannot be read or a page is not in memory.
     */
    static Double perBlock(MemorySegment buffers, int block, int count, long pageSize) {
        long pages = block / pageSize;
        try (FileChannel ch = FileChannel.open(PAGEMAP, StandardOpenOption.READ)) {
            long total = 0;
            for (int b = 0; b < count; b++) {
                long first = (buffers.address() + (long) b * block) / pageSize;
                ByteBuffer bytes = ByteBuffer.allocate((int) (pages * 8)).order(ByteOrder.nativeOrder());
                while (bytes.hasRemaining()) {
                    if (ch.read(bytes, first * 8 + bytes.position()) < 0) return null;
                }
                long[] entries = new long[(int) pages];
                bytes.flip().asLongBuffer().get(entries);
                int n = pieces(entries);
                if (n < 0) return null;
                total += n;
            }
            return total / (double) count;
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    /**
     * The runs of consecutive frame numbers among pagemap entries, in order; -1 when a page is
     * not present or every frame number reads 0 (hidden from this user).
     */
    static int pieces(long[] entries) {
        int runs = 0;
        long prev = -2;
        boolean seen = false;
        for (long e : entries) {
            if ((e & PRESENT) == 0) return -1;
            long pfn = e & PFN_MASK;
            if (pfn != 0) seen = true;
            if (pfn != prev + 1) runs++;
            prev = pfn;
        }
        return seen ? runs : -1;
    }
}
