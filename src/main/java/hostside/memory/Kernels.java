package hostside.memory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * STREAM's four kernels and a read-only pass, over doubles in native memory, each on one thread's
 * slice. Written as C2 compiles best over a MemorySegment: an int induction variable and a long
 * byte address. JDK 25's C2 does not vectorise double loads and stores of a native segment
 * (measured: an in-cache scale runs at a third of the same loop over a double[]); out of cache it
 * does not matter, as the loop waits on memory, not on arithmetic (docs/measurements/2026-12-04-memory-vs-stream.md).
 */
final class Kernels {
    static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE;
    static final double SCALAR = 3.0;

    private Kernels() {}

    /** STREAM's initial values, by the thread that will use the slice: its first touch places the pages. */
    static void init(MemorySegment a, MemorySegment b, MemorySegment c) {
        int n = (int) (a.byteSize() / 8);
        for (int i = 0; i < n; i++) {
            long at = 8L * i;
            a.set(D, at, 1.0);
            b.set(D, at, 2.0);
            c.set(D, at, 0.0);
        }
    }

    /** c = a */
    static void copy(MemorySegment a, MemorySegment c) {
        int n = (int) (a.byteSize() / 8);
        for (int i = 0; i < n; i++) {
            long at = 8L * i;
            c.set(D, at, a.get(D, at));
        }
    }

    /** b = scalar * c */
    static void scale(MemorySegment b, MemorySegment c) {
        int n = (int) (b.byteSize() / 8);
        for (int i = 0; i < n; i++) {
            long at = 8L * i;
            b.set(D, at, SCALAR * c.get(D, at));
        }
    }

    /** c = a + b */
    static void add(MemorySegment a, MemorySegment b, MemorySegment c) {
        int n = (int) (a.byteSize() / 8);
        for (int i = 0; i < n; i++) {
            long at = 8L * i;
            c.set(D, at, a.get(D, at) + b.get(D, at));
        }
    }

    /** a = b + scalar * c */
    static void triad(MemorySegment a, MemorySegment b, MemorySegment c) {
        int n = (int) (a.byteSize() / 8);
        for (int i = 0; i < n; i++) {
            long at = 8L * i;
            a.set(D, at, b.get(D, at) + SCALAR * c.get(D, at));
        }
    }

    /** Fills a slice with 1.0 (the read-only kernel's data, touched by its reader). */
    static void fill(MemorySegment a) {
        int n = (int) (a.byteSize() / 8);
        for (int i = 0; i < n; i++) a.set(D, 8L * i, 1.0);
    }

    /**
     * Bytes a reader copies at a time: a quarter of the smallest L1 data cache of the cores
     * hostside meets (32 KiB), so that the buffer stays in L1 beside the loop's own lines. On the
     * dev VM 1 to 16 KiB ran alike and 32 KiB (the whole L1) 10% slower.
     */
    static final int READ_CHUNK = 8 << 10;

    /**
     * Reads every byte of {@code slice} once and writes none of it to memory: copies it,
     * {@link #READ_CHUNK} bytes at a time, into {@code buffer}, which stays in the L1 cache, so that
     * the only memory traffic is the reads (MLC's all-reads). The copy is the JDK's intrinsic,
     * which loads in the widest vectors the CPU has, as MLC and the C reference do. A loop of
     * double loads would not do: C2 does not vectorise it over native memory in JDK 25, and on the
     * dev VM's EPYC the count of loads per line bounds one core's reads (one thread over 1 GiB:
     * 8-byte loads 17-18 GB/s, in Java and in C alike; 16- and 32-byte loads 21.6-23.3).
     *
     * @param buffer at least {@link #READ_CHUNK} bytes, the calling thread's own
     * @return the buffer's first double: what the last chunk held there, for the caller's check
     */
    static double read(MemorySegment slice, MemorySegment buffer) {
        long size = slice.byteSize();
        long at = 0;
        for (; at + READ_CHUNK <= size; at += READ_CHUNK) MemorySegment.copy(slice, at, buffer, 0, READ_CHUNK);
        if (at < size) MemorySegment.copy(slice, at, buffer, 0, size - at);
        return buffer.get(D, 0);
    }

    /**
     * A dependent chain of {@code loads} loads from {@code start}: each line holds the byte offset
     * of the next, so no load can start before the one before it ends.
     */
    static long chase(MemorySegment lines, long start, int loads) {
        long at = start;
        for (int k = 0; k < loads; k++) at = lines.get(ValueLayout.JAVA_LONG, at);
        return at;
    }
}
