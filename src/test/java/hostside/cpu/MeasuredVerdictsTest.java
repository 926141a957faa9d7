package hostside.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.cpu.Runs.Jitter;
import hostside.harness.Result;
import hostside.machine.Host;

class MeasuredVerdictsTest {
    static final Host METAL = new Host("box", "6.8.0", "x86_64", "none detected", "", "live");
    static final Host VM = new Host("guest", "6.8.0", "x86_64", "VM (KVM)", "", "live");

    static Result ok(String key, double median) {
        return Runs.ok(key, median, null);
    }

    /** A jitter result of one sample, as the verdicts read only its detail. */
    static Result ok(String key, Jitter j) {
        return Runs.ok(key, 0, j.build());
    }

    static Jitter jitter(long lateP50Us, long lateP99Us, Long launchP50Us) {
        Jitter j = Jitter.late(lateP50Us, lateP99Us);
        return launchP50Us == null ? j : j.launch(launchP50Us);
    }

    @Test
    void aSlowSyscallIsNamedAndItsCauseDependsOnVm() {
        List<Result> rs = List.of(ok("syscall_getppid", 1200));
        assertThat(MeasuredVerdicts.of(VM, rs, false)).singleElement().asString().startsWith("A trivial syscall costs 1200 ns here: slow, as in many VMs");
        assertThat(MeasuredVerdicts.of(METAL, rs, false)).singleElement().asString().contains("mitigations");
        assertThat(MeasuredVerdicts.of(METAL, List.of(ok("syscall_getppid", 150)), false)).singleElement().asString()
                .contains("cheap enough");
    }

    @Test
    void switchesSayWhatAHandOverCosts() {
        List<Result> rs = List.of(ok("context_switch_same_core", 4100), ok("context_switch_cross_core", 12200),
                ok("futex_wakeup_cross_core", 11000));
        assertThat(MeasuredVerdicts.of(METAL, rs, false)).singleElement().asString()
                .startsWith("Handing work to another thread costs 4.1 us on one core, 12.2 us across cores (a sleeping thread runs 11.0 us after its wake-up)");
    }

    @Test
    void jitterComparesNoisyWithQuietAndNamesTheSlack() {
        List<Result> rs = List.of(ok("launch_jitter_quiet", jitter(90, 110, 4L)), ok("launch_jitter_noisy", jitter(95, 1540, 5L)));
        String line = MeasuredVerdicts.of(METAL, rs, true).getFirst();
        assertThat(line).startsWith("Quiet, the feeder's launches run 110 us late at p99 (90 us at p50, of which up to 50 us is the thread's timer slack)")
                .contains("a launch call takes 4.0 us at p50, 8.0 us at p99").contains("p99 becomes 1540 us (14.0x)").contains("competes with DataLoader workers");
        assertThat(MeasuredVerdicts.of(METAL, rs, false).getFirst()).contains("timer wake-ups (no GPU)");
    }

    static Result jitterRun(String key, int wakes, long missed, Jitter j) {
        return j.missed(missed).result(key, wakes);
    }

    @Test
    void missedTicksAreNamedWhenTheyMatter() {
        Result quiet = jitterRun("launch_jitter_quiet", 20_000, 0, jitter(90, 110, null));
        Result noisy = jitterRun("launch_jitter_noisy", 20_000, 5_000, jitter(95, 130, null));
        assertThat(MeasuredVerdicts.missedShare(noisy)).isEqualTo(0.2);
        String line = MeasuredVerdicts.of(METAL, List.of(quiet, noisy), false).getFirst();
        assertThat(line).as("p99 alone barely moved; the missed ticks are the story")
                .contains("p99 becomes 130 us (1.2x) and 20% of the ticks are missed outright: the feeding thread competes");
        assertThat(line).doesNotContain("cannot hold that cadence");

        Result slowTimer = jitterRun("launch_jitter_quiet", 20_000, 2_000, jitter(95, 140, null));
        Result sameNoisy = jitterRun("launch_jitter_noisy", 20_000, 2_500, jitter(95, 150, null));
        line = MeasuredVerdicts.of(METAL, List.of(slowTimer, sameNoisy), false).getFirst();
        assertThat(line).contains("and 9% of the ticks had passed before it woke: this machine's timer cannot hold that cadence")
                .as("as many missed as quiet: not the hogs' doing").doesNotContain("missed outright").doesNotContain("competes");
        assertThat(MeasuredVerdicts.missedShare(ok("launch_jitter_quiet", jitter(90, 110, null)))).as("a run that missed none").isZero();
    }

