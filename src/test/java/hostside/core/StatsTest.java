package hostside.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The median of the samples, and the rule a verdict compares two figures by. */
class StatsTest {
    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertThat(Stats.of(4, 1, 3, 2)).isEqualTo(new Stats(2.5, 1, 4, 4));
        assertThat(Stats.of(5, 1, 3)).isEqualTo(new Stats(3, 1, 5, 3));
    }

    @Test
    void twoFiguresDifferOnlyWhenTheirRangesDoNotOverlap() {
        Stats home = new Stats(100, 98, 102, 9);
        assertThat(new Stats(61, 60, 62, 9).differsFrom(home)).isTrue();
        assertThat(home.differsFrom(new Stats(61, 60, 62, 9))).as("either way round").isTrue();
        assertThat(new Stats(97, 95, 98, 9).differsFrom(home)).as("touching ranges overlap").isFalse();
        assertThat(new Stats(110, 99, 120, 9).differsFrom(home)).isFalse();
    }
}
