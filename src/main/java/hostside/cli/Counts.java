package hostside.cli;

import java.util.Locale;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The counts that several commands take, one definition each: the same option accepts the same range with the same
 * message everywhere ({@code --workers} of cpu, container and vm --explain cow; {@code --seconds} of cpu --trace and
 * checklist; a PID). They are converters so that picocli refuses a bad value while parsing: one line, exit code 2.
 */
public final class Counts {
    private Counts() {}

    /** DataLoader workers: 64 is what the cpu drill may fork on one machine; each worker is a process with a copy of its pages. */
    public static final int MIN_WORKERS = 1, MAX_WORKERS = 64;
    /** A sampling or tracing window: an hour is the longest that still makes sense to wait for. */
    public static final int MIN_SECONDS = 1, MAX_SECONDS = 3600;
    /** Linux's PID_MAX_LIMIT (4194304, include/linux/threads.h): no PID is larger on any machine. */
    public static final long MAX_PID = 4_194_304L;

    public static final class Workers implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return (int) within(value, MIN_WORKERS, MAX_WORKERS);
        }
    }

    public static final class Seconds implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return (int) within(value, MIN_SECONDS, MAX_SECONDS);
        }
    }

    public static final class Pid implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return within(value, 1, MAX_PID);
        }
    }

    /** The value as a whole number from min to max, or one line that says the range. */
    public static long within(String value, long min, long max) {
        String range = String.format(Locale.ROOT, "choose %d to %d", min, max);
        long n;
        try {
            n = Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("\"" + value + "\" is not a whole number: " + range);
        }
        if (n < min || n > max) throw new TypeConversionException("\"" + value + "\" is out of range: " + range);
        return n;
    }
}
