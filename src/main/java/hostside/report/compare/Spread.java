package hostside.report.compare;

import hostside.core.Stats;

/**
 * The centre and spread of one figure across the machines of a group, robust to the outliers it
 * is used to find: the median and the median absolute deviation (NIST e-Handbook 1.3.5.6).
 *
 * @param n      how many values
 * @param median their median
 * @param mad    median |x - median|; 0 when more than half the values are equal
 * @param min    the smallest value
 * @param max    the largest value
 */
public record Spread(int n, double median, double mad, double min, double max) {

    /** MAD times this estimates the standard deviation of normal data (1 / 0.6745, Iglewicz and Hoaglin). */
    static final double MAD_TO_SIGMA = 1.4826;
    /** The spread never counts as less than this share of the median, so that MAD = 0 flags nothing by itself. */
    static final double RELATIVE_FLOOR = 0.01;
    /** Iglewicz and Hoaglin's cut for the modified z-score. */
    static final double Z_CUT = 3.5;

    public static Spread of(double... values) {
        if (values.length == 0) throw new IllegalArgumentException("the spread of no value");
        Stats s = Stats.of(values);
        double[] dev = new double[values.length];
        for (int i = 0; i < values.length; i++) dev[i] = Math.abs(values[i] - s.median());
        return new Spread(values.length, s.median(), Stats.of(dev).median(), s.min(), s.max());
    }

    /**
     * The spread one value is judged against: 1.4826 MAD, floored by 1% of the median and by the
     * value's own half-range of samples (a figure that scattered within its own run cannot be
     * told from the group by less than that).
     */
    public double sigma(double ownHalfRange) {
        return Math.max(MAD_TO_SIGMA * mad, Math.max(RELATIVE_FLOOR * Math.abs(median), ownHalfRange));
    }

    /** |x - median| in units of {@link #sigma}: the modified z-score with its floors. */
    public double z(double x, double ownHalfRange) {
        double s = sigma(ownHalfRange);
        return s == 0 ? 0 : Math.abs(x - median) / s;
    }
}
