package hostside.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import hostside.core.Json;
import hostside.core.Stats;
import hostside.core.Unit;

class SamplingTest {
    @Test
    void theMediansIntervalIsBetweenOrderStatisticsAtTheirBinomialCoverage() {
        // five samples: [min, max] at 1 - 2/32; nine: [x(2), x(8)] at 1 - 2*10/512 (0.961), x(3) would give only 0.820
        MedianInterval five = MedianInterval.of(new double[] {5, 1, 4, 2, 3});
        assertEquals(1, five.low());
        assertEquals(5, five.high());
        assertEquals(3, five.median());
        assertEquals(0.9375, five.confidence(), 1e-12);
        MedianInterval nine = MedianInterval.of(new double[] {9, 8, 7, 6, 5, 4, 3, 2, 1});
        assertEquals(2, nine.low());
        assertEquals(8, nine.high());
        assertEquals(1 - 2 * 10 / 512.0, nine.confidence(), 1e-12);
        assertEquals(0.6, nine.halfWidth(), 1e-12); // (8 - 5) / 5
        // four samples cannot give 90%: never settled, however close
        MedianInterval four = MedianInterval.of(new double[] {10, 10, 10, 10});
        assertEquals(0.875, four.confidence(), 1e-12);
        assertFalse(four.within(0.5));
        assertTrue(MedianInterval.of(new double[] {100, 100.5, 99.6, 100.2, 99.9}).within(0.01));
        assertFalse(MedianInterval.of(new double[] {100, 103, 99.6, 100.2, 99.9}).within(0.01));
    }

    @Test
    void aFixedLoopKeepsItsSamplesAfterItsWarmUpsAndReportsNoSettling() {
        List<Integer> seen = new ArrayList<>();
        List<Settling> log = Settling.newLog();
        double[] kept = ScopedValue.where(Settling.LOG, log).call(() -> new Sampling(2, 3).take(i -> {
            seen.add(i);
            return i;
        }));
        assertEquals(List.of(-2, -1, 0, 1, 2), seen);
        assertEquals(3, kept.length);
        assertTrue(log.isEmpty());
    }

    @Test
    void anAdaptiveLoopStopsAsSoonAsItsMedianIsKnown() {
        List<Settling> log = Settling.newLog();
        Stats s = ScopedValue.where(Settling.LOG, log).call(() -> Sampling.untilSettled(1, 5, 50, 0.01, Duration.ofMinutes(1))
                .stats(i -> 100 + (i % 2) * 0.5));
        assertEquals(5, s.samples());
        assertEquals(1, log.size());
        assertEquals(Settling.Stop.SETTLED, log.getFirst().stop());
        assertEquals(5, log.getFirst().samples());
        assertEquals(50, log.getFirst().maxSamples());
    }

    @Test
    void aNoisyLoopStopsAtItsMostSamplesUnsettled() {
        List<Settling> log = Settling.newLog();
        // 1.5% from the median where 1% is asked: within twice the precision, so worth its most samples, never settling
        double[] kept = ScopedValue.where(Settling.LOG, log).call(() -> Sampling.untilSettled(0, 5, 12, 0.01, Duration.ofMinutes(1))
                .take(i -> i % 3 == 0 ? 98.5 : i % 3 == 1 ? 100 : 101.5));
        assertEquals(12, kept.length);
        Settling s = log.getFirst();
        assertEquals(Settling.Stop.MOST_SAMPLES, s.stop());
        assertFalse(s.settled());
        assertTrue(s.halfWidth() > 0.01);
    }

    @Test
    void aLoopWhoseSamplesAreSpreadFarBeyondItsPrecisionStopsAtItsLeast() {
        List<Settling> log = Settling.newLog();
        // samples of 80 ms: the seven more it could take would cost over half a second
        double[] kept = ScopedValue.where(Settling.LOG, log).call(() -> Sampling.untilSettled(0, 5, 12, 0.01, Duration.ofMinutes(1))
                .take(i -> slow(i % 2 == 0 ? 50 : 150)));
        assertEquals(5, kept.length, "at 50% either side, twelve samples would not know the median to 1%");
        Settling s = log.getFirst();
        assertEquals(Settling.Stop.OUT_OF_REACH, s.stop());
        assertFalse(s.settled());
    }

