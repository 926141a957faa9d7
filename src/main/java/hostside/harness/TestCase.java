package hostside.harness;

import java.time.Duration;
import java.util.Optional;

import hostside.core.Better;

/**
 * One measurement, nvbandwidth's way: a key to select it by, a description, a filter that says
 * why it does not apply to this machine, and a run. {@code C} is what it runs against.
 */
public interface TestCase<C> {
    String key();

    String description();

    /** Empty when the test applies; else the reason, shown as "not run: reason". */
    default Optional<String> notApplicable(C target) {
        return Optional.empty();
    }

    Result run(C target);

    /**
     * How long a run of this case takes on {@code target}, where the case fixes it beforehand: the
     * window it records for (a jitter run's ticks at their period, a timed read's samples). Empty
     * where only running it tells (a loop repeated until its figures hold); progress then learns
     * such a case's length from those of its drill that ran. Read before the cases run, for the
     * time left: it must cost nothing and touch nothing.
     */
    default Optional<Duration> cost(C target) {
        return Optional.empty();
    }

    /**
     * The established tool's test that measures the same thing the same way ("nvbandwidth
     * host_to_device_memcpy_ce"); null when none does. A case whose peer depends on the target (a
     * fio job names the file's size) gives it in its result instead.
     */
    default String anchor() {
        return null;
    }

    /** Which way this figure is better; null to follow its unit (GB/s higher, ns lower). */
    default Better better() {
        return null;
    }

    /** The record its results' detail holds; null for a case that keeps none. */
    default Class<? extends Detail> detailType() {
        return null;
    }
}
