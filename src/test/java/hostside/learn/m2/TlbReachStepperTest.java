package hostside.learn.m2;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.core.Unit;
import hostside.learn.Frame;
import hostside.learn.Inputs;
import hostside.learn.StepperChecks;
import hostside.vm.explain.PageWalk;

class TlbReachStepperTest {
    final TlbReachStepper stepper = new TlbReachStepper();

    static Inputs thp(String mode) {
        return Drawn.machine(Map.of("page_size_bytes", "4096", "thp", mode), Map.of());
    }

    @Test
    void everyStepperCheckHoldsOnBothReportsAndWithoutOne() {
        for (Inputs in : List.of(StepperChecks.h200(), StepperChecks.devVm(), Inputs.typical(Map.of()), thp("always"), thp("never"),
                Drawn.machine(Map.of("page_size_bytes", "65536", "thp", "always [madvise] never"), Map.of()))) {
            List<Frame> frames = StepperChecks.check(stepper, in, 6);
            Drawn.readable(frames);
            assertThat(Drawn.predictions(frames)).as(in.machine()).hasSizeGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void reachWithThisMachinesPagesAndTheTypicalTlb() {
        List<Frame> frames = stepper.frames(StepperChecks.h200());
        assertThat(frames).extracting(Frame::title).contains("With 4 KiB pages, 2048 entries reach 8 MiB", "With 2 MiB pages, the same entries reach 4 GiB",
                "A 1 GiB embedding table is 262144 pages of 4 KiB", "THP here: madvise");
        assertThat(frames.getFirst().caption()).contains("This machine's base page is 4 KiB (read here)", "typical figures");
        // a count is never rounded: the reach is the figure, the 2048 entries its note, with how cores differ
        assertThat(frames.get(1).figures()).extracting(Inputs.Value::shown)
                .contains("8 MiB (typical, not this machine: 2048 entries x 4 KiB; the count is typical, not this machine's (Skylake-SP has 1536, Ice Lake and Sapphire Rapids"
                        + " 2048, Zen 4 3072, Neoverse V2 about 2048): hostside does not read the TLB's size)");
        // the TLB size is the page walk's own, so the two steppers agree
        assertThat(new PageWalkStepper().frames(StepperChecks.h200()).get(1).caption()).contains("about " + TlbReachStepper.L2_ENTRIES + " in the second-level TLB: Skylake-SP has 1536");

        List<Frame> grace = stepper.frames(Drawn.machine(Map.of("page_size_bytes", "65536"), Map.of()));
        assertThat(grace).extracting(Frame::title).contains("With 64 KiB pages, 2048 entries reach 128 MiB", "With 512 MiB pages, the same entries reach 1 TiB");
    }

    @Test
    void theMeasuredWalkIsThisMachinesAndTheAnswerFlipsWithIt() {
        List<Frame> frames = stepper.frames(StepperChecks.h200());
        Frame walk = frames.stream().filter(f -> f.title().startsWith("At 1 GiB")).findFirst().orElseThrow();
        assertThat(walk.title()).isEqualTo("At 1 GiB: 173 ns per load in 4 KiB pages, 125 ns in huge pages");
        assertThat(walk.caption()).contains("173 ns (measured here)", "125 ns (measured here)", "47.8 ns more per load");
        // two medians cannot say the gap is beyond the noise: no mechanism is named as its cause
        assertThat(walk.caption()).doesNotContain("is the page walk").contains("M2-TLB-REACH");
        assertThat(Drawn.answer(walk.predict())).startsWith("Base pages");

        Inputs flat = Drawn.machine(Map.of(), Map.of("tlb_reach_base", 120.0, "tlb_reach_huge", 118.0));
        assertThat(Drawn.answer(Drawn.asking(stepper.frames(flat), "1 GiB: which"))).isEqualTo("About the same (within 10%)");
        Inputs typical = Inputs.typical(Map.of());
        Frame t = stepper.frames(typical).stream().filter(f -> f.title().startsWith("At 1 GiB")).findFirst().orElseThrow();
        assertThat(t.caption()).contains("typical, not this machine: the H200 VM's walk at 1 GiB");
        assertThat(t.predict().question()).contains("typical figures");
    }

    @Test
    void aWalkThatEndedEarlierIsQuotedAtItsOwnSize() {
        // a report whose memory budget ended the curve at 256 MiB: its figure is the walk there, and the course says so
        Inputs h200 = StepperChecks.h200();
        assertThat(h200.values().get(Inputs.TLB_WALK_AT).value()).as("the recording's walk reached 1 GiB").isEqualTo(1L << 30);
        Map<String, Inputs.Value> values = new HashMap<>(Map.of(
                "tlb_reach_base", new Inputs.Value("tlb_reach_base", 51.2, Unit.NS, Inputs.Source.MEASURED, "", 51.1, 59.5),
                "tlb_reach_huge", new Inputs.Value("tlb_reach_huge", 33.5, Unit.NS, Inputs.Source.MEASURED, "", 33.0, 34.0),
                Inputs.TLB_WALK_AT, new Inputs.Value(Inputs.TLB_WALK_AT, 256L << 20, Unit.BYTES, Inputs.Source.MEASURED, "")));
        List<Frame> frames = stepper.frames(new Inputs("a report inside its budget", values, Map.of()));
        Frame walk = frames.stream().filter(f -> f.title().startsWith("At ")).findFirst().orElseThrow();
        assertThat(walk.title()).isEqualTo("At 256 MiB: 51.2 ns per load in 4 KiB pages, 33.5 ns in huge pages");
        assertThat(walk.caption()).contains("the figure is the walk at 256 MiB (where this report's memory budget ended the curve; hostside vm alone takes it at 1 GiB)")
                .contains("At 256 MiB, beyond the base-page reach and inside the huge-page reach").doesNotContain("At 1 GiB");
        assertThat(walk.predict().question()).startsWith("Random loads over 256 MiB");
        assertThat(walk.svg()).contains("figure is at 256 MiB").doesNotContain(">1 GiB<");
        assertThat(frames.getLast().svg()).contains("256 MiB random loads");
    }

    @Test
    void aDifferenceInsideTheSamplesSpreadIsNoPageWalk() {
        // the medians 47.8 ns apart, but each run's samples spread across the other's: the report calls this noise, so must the course
        Inputs noisy = new Inputs("a noisy machine", Map.of(
                "tlb_reach_base", new Inputs.Value("tlb_reach_base", 173, Unit.NS, Inputs.Source.MEASURED, "", 110, 240),
                "tlb_reach_huge", new Inputs.Value("tlb_reach_huge", 125, Unit.NS, Inputs.Source.MEASURED, "", 100, 190)), Map.of());
        Frame walk = stepper.frames(noisy).stream().filter(f -> f.title().startsWith("At 1 GiB")).findFirst().orElseThrow();
        assertThat(walk.caption()).contains("cannot tell them apart").doesNotContain("Base pages took");
        assertThat(Drawn.answer(walk.predict())).isEqualTo("About the same (within 10%)");
        // the same medians with tight samples: the walk is read
        Inputs tight = new Inputs("a quiet machine", Map.of(
                "tlb_reach_base", new Inputs.Value("tlb_reach_base", 173, Unit.NS, Inputs.Source.MEASURED, "", 171, 175),
                "tlb_reach_huge", new Inputs.Value("tlb_reach_huge", 125, Unit.NS, Inputs.Source.MEASURED, "", 124, 127)), Map.of());
        assertThat(stepper.frames(tight).stream().filter(f -> f.title().startsWith("At 1 GiB")).findFirst().orElseThrow().caption())
                .contains("Base pages took 48 ns more per load").doesNotContain("cannot tell them apart");
    }

    @Test
    void aPlainMallocsHugePagesFollowTheThpMode() {
        assertThat(Drawn.answer(Drawn.asking(stepper.frames(StepperChecks.h200()), "plain malloc"))).isEqualTo("Only where the program calls madvise(MADV_HUGEPAGE)");
        assertThat(Drawn.answer(Drawn.asking(stepper.frames(thp("always")), "plain malloc"))).isEqualTo("Yes, without asking");
        assertThat(Drawn.answer(Drawn.asking(stepper.frames(thp("never")), "plain malloc"))).isEqualTo("No: THP is off");
        // sysfs's own form, the mode in brackets
        assertThat(Drawn.answer(Drawn.asking(stepper.frames(thp("[always] madvise never")), "plain malloc"))).isEqualTo("Yes, without asking");
        assertThat(Drawn.boxes(stepper.frames(thp("never")).get(5).svg())).containsEntry("never (here) none: hugetlbfs only", "box on");
    }

    @Test
    void aGibTableDoesNotFitInBasePageReach() {
        Frame.Predict p = Drawn.asking(stepper.frames(StepperChecks.h200()), "1 GiB embedding table");
        assertThat(Drawn.answer(p)).isEqualTo("No, but in 2 MiB huge pages it would");
        assertThat(p.why()).isEqualTo("Base-page reach is 8 MiB and huge-page reach 4 GiB, against 1 GiB.");
    }

    @Test
    void firstTouchQuotesTheMeasuredFaults() {
        Frame touch = stepper.frames(StepperChecks.h200()).stream().filter(f -> f.title().startsWith("Huge pages also cut")).findFirst().orElseThrow();
        assertThat(touch.title()).isEqualTo("Huge pages also cut first-touch faults: 262144 vs 512 per GiB");
        assertThat(touch.caption()).contains("384 ms/GiB (measured here)", "140 ms/GiB (measured here)");
        assertThat(PageWalk.Layout.X86_64_4LEVEL.basePageBytes()).isEqualTo(4096);
    }
}
