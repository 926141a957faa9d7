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
        double[] kept = ScopedValue.where(Settling.LOG, log).call(() -> Sampling.untilSettled(0, 5, 12, 0.01, Duration.ofMinutes(1))
                .take(i -> i % 2 == 0 ? 50 : 150));
        assertEquals(12, kept.length);
        Settling s = log.getFirst();
        assertEquals(Settling.Stop.MOST_SAMPLES, s.stop());
        assertFalse(s.settled());
        assertTrue(s.halfWidth() > 0.01);
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
                Stats noisy = Sampling.untilSettled(0, 5, 8, 0.01, Duration.ofMinutes(1)).stats(i -> i % 2 == 0 ? 1 : 3);
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
        assertEquals(8, s.samples());
        assertEquals(Settling.Stop.MOST_SAMPLES, s.stop());
        assertTrue(r.getFirst().unsettled());
        assertNull(r.get(1).settling());
        assertFalse(r.get(1).unsettled());
    }
}
