package hostside.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import hostside.core.BadInputException;
import hostside.core.Stats;
import hostside.core.Unit;

class RunnerTest {
    /** A test case of a string target: its result from a function, or not applicable with a reason. */
    /** What a case ran against: its detail record. */
    record Ran(String target) implements Detail {}

    record Case(String key, String skip, Function<String, Double> figure) implements TestCase<String> {
        @Override
        public Class<? extends Detail> detailType() {
            return Ran.class;
        }

        static Case ok(String key, double v) {
            return new Case(key, null, t -> v);
        }

        public String description() {
            return "case " + key;
        }

        public Optional<String> notApplicable(String target) {
            return Optional.ofNullable(skip);
        }

        public Result run(String target) {
            return Result.ok(this, Unit.GB_PER_S, Stats.of(figure.apply(target)), "test", new Ran(target));
        }
    }

    /** The labels of the cases as they start. */
    static ProgressSink started(List<String> labels) {
        return e -> {
            if (e instanceof ProgressSink.CaseStarted s) labels.add(s.label());
        };
    }

    @Test
    void runsEachCaseInOrder() {
        List<String> progress = new ArrayList<>();
        List<Result> r = Runner.run(List.of(Case.ok("a", 1), Case.ok("b", 2), Case.ok("c", 3)), "gpu0", started(progress));
        assertThat(r).extracting(Result::key).containsExactly("a", "b", "c");
        assertThat(r).allSatisfy(x -> assertThat(x.isOk()).isTrue());
        assertThat(r.get(1).value().median()).isEqualTo(2);
        assertThat(r.get(1).detail()).isEqualTo(new Ran("gpu0"));
        assertThat(r.get(1).description()).isEqualTo("case b");
        assertThat(progress).containsExactly("a", "b", "c");
    }

    @Test
    void aCaseThatDoesNotApplyIsNotRunWithTheReason() {
        List<String> progress = new ArrayList<>();
        Case pageable = new Case("pageable", "no HMM or ATS on this machine", t -> {
            throw new AssertionError("must not run");
        });
        List<Result> r = Runner.run(List.of(pageable, Case.ok("b", 2)), "gpu0", started(progress));
        assertThat(r.get(0).status()).isEqualTo(Status.NOT_RUN);
        assertThat(r.get(0).why()).isEqualTo("no HMM or ATS on this machine");
        assertThat(r.get(0).isOk()).isFalse();
        assertThat(r.get(0).value()).isNull();
        assertThat(r.get(1).isOk()).isTrue();
        // progress names only what runs
        assertThat(progress).containsExactly("b");
    }

    @Test
    void eachCaseIsReportedAsItStartsAndEndsWithItsPlaceAmongTheCases() {
        List<ProgressSink.Event> events = new ArrayList<>();
        Case skipped = new Case("skipped", "does not apply", t -> 0.0);
        Case boom = new Case("boom", null, t -> {
            throw new IllegalStateException("no");
        });
        Runner.run(List.of(Case.ok("a", 1), skipped, boom), "gpu0", ((ProgressSink) events::add).on("GPU1"));
        assertThat(events).hasSize(6);
        // first the plan: none of these cases declares its length
        assertThat(events.remove(0)).isEqualTo(new ProgressSink.CasesPlanned(List.of(Optional.empty(), Optional.empty(), Optional.empty())));
        assertThat(events.get(0)).isEqualTo(new ProgressSink.CaseStarted("a on GPU1", 1, 3));
        assertThat(events.get(1)).isInstanceOfSatisfying(ProgressSink.CaseEnded.class, e -> {
            assertThat(e.label()).isEqualTo("a on GPU1");
            assertThat(List.of(e.index(), e.count())).containsExactly(1, 3);
            assertThat(e.status()).isEqualTo(Status.OK);
            assertThat(e.nanos()).isNotNegative();
        });
        // a case that does not apply never starts, but its end (not run) still counts it
        assertThat(events.get(2)).isInstanceOfSatisfying(ProgressSink.CaseEnded.class, e -> {
            assertThat(e.label()).isEqualTo("skipped on GPU1");
            assertThat(e.index()).isEqualTo(2);
            assertThat(e.status()).isEqualTo(Status.NOT_RUN);
        });
        assertThat(events.get(3)).isEqualTo(new ProgressSink.CaseStarted("boom on GPU1", 3, 3));
        assertThat(events.get(4)).isInstanceOfSatisfying(ProgressSink.CaseEnded.class, e -> assertThat(e.status()).isEqualTo(Status.FAILED));
    }

