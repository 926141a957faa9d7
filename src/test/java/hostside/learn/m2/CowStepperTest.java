package hostside.learn.m2;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.learn.Frame;
import hostside.learn.Inputs;
import hostside.learn.StepperChecks;
import hostside.vm.explain.CowScenarios;
import hostside.vm.explain.CowScenarios.Data;
import hostside.vm.explain.Step;

class CowStepperTest {
    static final Inputs GRACE_64K = Drawn.machine(Map.of("page_size_bytes", "65536", "cpu", "Neoverse-V2, 72 cores"), Map.of());

    final CowStepper stepper = new CowStepper();

    @Test
    void everyStepperCheckHoldsOnBothReportsAndWithoutOne() {
        int steps = CowScenarios.dataloader(CowScenarios.DEFAULT_PAGES, CowScenarios.DEFAULT_WORKERS, Data.LIST).size();
        for (Inputs in : List.of(StepperChecks.h200(), StepperChecks.devVm(), Inputs.typical(Map.of()), GRACE_64K)) {
            List<Frame> frames = StepperChecks.check(stepper, in, steps);
            Drawn.readable(frames);
            assertThat(Drawn.predictions(frames)).as(in.machine()).hasSizeGreaterThanOrEqualTo(2);
        }
        // the other stories draw too: an array, one worker, more pages and workers than the drawing has rows for
        for (CowStepper s : List.of(new CowStepper(8, 2, Data.ARRAY), new CowStepper(1, 1, Data.LIST), new CowStepper(64, 6, Data.LIST))) {
            Drawn.readable(StepperChecks.check(s, StepperChecks.h200(), 4));
        }
    }

    @Test
    void theFramesSayWhatTheTerminalSays() {
        // `hostside vm --explain cow` with no flags: 8 pages, 2 workers, a list, 4 KiB pages as on the H200
        List<Step> steps = CowScenarios.dataloader(CowScenarios.DEFAULT_PAGES, CowScenarios.DEFAULT_WORKERS, Data.LIST);
        List<Frame> frames = stepper.frames(StepperChecks.h200());
        assertThat(frames).hasSameSizeAs(steps);
        for (int i = 0; i < steps.size(); i++) {
            assertThat(frames.get(i).title()).isEqualTo(steps.get(i).title());
            assertThat(frames.get(i).caption()).isEqualTo(steps.get(i).narration());
        }
        // with 64 KiB pages the story is the same machine's, told in its page size
        List<Step> big = CowScenarios.dataloader(CowScenarios.DEFAULT_PAGES, CowScenarios.DEFAULT_WORKERS, Data.LIST, 65536);
        assertThat(stepper.frames(GRACE_64K).stream().map(Frame::caption).toList()).isEqualTo(big.stream().map(Step::narration).toList());
        assertThat(stepper.frames(GRACE_64K).getFirst().caption()).contains("512 KiB");
    }

    @Test
    void theWorkersUssAnswerComesFromTheStateAndFlipsWithHowTheDataIsHeld() {
        Frame.Predict list = Drawn.asking(stepper.frames(StepperChecks.h200()), "USS");
        assertThat(Drawn.answer(list)).isEqualTo("Yes, by one page (4 KiB)");
        assertThat(list.why()).contains("from 0 bytes to 4 KiB");
        Frame.Predict array = Drawn.asking(new CowStepper(8, 2, Data.ARRAY).frames(StepperChecks.h200()), "USS");
        assertThat(Drawn.answer(array)).isEqualTo("No: it only read");
        // the page is this machine's
        assertThat(Drawn.answer(Drawn.asking(stepper.frames(GRACE_64K), "USS"))).isEqualTo("Yes, by one page (64 KiB)");
    }

    @Test
    void forkMainsWriteAndThePeakAreAnsweredFromTheState() {
        List<Frame> frames = stepper.frames(StepperChecks.h200());
        assertThat(Drawn.answer(Drawn.asking(frames, "fork()"))).startsWith("None");
        assertThat(Drawn.answer(Drawn.asking(frames, "main now updates"))).startsWith("No: the fault only sets the write bit");
        assertThat(Drawn.answer(Drawn.asking(frames, "At its peak"))).isEqualTo("3x the dataset (24 pages)");
        assertThat(Drawn.answer(Drawn.asking(new CowStepper(8, 2, Data.ARRAY).frames(StepperChecks.h200()), "At its peak")))
                .isEqualTo("1x the dataset (8 pages)");
        assertThat(Drawn.answer(Drawn.asking(new CowStepper(4, 5, Data.LIST).frames(StepperChecks.h200()), "At its peak")))
                .isEqualTo("6x the dataset (24 pages)");
    }

    @Test
    void theCopiedPageIsHot() {
        List<Frame> frames = stepper.frames(StepperChecks.h200());
        Frame touch = frames.get(3);
        assertThat(touch.title()).isEqualTo("worker 0 touches an item on page 0: copied");
        Map<String, String> boxes = Drawn.boxes(touch.svg());
        assertThat(boxes).containsEntry("f9 rw (1)", "box hot").containsEntry("f9 (1)", "box hot");
        assertThat(boxes).containsEntry("worker 0 (pid 101) USS 4 KiB", "box on");
        // after the fork every page is shared three ways and read-only
        assertThat(Drawn.boxes(frames.get(2).svg())).containsEntry("f1 ro (3)", "box on");
        assertThat(Drawn.texts(frames.get(5).svg())).anyMatch(t -> t.startsWith("memory: 24 frames = 96 KiB of 4 KiB pages, peak 24"));
        assertThat(Drawn.texts(frames.getLast().svg())).contains("24 pages = 96 KiB (this story)", "8 pages = 32 KiB (the other way)");
    }
}
