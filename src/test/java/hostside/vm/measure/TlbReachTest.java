package hostside.vm.measure;

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

/**
 * TLB reach's pure parts: the working-set sizes, the random cycle the loads follow, and where the
 * base- and huge-page curves part. The walk itself is not timed here (4 GiB is minutes on CI).
 */
class TlbReachTest {
    static final long KiB = 1L << 10, MiB = 1L << 20, GiB = 1L << 30;

    @Test
    void sizesGrowByFourFrom64KiBToTheLargest() {
        assertThat(TlbReach.sizes(4 * GiB)).containsExactly(64 * KiB, 256 * KiB, MiB, 4 * MiB, 16 * MiB, 64 * MiB, 256 * MiB, GiB, 4 * GiB);
        assertThat(TlbReach.sizes(64 * KiB)).containsExactly(64 * KiB);
        assertThat(TlbReach.sizes(256 * KiB)).containsExactly(64 * KiB, 256 * KiB);
    }

    @Test
    void aLargestThatIsNoPowerOfFourEndsTheList() {
        assertThat(TlbReach.sizes(2 * GiB)).containsExactly(64 * KiB, 256 * KiB, MiB, 4 * MiB, 16 * MiB, 64 * MiB, 256 * MiB, GiB, 2 * GiB);
        assertThat(TlbReach.sizes(128 * KiB)).containsExactly(64 * KiB, 128 * KiB);
        assertThat(TlbReach.sizes(8 * MiB)).endsWith(4 * MiB, 8 * MiB).doesNotHaveDuplicates().isSorted();
    }

    @Test
    void aCurveCutByTheBudgetSaysWhereItEndsAndWhy() {
        String why = TlbReach.endsEarly(256 * MiB, TlbReach.DEFAULT_MAX, "the report's share for any one measurement");
        assertThat(why).isEqualTo("the curve ends at 256 MiB, not 4 GiB: the report's share for any one measurement; the figure is the walk there, not at 1 GiB");
        // a curve cut past 1 GiB still holds the figure's point: the figure is not "the walk there" (the H100's report said so at 2 GiB)
        assertThat(TlbReach.endsEarly(2 * GiB, TlbReach.DEFAULT_MAX, "a quarter of available memory"))
                .isEqualTo("the curve ends at 2 GiB, not 4 GiB: a quarter of available memory; the figure, the walk at 1 GiB, is within it");
        assertThat(TlbReach.endsEarly(1 * GiB, TlbReach.DEFAULT_MAX, "a quarter of available memory")).endsWith("the walk at 1 GiB, is within it");
        assertThat(TlbReach.endsEarly(4 * GiB, TlbReach.DEFAULT_MAX, "a quarter of available memory")).isEmpty();
    }

    /** Follows the chain from {@code start}: the pages in the order visited until it comes back. */
    static List<Long> walk(MemorySegment m, long start, long size, long page, int limit) {
        List<Long> offsets = new ArrayList<>();
        long at = start;
        do {
            offsets.add(at);
            at = TlbReach.chase(m, at, 1);
        } while (at != start && offsets.size() <= limit);
        return offsets;
    }

