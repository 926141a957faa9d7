package hostside.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.cpu.Runs.Jitter;
import hostside.cpu.measure.LaunchJitter;
import hostside.harness.Result;
import hostside.machine.Host;
import hostside.testing.RuleTally;

class MeasuredVerdictsTest {
    static final Host METAL = new Host("box", "6.8.0", "x86_64", "none detected", "", null, "live");
    static final Host VM = new Host("guest", "6.8.0", "x86_64", "VM (KVM)", "", null, "live");

    /** The findings' texts, judged as on a quiet machine. */
    static List<String> texts(Host machine, List<Result> rs, boolean gpu) {
        return MeasuredVerdicts.of(machine, rs, gpu, null).stream().map(Finding::text).toList();
    }

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
        assertThat(texts(VM, rs, false)).singleElement().asString().startsWith("A trivial syscall costs 1200 ns here: slow, as in VMs whose syscalls trap to the hypervisor")
                .contains("kernel launches do not");
        assertThat(texts(METAL, rs, false)).singleElement().asString().contains("mitigations");
        assertThat(texts(METAL, List.of(ok("syscall_getppid", 150)), false)).singleElement().asString()
                .contains("cheap enough");
    }

    @Test
    void switchesSayWhatAHandOverCosts() {
        List<Result> rs = List.of(ok("context_switch_same_core", 4100), ok("context_switch_cross_core", 12200),
                ok("futex_wakeup_cross_core", 11000));
        assertThat(texts(METAL, rs, false)).singleElement().asString()
                .startsWith("Handing work to another thread costs 4.1 us on one core, 12.2 us across cores (a sleeping thread runs 11.0 us after its wake-up)");
    }

    @Test
    void aWakeUpAloneIsNoHandOver() {
        // the ping-pong conditions did not run: a wake-up's latency alone is not what a hand-over costs
        List<Finding> f = MeasuredVerdicts.of(METAL, List.of(ok("syscall_getppid", 150), ok("futex_wakeup_cross_core", 5341)), false, null);
        assertThat(f).extracting(Finding::id).containsExactly(CpuRules.SYSCALL.id());
        RuleTally.quiet(f, CpuRules.HANDOFF);
    }

    @Test
    void jitterComparesNoisyWithQuietAndNamesTheSlack() {
        List<Result> rs = List.of(ok("launch_jitter_quiet", jitter(90, 110, 4L)), ok("launch_jitter_noisy", jitter(95, 1540, 5L)));
        String line = texts(METAL, rs, true).getFirst();
        assertThat(line).startsWith("Quiet, the feeder's launches run 110 us late at p99 (90 us at p50, of which up to 50 us is the thread's timer slack)")
                .contains("a launch call takes 4.0 us at p50, 8.0 us at p99").contains("p99 becomes 1540 us (14.0x), p99.9 3080 us (14.0x)")
                .contains("competes with DataLoader workers");
        assertThat(texts(METAL, rs, false).getFirst()).contains("timer wake-ups (no GPU)");
    }

    static Result jitterRun(String key, int wakes, long missed, Jitter j) {
        return j.missed(missed).result(key, wakes);
    }

    @Test
    void missedTicksAreNamedWhenTheyMatter() {
        Result quiet = jitterRun("launch_jitter_quiet", 20_000, 0, jitter(90, 110, null));
        Result noisy = jitterRun("launch_jitter_noisy", 20_000, 5_000, jitter(95, 130, null));
        assertThat(MeasuredVerdicts.missedShare(noisy)).isEqualTo(0.2);
        String line = texts(METAL, List.of(quiet, noisy), false).getFirst();
        assertThat(line).as("p99 alone barely moved; the missed ticks are the story")
                .contains("p99 becomes 130 us (1.2x), p99.9 260 us (1.2x) and 20% of the ticks are missed outright: the feeding thread competes");
        assertThat(line).doesNotContain("cannot hold that cadence");

        Result slowTimer = jitterRun("launch_jitter_quiet", 20_000, 2_000, jitter(95, 140, null));
        Result sameNoisy = jitterRun("launch_jitter_noisy", 20_000, 2_500, jitter(95, 150, null));
        line = texts(METAL, List.of(slowTimer, sameNoisy), false).getFirst();
        assertThat(line).contains("and 9% of the ticks had passed before it woke: this machine's timer cannot hold that cadence")
                .as("as many missed as quiet: not the hogs' doing").doesNotContain("missed outright").doesNotContain("competes")
                .endsWith(": even within noise of quiet (less than twice it, or inside either run's spread)");
        assertThat(MeasuredVerdicts.missedShare(ok("launch_jitter_quiet", jitter(90, 110, null)))).as("a run that missed none").isZero();
    }

    @Test
    void pinningHelpsOrSaysItDoesNot() {
        Result noisy = ok("launch_jitter_noisy", jitter(95, 1500, null));
        assertThat(MeasuredVerdicts.pinned(List.of(noisy, ok("launch_jitter_pinned", jitter(90, 200, null).pinnedTo(3, CpuSet.of(0, 1, 2))))).map(MeasuredVerdicts.Judged::text)).get().asString()
                .isEqualTo("Pinned alone on CPU 3 with the hogs elsewhere, p99 is 200 us and p99.9 400 us against 1500 and 3000 us unpinned:"
                        + " pin the thread that feeds the GPU (os.sched_setaffinity, taskset) and keep DataLoader workers off its core");
        assertThat(MeasuredVerdicts.pinned(List.of(noisy, ok("launch_jitter_pinned", jitter(90, 1400, null).pinnedTo(3, CpuSet.of(0, 1, 2))))).map(MeasuredVerdicts.Judged::text)).get().asString()
                .endsWith("pinning alone does not help here (even within noise); the noise is not from threads on the same core");
    }

    /** The PIN finding of an unpinned run under hogs and a pinned one, judged as on a quiet machine. */
    static Finding pin(Result noisy, Result pinned) {
        return MeasuredVerdicts.of(METAL, List.of(noisy, pinned), true, null).stream().filter(f -> f.id().equals(CpuRules.PIN.id())).findFirst().orElseThrow();
    }

    @Test
    void pinningThatTakesMoreThanAThirdOffTheTailIsAWarning() {
        Result noisy = ok("launch_jitter_noisy", jitter(95, 1500, null));
        Finding f = pin(noisy, ok("launch_jitter_pinned", jitter(90, 999, null).pinnedTo(3, CpuSet.of(0, 1, 2))));
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.text()).endsWith("keep DataLoader workers off its core");
        assertThat(f.fix()).contains("taskset -c");
    }

    @Test
    void pinningThatTakesJustAThirdOffTheTailIsQuiet() {
        // 1500 to 1000 us at p99 (3000 to 2000 at p99.9): a third off, not more, and no tick missed
        Result noisy = ok("launch_jitter_noisy", jitter(95, 1500, null));
        Finding f = pin(noisy, ok("launch_jitter_pinned", jitter(90, 1000, null).pinnedTo(3, CpuSet.of(0, 1, 2))));
        RuleTally.quiet(List.of(f), CpuRules.PIN);
        assertThat(f.text()).endsWith("pinning alone does not help here (even within noise); the noise is not from threads on the same core");
    }

    @Test
    void pinningThatHelpsOnlyWithinTheSpreadDoesNotHelp() {
        // p99 halved, but the noisy run's own segments span the pinned one's figure
        Result noisy = jitterRun("launch_jitter_noisy", 20_000, 0, jitter(95, 400, null)
                .segments(20_000, new long[] {150, 300, 0}, new long[] {400, 800, 0}, new long[] {900, 1800, 0}));
        Result pinned = ok("launch_jitter_pinned", jitter(90, 200, null).pinnedTo(3, CpuSet.of(0, 1, 2)));
        assertThat(MeasuredVerdicts.pinned(List.of(noisy, pinned)).map(MeasuredVerdicts.Judged::text)).get().asString().contains("pinning alone does not help here (even within noise)");
    }

    @Test
    void pinningThatSavesTheMissedTicksHelpsEvenWithTheSameP99() {
        // the H200 machine at 17:31: p99 barely apart, but a tenth of the missed ticks and of the p99.9
        Result noisy = jitterRun("launch_jitter_noisy", 20_000, 875, jitter(56, 70, null));
        Result pinned = jitterRun("launch_jitter_pinned", 20_000, 85, jitter(56, 59, null).pinnedTo(0, CpuSet.range(1, 15)));
        assertThat(MeasuredVerdicts.pinned(List.of(noisy, pinned)).map(MeasuredVerdicts.Judged::text)).get().asString()
                .startsWith("Pinned alone on CPU 0 with the hogs elsewhere, p99 is 59 us and p99.9 118 us, 0.4% of ticks missed, against 70 and 140 us, 4.2% missed, unpinned")
                .endsWith("keep DataLoader workers off its core");
    }

    /** A timer run of 20,000 wake-ups at 100 us: p50, p99 in us, missed ticks, and its five segments {p99, p99.9, missed}. */
    static Result timer(String key, long p50Us, long p99Us, long missed, long[]... segments) {
        return Jitter.late(p50Us, p99Us).missed(missed).segments(20_000, segments).result(key, 20_000);
    }

    static long[] seg(long p99Us, long p999Us, long missed) {
        return new long[] {p99Us, p999Us, missed};
    }

    @Test
    void theTimerConditionsSpeakForTheTimerAndTheLaunchForItsShare() {
        // the H200's shape: hogs leave p99 alone and move p99.9 and the missed ticks
        Result tq = timer("timer_jitter_quiet", 54, 60, 9, seg(59, 78, 2), seg(60, 80, 1), seg(61, 79, 3), seg(58, 77, 0), seg(60, 81, 3));
        Result tn = timer("timer_jitter_noisy", 55, 62, 2_000, seg(61, 300, 390), seg(62, 320, 410), seg(61, 280, 400), seg(63, 310, 380), seg(62, 330, 420));
        Result lq = jitterRun("launch_jitter_quiet", 20_000, 20, jitter(55, 75, 5L).segments(20_000, seg(72, 90, 4), seg(75, 95, 4), seg(78, 99, 4)));
        Result ln = jitterRun("launch_jitter_noisy", 20_000, 2_100, jitter(56, 63, 5L).segments(20_000, seg(60, 300, 700), seg(63, 320, 700), seg(66, 310, 700)));
        List<String> v = texts(METAL, List.of(tq, tn, lq, ln), true);
        assertThat(v).hasSize(2);
        assertThat(v.get(0)).startsWith("Quiet, the feeder's timer wake-ups run 60 us late at p99 (54 us at p50")
                .contains("with a CPU hog on every core p99 becomes 62 us (1.0x), p99.9 124 us (1.0x) and 9% of the ticks are missed outright: the feeding thread competes")
                .doesNotContain("launch call");
        assertThat(v.get(1)).isEqualTo("A launch call takes 5.0 us at p50, 10.0 us at p99; launching on each tick moves the p99 lateness from 60 us (timer alone)"
                + " to 75 us quiet: the launch adds 15 us, and from 62 us (timer alone) to 63 us under hogs: even within noise, the launch adds nothing the timer does not");
    }

    @Test
    void aQuietRunNoisierThanTheNoisyOneIsDisturbedAndNotInterpreted() {
        Result tq = timer("timer_jitter_quiet", 90, 900, 4_000, seg(850, 2000, 700), seg(900, 2100, 800), seg(950, 1900, 900), seg(880, 2050, 800), seg(910, 2000, 800));
        Result tn = timer("timer_jitter_noisy", 90, 140, 100, seg(130, 300, 20), seg(140, 310, 20), seg(150, 320, 20), seg(135, 290, 20), seg(145, 305, 20));
        String line = MeasuredVerdicts.jitter(List.of(tq, tn), false).orElseThrow().text();
        assertThat(line).startsWith("timer_jitter_quiet came out noisier than timer_jitter_noisy (p99 900 us (850-950) against 140 us (130-150);")
                .endsWith("a disturbed run, not interpreted (see the findings)").doesNotContain("competes").doesNotContain("x)");
        assertThat(JitterNoise.findings(List.of(tq, tn))).singleElement().satisfies(f -> {
            assertThat(f.id()).isEqualTo(CpuRules.JITTER_DISTURBED.id());
            assertThat(f.severity()).isEqualTo(Severity.UNKNOWN);
            assertThat(f.text()).startsWith("timer_jitter_quiet came out noisier than timer_jitter_noisy (p99 900 us (850-950) against 140 us (130-150); "
                    + "p99.9 1800 us (1800-2100) against 280 us (280-320); missed ticks per segment 800 (700-900) against 20)");
        });
    }

    @Test
    void aQuietRunAboveTheNoisyOneWithinTheSpreadIsNotDisturbed() {
        // quiet's p99 above noisy's, but inside the noisy run's own segments: noise, not a disturbance
        Result tq = timer("timer_jitter_quiet", 54, 64, 9, seg(60, 80, 2), seg(64, 85, 2), seg(66, 82, 2), seg(63, 79, 2), seg(62, 81, 1));
        Result tn = timer("timer_jitter_noisy", 54, 61, 40, seg(58, 150, 8), seg(61, 160, 8), seg(70, 170, 8), seg(59, 140, 8), seg(60, 155, 8));
        assertThat(JitterNoise.disturbed(tq, tn)).isEmpty();
        RuleTally.quiet(JitterNoise.findings(List.of(tq, tn)), CpuRules.JITTER_DISTURBED);
        assertThat(MeasuredVerdicts.jitter(List.of(tq, tn), false).orElseThrow().text()).startsWith("Quiet, the feeder's timer wake-ups run 64 us late at p99");
    }

    @Test
    void eachPairIsCheckedOnItsOwn() {
        Result tq = timer("timer_jitter_quiet", 54, 60, 0, seg(59, 78, 0), seg(61, 80, 0));
        Result tn = timer("timer_jitter_noisy", 54, 61, 0, seg(60, 78, 0), seg(62, 80, 0));
        Result lq = jitterRun("launch_jitter_quiet", 20_000, 3_000, jitter(55, 500, 5L).segments(20_000, seg(480, 1000, 1000), seg(520, 1100, 1000)));
        Result ln = jitterRun("launch_jitter_noisy", 20_000, 10, jitter(56, 70, 5L).segments(20_000, seg(68, 140, 5), seg(72, 150, 5)));
        assertThat(JitterNoise.findings(List.of(tq, tn, lq, ln))).singleElement().extracting(Finding::text).asString()
                .startsWith("launch_jitter_quiet came out noisier than launch_jitter_noisy");
    }

    @Test
    void withoutAGpuNoLaunchIsJudged() {
        // the timer conditions ran, and the launch conditions as timer wake-ups alone (no GPU, no launch call)
        Result tq = timer("timer_jitter_quiet", 54, 60, 0, seg(59, 78, 0), seg(61, 80, 0));
        Result lq = jitterRun("launch_jitter_quiet", 20_000, 0, jitter(55, 62, null).segments(20_000, seg(60, 80, 0), seg(63, 82, 0)));
        List<Finding> f = MeasuredVerdicts.of(METAL, List.of(tq, lq), false, null);
        assertThat(f).extracting(Finding::id).containsExactly(CpuRules.TIMER.id());
        RuleTally.quiet(f, CpuRules.LAUNCH);
    }

    @Test
    void aGraphIsComparedWithSeparateLaunches() {
        List<Result> rs = List.of(ok("launch_jitter_quiet", jitter(90, 110, 4L)), ok("launch_jitter_graph", jitter(90, 110, 8L).kernels(10)));
        assertThat(MeasuredVerdicts.of(METAL, rs, true, null)).filteredOn(f -> f.id().equals(CpuRules.GRAPH.id())).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.INFO);
            assertThat(f.text()).startsWith("A CUDA graph of 10 kernels launches in 8.0 us, against 40.0 us for 10 separate launches (5.0x less CPU per kernel)");
        });
        List<Result> timerOnly = List.of(ok("launch_jitter_quiet", jitter(90, 110, null)), ok("launch_jitter_graph", jitter(90, 110, null).kernels(10)));
        assertThat(MeasuredVerdicts.graph(timerOnly)).as("no launches, nothing to compare").isEmpty();
        RuleTally.quiet(MeasuredVerdicts.of(METAL, timerOnly, false, null), CpuRules.GRAPH);
    }

    @Test
    void missingFiguresDropTheirLines() {
        assertThat(texts(METAL, List.of(), true)).isEmpty();
        Result failed = Result.failed(new LaunchJitter(LaunchJitter.Condition.QUIET), "boom");
        assertThat(texts(METAL, List.of(failed), true)).isEmpty();
        Result bare = Runs.ok("launch_jitter_quiet", Unit.US, Stats.of(1), null);
        assertThat(texts(METAL, List.of(bare), true)).as("a result without its record says nothing rather than guess").isEmpty();
    }
}
