package hostside.core;

import java.util.OptionalLong;

/**
 * What no machine can have, for checking sizes that a user types or a recording says before
 * anything multiplies or adds them: a long wraps past 2^63 without a word, and a wrapped size
 * passes every "is there room" test it should fail.
 */
public final class Bounds {
    private Bounds() {}

    /**
     * 4 PiB: x86-64 and Arm64 address at most 52 bits of physical memory, so no machine's memory,
     * and nothing that must fit in it (a cache, a batch of data), is larger. Sums of fewer than
     * 2^11 such sizes cannot wrap.
     */
    public static final long MEMORY_BYTES = 1L << 52;

    /** The sum, or empty where it would pass 2^63: no total of a real machine's sizes does. */
    public static OptionalLong sum(long... values) {
        long s = 0;
        try {
            for (long v : values) s = Math.addExact(s, v);
        } catch (ArithmeticException e) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(s);
    }
}
