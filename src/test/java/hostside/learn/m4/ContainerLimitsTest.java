package hostside.learn.m4;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.learn.Frame;
import hostside.learn.Inputs;
import hostside.learn.m2.Drawn;
import hostside.learn.StepperChecks;

class ContainerLimitsTest {
    final ContainerLimits stepper = new ContainerLimits();

    @Test
    void holdsWhatEveryStepperHolds() {
        for (Inputs in : List.of(StepperChecks.h200(), StepperChecks.devVm(), Inputs.typical(Map.of()))) {
            List<Frame> frames = StepperChecks.check(stepper, in, 6);
            assertThat(frames.stream().filter(f -> f.predict() != null).count()).as(in.machine()).isGreaterThanOrEqualTo(2);
        }
        assertThat(stepper.key()).isEqualTo("container-limits");
        assertThat(stepper.module()).isEqualTo(4);
    }

    @Test
    void theH200ReadsItsLimitsAndNothingBreaks() {
        List<Frame> frames = stepper.frames(StepperChecks.h200());
        assertThat(frames.get(0).caption()).contains("not in a container (read here)").contains("/dev/shm 128 GiB (read here)")
                .contains("memlock unlimited (read here)").contains("pids.max max, no limit (read here)").doesNotContain("typical");
        assertThat(predict(frames, "/dev/shm: where").answer()).isZero();
        assertThat(predict(frames, "memlock").answer()).isEqualTo(2);
        assertThat(predict(frames, "every thread").answer()).isZero();
        assertThat(predict(frames, "every thread").why()).contains("16 + 8 = 24 tasks at least");
        assertThat(predict(frames, "EAGAIN").choices().get(predict(frames, "EAGAIN").answer())).contains("can't start new thread");
    }

    @Test
    void theDevVmsLowMemlockIsLiftedByItsCapability() {
        List<Frame> frames = stepper.frames(StepperChecks.devVm());
        Frame.Predict p = predict(frames, "memlock");
        assertThat(p.answer()).isEqualTo(2);
        assertThat(p.why()).contains("8 MiB (read here)").contains("CAP_IPC_LOCK lets this process lock past it");
    }

    @Test
    void withoutAReportTheFactsAreDockersDefaultsSaidToBeTypical() {
        List<Frame> frames = stepper.frames(Inputs.typical(Map.of()));
        assertThat(frames.get(0).caption()).contains("typical ones, those of " + ContainerLimits.TYPICAL).doesNotContain("read here");
        assertThat(predict(frames, "/dev/shm: where").answer()).isEqualTo(1);
        assertThat(predict(frames, "memlock").answer()).isEqualTo(1);
        assertThat(frames.get(frames.size() - 1).caption()).contains("--shm-size=3g").contains("--ulimit memlock=-1");
    }

    @Test
    void theShmAnswerFollowsTheSize() {
        assertThat(predict(stepper.frames(facts(Map.of("shm_bytes", String.valueOf(1L << 30)))), "/dev/shm: where").answer()).isEqualTo(1);
        assertThat(predict(stepper.frames(facts(Map.of("shm_bytes", String.valueOf(4L << 30)))), "/dev/shm: where").answer()).isZero();
    }

    @Test
    void theMemlockAnswerFollowsTheLimitAndTheCapability() {
        assertThat(predict(stepper.frames(facts(Map.of("memlock_bytes", "65536", "cap_ipc_lock", "false"))), "memlock").answer()).isEqualTo(1);
        assertThat(predict(stepper.frames(facts(Map.of("memlock_bytes", "65536", "cap_ipc_lock", "true"))), "memlock").answer()).isEqualTo(2);
        assertThat(predict(stepper.frames(facts(Map.of("memlock_bytes", "unlimited", "cap_ipc_lock", "false"))), "memlock").answer()).isEqualTo(2);
    }

    @Test
    void thePidsAnswerFollowsTheLimitAndTheCores() {
        assertThat(predict(stepper.frames(facts(Map.of("pids_max", "20", "cores", "16"))), "every thread").answer()).isEqualTo(1);
        assertThat(predict(stepper.frames(facts(Map.of("pids_max", "4096", "cores", "16"))), "every thread").answer()).isZero();
        // the main process's pool and one thread per worker (each calls torch.set_num_threads(1)), not a pool per worker
        assertThat(predict(stepper.frames(facts(Map.of("pids_max", "max", "cores", "224"))), "every thread").answer()).isZero();
        // no limit here: weighed against the example pod limit, which a pool of 1020 threads and 8 workers overrun
        Frame.Predict big = predict(stepper.frames(facts(Map.of("pids_max", "max", "cores", "1020"))), "every thread");
        assertThat(big.answer()).isEqualTo(1);
        assertThat(big.why()).contains("1020 + 8 = 1028 tasks");
    }

    static Inputs facts(Map<String, String> given) {
        return Drawn.machine(given, Map.of());
    }

    static Frame frame(List<Frame> frames, String titlePart) {
        return frames.stream().filter(f -> f.title().contains(titlePart)).findFirst().orElseThrow(() -> new AssertionError("no frame titled *" + titlePart + "*"));
    }

    static Frame.Predict predict(List<Frame> frames, String titlePart) {
        Frame.Predict p = frame(frames, titlePart).predict();
        assertThat(p).as("a prediction before *" + titlePart + "*").isNotNull();
        return p;
    }
}