    @Test
    void oneStallAmongSteadySamplesIsWaitedOutNotStoppedFor() {
        List<Settling> log = Settling.newLog();
        double[] kept = ScopedValue.where(Settling.LOG, log).call(() -> Sampling.untilSettled(0, 5, 25, 0.05, Duration.ofMinutes(1))
                .take(i -> i == 0 ? 130 : 100));
        assertEquals(9, kept.length, "nine samples put the interval inside the steady ones: [x(2), x(8)]");
        assertEquals(Settling.Stop.SETTLED, log.getFirst().stop());
    }

    @Test
    void aLoopOfCheapSamplesIsNotStoppedForItsSpread() {
        List<Settling> log = Settling.newLog();
        double[] kept = ScopedValue.where(Settling.LOG, log).call(() -> Sampling.untilSettled(0, 5, 12, 0.01, Duration.ofMinutes(1))
                .take(i -> i % 2 == 0 ? 50 : 150));
        assertEquals(12, kept.length, "the rest cost next to nothing: taken, in case they settle it");
        assertEquals(Settling.Stop.MOST_SAMPLES, log.getFirst().stop());
    }

    /** {@code figure}, after 80 ms: a sample that costs time. */
    static double slow(double figure) {
        try {
            Thread.sleep(80);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return figure;
    }

    @Test
    void theIntervalAtMoreSamplesIsReadFromTheSamplesQuantiles() {
        double[] five = {5, 1, 4, 2, 3};
        assertEquals(MedianInterval.of(five).halfWidth(), MedianInterval.halfWidthAt(five, 5), 1e-12, "at its own count: [min, max]");
        // at 25 samples the interval is [x(8), x(18)]: the 8/26 and 18/26 quantiles, positions 1.846 and 4.154 of five
        assertEquals((4 + 2 / 13.0 - 3) / 3, MedianInterval.halfWidthAt(five, 25), 1e-12);
        assertEquals(0, MedianInterval.halfWidthAt(new double[] {7, 7, 7, 7, 7}, 25), 1e-12);
    }

    @Test
    void aLoopReachesItsMostSamplesOrWhatItsCapLeavesAtItsPace() {
        Sampling s = Sampling.untilSettled(0, 5, 25, 0.05, Duration.ofSeconds(2));
        assertEquals(10, s.reachable(5, 1_000_000_000L, 200_000_000L), "five samples in 1 s: five more before the 2 s cap");
        assertEquals(25, s.reachable(5, 50_000_000L, 10_000_000L), "fast samples: the most samples first");
        assertEquals(5, s.reachable(5, 3_000_000_000L, 600_000_000L), "past the cap: none more");
        double[] spread = {50, 150, 50, 150, 50};
        assertFalse(s.outOfReach(spread, 5, 200_000_000L), "a loop that can reach no more ends at its cap, not here");
        assertTrue(s.outOfReach(spread, 10, 200_000_000L), "five more samples of 200 ms would not settle 50% spread to 5%");
        assertFalse(s.outOfReach(spread, 25, 10_000_000L), "twenty more of 10 ms cost too little to stop for: they may settle it");
        assertFalse(s.outOfReach(new double[] {100, 104, 97, 101, 99}, 10, 200_000_000L), "within twice the precision: worth going on");
    }

    @Test
    void aLoopPastItsTimeCapStopsUnsettled() {
        List<Settling> log = Settling.newLog();
        double[] kept = ScopedValue.where(Settling.LOG, log).call(() -> Sampling.untilSettled(0, 5, 1000, 0.01, Duration.ofNanos(1))
                .take(i -> i % 2 == 0 ? 50 : 150));
        assertEquals(5, kept.length); // the cap is looked at once the least samples are in
        assertEquals(Settling.Stop.TIME_CAP, log.getFirst().stop());
    }

    @Test
    void anAdaptiveLoopNeedsEachSamplesFigureAndAPrecision() {
        assertThrows(IllegalStateException.class, () -> Sampling.untilSettled(0, 5, 9, 0.01, Duration.ofSeconds(1)).each(i -> "x"));
        assertThrows(IllegalArgumentException.class, () -> new Sampling(0, 5, 9, 0, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> new Sampling(0, 5, 9, 0.01, Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> new Sampling(0, 5, 4, 0.01, Duration.ofSeconds(1)));
        assertEquals(5, Sampling.untilSettled(0, 2, 3, 0.01, Duration.ofSeconds(1)).samples()); // never fewer than five
    }

    @Test
    void aResultsSettlingReadsBackAsWritten() throws Exception {
        Settling s = new Settling(2, 14, 25, Settling.Stop.TIME_CAP, 0.073, 0.05, 0.94, 4.06);
        Result r = new Result("k", "d", Status.OK, "", Unit.GB_PER_S, new Stats(2, 1, 3, 14), Unit.GB_PER_S.usually, "m", null, null, s);
        String json = Json.MAPPER.writeValueAsString(r);
        assertTrue(json.contains("\"stop\" : \"time cap\""), json);
        assertEquals(r, Json.MAPPER.readValue(json, Result.class));
        Result old = Json.MAPPER.readValue(json.replaceAll("(?s),\\s*\"settling\" : \\{[^}]*\\}", ""), Result.class);
        assertNull(old.settling(), "a report older than the adaptive loops has none");
    }

    @Test
    void aLoopOnAThreadOfTheCasesOwnReportsToTheCase() throws Exception {
        List<Settling> log = Settling.newLog();
        ScopedValue.where(Settling.LOG, log).call(() -> {
            Thread t = Thread.ofPlatform().start(Sampling.reportingToThisCase(
                    () -> Sampling.untilSettled(0, 5, 9, 0.01, Duration.ofMinutes(1)).stats(i -> 3)));
            t.join();
            return null;
        });
        assertEquals(1, log.size());
        assertEquals(Settling.Stop.SETTLED, log.getFirst().stop());
        Runnable plain = () -> { };
        assertTrue(Sampling.reportingToThisCase(plain) == plain, "outside a case there is nowhere to report");
    }

    @Test
    void theRunnerHandsACaseItsLeastSettledLoop() {
        TestCase<Object> twoLoops = new TestCase<>() {
            public String key() { return "two_loops"; }
            public String description() { return "a quiet loop, then a noisy one"; }
            public Optional<String> notApplicable(Object t) { return Optional.empty(); }
            public Result run(Object t) {
                Sampling.untilSettled(0, 5, 20, 0.01, Duration.ofMinutes(1)).stats(i -> 7);
                Stats noisy = Sampling.untilSettled(0, 5, 12, 0.01, Duration.ofMinutes(1)).stats(i -> slow(i % 2 == 0 ? 1 : 3));
                return Result.ok(this, Unit.NS, noisy, "", null);
            }
        };
        TestCase<Object> fixed = new TestCase<>() {
            public String key() { return "fixed"; }
            public String description() { return "a fixed loop"; }
            public Optional<String> notApplicable(Object t) { return Optional.empty(); }
            public Result run(Object t) {
                return Result.ok(this, Unit.NS, new Sampling(0, 3).stats(i -> 1), "", null);
            }
        };
        List<Result> r = Runner.run(List.of(twoLoops, fixed), new Object(), ProgressSink.NONE);
        Settling s = r.getFirst().settling();
        assertEquals(2, s.loops());
        assertEquals(5, s.samples(), "1 and 3 where 1% is asked: out of reach at the least samples");
        assertEquals(Settling.Stop.OUT_OF_REACH, s.stop());
        assertTrue(r.getFirst().unsettled());
        assertNull(r.get(1).settling());
        assertFalse(r.get(1).unsettled());
    }
}
