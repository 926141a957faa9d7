package hostside.harness;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.security.SecureRandom;
import java.util.SplittableRandom;

/**
 * The bytes of a test file. One random chunk (a block, 1 MiB for the drills) written over and
 * over would let a deduplicating or compressing store (a virtual disk, ZFS, a storage array)
 * keep one copy and serve cold reads from its cache, and a file of zeros would be flattered the
 * same way. So every 4 KiB page of every block is stamped in its first 16 bytes with its offset in
 * the file and a value mixed from the file's own random seed: no two pages of a file, or of two
 * files, are equal, and the random rest leaves nothing to compress. fio's default
 * ({@code scramble_buffers}) does the same kind of thing, a few changed bytes per I/O.
 * <p>
 * Cheap on purpose: {@link #stamp} is two 8-byte stores per page, 512 per MiB (2 us per MiB
 * measured on a small 2-core VM), where writing that MiB takes a hundred microseconds or more; the
 * write measurement stamps between its timed pwrite calls anyway. The random fill (milliseconds
 * per MiB) is done once per file, before anything is timed. What it does not defeat: a store
 * that deduplicates variable-size chunks could still match the unstamped 4080-byte runs that
 * repeat once per block.
 */
public final class TestData {
    public static final int PAGE = 4096;
    private static final SecureRandom SEEDS = new SecureRandom();
    private final MemorySegment block;
    private final long seed;

    /** Fills {@code block} (a whole number of pages) with random bytes from a new random seed. */
    public TestData(MemorySegment block) {
        this(block, SEEDS.nextLong());
    }

    TestData(MemorySegment block, long seed) {
        if (block.byteSize() % PAGE != 0) throw new IllegalArgumentException("a block of whole 4 KiB pages: " + block.byteSize());
        this.block = block;
        this.seed = seed;
        SplittableRandom rnd = new SplittableRandom(seed);
        for (long i = 0; i < block.byteSize(); i += 8) block.set(ValueLayout.JAVA_LONG_UNALIGNED, i, rnd.nextLong());
    }

    public MemorySegment block() {
        return block;
    }

    /** Makes the block the bytes for file offset {@code fileOffset}: each page gets its own stamp. */
    public void stamp(long fileOffset) {
        for (long p = 0; p < block.byteSize(); p += PAGE) {
            long at = fileOffset + p;
            block.set(ValueLayout.JAVA_LONG_UNALIGNED, p, at);
            block.set(ValueLayout.JAVA_LONG_UNALIGNED, p + 8, mix(seed + at));
        }
    }

    /** SplittableRandom's (Stafford's) 64-bit finaliser: neighbouring offsets give unrelated values. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
