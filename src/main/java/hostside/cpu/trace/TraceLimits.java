package hostside.cpu.trace;

import java.time.Duration;

import hostside.core.BadInputException;

/**
 * How far one traced run may go.
 *
 * @param duration     a command is stopped (with everything it started) after this long; an
 *                     attached process is traced for this long, then strace lets go of it
 * @param maxFileBytes the timed trace stops when its file passes this size (the figures then
 *                     cover the part written, and say so)
 * @param showOutput   pass the traced command's standard output through (else discarded);
 *                     its standard error is always kept, for the one-line errors
 */
public record TraceLimits(Duration duration, long maxFileBytes, boolean showOutput) {
    public static final long DEFAULT_MAX_FILE_BYTES = 200L << 20;

    public TraceLimits {
        if (duration == null || duration.isNegative() || duration.isZero()) throw new BadInputException("trace time limit must be positive");
        if (maxFileBytes <= 0) throw new BadInputException("trace file cap must be positive");
    }

    /** The given time, a 200 MiB file cap, the command's output discarded. */
    public static TraceLimits of(Duration duration) {
        return new TraceLimits(duration, DEFAULT_MAX_FILE_BYTES, false);
    }

    public TraceLimits withMaxFileBytes(long bytes) {
        return new TraceLimits(duration, bytes, showOutput);
    }

    public TraceLimits withOutput(boolean show) {
        return new TraceLimits(duration, maxFileBytes, show);
    }
}
