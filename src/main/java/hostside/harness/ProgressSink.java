package hostside.harness;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Where a drill says how far it is: the {@link Runner} reports each test case as it starts and
 * ends, a drill its other long steps (writing a test file). What is shown, and how, belongs to
 * the command line (hostside.cli.Progress); this side only describes events, so the harness
 * depends on nothing above it. One abstract method, so a test can pass {@code e -> {}}.
 */
@FunctionalInterface
public interface ProgressSink {
    /** Something that happened; records so that a test can compare them. */
    sealed interface Event permits DrillStarted, CasesPlanned, CaseStarted, CaseEnded, Step {}

    /** The outer level of a run of several drills (the report): drill {@code index} of {@code count}. */
    record DrillStarted(String name, int index, int count) implements Event {}

    /**
     * The cases of this run of the harness, before the first starts: each one's {@link TestCase#cost},
     * in order, empty where the case cannot say. What the time left is summed from.
     */
    record CasesPlanned(List<Optional<Duration>> costs) implements Event {
        public CasesPlanned {
            costs = List.copyOf(costs);
        }
    }

    /**
     * @param label  the case's key, with where it runs ("h2d_pinned on GPU0")
     * @param index  1-based place of the case among the {@code count} of this run of the harness
     */
    record CaseStarted(String label, int index, int count) implements Event {}

    /** @param status {@link Result#status()}; {@code nanos} how long the case took (not run: ~0) */
    record CaseEnded(String label, int index, int count, Status status, long nanos) implements Event {}

    /** A step of a drill that is not a test case, e.g. "writing the 1 GiB test file". */
    record Step(String what) implements Event {}

    void accept(Event e);

    ProgressSink NONE = e -> {};

    default void drill(String name, int index, int count) {
        accept(new DrillStarted(name, index, count));
    }

    default void step(String what) {
        accept(new Step(what));
    }

    /** The same sink with " on WHERE" after each case's key: the same cases run on each GPU. */
    default ProgressSink on(String where) {
        ProgressSink outer = this;
        return e -> outer.accept(switch (e) {
            case CaseStarted s -> new CaseStarted(s.label() + " on " + where, s.index(), s.count());
            case CaseEnded d -> new CaseEnded(d.label() + " on " + where, d.index(), d.count(), d.status(), d.nanos());
            case Step s -> s;
            case DrillStarted d -> d;
            case CasesPlanned c -> c;
        });
    }
}
