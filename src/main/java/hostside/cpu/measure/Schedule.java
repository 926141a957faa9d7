package hostside.cpu.measure;

/**
 * cyclictest's tick schedule as {@code refs timer} keeps it: absolute deadlines a period
 * apart. After a wake-up the next deadline is the first one after the wake-up; those at or
 * before it have passed and are counted as missed rather than served at once (cyclictest
 * itself skips only those strictly before: the two differ on a wake-up at the very ns of a
 * deadline).
 */
final class Schedule {
    private final long period;
    private long deadline, missed;

    Schedule(long first, long period) {
        this.deadline = first;
        this.period = period;
    }

    long deadline() {
        return deadline;
    }

    long missed() {
        return missed;
    }

    /**
     * Moves past a wake-up at {@code woke} (at or after the deadline slept for); returns the
     * ticks skipped by it. Without a branch: a branch the warm-up never took (no tick missed
     * yet) would be compiled as a trap, and the first miss of the recording would send the
     * feeder back to the interpreter and the method to be compiled again mid-run.
     */
    long advance(long woke) {
        deadline += period;
        // woke >= deadline - period: the numerator is at least 0, and below period while woke < deadline
        long skipped = Math.max(0, (woke - deadline + period) / period);
        deadline += skipped * period;
        missed += skipped;
        return skipped;
    }
}
