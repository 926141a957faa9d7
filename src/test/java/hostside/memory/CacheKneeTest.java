package hostside.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import hostside.core.Stats;
import hostside.core.Sweep;
import hostside.core.Unit;

/** The knee read off a latency curve, the sizes it is measured at, and the chain it chases. */
class CacheKneeTest {
    static final long MIB = 1L << 20;

    static Sweep curve(double... ns) {
        List<Sweep.Point> p = new ArrayList<>();
        long bytes = MIB;
        for (double v : ns) {
            p.add(new Sweep.Point(bytes, Stats.of(v)));
            bytes *= 2;
        }
        return new Sweep(Unit.NS, p);
    }

    @Test
    void theKneeIsTheFirstSetFromWhichEveryLargerOneIsPastHalfwayToMemory() {
        // 1, 2, ... 128 MiB: L2, the L3 plateau, then memory from 64 MiB (32 MiB of L3, as on the dev VM)
        CacheKnee.Knee k = CacheKnee.judge(curve(4, 12, 13, 13, 14, 30, 95, 100), 2, true, 1);
        assertThat(k.shape()).isEqualTo(CacheKnee.Shape.STEP);
        assertThat(k.kneeBytes()).isEqualTo(64 * MIB);
        assertThat(k.why()).startsWith("a pointer chase with 2 threads found the caches' end at 64 MiB: from there on each load took more than halfway from 4.0 ns to 100.0 ns");
    }

    @Test
    void oneSlowSampleInsideTheCachesDoesNotMoveTheKneeDown() {
        // a neighbour took the CPU at 4 MiB: the curve comes back down after it, so the caches go on
        CacheKnee.Knee k = CacheKnee.judge(curve(4, 12, 80, 13, 14, 30, 95, 100), 2, true, 1);
        assertThat(k.kneeBytes()).isEqualTo(64 * MIB);
        // and one at 8 MiB slower than memory itself (the dev VM under load: 400 ns against 170) does not raise halfway above memory's level
        CacheKnee.Knee spike = CacheKnee.judge(curve(6, 16, 18, 400, 170, 172, 175), 1, true, 1);
        assertThat(spike.kneeBytes()).isEqualTo(8 * MIB);
    }

    @Test
    void anAdaptiveCacheThatKeepsPartOfALargeSetMovesTheKneeUpNotDown() {
        // hit rates fall off gradually past 32 MiB: halfway is crossed at 128 MiB, four times above the caches' 32
        CacheKnee.Knee k = CacheKnee.judge(curve(4, 12, 13, 13, 14, 35, 50, 70, 96, 100), 1, true, 1);
        assertThat(k.kneeBytes()).isEqualTo(128 * MIB);
    }

    @Test
    void aCurveWithoutAStepOrStillClimbingTakesItsLargestSetAndSaysSo() {
        CacheKnee.Knee flat = CacheKnee.judge(curve(95, 98, 100, 99), 16, true, 1);
        assertThat(flat.shape()).isEqualTo(CacheKnee.Shape.FLAT);
        assertThat(flat.kneeBytes()).isEqualTo(8 * MIB);
        assertThat(flat.why()).contains("found no step from the caches to memory between 1 MiB and 8 MiB").contains("the caches were taken as 8 MiB, the largest set");
        CacheKnee.Knee rising = CacheKnee.judge(curve(4, 12, 13, 13, 40), 2, true, 1);
        assertThat(CacheKnee.judge(curve(4, 12, 13, 13, 140, 170, 210), 2, true, 1).shape()).as("a noisy sample at memory's level is no climb").isEqualTo(CacheKnee.Shape.STEP);
        assertThat(rising.shape()).isEqualTo(CacheKnee.Shape.STILL_RISING);
        assertThat(rising.kneeBytes()).isEqualTo(16 * MIB);
    }

    @Test
    void theSweepStopsOnMemorysPlateauNotOnTheLastLevelCaches() {
        // the dev VM: L2 at 6-7 ns, its L3 at 13-16, memory at 150-160 from 8 MiB
        assertThat(CacheKnee.atMemory(curve(6.3, 13, 15, 16).points())).as("the L3's plateau").isFalse();
        assertThat(CacheKnee.atMemory(curve(6.3, 13, 15, 16, 150, 153).points())).as("two sets at memory's level are not yet three").isFalse();
        assertThat(CacheKnee.atMemory(curve(6.3, 13, 15, 16, 150, 153, 158).points())).isTrue();
        assertThat(CacheKnee.atMemory(curve(6.3, 13, 15, 16, 100, 130, 158).points())).as("still climbing").isFalse();
        assertThat(CacheKnee.atMemory(curve(6.3, 7, 9).points())).isFalse();
    }

    @Test
    void theSetsGrowByRootTwoFromHalfAMibAThreadToTheLargest() {
        List<Long> s = CacheKnee.sizes(2, 256 * MIB);
        assertThat(s.getFirst()).isEqualTo(MIB);
        assertThat(s.getLast()).isLessThanOrEqualTo(256 * MIB).isGreaterThan(181 * MIB);
        for (int i = 1; i < s.size(); i++) {
            assertThat((double) s.get(i) / s.get(i - 1)).isBetween(1.40, 1.43);
            assertThat(s.get(i) % (2 * CacheKnee.PAGE)).as("whole pages a thread").isZero();
        }
        assertThat(CacheKnee.sizes(16, 4 * MIB)).as("a first set beyond the largest is still chased").containsExactly(8 * MIB);
    }

    @Test
    void theChainVisitsEveryLineOnceNeverTwiceInAPageInARow() {
        int pages = 37;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment set = a.allocate((long) pages * CacheKnee.PAGE, 4096);
            long at = CacheKnee.link(set, pages, new SplittableRandom(3));
            Set<Long> seen = new HashSet<>();
            long start = at, page = -1;
            for (int i = 0; i < pages * CacheKnee.LINES_PER_PAGE; i++) {
                assertThat(seen.add(at)).as("line %d visited twice", at).isTrue();
                assertThat(at % CacheKnee.LINE).isZero();
                assertThat(at / CacheKnee.PAGE).as("the next load is in another page").isNotEqualTo(page);
                page = at / CacheKnee.PAGE;
                at = set.get(ValueLayout.JAVA_LONG, at);
            }
            assertThat(at).as("one cycle through every line").isEqualTo(start);
        }
    }

    @Test
    void aRoundFindsTheLineItPutsThere() {
        for (int offset = 0; offset < 64; offset++) {
            for (int round = 0; round < 64; round++) {
                long line = CacheKnee.address(0, offset, round) / CacheKnee.LINE;
                assertThat(CacheKnee.roundOf((int) line, offset)).isEqualTo(round);
            }
        }
    }
}
