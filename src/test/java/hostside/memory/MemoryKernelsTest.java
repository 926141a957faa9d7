package hostside.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.fs.FsRoot;
import hostside.harness.Sampling;
import hostside.libc.Libc;
import hostside.libc.Sched;

/** The kernels compute what STREAM's do, the chase visits every line, the team runs every member: correctness, never timings. */
class MemoryKernelsTest {

    @Test
    void sattoloGivesOneCycleThroughEveryLine() {
        for (int n : new int[] {2, 3, 17, 4096}) {
            int[] next = ChaseRun.cycle(n, new SplittableRandom(7));
            boolean[] seen = new boolean[n];
            int at = 0;
            for (int k = 0; k < n; k++) {
                assertThat(seen[at]).as("line %d visited twice before the cycle closed (n=%d)", at, n).isFalse();
                seen[at] = true;
                at = next[at];
            }
            assertThat(at).as("back at the start after n steps").isZero();
        }
    }

    @Test
    void theCycleIsNotTheLinesInOrder() {
        int[] next = ChaseRun.cycle(4096, new SplittableRandom(7));
        long inOrder = java.util.stream.IntStream.range(0, next.length).filter(i -> next[i] == i + 1).count();
        assertThat(inOrder).as("a prefetcher would follow lines in order").isLessThan(10);
    }

