package hostside.fs;

import java.util.Locale;

/**
 * The most bytes hostside takes from one file, live or recorded, and the reasons a read gives
 * when a file is not read ("too large", "not a regular file"), the same for every {@link Tree}.
 *
 * <p>Why 32 MiB. The largest files hostside reads are /proc/interrupts (one line per IRQ, 11
 * bytes per CPU: the H200 fixture's 16 CPUs and 41 lines make 8.6 KB; a 480-thread GPU node
 * with ~3000 MSI-X vectors, NVMe queues and NIC completion vectors per CPU, makes
 * 3000 x (480 x 11 + 60) bytes, about 16 MB), /proc/cpuinfo (about 1.5 KB per CPU: 0.7 MB at 480),
 * /proc/self/smaps and mountinfo (a few MB on a busy Kubernetes node) and PCI config spaces
 * (4 KiB). Twice the largest of them is 32 MiB; one read of that size costs about 64 MiB of heap
 * for a moment (the bytes and their String), which any machine hostside runs on can spare,
 * while a 3 GiB file, a FIFO or /dev/zero in a recording cost nothing.
 */
final class FileCap {
    static final int BYTES = 32 << 20;

    static final String NOT_REGULAR = "not a regular file (a FIFO, socket or device is never opened)";

    private FileCap() {}

    /** A file whose size says it is over the cap: it is not read at all. */
    static String tooLarge(long size) {
        return String.format(Locale.ROOT, "too large (%d bytes, cap %d)", size, BYTES);
    }

    /** A file that gave more than the cap while its size said less (all of /proc and /sys say 0 or 4096). */
    static String tooLargeRead() {
        return String.format(Locale.ROOT, "too large (more than %d bytes, cap %d)", BYTES, BYTES);
    }
}
