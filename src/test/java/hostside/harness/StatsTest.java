package hostside.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import hostside.core.Stats;

class StatsTest {
    @Test
    void oddCountTakesTheMiddleSample() {
        assertThat(Stats.of(1, 2, 3, 4, 5)).isEqualTo(new Stats(3, 1, 5, 5));
    }

    @Test
    void evenCountAveragesTheMiddlePair() {
        assertThat(Stats.of(1, 2, 4, 10)).isEqualTo(new Stats(3, 1, 10, 4));
    }

    @Test
    void unsortedInputIsSortedFirstAndLeftAsItWas() {
        double[] samples = {9, 1, 7, 3, 5};
        assertThat(Stats.of(samples)).isEqualTo(new Stats(5, 1, 9, 5));
        assertThat(samples).containsExactly(9, 1, 7, 3, 5);
        assertThat(Stats.of(4, 1, 3, 2)).isEqualTo(new Stats(2.5, 1, 4, 4));
    }

    @Test
    void oneSampleIsItsOwnMedianMinAndMax() {
        assertThat(Stats.of(42.5)).isEqualTo(new Stats(42.5, 42.5, 42.5, 1));
    }

    @Test
    void noSamplesIsAnError() {
        assertThatThrownBy(Stats::of).isInstanceOf(IllegalArgumentException.class).hasMessage("no samples");
        assertThatThrownBy(() -> Stats.of(new double[0])).isInstanceOf(IllegalArgumentException.class);
    }
}
