package hostside.cpu.measure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import hostside.core.Distribution;
import hostside.core.Unit;

/**
 * The launch-jitter series as {@link Distribution}s in ns: the quantiles cyclictest prints, and a
 * histogram coarse enough to draw (a bar per range) yet fine enough to show the tail.
 */
public final class NsDistributions {
    private NsDistributions() {}

    /** Values below this share one bucket: nothing the feeder does takes less. */
    static final long FLOOR_NS = 100;
    /**
     * Bucket edges within each decade, in quarters (4 = 1.00, 5 = 1.25 ... 32 = 8.00): about ten a
     * decade, each 20-33% wider than the last, at round values so that a bar reads "50..60 us".
     */
    private static final int[] QUARTERS = {4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 40};

    /** The quantiles and histogram of {@code h}, whose values are ns. */
    public static Distribution of(Histogram h) {
        return new Distribution(Unit.NS, h.getTotalCount(), h.getValueAtPercentile(50), h.getValueAtPercentile(99), h.getValueAtPercentile(99.9),
                h.getMaxValue(), buckets(h));
    }

    /** The non-empty buckets, in order; each recorded value counts in the bucket its value falls in. */
    static List<Distribution.Bucket> buckets(Histogram h) {
        Map<Long, long[]> byFrom = new TreeMap<>();
        for (HistogramIterationValue v : h.recordedValues()) {
            long[] range = bucket(v.getValueIteratedTo());
            byFrom.computeIfAbsent(range[0], k -> new long[] {range[0], range[1], 0})[2] += v.getCountAtValueIteratedTo();
        }
        List<Distribution.Bucket> out = new ArrayList<>();
        for (long[] b : byFrom.values()) out.add(new Distribution.Bucket(b[0], b[1], b[2]));
        return out;
    }

    /** The bucket [from, to) that holds {@code ns}. */
    public static long[] bucket(long ns) {
        if (ns < FLOOR_NS) return new long[] {0, FLOOR_NS};
        long decade = FLOOR_NS;
        while (ns >= decade * 10) decade *= 10;
        // decade >= 100 and a multiple of 4: every edge is a whole number of ns
        for (int i = QUARTERS.length - 2; i >= 0; i--) {
            long from = decade / 4 * QUARTERS[i];
            if (ns >= from) return new long[] {from, decade / 4 * QUARTERS[i + 1]};
        }
        throw new IllegalStateException("no bucket for " + ns + " ns");
    }
}
