package hostside.harness;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How a case's adaptive sample loops ended ({@link Sampling#untilSettled}): how many samples they
 * took and whether each median came to be known as closely as the case asked, or its time or
 * sample cap stopped it first. A case that runs several loops (one per memory node pair, one per
 * buffer size) reports the loop whose median is least well known.
 *
 * @param loops       how many adaptive loops the case ran
 * @param samples     samples kept by that loop
 * @param maxSamples  the most that loop would have taken
 * @param stop        what ended it
 * @param halfWidth   its median's interval's larger distance from the median, as a share of it (0.004 = 0.4%)
 * @param within      the share the case asked the interval to be within (0.01 = 1%)
 * @param confidence  the interval's confidence, 0 to 1 ({@link MedianInterval})
 * @param seconds     how long that loop's kept samples took, warm-ups aside
 */
public record Settling(int loops, int samples, int maxSamples, Stop stop, double halfWidth, double within, double confidence,
                       double seconds) {

    /**
     * What ended a loop: its median settled, it reached its most samples, its time ran out first,
     * or its samples so far were spread too widely for its median to settle by either
     * ({@link Sampling#OUT_OF_REACH}).
     */
    public enum Stop {
        SETTLED("settled"), MOST_SAMPLES("most samples"), TIME_CAP("time cap"), OUT_OF_REACH("out of reach");

        private final String word;

        Stop(String word) {
            this.word = word;
        }

        @JsonValue
        @Override
        public String toString() {
            return word;
        }

        @JsonCreator
        public static Stop parse(String s) {
            for (Stop v : values()) if (v.word.equals(s)) return v;
            throw new IllegalArgumentException("\"" + s + "\" is not settled, most samples, time cap or out of reach");
        }
    }

    /** Whether the loop's median came to be known within what the case asked. */
    @JsonIgnore
    public boolean settled() {
        return stop == Stop.SETTLED;
    }

    /** One loop's ending. */
    static Settling of(MedianInterval interval, int maxSamples, Stop stop, double within, long nanos) {
        return new Settling(1, interval.samples(), maxSamples, stop, interval.halfWidth(), within, interval.confidence(), nanos / 1e9);
    }

    /**
     * Where the loops of the case now running report, bound by {@link Runner} around each case; a
     * loop outside any case (a test, a tool) reports nowhere.
     */
    static final ScopedValue<List<Settling>> LOG = ScopedValue.newInstance();

    static void report(Settling s) {
        if (LOG.isBound()) LOG.get().add(s);
    }

    /** A fresh log for one case. */
    static List<Settling> newLog() {
        return new ArrayList<>();
    }

    /**
     * A case's loops as one: the unsettled loop whose median is least well known, else the settled
     * one with the widest interval; null when the case ran no adaptive loop.
     */
    static Settling summary(List<Settling> log) {
        if (log.isEmpty()) return null;
        Settling worst = log.stream().max(Comparator.comparing((Settling s) -> !s.settled()).thenComparingDouble(s -> s.halfWidth() / s.within()))
                .orElseThrow();
        return new Settling(log.size(), worst.samples, worst.maxSamples, worst.stop, worst.halfWidth, worst.within, worst.confidence, worst.seconds);
    }
}
