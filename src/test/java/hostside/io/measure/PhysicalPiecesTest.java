package hostside.io.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Test;

import hostside.libc.Libc;
import hostside.testing.Tools;

/** Counting a buffer's physically contiguous pieces from pagemap entries, and the buffers made as fio's. */
class PhysicalPiecesTest {
    static final long P = 1L << 63;

    @Test
    void consecutiveFramesAreOnePieceAndEveryGapStartsAnother() {
        assertThat(PhysicalPieces.pieces(new long[] {P | 100, P | 101, P | 102, P | 103})).isEqualTo(1);
        assertThat(PhysicalPieces.pieces(new long[] {P | 100, P | 101, P | 500, P | 501})).isEqualTo(2);
        assertThat(PhysicalPieces.pieces(new long[] {P | 103, P | 102, P | 101, P | 100})).as("descending frames are four segments").isEqualTo(4);
        // the flag bits above the frame number (soft-dirty 55, exclusive 56) are not part of it
        assertThat(PhysicalPieces.pieces(new long[] {P | (1L << 55) | 7, P | 8})).isEqualTo(1);
    }

    @Test
    void hiddenOrAbsentPagesAreUnknown() {
        assertThat(PhysicalPieces.pieces(new long[] {P, P, P})).as("frame numbers read 0 for a user without CAP_SYS_ADMIN").isEqualTo(-1);
        assertThat(PhysicalPieces.pieces(new long[] {P | 5, 6})).as("a page not in memory").isEqualTo(-1);
    }

    @Test
    void theBuffersAreOnePageAlignedRegionLeftForTheReadsToFaultIn() {
        long page = Libc.pageSize();
        MemorySegment b = Buffers.map(1 << 20, 2);
        try {
            assertThat(b.address() % page).as("O_DIRECT needs aligned buffers").isZero();
            assertThat(b.byteSize()).isEqualTo(2L << 20);
            assertThat(Libc.residentPages(b, page)).as("untouched, as a read job's buffer in fio: the first reads fault it in").isZero();
        } finally {
            Libc.munmap(b);
        }
    }

    @Test
    void thePiecesOfABufferTouchedInOrderAreCounted() {
        Tools.require(Tools.isRoot(), "root (frame numbers in /proc/self/pagemap are root's)");
        long page = Libc.pageSize();
        int block = 1 << 20, depth = 4;
        MemorySegment map = Buffers.map(block, depth);
        try {
            assertThat(PhysicalPieces.perBlock(map, block, depth, page)).as("a page not in memory: unknown").isNull();
            for (long off = 0; off < map.byteSize(); off += page) map.set(ValueLayout.JAVA_BYTE, off, (byte) 1);
            Double pieces = PhysicalPieces.perBlock(map, block, depth, page);
            assertThat(pieces).as("pieces per 1 MiB buffer: at least one, at most a page each").isNotNull().isBetween(1.0, (double) block / page);
        } finally {
            Libc.munmap(map);
        }
    }
}
