package hostside.doc;

import java.util.ArrayList;
import java.util.List;

/**
 * Maps values of one axis onto pixels, linearly or logarithmically, and picks the tick values worth
 * labelling. Kept apart from the SVG drawing so the geometry can be tested with numbers, not
 * pictures: 1 MiB sits halfway between 4 KiB and 256 MiB on a log axis, and a linear axis up to
 * 47 GB/s is labelled 0, 10, 20, 30, 40, 50.
 */
final class Scale {
    /** Steps between labelled exponents on a log axis: every power, every other, ... */
    private static final int[] LOG_STEPS = {1, 2, 5, 10, 20, 50, 100};

    private final double lo;
    private final double hi;
    private final double from;
    private final double to;
    private final boolean log;
    private final double base;
    /** The step niceLinear widened the domain to, so ticks land on both ends; 0 to work it out. */
    private final double step;

    private Scale(double lo, double hi, double from, double to, boolean log, double base, double step) {
        if (!(lo < hi)) throw new IllegalArgumentException("an empty domain " + lo + ".." + hi);
        if (log && lo <= 0) throw new IllegalArgumentException("a log domain from " + lo);
        this.lo = lo;
        this.hi = hi;
        this.from = from;
        this.to = to;
        this.log = log;
        this.base = base;
        this.step = step;
    }

    /** Values lo..hi onto pixels from..to (to may be below from: SVG's y grows downwards). */
    static Scale linear(double lo, double hi, double from, double to) {
        return new Scale(lo, hi, from, to, false, 10, 0);
    }

    /** Logarithmic; base 2 labels sizes at powers of two (4 KiB, 1 MiB), base 10 the rest. */
    static Scale log(double lo, double hi, double from, double to, double base) {
        return new Scale(lo, hi, from, to, true, base, 0);
    }

    /** Linear, the domain widened to whole steps of its ticks, so the top tick is above the top value. */
    static Scale niceLinear(double lo, double hi, double from, double to, int maxTicks) {
        double step = niceStep(hi - lo, maxTicks);
        double l = Math.floor(lo / step + 1e-9) * step;
        double h = Math.ceil(hi / step - 1e-9) * step;
        return new Scale(l, h > l ? h : l + step, from, to, false, 10, step);
    }

    /** Logarithmic, the domain widened to whole powers of the base. */
    static Scale niceLog(double lo, double hi, double from, double to, double base) {
        double l = Math.pow(base, Math.floor(exponent(lo, base) + 1e-9));
        double h = Math.pow(base, Math.ceil(exponent(hi, base) - 1e-9));
        return log(l, h > l ? h : l * base, from, to, base);
    }

    double lo() {
        return lo;
    }

    double hi() {
        return hi;
    }

    boolean isLog() {
        return log;
    }

    /** The pixel of a value; on a log axis, values at or below zero go to the axis' start. */
    double map(double v) {
        double t = log ? (v <= 0 ? 0 : (Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo))) : (v - lo) / (hi - lo);
        return from + t * (to - from);
    }

    /**
     * Tick values inside the domain, about {@code maxTicks} at most (a domain niceLinear widened may
     * take one more). Linear: multiples of 1, 2 or 5 times a power of ten. Log: powers of the base,
     * every k-th power when there are too many; 1, 2, 5 times the powers when a base-10 axis spans
     * only a decade or two; linear ticks when a log axis does not even hold two of those.
     */
    List<Double> ticks(int maxTicks) {
        if (log) {
            int first = (int) Math.ceil(exponent(lo, base) - 1e-9);
            int last = (int) Math.floor(exponent(hi, base) + 1e-9);
            if (base == 10 && last - first <= 2) {
                // one or two decades: 1, 2, 5, 10, 20, 50 label the axis better than two lone powers
                List<Double> t = new ArrayList<>();
                for (int e = first - 1; e <= last; e++) {
                    for (double m : new double[] {1, 2, 5}) {
                        double v = m * Math.pow(10, e);
                        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) t.add(v);
                    }
                }
                if (t.size() >= 2 && t.size() <= maxTicks) return t;
            }
            if (last - first >= 1) {
                for (int k : LOG_STEPS) {
                    List<Double> t = new ArrayList<>();
                    for (int e = Math.ceilDiv(first, k) * k; e <= last; e += k) t.add(Math.pow(base, e));
                    if (t.size() < 2) break;
                    if (t.size() <= maxTicks || k == LOG_STEPS[LOG_STEPS.length - 1]) return t;
                }
            }
        }
        double step = this.step > 0 ? this.step : niceStep(hi - lo, maxTicks);
        List<Double> t = new ArrayList<>();
        for (long i = (long) Math.ceil(lo / step - 1e-9); i * step <= hi + step * 1e-9; i++) t.add(i * step);
        return t;
    }

    /** The smallest of 1, 2, 5 times a power of ten that cuts span into at most maxTicks - 1 steps. */
    static double niceStep(double span, int maxTicks) {
        if (!(span > 0)) return 1;
        double raw = span / Math.max(1, maxTicks - 1);
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * p >= raw * (1 - 1e-9)) return m * p;
        }
        return 10 * p;
    }

    private static double exponent(double v, double base) {
        return Math.log(v) / Math.log(base);
    }
}
