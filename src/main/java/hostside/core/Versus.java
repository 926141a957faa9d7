package hostside.core;

/**
 * How one figure stands against another, by the rule every verdict that compares two figures
 * follows: a difference counts only when it exceeds both figures' spread (max - min of their
 * samples). Inside that, the two are even within noise, and a verdict says so instead of
 * calling a winner that the next run may reverse.
 */
public enum Versus {
    /** the first figure's median is above the second's by more than either spread */
    ABOVE,
    /** below by more than either spread */
    BELOW,
    /** the difference is within the larger of the two spreads: not a difference */
    EVEN;

    /** {@code a} against {@code b}. */
    public static Versus of(Stats a, Stats b) {
        double diff = a.median() - b.median();
        double noise = Math.max(a.spread(), b.spread());
        if (Math.abs(diff) <= noise) return EVEN;
        return diff > 0 ? ABOVE : BELOW;
    }

    /**
     * {@code a} against {@code b}, where a difference must also exceed {@code minRatio} of the
     * smaller median to matter (a verdict's own threshold, e.g. 0.2 for "20% apart"): EVEN when
     * either test fails.
     */
    public static Versus of(Stats a, Stats b, double minRatio) {
        Versus v = of(a, b);
        if (v == EVEN) return EVEN;
        double lo = Math.min(Math.abs(a.median()), Math.abs(b.median()));
        return Math.abs(a.median() - b.median()) > minRatio * lo ? v : EVEN;
    }

    /** Which is better under {@code better}: ABOVE means {@code a} is the better of the two. */
    public static Versus better(Stats a, Stats b, Better better) {
        Versus v = of(a, b);
        return better == Better.LOWER && v != EVEN ? (v == ABOVE ? BELOW : ABOVE) : v;
    }
}
