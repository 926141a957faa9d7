package hostside.cpu.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.core.Distribution;
import hostside.core.Unit;
import hostside.gpu.bench.GpuBench;
import hostside.gpu.cuda.OnFakeDriver;
import hostside.harness.JitWatch;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.Status;
import hostside.libc.Sched;

/** The jitter loop on the fake driver (launches, graphs, resources) and on the timer alone. */
class LaunchJitterTest extends OnFakeDriver {
    static final int LAUNCHES = 400;

    static CpuTarget target(GpuBench b) {
        List<Integer> cpus = Sched.affinity();
        return new CpuTarget(cpus, cpus, b, LAUNCHES, 20_000);
    }

    static LaunchJitter.Detail detail(Result r) {
        return (LaunchJitter.Detail) r.detail();
    }

    @Test
    void aLateWakeUpSkipsThePassedTicksAsRefsTimerDoes() {
        Schedule s = new Schedule(1_000, 100);
        assertThat(s.advance(1_030)).as("on time: the next tick").isZero();
        assertThat(s.deadline()).isEqualTo(1_100);
        assertThat(s.advance(1_099)).as("woke 1 ns before the next deadline: still ahead").isZero();
        assertThat(s.deadline()).isEqualTo(1_200);
        assertThat(s.advance(1_300)).as("woke for 1200 at the very ns of the next tick: refs timer's `while (dl <= t)` counts it passed").isEqualTo(1);
        assertThat(s.deadline()).isEqualTo(1_400);
        assertThat(s.advance(1_501)).as("woke for 1400 1 ns past the next tick, 1500").isEqualTo(1);
        assertThat(s.deadline()).isEqualTo(1_600);
        assertThat(s.advance(1_600 + 3_550)).as("a 3.55 ms stall at a 100 us period (in ns here)").isEqualTo(35);
        assertThat(s.deadline()).isEqualTo(5_200).isGreaterThan(1_600 + 3_550);
        assertThat(s.missed()).isEqualTo(37);
    }

    /** refs.c's do_timer, its tick bookkeeping line for line: dl += period; while (dl <= t) { dl += period; missed++; }. */
    static long[] refsTimer(long first, long period, long[] wakes) {
        long dl = first, missed = 0;
        for (long t : wakes) {
            dl += period;
            while (dl <= t) {
                dl += period;
                missed++;
            }
        }
        return new long[] {dl, missed};
    }

    @Test
    void theScheduleCountsAsRefsTimerOnAnyWakeUps() {
        java.util.Random r = new java.util.Random(17);
        for (int run = 0; run < 200; run++) {
            long period = 1 + r.nextInt(1_000), t = 10_000;
            long[] wakes = new long[50];
            Schedule s = new Schedule(t, period);
            for (int i = 0; i < wakes.length; i++) {
                // each wake-up at or after the deadline it slept for, some of them ticks late, some exactly on a tick
                t = s.deadline() + switch (r.nextInt(4)) {
                    case 0 -> 0;
                    case 1 -> r.nextInt((int) period);
                    case 2 -> period * r.nextInt(5);
                    default -> r.nextInt((int) period * 40);
                };
                wakes[i] = t;
                s.advance(t);
            }
            long[] refs = refsTimer(10_000, period, wakes);
            assertThat(new long[] {s.deadline(), s.missed()}).as("period %d", period).containsExactly(refs);
        }
    }

    @Test
    void theHogsOutliveTheLongestRunTheyServe() {
        assertThat(LaunchJitter.hogLimitS(20_000, 100_000)).as("6 s of warm-up, 16 s of time bound, 30 s more").isEqualTo(52);
        assertThat(LaunchJitter.hogLimitS(1_000_000, 100_000)).isEqualTo(6 + 310 + 30);
    }

    @Test
    void warmUpWaitsForTheJitToGoQuiet() {
        JitWatch w = new JitWatch();
        assertThat(w.settled(100, 0, 300)).as("first look starts the clock").isFalse();
        assertThat(w.settled(100, 299, 300)).isFalse();
        assertThat(w.settled(100, 300, 300)).as("unchanged for 300").isTrue();
        assertThat(w.settled(105, 400, 300)).as("a compilation finished: the clock restarts").isFalse();
        assertThat(w.settled(105, 699, 300)).isFalse();
        assertThat(w.settled(105, 700, 300)).isTrue();
    }

