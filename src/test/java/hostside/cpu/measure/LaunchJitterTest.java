package hostside.cpu.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.gpu.bench.GpuBench;
import hostside.gpu.cuda.FakeDriver;
import hostside.harness.Result;
import hostside.libc.Sched;

/** The jitter loop on the fake driver (launches, graphs, resources) and on the timer alone. */
class LaunchJitterTest extends hostside.gpu.cuda.OnFakeDriver {
    static final int LAUNCHES = 400;

    static CpuTarget target(GpuBench b) {
        List<Integer> cpus = Sched.affinity();
        return new CpuTarget(cpus, cpus, b, LAUNCHES, 20_000);
    }

    static LaunchJitter.Detail detail(Result r) {
        return (LaunchJitter.Detail) r.detail();
    }

    @Test
    void aLateWakeUpSkipsThePassedTicksAsCyclictestDoes() {
        LaunchJitter.Schedule s = new LaunchJitter.Schedule(1_000, 100);
        assertThat(s.advance(1_030)).as("on time: the next tick").isZero();
        assertThat(s.deadline()).isEqualTo(1_100);
        assertThat(s.advance(1_100)).as("woke exactly on the next deadline: still ahead, not passed").isZero();
        assertThat(s.deadline()).isEqualTo(1_200);
        assertThat(s.advance(1_301)).as("woke for 1200 1 ns past the next tick, 1300").isEqualTo(1);
        assertThat(s.deadline()).isEqualTo(1_400);
        assertThat(s.advance(1_400 + 3_550)).as("a 3.55 ms stall at a 100 us period (in ns here)").isEqualTo(35);
        assertThat(s.deadline()).isEqualTo(5_000).isGreaterThan(1_400 + 3_550);
        assertThat(s.missed()).isEqualTo(36);
    }

    @Test
    void warmUpWaitsForTheJitToGoQuiet() {
        LaunchJitter.JitWatch w = new LaunchJitter.JitWatch();
        assertThat(w.settled(100, 0, 300)).as("first look starts the clock").isFalse();
        assertThat(w.settled(100, 299, 300)).isFalse();
        assertThat(w.settled(100, 300, 300)).as("unchanged for 300").isTrue();
        assertThat(w.settled(105, 400, 300)).as("a compilation finished: the clock restarts").isFalse();
        assertThat(w.settled(105, 699, 300)).isFalse();
        assertThat(w.settled(105, 700, 300)).isTrue();
    }

    @Test
    void theTimeBoundLeavesRoomForANormalRun() {
        assertThat(LaunchJitter.timeBoundNs(20_000, 100_000)).isEqualTo(16_000_000_000L);
    }

    @Test
    void launchesAreTimedAndEveryTickCounted() {
        try (GpuBench b = new GpuBench(cuda, 0)) {
            int before = fake.calls("cuLaunchKernel");
            Result r = new LaunchJitter(LaunchJitter.Condition.QUIET).run(target(b));
            assertThat(r.isOk()).isTrue();
            long warmup = detail(r).warmupTicks();
            assertThat(warmup).as("at least the minimum warm-up").isGreaterThanOrEqualTo(LaunchJitter.warmupTicks(LAUNCHES, 20_000));
            assertThat((long) fake.calls("cuLaunchKernel") - before).as("one launch per tick, warm-up included").isEqualTo(LAUNCHES + warmup);
            assertThat(fake.lastLaunch("params")).as("the empty kernel takes no parameters").isZero();
            LaunchJitter.Detail d = detail(r);
            assertThat(d.launchNs().count()).as("one launch time per tick").isEqualTo(LAUNCHES);
            assertThat(d.launchNs().unit()).isEqualTo(hostside.core.Unit.NS);
            assertThat(d.lateNs().p50()).isLessThanOrEqualTo(d.lateNs().max());
            assertThat(d.lateNs().count()).isEqualTo(LAUNCHES);
            assertThat(d.lateNs().histogram().stream().mapToLong(hostside.core.Distribution.Bucket::count).sum())
                    .as("the histogram holds every wake-up").isEqualTo(LAUNCHES);
            assertThat(d.gapNs().count()).as("a gap before each launch, the first from the warm-up's last").isEqualTo(LAUNCHES);
            assertThat(r.value().samples()).isEqualTo(LAUNCHES);
            assertThat(d.timerSlackNs()).isNotNegative();
            assertThat(d.missedTicks()).isNotNegative();
            assertThat(d.gpu()).contains("(" + b.pciAddress + ")");
            assertThat(r.anchor()).isEqualTo("cyclictest");
        }
        fake.assertNothingLive();
    }

