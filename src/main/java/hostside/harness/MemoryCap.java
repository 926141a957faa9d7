package hostside.harness;

import java.util.Locale;

/**
 * The most memory one measurement may hold at once, set by whoever runs a drill and not by the
 * drill itself: the report keeps its own memory to STREAM's arrays and 512 MiB besides, so each
 * of its other measurements gets a share of that. A drill run alone has none and bounds itself
 * by the machine (a quarter of available memory). A figure measured over less than its drill
 * would have taken says {@link #why()}.
 *
 * @param bytes the most one measurement's buffers, regions and mapped files may take together
 * @param why   the bound and its figure, for people ("the report's share for one measurement ...")
 */
public record MemoryCap(long bytes, String why) {
    public MemoryCap {
        if (bytes <= 0) throw new IllegalArgumentException(String.format(Locale.ROOT, "a memory cap of %d bytes", bytes));
    }

    /** {@code bytes}, or less where the cap is lower; {@code cap} may be null (no cap). */
    public static long min(MemoryCap cap, long bytes) {
        return cap == null ? bytes : Math.min(bytes, cap.bytes);
    }

    /** Whether {@code cap} (null: none) is what bounds a measurement that the machine alone would let take {@code machineBytes}. */
    public static boolean binds(MemoryCap cap, long machineBytes) {
        return cap != null && cap.bytes < machineBytes;
    }
}
