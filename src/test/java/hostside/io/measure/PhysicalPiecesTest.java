package hostside.io.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Test;

import hostside.fs.FsRoot;
import hostside.libc.Libc;
import hostside.testing.Tools;

/** Counting a buffer's physically contiguous pieces from pagemap entries, and the buffers: in base pages as fio's --iomem=mmap, or whole. */
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
        try (Buffers b = Buffers.map(1 << 20, 2)) {
            assertThat(b.blocks().address() % page).as("O_DIRECT needs aligned buffers").isZero();
            assertThat(b.blocks().byteSize()).isEqualTo(2L << 20);
            assertThat(Libc.residentPages(b.blocks(), page)).as("untouched, as a read job's buffer in fio: the first reads fault it in").isZero();
        }
    }

    @Test
    void wholeBuffersStartOnAHugePageInsideTheirMappingAndAreLeftUntouched() {
        long page = Libc.pageSize();
        HugePage huge = new HugePage(2L << 20);
        try (Buffers b = Buffers.whole(1 << 20, 3, huge)) {
            assertThat(b.blocks().address() % huge.bytes()).as("a huge page can back each block only from a huge-page boundary").isZero();
            assertThat(b.blocks().byteSize()).isEqualTo(3L << 20);
            assertThat(b.blocks().address()).isGreaterThanOrEqualTo(b.mapping().address());
            assertThat(b.blocks().address() + 2 * huge.bytes()).as("two whole huge pages for 3 MiB, inside the mapping")
                    .isLessThanOrEqualTo(b.mapping().address() + b.mapping().byteSize());
            assertThat(Libc.residentPages(b.blocks(), page)).isZero();
        }
        assertThat(Buffers.alignment(0x200000, 0x200000)).isZero();
        assertThat(Buffers.alignment(0x201000, 0x200000)).isEqualTo(0x1ff000);
    }

    @Test
    void thePiecesOfABufferTouchedInOrderAreCounted() {
        Tools.require(Tools.isRoot(), "root (frame numbers in /proc/self/pagemap are root's)");
        long page = Libc.pageSize();
        int block = 1 << 20, depth = 4;
        try (Buffers b = Buffers.map(block, depth)) {
            MemorySegment map = b.blocks();
            assertThat(PhysicalPieces.perBlock(map, block, depth, page)).as("a page not in memory: unknown").isNull();
            for (long off = 0; off < map.byteSize(); off += page) map.set(ValueLayout.JAVA_BYTE, off, (byte) 1);
            Double pieces = PhysicalPieces.perBlock(map, block, depth, page);
            assertThat(pieces).as("pieces per 1 MiB buffer: at least one, at most a page each").isNotNull().isBetween(1.0, (double) block / page);
        }
    }

    @Test
    void aWholeBufferIsOnePieceABlock() {
        Tools.require(Tools.isRoot(), "root (frame numbers in /proc/self/pagemap are root's)");
        HugePage huge = HugePage.read(FsRoot.live()).orElse(null);
        Tools.require(huge != null, "transparent huge pages of at most 4 MiB (THP always or madvise)");
        long page = Libc.pageSize();
        int block = 1 << 20, depth = 2;
        try (Buffers b = Buffers.whole(block, depth, huge)) {
            MemorySegment map = b.blocks();
            for (long off = 0; off < map.byteSize(); off += page) map.set(ValueLayout.JAVA_BYTE, off, (byte) 1);
            assertThat(PhysicalPieces.perBlock(map, block, depth, page)).as("each 1 MiB block inside one huge page (" + huge + ")").isEqualTo(1.0);
        }
    }
}