    @Test
    void aGraphReplaysItsKernelsAndIsFreed() {
        try (GpuBench b = new GpuBench(cuda, 0)) {
            int launchesBefore = fake.calls("cuLaunchKernel");
            Result r = new LaunchJitter(LaunchJitter.Condition.GRAPH).run(target(b));
            assertThat(r.isOk()).isTrue();
            long warmup = detail(r).warmupTicks();
            assertThat(fake.calls("cuLaunchKernel") - launchesBefore).as("kernels launched only while capturing").isEqualTo(LaunchJitter.GRAPH_KERNELS);
            assertThat((long) fake.calls("cuGraphLaunch")).isEqualTo(LAUNCHES + warmup);
            assertThat(fake.graphKernelsRun()).isEqualTo((long) (LAUNCHES + warmup) * LaunchJitter.GRAPH_KERNELS);
            assertThat(detail(r).kernelsPerLaunch()).isEqualTo(LaunchJitter.GRAPH_KERNELS);
            assertThat(fake.live("graphs")).as("graph and its instance destroyed").isZero();
        }
        fake.assertNothingLive();
    }

    @Test
    void aFailedCaptureStillEndsTheCaptureAndFreesEverything() {
        try (GpuBench b = new GpuBench(cuda, 0)) {
            fake.failOnce("cuLaunchKernel", 1, 3); // the fourth captured launch fails
            Result r = hostside.harness.Runner.run(List.of(new LaunchJitter(LaunchJitter.Condition.GRAPH)), target(b), k -> { }).getFirst();
            assertThat(r.status()).isEqualTo(hostside.harness.Status.FAILED);
            assertThat(r.why()).contains("cuLaunchKernel").contains("CUDA_ERROR_INVALID_VALUE");
            assertThat(fake.calls("cuStreamEndCapture")).isEqualTo(1);
            assertThat(fake.live("graphs")).isZero();
            // the stream is usable again: a capture left open would refuse this launch
            assertThat(new LaunchJitter(LaunchJitter.Condition.QUIET).run(target(b)).isOk()).isTrue();
        }
        fake.assertNothingLive();
    }

    @Test
    void withoutAGpuTheTimerRunsEveryCondition() {
        for (LaunchJitter.Condition c : LaunchJitter.Condition.values()) {
            CpuTarget t = target(null);
            if (new LaunchJitter(c).notApplicable(t).isPresent()) continue;
            Result r = new LaunchJitter(c).run(t);
            assertThat(r.isOk()).as(c.toString()).isTrue();
            assertThat(detail(r).launchNs()).isNull();
            assertThat(detail(r).gpu()).isNull();
            int wakes = c == LaunchJitter.Condition.GRAPH ? LAUNCHES / LaunchJitter.GRAPH_KERNELS : LAUNCHES;
            assertThat(r.value().samples()).as(c + ": one lateness per wake-up").isEqualTo(wakes);
        }
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList()).as("no hog process left running").isEmpty();
    }

    @Test
    void hogsArePinnedProcessesThatStopWhenClosed() throws Exception {
        List<Integer> cpus = Sched.affinity();
        List<ProcessHandle> seen;
        try (LaunchJitter.Hogs h = LaunchJitter.Hogs.start(cpus)) {
            seen = h.pids().stream().map(ProcessHandle::of).flatMap(java.util.Optional::stream).toList();
            assertThat(seen).as("one hog per CPU, running").hasSize(cpus.size()).allMatch(ProcessHandle::isAlive);
            for (int i = 0; i < seen.size(); i++) {
                String status = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + seen.get(i).pid() + "/status"));
                assertThat(status).contains("Cpus_allowed_list:\t" + cpus.get(i) + "\n");
            }
        }
        for (ProcessHandle p : seen) assertThat(p.isAlive()).isFalse();
    }

    @Test
    void pinnedKeepsTheFeederOffTheHogs() {
        List<Integer> cpus = Sched.affinity();
        CpuTarget t = new CpuTarget(cpus, List.of(cpus.getLast()), null, LAUNCHES, 20_000);
        LaunchJitter pinned = new LaunchJitter(LaunchJitter.Condition.PINNED);
        if (cpus.size() < 2) {
            assertThat(pinned.notApplicable(t)).isPresent();
            return;
        }
        Result r = pinned.run(t);
        assertThat(detail(r).feederCpu()).isEqualTo(cpus.getLast());
        hostside.core.CpuSet hogs = detail(r).hogCpus();
        assertThat(hogs.contains(cpus.getLast())).isFalse();
        assertThat(hogs.size()).isEqualTo(cpus.size() - 1);
    }
}
