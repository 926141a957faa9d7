package hostside.report.compare;

import hostside.core.Better;
import hostside.core.Figure;
import hostside.core.Unit;

/**
 * How far a figure must sit from its group, in the bad direction, before it is an outlier, by what
 * kind of figure it is (design/compare.md, 3.2 rule 5): bandwidths move little between healthy
 * machines, latencies and syscall costs more, jitter tails most.
 */
public enum Tolerance {
    BANDWIDTH(0.05), LATENCY(0.10), TAIL(0.25);

    /** The relative deviation that counts, as a fraction of the group's median. */
    public final double tau;

    Tolerance(double tau) {
        this.tau = tau;
    }

    public static Tolerance of(Figure f) {
        // jitter tails, missed ticks, shares and counts scatter most between runs of one machine
        if (f.key().contains("jitter") || f.unit() == Unit.PERCENT || f.unit() == Unit.COUNT || f.unit() == Unit.BYTES) return TAIL;
        if (f.unit() == Unit.GB_PER_S || f.unit() == Unit.IOPS) return BANDWIDTH;
        return LATENCY;
    }

    /**
     * The deviation of {@code x} from {@code median} in the bad direction, as a fraction of the
     * median: positive when worse, negative or zero when as good or better.
     */
    public static double worse(double x, double median, Better better) {
        if (median == 0) return 0;
        double d = (x - median) / Math.abs(median);
        return better == Better.HIGHER ? -d : d;
    }
}
