package hostside.learn.m2;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.learn.Frame;
import hostside.learn.Inputs;
import hostside.learn.StepperChecks;
import hostside.vm.explain.PageWalk;
import hostside.vm.explain.PageWalk.Layout;
import hostside.vm.explain.PageWalk.Options;
import hostside.vm.explain.PageWalk.PageSize;
import hostside.vm.explain.Step;

class PageWalkStepperTest {
    static final long VA = PageWalk.parseAddress(PageWalk.Options.DEFAULT_ADDRESS);
    static final Inputs GRACE_64K = Drawn.machine(Map.of("page_size_bytes", "65536", "cpu", "Neoverse-V2, 72 cores"), Map.of());
    static final Inputs SPARK_4K = Drawn.machine(Map.of("page_size_bytes", "4096", "cpu", "Cortex-X925, 20 cores"), Map.of());

    final PageWalkStepper stepper = new PageWalkStepper();

    /** The terminal's walk on a layout: what `hostside vm --explain pagewalk --layout L` plays. */
    static List<Step> terminal(Layout layout) {
        return PageWalk.steps(PageWalk.Options.parse(null, null, null, null, null, layout));
    }

    @Test
    void everyStepperCheckHoldsOnBothReportsAndWithoutOne() {
        for (Inputs in : List.of(StepperChecks.h200(), StepperChecks.devVm(), Inputs.typical(Map.of()), GRACE_64K, SPARK_4K)) {
            List<Frame> frames = StepperChecks.check(stepper, in, terminal(Pages.layout(in)).size());
            Drawn.readable(frames);
            assertThat(Drawn.predictions(frames)).as(in.machine()).hasSizeGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void theFramesSayWhatTheTerminalSays() {
        // the H200's 4 KiB pages on an Intel CPU: x86-64 4-level, the terminal's default there
        List<Frame> frames = stepper.frames(StepperChecks.h200());
        List<Step> steps = terminal(Layout.X86_64_4LEVEL);
        assertThat(frames).hasSameSizeAs(steps);
        for (int i = 0; i < steps.size(); i++) {
            assertThat(frames.get(i).title()).isEqualTo(steps.get(i).title());
            assertThat(frames.get(i).caption()).isEqualTo(steps.get(i).narration());
        }
        // and on every layout the machine can choose
        for (Inputs in : List.of(GRACE_64K, SPARK_4K, Inputs.typical(Map.of()))) {
            List<Step> s = terminal(Pages.layout(in));
            assertThat(stepper.frames(in).stream().map(Frame::caption).toList()).isEqualTo(s.stream().map(Step::narration).toList());
            assertThat(stepper.frames(in).stream().map(Frame::title).toList()).isEqualTo(s.stream().map(Step::title).toList());
        }
    }

    @Test
    void theLayoutFollowsThisMachinesPageSizeAndSaysSo() {
        assertThat(Pages.layout(StepperChecks.h200())).isEqualTo(Layout.X86_64_4LEVEL);
        assertThat(Pages.layout(GRACE_64K)).isEqualTo(Layout.ARM64_64K);
        assertThat(Pages.layout(SPARK_4K)).isEqualTo(Layout.ARM64_4K);
        assertThat(Pages.layout(Inputs.typical(Map.of()))).isEqualTo(Layout.X86_64_4LEVEL);
        assertThat(Drawn.texts(stepper.frames(StepperChecks.h200()).getFirst().svg()))
                .anyMatch(t -> t.contains("x86-64 4-level") && t.contains("this machine's 4 KiB base page (read here)"));
        assertThat(Drawn.texts(stepper.frames(GRACE_64K).getFirst().svg()))
                .anyMatch(t -> t.contains("ARM64 64 KiB granule") && t.contains("64 KiB base page (read here)"));
        assertThat(Drawn.texts(stepper.frames(Inputs.typical(Map.of())).getFirst().svg()))
                .anyMatch(t -> t.contains("typical 4 KiB base page (not this machine's)"));
        assertThat(stepper.frames(StepperChecks.h200()).getFirst().figures()).extracting(Inputs.Value::shown).containsExactly("4 KiB (read here)");
    }

    @Test
    void theReadCountIsTheWalksOwnAndFlipsWithThePageSize() {
        Frame.Predict x86 = Drawn.asking(stepper.frames(StepperChecks.h200()), "how many");
        assertThat(Drawn.answer(x86)).isEqualTo("4");
        assertThat(x86.why()).contains("PML4 -> PDPT -> PD -> PT");
        // ARM64 with 64 KiB pages has three levels
        assertThat(Drawn.answer(Drawn.asking(stepper.frames(GRACE_64K), "how many"))).isEqualTo("3");
        // a 2 MiB page ends the walk at the PD
        PageWalkStepper huge = new PageWalkStepper(l -> new Options(VA, l, PageSize.SIZE_2M, false, "none"));
        Frame.Predict p = Drawn.asking(huge.frames(StepperChecks.h200()), "how many");
        assertThat(Drawn.answer(p)).isEqualTo("3");
        assertThat(p.why()).contains("maps a whole 2 MiB page");
    }

    @Test
    void hitOrMissIsTheWalksOwn() {
        Frame.Predict miss = Drawn.asking(stepper.frames(StepperChecks.h200()), "TLB hit or miss");
        assertThat(Drawn.answer(miss)).startsWith("Miss");
        PageWalkStepper hit = new PageWalkStepper(l -> new Options(VA, l, PageSize.BASE, true, "none"));
        List<Frame> frames = StepperChecks.check(hit, StepperChecks.h200(), 2);
        assertThat(frames).hasSize(2);
        assertThat(Drawn.answer(Drawn.asking(frames, "TLB hit or miss"))).startsWith("Hit");
        assertThat(Drawn.boxes(frames.get(1).svg())).containsEntry("TLB hit", "box ok");
    }

    @Test
    void aFaultAndABadAddressAreAskedAboutAndDrawn() {
        PageWalkStepper fault = new PageWalkStepper(l -> new Options(VA, l, PageSize.BASE, false, "PD"));
        List<Frame> frames = StepperChecks.check(fault, StepperChecks.h200(), 5);
        Frame.Predict p = Drawn.asking(frames, "not present");
        assertThat(Drawn.answer(p)).startsWith("A fault");
        Frame notPresent = frames.stream().filter(f -> f.predict() == p).findFirst().orElseThrow();
        assertThat(Drawn.boxes(notPresent.svg())).containsEntry("PD idx 145", "box bad");

        PageWalkStepper bad = new PageWalkStepper(l -> PageWalk.Options.of(0x8000_0000_0000_1000L, l));
        List<Frame> one = StepperChecks.check(bad, StepperChecks.h200(), 1);
        assertThat(Drawn.answer(Drawn.asking(one, "Does the MMU"))).startsWith("No");
    }

    @Test
    void eachLevelIsLitWhenItIsRead() {
        List<Frame> frames = stepper.frames(StepperChecks.h200());
        // step 6 reads the PD: the PD box lit, the levels above done, the PT not reached yet
        Map<String, String> pd = Drawn.boxes(frames.get(5).svg());
        assertThat(pd).containsEntry("PD idx 145", "box on").containsEntry("PML4 idx 254", "box ok").containsEntry("PT pte", "box dim");
        assertThat(pd).containsEntry("PD 29:21 0x091", "box on");
        assertThat(Drawn.texts(frames.get(5).svg())).contains("table reads so far: 3");
        // the TLB miss is where the cost starts; the last step fills it
        assertThat(Drawn.boxes(frames.get(1).svg())).containsEntry("TLB miss", "box hot");
        assertThat(Drawn.boxes(frames.get(7).svg())).containsEntry("TLB filled", "box ok").containsEntry("4 KiB page", "box ok");
        assertThat(Drawn.texts(frames.get(7).svg())).contains("TLB reach: 2048 entries (typical) x 4 KiB = 8 MiB");
    }
}
