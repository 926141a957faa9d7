package hostside.core;

import java.util.List;

/**
 * Many samples of one quantity, kept as their quantiles and a histogram (the launch-jitter
 * lateness, cyclictest's way): p50 and p99 say what a step usually pays, p99.9 and max what
 * the slowest step of a long run pays.
 *
 * @param unit      the unit of every value here
 * @param count     how many samples
 * @param p50       the median
 * @param p99       ...
 * @param p999      the 99.9th percentile
 * @param max       the largest sample
 * @param histogram counts over ranges of the value, in order; empty when none was kept
 */
public record Distribution(Unit unit, long count, double p50, double p99, double p999, double max, List<Bucket> histogram) {
    public Distribution {
        histogram = List.copyOf(histogram);
        if (!(p50 <= p99 && p99 <= p999 && p999 <= max)) throw new IllegalArgumentException("quantiles out of order: " + p50 + ", " + p99 + ", " + p999 + ", " + max);
    }

    /** Samples with a value in [from, to). */
    public record Bucket(double from, double to, long count) {}
}
