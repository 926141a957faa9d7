package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

/** The time left as a state machine: events in, with the time of each from a clock this test moves. */
class TimeLeftTest {
    static final long S = 1_000_000_000L;

    private final TimeLeft left = new TimeLeft();
    private long now = 100 * S;

    private OptionalLong at(long seconds) {
        now += seconds * S;
        return left.left(now);
    }

    private static OptionalLong s(long seconds) {
        return OptionalLong.of(seconds * S);
    }

    private static Optional<Duration> cost(long seconds) {
        return Optional.of(Duration.ofSeconds(seconds));
    }

    @Test
    void declaredCostsAreSummedBeforeAnyCaseRanAndCountDown() {
        left.planned(List.of(cost(10), cost(5), cost(2)), now);
        assertThat(at(0)).isEqualTo(s(17));
        left.started(1, 3, now);
        assertThat(at(4)).isEqualTo(s(13));
        left.ended(1, 3, true, 10 * S, now += 6 * S);
        assertThat(at(0)).isEqualTo(s(7));
        left.started(2, 3, now);
        assertThat(at(1)).isEqualTo(s(6));
        left.ended(2, 3, true, 5 * S, now += 4 * S);
        left.started(3, 3, now);
        assertThat(at(1)).isEqualTo(s(1));
        left.ended(3, 3, true, 2 * S, now += 1 * S);
        assertThat(at(0)).as("all ended").isEmpty();
    }

    @Test
    void aCaseOfUnknownLengthAheadSaysNothingUntilOneLikeItRan() {
        left.planned(List.of(Optional.empty(), cost(5), Optional.empty()), now);
        assertThat(at(0)).isEmpty();
        left.started(1, 3, now);
        assertThat(at(3)).isEmpty();
        left.ended(1, 3, true, 4 * S, now += 1 * S);
        // learned: 4 s for a case without a cost; 5 s declared
        assertThat(at(0)).isEqualTo(s(9));
    }

    /** What stalled before: a case past its share held "about 2.0 s left" for as long as it ran. */
    @Test
    void aCasePastItsExpectedLengthSaysNothingRatherThanAStillFigure() {
        left.planned(List.of(Optional.empty(), Optional.empty(), Optional.empty()), now);
        left.started(1, 3, now);
        left.ended(1, 3, true, 2 * S, now += 2 * S);
        left.started(2, 3, now);
        assertThat(at(1)).isEqualTo(s(3));
        assertThat(at(1)).as("at its share's end: nothing, not the next case's 2 s held still").isEmpty();
        assertThat(at(8)).isEmpty();
        left.ended(2, 3, true, 10 * S, now);
        // learned again: (2 + 10) / 2 = 6 s for the last
        assertThat(at(0)).isEqualTo(s(6));
    }

    /** What jumped before: an average over unlike cases. A window's declared cost is not averaged in. */
    @Test
    void declaredWindowsDoNotPullTheLearnedLengthOfTheOthers() {
        left.planned(List.of(Optional.empty(), cost(30), Optional.empty()), now);
        left.started(1, 3, now);
        left.ended(1, 3, true, 1 * S, now += 1 * S);
        assertThat(at(0)).isEqualTo(s(31));
        left.started(2, 3, now);
        left.ended(2, 3, true, 30 * S, now += 30 * S);
        assertThat(at(0)).as("1 s learned, not (1 + 30) / 2").isEqualTo(s(1));
    }

    @Test
    void theGapBetweenCasesCountsDownTooAndThenSaysNothing() {
        left.planned(List.of(cost(2), cost(3)), now);
        left.started(1, 2, now);
        left.ended(1, 2, true, 2 * S, now += 2 * S);
        assertThat(at(1)).isEqualTo(s(2));
        assertThat(at(3)).as("the next case's share spent before it began").isEmpty();
    }

    @Test
    void aCaseThatDoesNotRunTeachesNothingAndANewDrillForgets() {
        left.planned(List.of(Optional.empty(), Optional.empty(), Optional.empty()), now);
        left.started(1, 3, now);
        left.ended(1, 3, true, 4 * S, now += 4 * S);
        left.ended(2, 3, false, 0, now);
        assertThat(at(0)).isEqualTo(s(4));
        left.drill();
        left.planned(List.of(Optional.empty()), now);
        assertThat(at(0)).isEmpty();
    }

    /** Events with no plan (a drill that reports its own cases): every case is of unknown length. */
    @Test
    void withoutAPlanTheCasesThatRanAreTheMeasure() {
        left.started(1, 4, now);
        left.ended(1, 4, true, 2 * S, now += 2 * S);
        left.started(2, 4, now);
        assertThat(at(0)).isEqualTo(s(6));
        left.outside();
        assertThat(at(0)).as("a step of the drill's own").isEmpty();
    }
}
