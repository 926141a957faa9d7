package hostside.core;

import java.util.Arrays;

/** A figure from several samples: the median, with the min and max beside it. Never one sample. */
public record Stats(double median, double min, double max, int samples) {

    public static Stats of(double... values) {
        if (values.length == 0) throw new IllegalArgumentException("no samples");
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        return new Stats(median, v[0], v[n - 1], n);
    }

    /** Whether these samples and {@code other}'s do not overlap: only then may a verdict call a difference ({@link Figure#differsFrom}). */
    public boolean differsFrom(Stats other) {
        return max < other.min || other.max < min;
    }

    /** max - min: how far the samples of this figure ran apart; what a difference must exceed to count ({@link Versus}). */
    public double spread() {
        return max - min;
    }
}
