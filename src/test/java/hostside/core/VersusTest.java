package hostside.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The noise rule: a difference within either figure's spread is no difference. */
class VersusTest {
    @Test
    void aDifferenceBeyondBothSpreadsCounts() {
        Stats fast = new Stats(10.0, 9.5, 10.5, 5), slow = new Stats(8.0, 7.8, 8.1, 5);
        assertThat(Versus.of(fast, slow)).isEqualTo(Versus.ABOVE);
        assertThat(Versus.of(slow, fast)).isEqualTo(Versus.BELOW);
    }

    @Test
    void aDifferenceInsideTheWiderSpreadIsEven() {
        // medians 2 apart, but one figure's samples ran from 6 to 11: the next run may reverse it
        Stats steady = new Stats(10.0, 9.9, 10.1, 5), noisy = new Stats(8.0, 6.0, 11.0, 5);
        assertThat(Versus.of(steady, noisy)).isEqualTo(Versus.EVEN);
        assertThat(Versus.of(noisy, steady)).isEqualTo(Versus.EVEN);
        // exactly the spread is not beyond it
        assertThat(Versus.of(new Stats(3, 2, 3, 3), new Stats(2, 2, 2, 3))).isEqualTo(Versus.EVEN);
    }

    @Test
    void aVerdictsOwnThresholdAppliesOnTop() {
        Stats a = new Stats(110, 109.9, 110.1, 5), b = new Stats(100, 99.9, 100.1, 5);
        assertThat(Versus.of(a, b, 0.05)).isEqualTo(Versus.ABOVE);
        assertThat(Versus.of(a, b, 0.2)).as("10% apart, the verdict asks 20%").isEqualTo(Versus.EVEN);
    }

    @Test
    void betterFollowsTheFiguresDirection() {
        Stats a = new Stats(5, 4.9, 5.1, 5), b = new Stats(9, 8.9, 9.1, 5);
        assertThat(Versus.better(a, b, Better.LOWER)).as("5 ns beats 9 ns").isEqualTo(Versus.ABOVE);
        assertThat(Versus.better(a, b, Better.HIGHER)).isEqualTo(Versus.BELOW);
        assertThat(new Stats(5, 4, 7, 3).spread()).isEqualTo(3.0);
    }
}