    @Test
    void pinningHelpsOrSaysItDoesNot() {
        Result noisy = ok("launch_jitter_noisy", jitter(95, 1500, null));
        assertThat(MeasuredVerdicts.pinned(List.of(noisy, ok("launch_jitter_pinned", jitter(90, 200, null).pinnedTo(3, CpuSet.of(0, 1, 2)))))).get().asString()
                .isEqualTo("Pinned alone on CPU 3 with the hogs elsewhere, p99 is 200 us and p99.9 400 us against 1500 and 3000 us unpinned:"
                        + " pin the thread that feeds the GPU (os.sched_setaffinity, taskset) and keep DataLoader workers off its core");
        assertThat(MeasuredVerdicts.pinned(List.of(noisy, ok("launch_jitter_pinned", jitter(90, 1400, null).pinnedTo(3, CpuSet.of(0, 1, 2)))))).get().asString()
                .endsWith("pinning alone does not help here; the noise is not from threads on the same core");
    }

    @Test
    void pinningThatSavesTheMissedTicksHelpsEvenWithTheSameP99() {
        // the H200 machine at 17:31: p99 barely apart, but a tenth of the missed ticks and of the p99.9
        Result noisy = jitterRun("launch_jitter_noisy", 20_000, 875, jitter(56, 70, null));
        Result pinned = jitterRun("launch_jitter_pinned", 20_000, 85, jitter(56, 59, null).pinnedTo(0, CpuSet.range(1, 15)));
        assertThat(MeasuredVerdicts.pinned(List.of(noisy, pinned))).get().asString()
                .startsWith("Pinned alone on CPU 0 with the hogs elsewhere, p99 is 59 us and p99.9 118 us, 0.4% of ticks missed, against 70 and 140 us, 4.2% missed, unpinned")
                .endsWith("keep DataLoader workers off its core");
    }

    @Test
    void aGraphIsComparedWithSeparateLaunches() {
        List<Result> rs = List.of(ok("launch_jitter_quiet", jitter(90, 110, 4L)), ok("launch_jitter_graph", jitter(90, 110, 8L).kernels(10)));
        assertThat(MeasuredVerdicts.graph(rs)).get().asString()
                .startsWith("A CUDA graph of 10 kernels launches in 8.0 us, against 40.0 us for 10 separate launches (5.0x less CPU per kernel)");
        List<Result> timerOnly = List.of(ok("launch_jitter_quiet", jitter(90, 110, null)), ok("launch_jitter_graph", jitter(90, 110, null).kernels(10)));
        assertThat(MeasuredVerdicts.graph(timerOnly)).as("no launches, nothing to compare").isEmpty();
    }

    @Test
    void missingFiguresDropTheirLines() {
        assertThat(MeasuredVerdicts.of(METAL, List.of(), true)).isEmpty();
        Result failed = Result.failed(new hostside.cpu.measure.LaunchJitter(hostside.cpu.measure.LaunchJitter.Condition.QUIET), "boom");
        assertThat(MeasuredVerdicts.of(METAL, List.of(failed), true)).isEmpty();
        Result bare = Runs.ok("launch_jitter_quiet", hostside.core.Unit.US, hostside.core.Stats.of(1), null);
        assertThat(MeasuredVerdicts.of(METAL, List.of(bare), true)).as("a result without its record says nothing rather than guess").isEmpty();
    }
}
