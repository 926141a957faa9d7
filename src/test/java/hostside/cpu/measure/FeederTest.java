package hostside.cpu.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.junit.jupiter.api.Test;

/** The feeder's recording loop, a method of its own so that the burst compiles it before any recording. */
class FeederTest {
    static final long PERIOD = 100_000;

    @Test
    void aRecordingTicksItsWakesUnlessItsTimeBoundCutsIt() {
        try (Arena arena = Arena.ofConfined()) {
            Feeder.Series s = Feeder.Series.create();
            MemorySegment ts = arena.allocate(16);
            Ticker f = new Ticker(s, ts, PERIOD, 10, null, null, null);
            long from = System.nanoTime();
            f.restart(from + PERIOD);
            assertThat(Feeder.record(f, 50, from, Long.MAX_VALUE / 2)).as("not cut").isFalse();
            assertThat(s.late().getTotalCount()).as("a wake-up each, ticks passed meanwhile skipped (and counted apart)").isEqualTo(50);

            s.reset();
            from = System.nanoTime();
            f.restart(from + PERIOD);
            // 1 ms of a 100 us cadence: cut near its tenth tick, far short of 1,000
            assertThat(Feeder.record(f, 1_000, from, 1_000_000)).as("cut by its bound").isTrue();
            assertThat(s.late().getTotalCount()).isBetween(1L, 999L);
        }
    }

    @Test
    void theBurstTicksOnceOrTwiceACallAndLeavesNothingRecorded() {
        try (Arena arena = Arena.ofConfined()) {
            Feeder.Series s = Feeder.Series.create();
            Ticker burst = new Ticker(s, arena.allocate(16), TickWarmup.BURST_PERIOD_NS, 10, null, null, null);
            // two ticks on every eighth call, the first among them: 16 calls, 18 ticks
            assertThat(Feeder.burst(burst, 2 * Feeder.TWO_TICKS_EVERY, s)).isEqualTo(2 * Feeder.TWO_TICKS_EVERY + 2);
            assertThat(s.late().getTotalCount()).as("cleared at its end: the burst is no recording").isZero();
            assertThat(s.missed()[0]).isZero();
            assertThat(Feeder.burst(burst, 0, s)).as("a compiled branch bursts not at all").isZero();
        }
    }
}
