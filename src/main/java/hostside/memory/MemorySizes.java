package hostside.memory;

import java.util.Locale;

import hostside.core.Units;

/**
 * How much memory each of Module 1's memory measurements takes.
 *
 * <ul>
 * <li>STREAM's arrays: four times the caches, STREAM's rule ("Each array must be at least 4 times
 * the size of the available cache memory", stream.c 5.10, instruction 1a), never under 64 MiB,
 * and all three within a quarter of the memory available. The caches are the last-level caches
 * sysfs names for the run's CPUs, summed; where sysfs names no size (many VMs) they are measured
 * ({@link CacheKnee}), never assumed.</li>
 * <li>The read-only pass: 1 GiB, so that a pass over a fast machine's memory still lasts
 * milliseconds, and the chase's set: 256 MiB, so that few of its random loads find a line
 * still cached; each at least four times the caches like STREAM's arrays, and neither beyond
 * the three arrays together. The memory drill's peak is then STREAM's arrays, which is what the
 * report's memory is stated against (STREAM's arrays and at most 512 MiB besides).</li>
 * </ul>
 *
 * @param array  each of STREAM's three arrays
 * @param read   the read-only kernel's array
 * @param chase  the pointer chase's set
 * @param note   why the arrays are not four times the caches, or where the cache size came from; "" when sysfs's caches sized them as the rule says
 * @param sizing what the arrays' size was decided by, typed
 */
public record MemorySizes(long array, long read, long chase, String note, ArraySizing sizing) {
    /** Each of STREAM's arrays at least this many times the caches (STREAM's rule). */
    public static final int CACHE_MULTIPLE = 4;
    static final long MIN_ARRAY = 64L << 20, READ = 1L << 30, CHASE = 256L << 20;

    /**
     * @param sysfsCache the last-level caches serving the run, summed, as sysfs names them; 0 when it names none
     * @param knee       the measured curve where sysfs names none (null otherwise, or on a machine not measured)
     * @param available  the memory available (MemAvailable, or what the memory cgroup leaves)
     * @param asked      each array's size as given (--stream-array); null for STREAM's rule
     */
    public static MemorySizes of(long sysfsCache, CacheKnee.Knee knee, long available, long pageSize, Long asked) {
        long cache = sysfsCache > 0 ? sysfsCache : knee != null ? knee.kneeBytes() : 0;
        ArraySizing.From from = asked != null ? ArraySizing.From.ASKED : sysfsCache > 0 ? ArraySizing.From.SYSFS_CACHES : ArraySizing.From.MEASURED_CACHES;
        long room = available / 4;
        // the rule's arrays, which also bound the read and the chase when arrays of another size are asked for
        long ruled = round(Math.min(Math.max(CACHE_MULTIPLE * cache, MIN_ARRAY), room / 3), pageSize);
        long array = asked != null ? round(Math.min(asked, room / 3), pageSize) : ruled;
        long footprint = 3 * ruled;
        long read = round(Math.min(Math.max(CACHE_MULTIPLE * cache, READ), Math.min(footprint, room)), pageSize);
        long chase = round(Math.min(Math.max(CACHE_MULTIPLE * cache, CHASE), Math.min(footprint, room)), 2L << 20);
        return new MemorySizes(array, read, chase, note(sysfsCache, knee, cache, array, asked, room, pageSize), new ArraySizing(from, cache, knee));
    }

    private static String note(long sysfsCache, CacheKnee.Knee knee, long cache, long array, Long asked, long room, long pageSize) {
        String source = sysfsCache > 0 ? "" : knee != null ? "sysfs names no cache size (as in many VMs): " + knee.why() : "sysfs names no cache size and none was measured";
        String caches = sysfsCache > 0 ? "the last-level caches" : "the measured caches";
        boolean asAsked = asked != null && array == round(asked, pageSize);
        String small = cache <= 0 || array >= CACHE_MULTIPLE * cache ? ""
                : String.format(Locale.ROOT, "arrays of %s%s, less than STREAM's four times %s (%s): %s", Units.bytes(array), asAsked ? " as asked" : "",
                caches, Units.bytes(CACHE_MULTIPLE * cache), asAsked ? "part of each pass may come from the cache" : "a quarter of the available memory is " + Units.bytes(room));
        return source.isEmpty() || small.isEmpty() ? source + small : source + "; " + small;
    }

    private static long round(long bytes, long unit) {
        return Math.max(unit, bytes / unit * unit);
    }
}