    @Test
    void aThrowingCaseFailsWithItsMessageAndTheRestStillRun() {
        Case boom = new Case("boom", null, t -> {
            throw new IllegalStateException("cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (2)");
        });
        Case npe = new Case("npe", null, t -> {
            throw new NullPointerException();
        });
        List<Result> r = Runner.run(List.of(Case.ok("a", 1), boom, npe, Case.ok("c", 3)), "gpu0", k -> { });
        assertThat(r).extracting(Result::key).containsExactly("a", "boom", "npe", "c");
        assertThat(r).extracting(Result::status).containsExactly(Status.OK, Status.FAILED, Status.FAILED, Status.OK);
        assertThat(r.get(1).why()).isEqualTo("cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (2)");
        // an exception without a message is named instead
        assertThat(r.get(2).why()).isEqualTo("java.lang.NullPointerException");
        assertThat(r.get(3).value().median()).isEqualTo(3);
    }

    @Test
    void selectKeepsTheOrderAsked() {
        List<Case> all = List.of(Case.ok("a", 1), Case.ok("b", 2), Case.ok("c", 3));
        assertThat(Runner.select(all, List.of("c", "a"))).extracting(Case::key).containsExactly("c", "a");
        assertThat(Runner.select(all, List.of("b"))).extracting(Case::key).containsExactly("b");
    }

    @Test
    void selectingNothingIsEverything() {
        List<Case> all = List.of(Case.ok("a", 1), Case.ok("b", 2));
        assertThat(Runner.select(all, List.of())).isEqualTo(all);
    }

    @Test
    void anUnknownKeyIsBadInputPointingAtList() {
        List<Case> all = List.of(Case.ok("a", 1), Case.ok("b", 2));
        assertThatThrownBy(() -> Runner.select(all, List.of("a", "host_to_devcie"))).isInstanceOf(BadInputException.class)
                .hasMessageContaining("host_to_devcie").hasMessageContaining("see --list");
    }

    /** A case that records for a window it knows: its length before it runs, for the time left. */
    record Windowed(String key, Duration window) implements TestCase<String> {
        public String description() {
            return "window " + key;
        }

        public Result run(String target) {
            return Result.ok(this, Unit.GB_PER_S, Stats.of(1), "test", (Detail) null);
        }

        @Override
        public Optional<Duration> cost(String target) {
            if (window == null) throw new IllegalStateException("cannot tell");
            return Optional.of(window);
        }
    }

    @Test
    void thePlanHoldsEachCasesDeclaredCostAndNoneWhereItCannotTell() {
        List<ProgressSink.Event> events = new ArrayList<>();
        List<Result> r = Runner.run(List.of(new Windowed("jitter", Duration.ofSeconds(10)), Case.ok("loop", 1), new Windowed("broken", null),
                new Windowed("zero", Duration.ZERO)), "x", events::add);
        assertThat(events.getFirst()).isEqualTo(new ProgressSink.CasesPlanned(
                List.of(Optional.of(Duration.ofSeconds(10)), Optional.empty(), Optional.empty(), Optional.empty())));
        // a case whose cost cannot be told still runs
        assertThat(r).extracting(Result::status).containsOnly(Status.OK);
    }
}