    @Test
    void linkMakesOneCycleThroughEveryPageAtAnAlignedSlot() {
        long page = 4096;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = a.allocate(512 * KiB, page);
            for (long size : new long[] {page, 2 * page, 3 * page, 64 * KiB, 256 * KiB}) {
                for (int seed = 1; seed <= 5; seed++) {
                    m.fill((byte) 0);
                    int pages = (int) (size / page);
                    long start = TlbReach.link(m, size, page, new SplittableRandom(seed));
                    List<Long> visited = walk(m, start, size, page, pages + 1);
                    assertThat(visited).as("size %d seed %d: one cycle through every page", size, seed).hasSize(pages);
                    Set<Long> pagesSeen = new HashSet<>();
                    for (long off : visited) {
                        assertThat(off % 64).as("slot %d is a 64-byte line", off).isZero();
                        assertThat(off).isBetween(0L, size - 8);
                        pagesSeen.add(off / page);
                    }
                    assertThat(pagesSeen).as("each page exactly once").hasSize(pages);
                    // every slot lies inside the page it stands for, and nothing beyond the set is written
                    for (long off = size; off < m.byteSize(); off += 8) {
                        if (m.get(ValueLayout.JAVA_LONG, off) != 0) throw new AssertionError("written past the set at " + off);
                    }
                    assertThat(TlbReach.chase(m, start, pages)).as("back at the start after one lap").isEqualTo(start);
                    assertThat(TlbReach.chase(m, start, 2 * pages + 1)).isEqualTo(TlbReach.chase(m, start, 1));
                }
            }
        }
    }

    @Test
    void linkIsARandomOrderNotTheAddressOrder() {
        long page = 4096;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = a.allocate(256 * KiB, page);
            long start = TlbReach.link(m, 256 * KiB, page, new SplittableRandom(3));
            List<Long> visited = walk(m, start, 256 * KiB, page, 100);
            int sequential = 0;
            for (int i = 1; i < visited.size(); i++) if (visited.get(i) / page == visited.get(i - 1) / page + 1) sequential++;
            // a prefetcher would hide a walk in address order; 64 pages in order would give 63
            assertThat(sequential).isLessThan(10);
            Set<Long> lines = new HashSet<>();
            for (long off : visited) lines.add(off % page);
            assertThat(lines).as("the slot inside each page varies too").hasSizeGreaterThan(10);
        }
    }

    static List<Sweep.Point> points(double... ns) {
        List<Sweep.Point> p = new ArrayList<>();
        long size = 64 * KiB;
        for (double n : ns) {
            p.add(new Sweep.Point(size, Stats.of(n)));
            size *= 4;
        }
        return p;
    }

    @Test
    void curvesThatNeverPartHaveNoKnee() {
        assertThat(TlbReach.knee(points(1, 1, 2, 3), points(1, 1, 2, 3), 1.25)).isEqualTo(-1);
        assertThat(TlbReach.knee(points(1, 1.2, 2.4), points(1, 1, 2), 1.25)).as("within 25%").isEqualTo(-1);
        assertThat(TlbReach.knee(points(1, 2), List.of(), 1.25)).as("no huge-page run").isEqualTo(-1);
        assertThat(TlbReach.knee(List.of(), points(1, 2), 1.25)).isEqualTo(-1);
    }

    @Test
    void theKneeIsWhereBasePagesFallBehindForGood() {
        // 64K, 256K, 1M, 4M, 16M
        assertThat(TlbReach.knee(points(1, 1, 1.5, 3, 6), points(1, 1, 1, 1, 2), 1.25)).isEqualTo(MiB);
        assertThat(TlbReach.knee(points(2, 2, 2), points(1, 1, 1), 1.25)).as("apart from the first size").isEqualTo(64 * KiB);
        assertThat(TlbReach.knee(points(1, 1, 1.25), points(1, 1, 1), 1.25)).as("exactly the ratio counts").isEqualTo(MiB);
    }

    @Test
    void curvesThatPartAndRejoinCountOnlyTheLastParting() {
        // parted at 256K, together again at 1M: a blip, not a knee; parted again from 4M on
        assertThat(TlbReach.knee(points(1, 2, 1, 3, 3), points(1, 1, 1, 1, 1), 1.25)).isEqualTo(4 * MiB);
        // parted, then together at the largest size: no knee
        assertThat(TlbReach.knee(points(1, 2, 2, 1), points(1, 1, 1, 1), 1.25)).isEqualTo(-1);
    }

    /** One point of a curve with its samples' range. */
    static Sweep.Point at(long bytes, double median, double min, double max) {
        return new Sweep.Point(bytes, new Stats(median, min, max, 3));
    }

    @Test
    void aSizeIsApartOnlyBeyondBothSpreads() {
        Sweep.Point huge = at(MiB, 1.0, 0.9, 1.1);
        assertThat(TlbReach.apart(at(MiB, 2.0, 1.9, 2.1), huge, 1.25)).as("2x, tight").isTrue();
        assertThat(TlbReach.apart(at(MiB, 2.0, 0.8, 2.2), huge, 1.25)).as("2x, but the base samples spread 1.4").isFalse();
        assertThat(TlbReach.apart(at(MiB, 2.0, 1.9, 2.1), at(MiB, 1.0, 0.5, 1.6), 1.25)).as("the huge run's spread counts too").isFalse();
        assertThat(TlbReach.apart(at(MiB, 1.2, 1.2, 1.2), at(MiB, 1.0, 1.0, 1.0), 1.25)).as("beyond the noise, under the ratio").isFalse();
    }

    @Test
    void aNoisySizeInsideTheGapEndsIt() {
        // apart at 1 MiB and 16 MiB, but at 4 MiB the base samples overlap the huge ones: the knee moves to 16 MiB
        List<Sweep.Point> base = List.of(at(MiB, 2.0, 1.9, 2.1), at(4 * MiB, 3.0, 0.5, 3.5), at(16 * MiB, 3.0, 2.9, 3.1));
        List<Sweep.Point> huge = List.of(at(MiB, 1.0, 1.0, 1.0), at(4 * MiB, 1.0, 1.0, 1.0), at(16 * MiB, 1.0, 1.0, 1.0));
        assertThat(TlbReach.knee(base, huge, 1.25, 1.1)).isEqualTo(16 * MiB);
        List<Sweep.Point> tight = List.of(at(MiB, 2.0, 1.9, 2.1), at(4 * MiB, 3.0, 2.5, 3.5), at(16 * MiB, 3.0, 2.9, 3.1));
        assertThat(TlbReach.knee(tight, huge, 1.25, 1.1)).isEqualTo(MiB);
    }

    @Test
    void sizesOnlyOneCurveHasAreSkipped() {
        List<Sweep.Point> base = points(1, 1, 2, 2, 1); // the largest together again, but huge lacks it
        List<Sweep.Point> huge = points(1, 1, 1, 1);
        assertThat(TlbReach.knee(base, huge, 1.25)).isEqualTo(MiB);
    }
}
