package hostside.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.harness.Result;
import hostside.core.Stats;
import hostside.machine.Host;

class MeasuredVerdictsTest {
    static final Host METAL = new Host("box", "6.8.0", "x86_64", "none detected", "", "live");
    static final Host VM = new Host("guest", "6.8.0", "x86_64", "VM (KVM)", "", "live");

    static Result ok(String key, double median, Map<String, Object> detail) {
        return hostside.harness.TestResults.of(key, key, "ok", "", "ns", Stats.of(median), "", detail);
    }

    static Map<String, Object> jitter(long lateP50Us, long lateP99Us, Long launchP50Us, Object... more) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("timerSlackNs", 50_000L);
        d.put("lateNs", Map.of("p50", lateP50Us * 1000, "p99", lateP99Us * 1000, "p99.9", lateP99Us * 2000, "max", lateP99Us * 3000));
        if (launchP50Us != null) d.put("launchNs", Map.of("p50", launchP50Us * 1000, "p99", launchP50Us * 2000, "p99.9", launchP50Us * 3000, "max", launchP50Us * 4000));
        for (int i = 0; i < more.length; i += 2) d.put((String) more[i], more[i + 1]);
        return d;
    }

    @Test
    void aSlowSyscallIsNamedAndItsCauseDependsOnVm() {
        List<Result> rs = List.of(ok("syscall_getppid", 1200, Map.of()));
        assertThat(MeasuredVerdicts.of(VM, rs, false)).singleElement().asString().startsWith("A trivial syscall costs 1200 ns here: slow, as in many VMs");
        assertThat(MeasuredVerdicts.of(METAL, rs, false)).singleElement().asString().contains("mitigations");
        assertThat(MeasuredVerdicts.of(METAL, List.of(ok("syscall_getppid", 150, Map.of())), false)).singleElement().asString()
                .contains("cheap enough");
    }

    @Test
    void switchesSayWhatAHandOverCosts() {
        List<Result> rs = List.of(ok("context_switch_same_core", 4100, Map.of()), ok("context_switch_cross_core", 12200, Map.of()),
                ok("futex_wakeup_cross_core", 11000, Map.of()));
        assertThat(MeasuredVerdicts.of(METAL, rs, false)).singleElement().asString()
                .startsWith("Handing work to another thread costs 4.1 us on one core, 12.2 us across cores (a sleeping thread runs 11.0 us after its wake-up)");
    }

    @Test
    void jitterComparesNoisyWithQuietAndNamesTheSlack() {
        List<Result> rs = List.of(ok("launch_jitter_quiet", 0, jitter(90, 110, 4L)), ok("launch_jitter_noisy", 0, jitter(95, 1540, 5L)));
        String line = MeasuredVerdicts.of(METAL, rs, true).getFirst();
        assertThat(line).startsWith("Quiet, the feeder's launches run 110 us late at p99 (90 us at p50, of which up to 50 us is the thread's timer slack)")
                .contains("a launch call takes 4.0 us at p50, 8.0 us at p99").contains("p99 becomes 1540 us (14.0x)").contains("competes with DataLoader workers");
        assertThat(MeasuredVerdicts.of(METAL, rs, false).getFirst()).contains("timer wake-ups (no GPU)");
    }

    static Result jitterRun(String key, int wakes, long missed, Map<String, Object> detail) {
        Map<String, Object> d = new LinkedHashMap<>(detail);
        d.put("missedTicks", missed);
        return hostside.harness.TestResults.of(key, key, "ok", "", "us", new Stats(0.1, 0.01, 5, wakes), "", d);
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
        assertThat(MeasuredVerdicts.missedShare(ok("launch_jitter_quiet", 0, jitter(90, 110, null)))).as("an older run without the count").isZero();
    }

    @Test
    void pinningHelpsOrSaysItDoesNot() {
        Result noisy = ok("launch_jitter_noisy", 0, jitter(95, 1500, null));
        assertThat(MeasuredVerdicts.pinned(List.of(noisy, ok("launch_jitter_pinned", 0, jitter(90, 200, null, "feederCpu", 3))))).get().asString()
                .isEqualTo("Pinned alone on CPU 3 with the hogs elsewhere, p99 is 200 us and p99.9 400 us against 1500 and 3000 us unpinned:"
                        + " pin the thread that feeds the GPU (os.sched_setaffinity, taskset) and keep DataLoader workers off its core");
        assertThat(MeasuredVerdicts.pinned(List.of(noisy, ok("launch_jitter_pinned", 0, jitter(90, 1400, null, "feederCpu", 3))))).get().asString()
                .endsWith("pinning alone does not help here; the noise is not from threads on the same core");
    }

    @Test
    void pinningThatSavesTheMissedTicksHelpsEvenWithTheSameP99() {
        // the H200 machine at 17:31: p99 barely apart, but a tenth of the missed ticks and of the p99.9
        Result noisy = jitterRun("launch_jitter_noisy", 20_000, 875, jitter(56, 70, null));
        Result pinned = jitterRun("launch_jitter_pinned", 20_000, 85, jitter(56, 59, null, "feederCpu", 0));
        assertThat(MeasuredVerdicts.pinned(List.of(noisy, pinned))).get().asString()
                .startsWith("Pinned alone on CPU 0 with the hogs elsewhere, p99 is 59 us and p99.9 118 us, 0.4% of ticks missed, against 70 and 140 us, 4.2% missed, unpinned")
                .endsWith("keep DataLoader workers off its core");
    }

    @Test
    void aGraphIsComparedWithSeparateLaunches() {
        List<Result> rs = List.of(ok("launch_jitter_quiet", 0, jitter(90, 110, 4L)), ok("launch_jitter_graph", 0, jitter(90, 110, 8L, "kernelsPerLaunch", 10)));
        assertThat(MeasuredVerdicts.graph(rs)).get().asString()
                .startsWith("A CUDA graph of 10 kernels launches in 8.0 us, against 40.0 us for 10 separate launches (5.0x less CPU per kernel)");
        List<Result> timerOnly = List.of(ok("launch_jitter_quiet", 0, jitter(90, 110, null)), ok("launch_jitter_graph", 0, jitter(90, 110, null, "kernelsPerLaunch", 10)));
        assertThat(MeasuredVerdicts.graph(timerOnly)).as("no launches, nothing to compare").isEmpty();
    }

    @Test
    void missingFiguresDropTheirLines() {
        assertThat(MeasuredVerdicts.of(METAL, List.of(), true)).isEmpty();
        Result failed = hostside.harness.TestResults.of("launch_jitter_quiet", "", "failed", "boom", "", null, "", Map.of());
        assertThat(MeasuredVerdicts.of(METAL, List.of(failed), true)).isEmpty();
    }
}
