package hostside.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The time left of a drill's cases, from the cases' own costs: each case's expected length (the
 * cost it declares, or else the mean of the drill's cases without one that ran), summed over the
 * cases not yet ended, less what the current one has taken. A state machine fed the harness's
 * events with the time of each, so that it is tested with a clock moved by hand.
 * <p>
 * Never a still figure: what it says counts down with the clock, between cases too (a GPU's set-up
 * eats into the next case's share), and once a case runs past what it was expected to take, the
 * sum has lost its footing and it says nothing until that case ends and the sum is made again.
 * Before, the per-case average of every case held "about 2.0 s left" for the 10 s a long case
 * ran, and a drill of short cases then long ones went from 16 s to 44 s left.
 */
final class TimeLeft {
    /** The declared costs of this run of the harness, in order; empty where no plan came. */
    private final List<Optional<Duration>> planned = new ArrayList<>();
    private int index, count;
    private boolean running;
    /** When the current case began, or when the last one ended: where the countdown runs from. */
    private long since;
    /** Cases without a declared cost that ran in this drill, and their time: the length such a case is expected to take. */
    private int learned;
    private long learnedNanos;

    /** A new drill: its cases are unlike the last drill's. */
    void drill() {
        planned.clear();
        index = count = 0;
        running = false;
        learned = 0;
        learnedNanos = 0;
    }

    /** A run of the harness begins (one drill may run it once per GPU): its cases' costs. */
    void planned(List<Optional<Duration>> costs, long now) {
        planned.clear();
        planned.addAll(costs);
        index = 0;
        count = costs.size();
        running = false;
        since = now;
    }

    void started(int index, int count, long now) {
        this.index = index;
        this.count = count;
        running = true;
        since = now;
    }

    /** @param ran whether it ran (a case that does not apply took no time, and teaches nothing) */
    void ended(int index, int count, boolean ran, long nanos, long now) {
        this.index = index;
        this.count = count;
        running = false;
        since = now;
        if (ran && declared(index).isEmpty()) {
            learned++;
            learnedNanos += nanos;
        }
    }

    /** Not inside a run of the harness (a step of the drill's own): nothing to count. */
    void outside() {
        index = count = 0;
        running = false;
        planned.clear();
    }

    /**
     * What is left at {@code now}: empty before it can be said (a case of unknown length ahead and
     * none learned yet), once all ended, and while the sum is overrun.
     */
    OptionalLong left(long now) {
        if (count == 0 || index >= count && !running) return OptionalLong.empty();
        long sum = 0;
        for (int i = running ? index : index + 1; i <= count; i++) {
            OptionalLong e = expected(i);
            if (e.isEmpty()) return OptionalLong.empty();
            sum += e.getAsLong();
        }
        long rest = sum - (now - since);
        // past what the current case (or the gap before the next) was given: the figure would stand still or lie
        if (rest <= sum - (running ? expected(index).getAsLong() : expected(index + 1).getAsLong())) return OptionalLong.empty();
        return OptionalLong.of(rest);
    }

    /** Case {@code i}'s (1-based) expected length: declared, or learned from the drill's other cases. */
    private OptionalLong expected(int i) {
        Optional<Duration> d = declared(i);
        if (d.isPresent()) return OptionalLong.of(d.get().toNanos());
        return learned == 0 ? OptionalLong.empty() : OptionalLong.of(learnedNanos / learned);
    }

    private Optional<Duration> declared(int i) {
        return planned.size() == count && i >= 1 && i <= planned.size() ? planned.get(i - 1) : Optional.empty();
    }
}
