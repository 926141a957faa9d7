package hostside.checklist;

/** Counter growth over the window, turned into rates and shares. */
final class Rates {
    /**
     * Clock ticks per second in /proc's CPU times (USER_HZ): the kernel converts to this fixed
     * unit for user space whatever its internal HZ, and it is 100 on every architecture hostside
     * runs on (sysconf(_SC_CLK_TCK) answers the same).
     */
    static final double USER_HZ = 100;

    private Rates() {}

    static double seconds(Sample first, Sample last) {
        return (last.atNanos() - first.atNanos()) / 1e9;
    }

    /** Growth per second; a counter that went backwards (a reset, a reused name) gives 0, not a negative rate. */
    static double perSecond(long before, long after, double seconds) {
        return seconds <= 0 ? 0 : Math.max(0, after - before) / seconds;
    }

    /** CPU ticks over the window as percent of one CPU (pidstat's %CPU: 200 is two CPUs' worth). */
    static double cpuPercent(long ticksBefore, long ticksAfter, double seconds) {
        return perSecond(ticksBefore, ticksAfter, seconds) / USER_HZ * 100;
    }

    /** {@code part} as percent of {@code whole}; 0 when the whole did not grow. */
    static double share(long part, long whole) {
        return whole <= 0 ? 0 : 100.0 * Math.max(0, part) / whole;
    }

    /** Rounded for output: figures that vary run to run are not worth more digits. */
    static double round(double v, int decimals) {
        double f = Math.pow(10, decimals);
        return Math.round(v * f) / f;
    }

    static Double round(Double v, int decimals) {
        return v == null ? null : round(v.doubleValue(), decimals);
    }
}
