package hostside.doc;

import static hostside.doc.Samples.GIB;
import static hostside.doc.Samples.KIB;
import static hostside.doc.Samples.MIB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The plots' geometry, in numbers: where a value lands and which values get a label. */
class ScaleTest {
    @Test
    void aLogScalePutsTheGeometricMiddleInTheMiddle() {
        // 4 KiB = 2^12, 256 MiB = 2^28, 1 MiB = 2^20: halfway, whatever the base of the labels
        assertThat(Scale.log(4 * KIB, 256 * MIB, 0, 100, 2).map(MIB)).isCloseTo(50, within(1e-9));
        assertThat(Scale.log(4 * KIB, 256 * MIB, 0, 100, 10).map(MIB)).isCloseTo(50, within(1e-9));
        assertThat(Scale.log(KIB, GIB, 84, 620, 2).map(MIB)).isCloseTo(352, within(1e-9));
    }

    @Test
    void scalesMapTheirEndsOntoTheirPixels() {
        Scale log = Scale.log(4 * KIB, GIB, 92, 612, 2);
        assertThat(log.map(4 * KIB)).isCloseTo(92, within(1e-9));
        assertThat(log.map(GIB)).isCloseTo(612, within(1e-9));
        // SVG's y grows downwards: the bottom pixel is the smaller value
        Scale y = Scale.linear(0, 60, 260, 30);
        assertThat(y.map(0)).isCloseTo(260, within(1e-9));
        assertThat(y.map(30)).isCloseTo(145, within(1e-9));
        assertThat(y.map(60)).isCloseTo(30, within(1e-9));
    }

    @Test
    void zeroAndBelowGoToTheStartOfALogAxis() {
        Scale log = Scale.log(1, 100, 10, 110, 10);
        assertThat(log.map(0)).isEqualTo(10);
        assertThat(log.map(-5)).isEqualTo(10);
    }

    @Test
    void logTicksOfASizeSweepArePowersOfTwoInsideTheRange() {
        List<Double> ticks = Scale.log(4 * KIB, GIB, 0, 600, 2).ticks(10);
        assertThat(ticks).hasSizeBetween(2, 10).contains((double) MIB, (double) (4 * KIB), (double) GIB);
        for (double t : ticks) {
            double e = Math.log(t) / Math.log(2);
            assertThat(e).isCloseTo(Math.rint(e), within(1e-9));
            assertThat(t).isBetween(4.0 * KIB, (double) GIB);
        }
        assertThat(ticks).isSorted();
    }

    @Test
    void tooManyPowersAreThinnedToEveryKthPower() {
        List<Double> ticks = Scale.log(1, Math.pow(2, 40), 0, 600, 2).ticks(6);
        assertThat(ticks).hasSizeBetween(2, 6).containsExactly(1.0, Math.pow(2, 10), Math.pow(2, 20), Math.pow(2, 30), Math.pow(2, 40));
    }

    @Test
    void logTicksOverManyDecadesArePowersOfTen() {
        List<Double> ticks = Scale.log(0.5, 1e6, 0, 600, 10).ticks(10);
        assertThat(ticks).hasSizeBetween(2, 10);
        for (double t : ticks) {
            double e = Math.log10(t);
            assertThat(e).isCloseTo(Math.rint(e), within(1e-9));
            assertThat(t).isBetween(0.5, 1e6);
        }
        assertThat(ticks).contains(1.0, 1e6);
    }

    @Test
    void aShortDecimalLogAxisIsLabelledOneTwoFive() {
        assertThat(Scale.log(1, 64, 0, 600, 10).ticks(10)).containsExactly(1.0, 2.0, 5.0, 10.0, 20.0, 50.0);
    }

    @Test
    void aLogAxisWithinOneStepFallsBackToLinearTicks() {
        List<Double> ticks = Scale.log(3, 8, 0, 600, 10).ticks(6);
        assertThat(ticks).hasSizeGreaterThanOrEqualTo(2).allSatisfy(t -> assertThat(t).isBetween(3.0, 8.0));
    }

    @Test
    void niceLinearTicksAreRoundAndCoverTheData() {
        Scale s = Scale.niceLinear(0, 47, 260, 30, 6);
        assertThat(s.lo()).isEqualTo(0);
        assertThat(s.hi()).isEqualTo(50);
        assertThat(s.ticks(6)).containsExactly(0.0, 10.0, 20.0, 30.0, 40.0, 50.0);
    }

    @Test
    void niceLinearTicksBelowOne() {
        List<Double> ticks = Scale.niceLinear(0, 0.93, 0, 100, 6).ticks(6);
        assertThat(ticks).hasSize(6);
        double[] want = {0, 0.2, 0.4, 0.6, 0.8, 1.0};
        for (int i = 0; i < want.length; i++) assertThat(ticks.get(i)).isCloseTo(want[i], within(1e-9));
    }

    @Test
    void niceStepsAreOneTwoOrFiveTimesAPowerOfTen() {
        assertThat(Scale.niceStep(47, 6)).isEqualTo(10);
        assertThat(Scale.niceStep(100, 6)).isEqualTo(20);
        assertThat(Scale.niceStep(7, 8)).isEqualTo(1);
        assertThat(Scale.niceStep(2300, 6)).isEqualTo(500);
    }

    @Test
    void niceLogWidensToWholePowers() {
        Scale s = Scale.niceLog(3, 700, 0, 100, 10);
        assertThat(s.lo()).isCloseTo(1, within(1e-12));
        assertThat(s.hi()).isCloseTo(1000, within(1e-9));
    }

    @Test
    void anEmptyDomainIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Scale.linear(5, 5, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Scale.log(0, 5, 0, 1, 10)).isInstanceOf(IllegalArgumentException.class);
    }
}
