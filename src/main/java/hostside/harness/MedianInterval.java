package hostside.harness;

import java.util.Arrays;

/**
 * Where the true median of a figure lies, from its samples alone: the distribution-free interval
 * between two order statistics, [x(k), x(n+1-k)], which holds the median with probability
 * 1 - 2 P(Binomial(n, 1/2) &lt; k) whatever the samples' distribution, given only that they are
 * independent draws of one figure (Lehmann, Nonparametrics: Statistical Methods Based on Ranks,
 * 1975, pp. 182-183; Conover, Practical Nonparametric Statistics, 3rd ed., 1999). No normality is
 * assumed: copy and I/O samples are skewed, with a long tail of stalls.
 *
 * @param low        the interval's lower end, x(k)
 * @param median     the samples' median
 * @param high       its upper end, x(n+1-k)
 * @param confidence the probability that the true median lies within, 0 to 1
 * @param samples    how many samples it was drawn from
 */
public record MedianInterval(double low, double median, double high, double confidence, int samples) {
    /** The confidence the interval is drawn at when the samples allow it. */
    public static final double WANTED = 0.95;
    /**
     * The least confidence a settled figure needs: five samples give [min, max] at 93.75%, four
     * only 87.5%, so no figure settles on fewer than five.
     */
    public static final double LEAST = 0.90;

    /** The narrowest interval with at least {@link #WANTED} confidence; for fewer samples than that allows, [min, max] at what it has. */
    public static MedianInterval of(double[] values) {
        int n = values.length;
        if (n == 0) throw new IllegalArgumentException("no samples");
        double[] v = sorted(values);
        int k = rank(n);
        return new MedianInterval(v[k - 1], median(v), v[n - k], coverage(n, k), n);
    }

    /** The rank k of the narrowest interval [x(k), x(n+1-k)] of n samples with {@link #WANTED} confidence; 1 when none has it. */
    static int rank(int n) {
        int k = 1;
        while (k + 1 <= (n + 1) / 2 && coverage(n, k + 1) >= WANTED) k++;
        return k;
    }

    private static double[] sorted(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v;
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** The larger distance of {@code low} and {@code high} from {@code median}, as a share of it. */
    private static double halfWidth(double low, double median, double high) {
        double m = Math.abs(median);
        if (m == 0) return low == high ? 0 : Double.POSITIVE_INFINITY;
        return Math.max(median - low, high - median) / m;
    }

    /**
     * The half-width ({@link #halfWidth}) the interval would have at {@code reachable} samples if
     * they were spread as {@code values} are: the interval's order statistics at {@code reachable}
     * samples, x(k) and x(n+1-k), lie near the k/(n+1) and (n+1-k)/(n+1) quantiles of the samples'
     * distribution, read here from {@code values} by linear interpolation between their order
     * statistics (Hyndman and Fan's definition 6, 1996). Only an estimate, and one from few samples:
     * {@link Sampling} stops on it only with a margin.
     */
    public static double halfWidthAt(double[] values, int reachable) {
        int n = values.length;
        if (n == 0 || reachable < 1) throw new IllegalArgumentException(n + " samples, " + reachable + " reachable");
        double[] v = sorted(values);
        int k = rank(reachable);
        return halfWidth(quantile(v, (double) k / (reachable + 1)), median(v), quantile(v, (double) (reachable + 1 - k) / (reachable + 1)));
    }

    /** The p quantile of the sorted values: position p(n+1), between 1 and n, interpolated. */
    static double quantile(double[] sorted, double p) {
        int n = sorted.length;
        double h = Math.min(n, Math.max(1, p * (n + 1)));
        int below = (int) Math.floor(h);
        return below >= n ? sorted[n - 1] : sorted[below - 1] + (h - below) * (sorted[below] - sorted[below - 1]);
    }

    /** P(x(k) &lt;= median &lt;= x(n+1-k)) = 1 - 2 P(Binomial(n, 1/2) &lt;= k-1). */
    static double coverage(int n, int k) {
        double below = 0, term = Math.pow(0.5, n); // C(n, 0) / 2^n
        for (int j = 0; j < k; j++) {
            below += term;
            term = term * (n - j) / (j + 1);
        }
        return Math.max(0, 1 - 2 * below);
    }

    /** The interval's larger distance from the median, as a share of the median: 0.01 is "within 1%". */
    public double halfWidth() {
        return halfWidth(low, median, high);
    }

    /** Whether the median is known to {@code within} (a share) with at least {@link #LEAST} confidence. */
    public boolean within(double within) {
        return confidence >= LEAST && halfWidth() <= within;
    }
}
