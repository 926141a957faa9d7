package hostside.memory;

/**
 * How STREAM's arrays got their size, kept in the result's detail: the rule, the cache size it
 * was applied to and where that size came from.
 *
 * @param from       what decided the size
 * @param cacheBytes the caches STREAM's rule was applied to (sysfs's last-level caches serving
 *                   the run, summed, or the measured knee); 0 where neither is known
 * @param knee       the measured latency curve where sysfs names no cache size; null otherwise
 */
public record ArraySizing(From from, long cacheBytes, CacheKnee.Knee knee) {

    /** What decided the arrays' size. */
    public enum From {
        /** Four times the last-level caches sysfs names (STREAM's rule). */
        SYSFS_CACHES,
        /** Four times the knee of a pointer chase's latency: sysfs names no cache size. */
        MEASURED_CACHES,
        /** The size given (--stream-array), to sit beside a STREAM build of that size. */
        ASKED
    }
}