    @Test
    void linkedLinesHoldTheOffsetOfTheNext() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment set = a.allocate(64 * 64, 64);
            ChaseRun.link(set, 64, new SplittableRandom(3));
            long at = 0;
            java.util.Set<Long> visited = new java.util.HashSet<>();
            for (int k = 0; k < 64; k++) {
                assertThat(at % 64).isZero();
                visited.add(at);
                at = set.get(ValueLayout.JAVA_LONG, at);
            }
            assertThat(visited).hasSize(64);
            assertThat(Kernels.chase(set, 0, 64)).isZero();
        }
    }

    @Test
    void streamsCheckFollowsTheKernels() {
        try (Arena arena = Arena.ofConfined()) {
            int n = 1000;
            MemorySegment[] abc = streamArrays(arena, n);
            MemorySegment a = abc[0], b = abc[1], c = abc[2];
            for (int k = 0; k < 3; k++) {
                Kernels.copy(a, c);
                Kernels.scale(b, c);
                Kernels.add(a, b, c);
                Kernels.triad(a, b, c);
            }
            assertThat(StreamRun.validates(a, b, c, n, 3)).isTrue();
            assertThat(StreamRun.validates(a, b, c, n, 2)).as("one round short").isFalse();
            // a kernel that skipped the last element
            c.setAtIndex(ValueLayout.JAVA_DOUBLE, n - 1, 0.0);
            assertThat(StreamRun.validates(a, b, c, n, 3)).isFalse();
        }
    }

    @Test
    void triadAlonesCheckFindsASliceItNeverWrote() {
        try (Arena arena = Arena.ofConfined()) {
            int n = 1000;
            MemorySegment[] abc = streamArrays(arena, n);
            MemorySegment a = abc[0], b = abc[1], c = abc[2];
            assertThat(StreamRun.validatesTriad(a, b, c, n)).as("no round run").isFalse();
            Kernels.triad(a.asSlice(0, 8L * (n - 10)), b, c);
            assertThat(StreamRun.validatesTriad(a, b, c, n)).as("the last ten elements left").isFalse();
            for (int k = 0; k < 3; k++) Kernels.triad(a, b, c);
            assertThat(StreamRun.validatesTriad(a, b, c, n)).isTrue();
            assertThat(StreamRun.validates(a, b, c, n, 3)).as("not what the four kernels leave").isFalse();
        }
    }

    /** STREAM's three arrays of {@code n} doubles with its initial values. */
    static MemorySegment[] streamArrays(Arena arena, int n) {
        MemorySegment a = arena.allocate(8L * n, 8), b = arena.allocate(8L * n, 8), c = arena.allocate(8L * n, 8);
        Kernels.init(a, b, c);
        return new MemorySegment[] {a, b, c};
    }

    @Test
    void theReadPassCopiesEveryByteThroughTheBuffer() {
        try (Arena arena = Arena.ofConfined()) {
            // two whole chunks and a tail, each chunk's first double its own, so that a skipped
            // chunk or a lost tail shows in what the buffer holds
            long size = 2L * Kernels.READ_CHUNK + 8 * 13;
            MemorySegment a = arena.allocate(size, 8);
            MemorySegment buffer = arena.allocate(Kernels.READ_CHUNK, 4096);
            Kernels.fill(a);
            a.set(ValueLayout.JAVA_DOUBLE, 2L * Kernels.READ_CHUNK, 7.0);
            a.set(ValueLayout.JAVA_DOUBLE, size - 8, 9.0);
            a.set(ValueLayout.JAVA_DOUBLE, Kernels.READ_CHUNK + 8 * 13, 4.0);
            assertThat(Kernels.read(a, buffer)).as("the tail is the last chunk").isEqualTo(7.0);
            assertThat(buffer.get(ValueLayout.JAVA_DOUBLE, 8 * 12)).isEqualTo(9.0);
            assertThat(buffer.get(ValueLayout.JAVA_DOUBLE, 8 * 13)).as("the second chunk's, beyond the tail").isEqualTo(4.0);

            MemorySegment whole = a.asSlice(0, 2L * Kernels.READ_CHUNK);
            whole.set(ValueLayout.JAVA_DOUBLE, Kernels.READ_CHUNK, 5.0);
            buffer.fill((byte) 0);
            assertThat(Kernels.read(whole, buffer)).as("whole chunks only: the second one last").isEqualTo(5.0);
        }
    }

    @Test
    void theTeamRunsEveryMemberOnItsCpu() {
        List<Integer> mine = Sched.affinity();
        CpuSet two = mine.size() >= 2 ? CpuSet.of(mine.get(0), mine.get(1)) : CpuSet.of(mine.get(0));
        try (Team team = new Team(two)) {
            int[] ran = new int[team.size()];
            int[] on = new int[team.size()];
            for (int round = 0; round < 3; round++) team.run(i -> {
                ran[i]++;
                on[i] = Sched.cpu();
            });
            for (int i = 0; i < team.size(); i++) {
                assertThat(ran[i]).isEqualTo(3);
                assertThat(on[i]).isEqualTo(team.cpu(i));
            }
        }
    }

    @Test
    void theTeamsBarrierLosesNoRunWhetherItsMembersSpinOrPark() throws Exception {
        List<Integer> mine = Sched.affinity();
        CpuSet set = CpuSet.of(mine.subList(0, Math.min(mine.size(), 4)).stream().mapToInt(Integer::intValue).toArray());
        try (Team team = new Team(set)) {
            long[] count = new long[team.size()];
            long[] sum = new long[team.size()];
            // back to back: the members spin between runs; each run's writes are seen by the next
            for (int round = 1; round <= 5000; round++) {
                int r = round;
                long ns = team.run(i -> {
                    count[i]++;
                    sum[i] += r;
                });
                assertThat(ns).isPositive();
            }
            // idle past the spin: every member has parked, and a run still wakes them all
            for (int round = 0; round < 3; round++) {
                Thread.sleep(Team.SPIN_NANOS / 1_000_000 * 3);
                team.run(i -> count[i]++);
            }
            for (int i = 0; i < team.size(); i++) {
                assertThat(count[i]).isEqualTo(5003);
                assertThat(sum[i]).isEqualTo(5000L * 5001 / 2);
            }
        }
    }

    @Test
    void aRunIsTimedToItsSlowestMember() {
        try (Team team = new Team(CpuSet.of(Sched.affinity().get(0)))) {
            long ns = team.run(i -> LockSupport.parkNanos(20_000_000L));
            assertThat(ns).isGreaterThanOrEqualTo(20_000_000L);
        }
    }

    @Test
    void aFailingMemberFailsTheRun() {
        try (Team team = new Team(CpuSet.of(Sched.affinity().get(0)))) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> team.run(i -> {
                throw new IllegalStateException("boom");
            })).hasMessage("boom");
        }
    }

    @Test
    void streamRunsLiveOnSmallArraysAndValidates() {
        CpuSet cpus = CpuSet.of(Sched.affinity().get(0));
        StreamRun.Outcome o = StreamRun.run(cpus, cpus, null, 1L << 20, new Sampling(1, 2), Libc.pageSize(), StreamRun.Round.ALL);
        assertThat(o.validated()).isTrue();
        assertThat(o.stats()).hasSize(4).allSatisfy(s -> assertThat(s.median()).isPositive());
    }

    @Test
    void triadAloneRunsLiveAndValidates() {
        CpuSet cpus = CpuSet.of(Sched.affinity().get(0));
        StreamRun.Outcome o = StreamRun.run(cpus, cpus, null, 1L << 20, new Sampling(1, 2), Libc.pageSize(), StreamRun.Round.TRIAD_ALONE);
        assertThat(o.validated()).isTrue();
        assertThat(o.of(StreamRun.Kernel.TRIAD).median()).isPositive();
        assertThat(o.of(StreamRun.Kernel.COPY)).isNull();
        assertThat(o.of(StreamRun.Kernel.ADD)).isNull();
    }

    @Test
    void oneThreadsArraysTouchedFirstByItsNodeMatesStillValidateAndLieOnItsNode() {
        List<Integer> mine = Sched.affinity();
        CpuSet one = CpuSet.of(mine.getLast()), touch = mine.size() >= 2 ? CpuSet.of(mine.get(0), mine.getLast()) : one;
        StreamRun.Outcome o = StreamRun.run(one, touch, null, 1L << 20, new Sampling(1, 2), Libc.pageSize(), StreamRun.Round.TRIAD_ALONE);
        assertThat(o.validated()).isTrue();
        assertThat(o.placement().sampled()).isPositive();
    }

    @Test
    void aChaseRunsLiveAndSaysWhereItsPagesAre() {
        ChaseRun.Outcome o = ChaseRun.run(FsRoot.live(), Sched.affinity().get(0), null, 4L << 20, true, 1 << 12, new Sampling(0, 2), Libc.pageSize());
        assertThat(o.ns().median()).isPositive();
        assertThat(o.placement().sampled()).isPositive();
        assertThat(o.placement().byNode().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(o.placement().sampled());
    }

    @Test
    void bindingToNodeZeroPutsThePagesThere() {
        ReadRun.Outcome o = ReadRun.run(CpuSet.of(Sched.affinity().get(0)), 0, 4L << 20, true, new Sampling(0, 1), Libc.pageSize());
        assertThat(o.placement().asBound()).isTrue();
        assertThat(o.placement().shareOn(0)).isEqualTo(1.0);
    }

    @Test
    void theWarmUpRunsAtLeastItsMinimumAndNeverMoreThanItsMaximum() {
        int[] ran = {0};
        int n = Warmup.untilCompiled(() -> ran[0]++, 3, 5);
        assertThat(n).isEqualTo(ran[0]).isBetween(3, 5);
        // a round that takes no time cannot be quiet for 300 ms: the maximum ends it
        int[] spun = {0};
        assertThat(Warmup.untilCompiled(() -> spun[0]++, 1, 4)).isEqualTo(4);
    }
}