    /**
     * A burst of ticks the first time a branch of the tick runs in this JVM (C2 must be asked to
     * compile it, and seen to), then 5% of the run at the cadence; no burst once a warm-up of that
     * branch ended with the JIT quiet. The branches: the timer alone, a launch, a graph.
     */
    @Test
    void onlyTheFirstConditionOfABranchBursts() {
        TickWarmup.COMPILED.clear();
        try {
            assertThat(TickWarmup.burstCalls(TickWarmup.TickCode.TIMER)).as("twice C2's invocation threshold").isEqualTo(10_000);
            assertThat(TickWarmup.leastTicks(20_000)).isEqualTo(1_000);
            assertThat(TickWarmup.leastTicks(400)).isEqualTo(100);
            Result first = new LaunchJitter(LaunchJitter.Condition.TIMER_QUIET).run(target(null));
            assertThat(detail(first).warmupTicks()).isGreaterThanOrEqualTo(TickWarmup.BURST_CALLS + TickWarmup.leastTicks(LAUNCHES));
            assertThat(detail(first).lateNs().count()).as("the burst's ticks are not recorded").isEqualTo(LAUNCHES);
            assertThat(detail(first).missedTicks()).as("nor its passed deadlines (one per ns of the burst)").isLessThan(1_000_000L);
            assertThat(TickWarmup.COMPILED).as("compiled only once the JIT was seen quiet")
                    .containsExactlyElementsOf(detail(first).jitSettledInWarmup() ? List.of(TickWarmup.TickCode.TIMER) : List.of());
            TickWarmup.COMPILED.add(TickWarmup.TickCode.TIMER);
            assertThat(TickWarmup.burstCalls(TickWarmup.TickCode.TIMER)).isZero();
            assertThat(TickWarmup.burstCalls(TickWarmup.TickCode.LAUNCH)).as("another branch: its own burst").isEqualTo(10_000);
            Result second = new LaunchJitter(LaunchJitter.Condition.TIMER_NOISY).run(target(null));
            assertThat(detail(second).warmupTicks()).isGreaterThanOrEqualTo(TickWarmup.leastTicks(LAUNCHES));
            assertThat(TickWarmup.TickCode.of(false, false)).isEqualTo(TickWarmup.TickCode.TIMER);
            assertThat(TickWarmup.TickCode.of(true, false)).isEqualTo(TickWarmup.TickCode.LAUNCH);
            assertThat(TickWarmup.TickCode.of(true, true)).isEqualTo(TickWarmup.TickCode.GRAPH);
        } finally {
            TickWarmup.COMPILED.clear();
        }
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
            assertThat(warmup).as("at least the minimum warm-up").isGreaterThanOrEqualTo(TickWarmup.leastTicks(LAUNCHES));
            assertThat((long) fake.calls("cuLaunchKernel") - before).as("one launch per tick, warm-up included").isEqualTo(LAUNCHES + warmup);
            assertThat(fake.lastLaunch("params")).as("the empty kernel takes no parameters").isZero();
            LaunchJitter.Detail d = detail(r);
            assertThat(d.launchNs().count()).as("one launch time per tick").isEqualTo(LAUNCHES);
            assertThat(d.launchNs().unit()).isEqualTo(Unit.NS);
            assertThat(d.lateNs().p50()).isLessThanOrEqualTo(d.lateNs().max());
            assertThat(d.lateNs().count()).isEqualTo(LAUNCHES);
            assertThat(d.lateNs().histogram().stream().mapToLong(Distribution.Bucket::count).sum())
                    .as("the histogram holds every wake-up").isEqualTo(LAUNCHES);
            assertThat(d.gapNs().count()).as("a gap before each launch, the first from the tick before the recording's first").isEqualTo(LAUNCHES);
            assertThat(r.value().samples()).isEqualTo(LAUNCHES);
            assertThat(d.timerSlackNs()).isNotNegative();
            assertThat(d.missedTicks()).isNotNegative();
            assertThat(d.gpu()).contains("(" + b.pciAddress + ")");
            assertThat(r.anchor()).as("no peer times a launch").isNull();
            assertThat(r.method()).contains("the timer conditions' loop plus a launch");
            assertThat(d.segments()).as("the recording in equal parts").hasSize(LaunchJitter.SEGMENTS)
                    .allSatisfy(x -> assertThat(x.wakes()).isEqualTo(LAUNCHES / LaunchJitter.SEGMENTS));
            assertThat(d.segments().stream().mapToLong(LaunchJitter.Segment::missed).sum()).as("every missed tick in one segment").isEqualTo(d.missedTicks());
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
            Result r = Runner.run(List.of(new LaunchJitter(LaunchJitter.Condition.GRAPH)), target(b), k -> { }).getFirst();
            assertThat(r.status()).isEqualTo(Status.FAILED);
            assertThat(r.why()).contains("cuLaunchKernel").contains("CUDA_ERROR_INVALID_VALUE");
            assertThat(fake.calls("cuStreamEndCapture")).isEqualTo(1);
            assertThat(fake.live("graphs")).isZero();
            // the stream is usable again: a capture left open would refuse this launch
            assertThat(new LaunchJitter(LaunchJitter.Condition.QUIET).run(target(b)).isOk()).isTrue();
        }
        fake.assertNothingLive();
    }

    @Test
    void withoutAGpuTheTimerConditionsRunAndTheLaunchOnesAreNotRun() {
        CpuTarget t = target(null);
        for (LaunchJitter.Condition c : LaunchJitter.Condition.values()) {
            LaunchJitter j = new LaunchJitter(c);
            if (c.launches()) {
                assertThat(j.notApplicable(t)).as(c.toString()).get().asString().startsWith("no GPU to launch on").contains("timer_jitter_quiet");
                continue;
            }
            assertThat(j.notApplicable(t)).isEmpty();
            Result r = j.run(t);
            assertThat(r.isOk()).as(c.toString()).isTrue();
            assertThat(r.key()).startsWith("timer_jitter_");
            assertThat(r.anchor()).isEqualTo("refs timer: cyclictest's loop without SCHED_FIFO");
            assertThat(detail(r).launchNs()).isNull();
            assertThat(detail(r).gpu()).isNull();
            assertThat(r.value().samples()).as(c + ": one lateness per wake-up").isEqualTo(LAUNCHES);
            assertThat(detail(r).segments()).hasSize(LaunchJitter.SEGMENTS);
            assertThat(detail(r).hogCpus().size()).isEqualTo(c == LaunchJitter.Condition.TIMER_NOISY ? t.cpus().size() : 0);
        }
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList()).as("no hog process left running").isEmpty();
    }

    @Test
    void onAGpuTheTimerConditionsStillLaunchNothing() {
        try (GpuBench b = new GpuBench(cuda, 0)) {
            int before = fake.calls("cuLaunchKernel");
            Result r = new LaunchJitter(LaunchJitter.Condition.TIMER_QUIET).run(target(b));
            assertThat(r.isOk()).isTrue();
            assertThat(fake.calls("cuLaunchKernel")).isEqualTo(before);
            assertThat(detail(r).gpu()).isNull();
            assertThat(detail(r).launchNs()).isNull();
        }
        fake.assertNothingLive();
    }

    @Test
    void hogsAreSpinningProcessesOnTheirCpusThatStopWhenClosed() throws Exception {
        List<Integer> cpus = Sched.affinity();
        List<ProcessHandle> seen;
        String allowed = CpuSet.of(cpus.stream().mapToInt(Integer::intValue).toArray()).toList();
        try (CpuHogs h = CpuHogs.start(cpus.size(), cpus, 60)) {
            seen = h.pids().stream().map(ProcessHandle::of).flatMap(java.util.Optional::stream).toList();
            assertThat(seen).as("one hog per CPU, running").hasSize(cpus.size()).allMatch(ProcessHandle::isAlive);
            for (ProcessHandle p : seen) {
                // the pid is the wrapper's (setpriv) until it has exec'd the shell: a moment, bounded
                String cmdline = "";
                for (long end = System.nanoTime() + 5_000_000_000L; System.nanoTime() < end; Thread.sleep(10)) {
                    cmdline = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + p.pid() + "/cmdline")).replace('\0', ' ');
                    if (CpuHogs.isHog(cmdline)) break;
                }
                assertThat(CpuHogs.isHog(cmdline)).as(cmdline).isTrue();
                assertThat(cmdline).contains("ulimit -t 60;").doesNotContain("$(").doesNotContain("date");
                String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + p.pid() + "/stat"));
                String mine = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/stat"));
                assertThat(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[3]).as("in this process's session, as refs hog's in the shell's")
                        .isEqualTo(mine.substring(mine.lastIndexOf(')') + 2).split(" ")[3]);
                String status = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + p.pid() + "/status"));
                assertThat(status).as("left to the scheduler among these CPUs").contains("Cpus_allowed_list:\t" + allowed.replace(" ", "") + "\n");
            }
            // a spinning hog starts no process (refs hog forks none either); the date loop started one several times a second
            Thread.sleep(300);
            for (ProcessHandle p : seen) assertThat(p.children().toList()).as("children of hog " + p.pid()).isEmpty();
        }
        for (ProcessHandle p : seen) assertThat(p.isAlive()).isFalse();
        assertThat(CpuHogs.isHog("/bin/sh -c while :; do :; done")).as("not ours: no name").isFalse();
    }

    @Test
    void aHogEndsItselfAtItsCpuTimeLimit() throws Exception {
        // the backstop when nothing stops it: the kernel's RLIMIT_CPU, no clock read, no fork
        Process p = new ProcessBuilder("/bin/sh", "-c", CpuHogs.script(1), CpuHogs.NAME).start();
        try {
            assertThat(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as("killed by the kernel (SIGKILL or SIGXCPU)").isIn(128 + 9, 128 + 24);
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void pinnedKeepsTheFeederOffTheHogs() {
        List<Integer> cpus = Sched.affinity();
        try (GpuBench b = new GpuBench(cuda, 0)) {
            CpuTarget t = new CpuTarget(cpus, List.of(cpus.getLast()), b, LAUNCHES, 20_000);
            LaunchJitter pinned = new LaunchJitter(LaunchJitter.Condition.PINNED);
            if (cpus.size() < 2) {
                assertThat(pinned.notApplicable(t)).isPresent();
                return;
            }
            Result r = pinned.run(t);
            assertThat(detail(r).feederCpu()).isEqualTo(cpus.getLast());
            CpuSet hogs = detail(r).hogCpus();
            assertThat(hogs.contains(cpus.getLast())).isFalse();
            assertThat(hogs.size()).isEqualTo(cpus.size() - 1);
        }
        fake.assertNothingLive();
    }
}
