package hostside.memory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * STREAM's four kernels and a read-only sum, over doubles in native memory, each on one thread's
 * slice. Written as C2 compiles best over a MemorySegment: an int induction variable and a long
 * byte address. JDK 25's C2 does not vectorise double loads and stores of a native segment
 * (measured: an in-cache scale runs at a third of the same loop over a double[]); out of cache it
 * does not matter, as the loop waits on memory, not on arithmetic (docs/measurements, issue 18).
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
     * The sum of a slice: every byte read once, nothing written. Eight partial sums, so that the
     * loop waits on memory and not on the latency of one chain of additions.
     */
    static double sum(MemorySegment a) {
        int n = (int) (a.byteSize() / 8);
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
        int i = 0;
        for (; i + 7 < n; i += 8) {
            long at = 8L * i;
            s0 += a.get(D, at);
            s1 += a.get(D, at + 8);
            s2 += a.get(D, at + 16);
            s3 += a.get(D, at + 24);
            s4 += a.get(D, at + 32);
            s5 += a.get(D, at + 40);
            s6 += a.get(D, at + 48);
            s7 += a.get(D, at + 56);
        }
        for (; i < n; i++) s0 += a.get(D, 8L * i);
        return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
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
