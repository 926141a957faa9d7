package hostside.learn.m3;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.core.Unit;
import hostside.learn.Frame;
import hostside.learn.Inputs;
import hostside.learn.StepperChecks;

class FeederStepTest {
    final FeederStep stepper = new FeederStep();

    @Test
    void holdsWhatEveryStepperHolds() {
        StepperChecks.check(stepper, StepperChecks.h200(), 7);
        StepperChecks.check(stepper, StepperChecks.devVm(), 7);
        StepperChecks.check(stepper, Inputs.typical(Map.of()), 7);
        assertThat(stepper.key()).isEqualTo("feeder-step");
        assertThat(stepper.module()).isEqualTo(3);
    }

    @Test
    void atLeastTwoPredictionsOnEveryMachine() {
        for (Inputs in : List.of(StepperChecks.h200(), StepperChecks.devVm(), Inputs.typical(Map.of()))) {
            assertThat(stepper.frames(in).stream().filter(f -> f.predict() != null).count()).as(in.machine()).isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void theH200QuotesItsMeasuredSyscallAndJitter() {
        List<Frame> frames = stepper.frames(StepperChecks.h200());
        String all = text(frames);
        assertThat(frame(frames, "A syscall").caption()).contains("94 ns (measured here)");
        assertThat(frame(frames, "quiet").caption()).contains("56.7 us (measured here)").contains("68.4 us (measured here)");
        assertThat(frame(frames, "hog on every core").caption()).contains("57.5 us (measured here)");
        assertThat(frame(frames, "kernels go to the GPU").caption()).contains("3.74 us (measured here)");
        assertThat(all).doesNotContain("typical, not this machine");
        // every figure a frame quotes is this machine's
        assertThat(frames.stream().flatMap(f -> f.figures().stream())).allMatch(Inputs.Value::mine);
        // the answers on the H200: 94 ns is under 100; hogs move p99 1.01x; a graph gains ~34 us a step, pinning nothing
        assertThat(predict(frames, "syscall").answer()).isZero();
        assertThat(predict(frames, "hog on every core").answer()).isZero();
        assertThat(predict(frames, "pinned").answer()).isEqualTo(1);
        assertThat(predict(frames, "pinned").why()).contains("measured here").doesNotContain("typical");
    }

    @Test
    void theDevVmSaysItsLaunchFiguresAreTypicalAndUsesItsTimer() {
        List<Frame> frames = stepper.frames(StepperChecks.devVm());
        assertThat(frames.get(0).caption()).contains("no GPU").contains("typical ones, not this machine's");
        // quiet and noisy rows: the timer conditions, measured there
        assertThat(frame(frames, "quiet").caption()).contains("timer wake-ups").contains("107 us (measured here)");
        assertThat(frame(frames, "hog on every core").caption()).contains("89 us (measured here)").contains("something else ran during the quiet run");
        // launch calls, pinned and graph: typical, and said so
        assertThat(frame(frames, "kernels go to the GPU").caption()).contains("(typical, not this machine: " + FeederStep.TYPICAL + ")");
        assertThat(frame(frames, "pinned").caption()).contains("typical, not this machine");
        assertThat(frame(frames, "CUDA graph").caption()).contains("typical, not this machine");
        assertThat(predict(frames, "pinned").why()).contains("typical, not this machine's");
        assertThat(frame(frames, "A syscall").caption()).contains("196 ns (measured here)");
    }

    @Test
    void withoutAReportEveryFigureIsTypical() {
        List<Frame> frames = stepper.frames(Inputs.typical(Map.of()));
        assertThat(frames.stream().flatMap(f -> f.figures().stream())).noneMatch(Inputs.Value::mine);
        // what the typical figures show of pinning is said of them, never of "here"
        assertThat(frames).filteredOn(f -> f.title().startsWith("The feeder pinned")).singleElement()
                .satisfies(f -> assertThat(f.caption()).contains("In these typical figures pinning").doesNotContain("here"));
    }

    @Test
    void theSyscallAnswerFollowsTheFigure() {
        assertThat(predict(stepper.frames(with(Map.of("syscall_getppid", 90.0))), "syscall").answer()).isEqualTo(0);
        assertThat(predict(stepper.frames(with(Map.of("syscall_getppid", 300.0))), "syscall").answer()).isEqualTo(1);
        assertThat(predict(stepper.frames(with(Map.of("syscall_getppid", 1500.0))), "syscall").answer()).isEqualTo(2);
    }

    @Test
    void theHogAnswerFollowsQuietAgainstNoisy() {
        assertThat(predict(stepper.frames(jitter(60, 70)), "hog on every core").answer()).isEqualTo(0);
        assertThat(predict(stepper.frames(jitter(60, 300)), "hog on every core").answer()).isEqualTo(1);
        Frame.Predict far = predict(stepper.frames(jitter(60, 3000)), "hog on every core");
        assertThat(far.answer()).isEqualTo(2);
        assertThat(far.why()).contains("50x");
    }

    @Test
    void theRemedyAnswerFollowsTheFigures() {
        // pinning takes a 3 ms p99 under hogs down to 60 us; the graph saves ~35 us: pinning
        Map<String, Double> pinWins = new HashMap<>(base());
        pinWins.put("launch_jitter_noisy_p99", 3000.0);
        assertThat(predict(stepper.frames(with(pinWins)), "pinned").answer()).isEqualTo(0);
        // as measured on the H200: the graph
        assertThat(predict(stepper.frames(with(base())), "pinned").answer()).isEqualTo(1);
        // a graph launch as slow as ten launches and pinning no help: neither
        Map<String, Double> neither = new HashMap<>(base());
        neither.put("launch_jitter_graph_launch_p50", 37.0);
        assertThat(predict(stepper.frames(with(neither)), "pinned").answer()).isEqualTo(2);
    }

    @Test
    void aStallLongerThanTheDrawnTicksIsWrittenNotDrawnOffTheCanvas() {
        Map<String, Double> stall = new HashMap<>(base());
        stall.put("launch_jitter_noisy_p999", 5910.0);
        List<Frame> frames = StepperChecks.check(stepper, with(stall), 7);
        assertThat(frame(frames, "hog on every core").svg()).contains("5910 us late");
        assertThat(frames.get(frames.size() - 1).svg()).contains("off scale");
    }

    // ---- helpers ----

    /** The H200's launch figures, rounded: the synthetic machine the flips start from. */
    static Map<String, Double> base() {
        Map<String, Double> m = new HashMap<>();
        double[][] c = {{54, 57, 68, 0.005, 3.7}, {54, 57.5, 68, 1.36, 4.0}, {54, 58.3, 195, 1.27, 4.0}, {54, 58.7, 93, 0.16, 1.7}};
        String[] names = {"quiet", "noisy", "pinned", "graph"};
        for (int i = 0; i < 4; i++) {
            String k = "launch_jitter_" + names[i];
            m.put(k, c[i][0]);
            m.put(k + "_p99", c[i][1]);
            m.put(k + "_p999", c[i][2]);
            m.put(k + "_missed_ticks", c[i][3]);
            m.put(k + "_launch_p50", c[i][4]);
        }
        return m;
    }

    static Inputs jitter(double quietP99, double noisyP99) {
        Map<String, Double> m = new HashMap<>(base());
        m.put("launch_jitter_quiet_p99", quietP99);
        m.put("launch_jitter_noisy_p99", noisyP99);
        return with(m);
    }

    static Inputs with(Map<String, Double> figures) {
        Map<String, Inputs.Value> values = new HashMap<>();
        figures.forEach((k, v) -> values.put(k, new Inputs.Value(k, v, k.endsWith("_missed_ticks") ? Unit.PERCENT : k.startsWith("syscall") ? Unit.NS : Unit.US,
                Inputs.Source.MEASURED, "")));
        return new Inputs("synthetic", values, Map.of());
    }

    static Frame frame(List<Frame> frames, String titlePart) {
        return frames.stream().filter(f -> f.title().contains(titlePart)).findFirst().orElseThrow(() -> new AssertionError("no frame titled *" + titlePart + "*"));
    }

    static Frame.Predict predict(List<Frame> frames, String titlePart) {
        Frame.Predict p = frame(frames, titlePart).predict();
        assertThat(p).as("a prediction before *" + titlePart + "*").isNotNull();
        return p;
    }

    static String text(List<Frame> frames) {
        StringBuilder b = new StringBuilder();
        for (Frame f : frames) b.append(f.title()).append('\n').append(f.caption()).append('\n').append(f.predict()).append('\n');
        return b.toString();
    }
}
