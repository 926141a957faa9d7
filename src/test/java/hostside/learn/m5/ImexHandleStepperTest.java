package hostside.learn.m5;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.gpu.cuda.FabricReadiness.Fabric.State;
import hostside.learn.Frame;
import hostside.learn.Inputs;
import hostside.learn.StepperChecks;
import hostside.learn.m2.Drawn;

class ImexHandleStepperTest {
    static final Inputs GB200_TRAY = Drawn.machine(Map.of("gpu", "4x NVIDIA GB200", "gpu_count", "4", "host_link", "c2c", "fabric", "nvswitch-4"), Map.of());
    static final Inputs HGX = Drawn.machine(Map.of("gpu", "8x NVIDIA H100 80GB HBM3", "gpu_count", "8", "host_link", "pcie-gen5-x16", "fabric", "nvswitch-8"), Map.of());

    final ImexHandleStepper stepper = new ImexHandleStepper();

    @Test
    void everyStepperCheckHoldsOnBothReportsAndWithoutOne() {
        for (Inputs in : List.of(StepperChecks.h200(), StepperChecks.devVm(), Inputs.typical(Map.of()), GB200_TRAY, HGX)) {
            List<Frame> frames = StepperChecks.check(stepper, in, 6);
            Drawn.readable(frames);
            assertThat(Drawn.predictions(frames)).as(in.machine()).hasSizeGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void whetherThisMachineIsInAMultiNodeDomainFollowsItsFabric() {
        String q = "multi-node NVLink domain";
        Frame.Predict h200 = Drawn.asking(stepper.frames(StepperChecks.h200()), q);
        assertThat(Drawn.answer(h200)).isEqualTo("No: this machine has no NVLink domain");
        assertThat(h200.why()).isEqualTo("Its hardware class says fabric 'none' (read here) and host link PCIe Gen5 x16 (read here).");
        assertThat(Drawn.answer(Drawn.asking(stepper.frames(GB200_TRAY), q))).startsWith("Yes");
        assertThat(Drawn.answer(Drawn.asking(stepper.frames(HGX), q))).startsWith("One node only");
        assertThat(stepper.frames(StepperChecks.h200()).getFirst().caption())
                .contains("This machine's fabric 'none' (read here) says it has no NVLink domain: the frames show a GB200 NVL72 as the reference.");
        assertThat(Drawn.texts(stepper.frames(StepperChecks.h200()).getFirst().svg())).anyMatch(t -> t.startsWith("this machine: fabric 'none' (read here)"));
        assertThat(stepper.frames(StepperChecks.h200()).getLast().caption()).contains("they do not apply");
    }

    @Test
    void theWhatIfsAreAnsweredByRunningTheDomain() {
        List<Frame> frames = stepper.frames(StepperChecks.h200());
        Frame.Predict daemon = Drawn.asking(frames, "IMEX daemon on tray B");
        assertThat(Drawn.answer(daemon)).isEqualTo("Returns an error, and nothing is mapped");
        assertThat(daemon.why()).contains("the IMEX daemon on tray B is not running");
        Frame.Predict fabric = Drawn.asking(frames, "IN_PROGRESS");
        assertThat(Drawn.answer(fabric)).isEqualTo("Turns multi-node NVLink off without an error and uses the network");
        // the drawings mark what failed
        Frame down = frames.stream().filter(f -> f.predict() == daemon).findFirst().orElseThrow();
        assertThat(Drawn.boxes(down.svg())).containsEntry("IMEX daemon B: not running", "box bad").containsEntry("process B: import fails", "box bad");
        Frame partial = frames.stream().filter(f -> f.predict() == fabric).findFirst().orElseThrow();
        assertThat(Drawn.boxes(partial.svg())).containsEntry("GPU B: IN_PROGRESS", "box bad");
    }

    @Test
    void theDomainFollowsNcclsRules() {
        ImexDomain ok = ImexDomain.healthy();
        assertThat(ok.create().ok()).isTrue();
        assertThat(ok.export().result()).contains("64-byte fabric handle");
        assertThat(ok.importOnB().ok()).isTrue();
        assertThat(ok.map().ok()).isTrue();
        assertThat(ok.ncclCheck().mnnvl()).isEqualTo(ImexDomain.Mnnvl.ON);

        ImexDomain daemonDown = ok.withB(ok.b.withDaemon(false));
        assertThat(daemonDown.importOnB().ok()).isFalse();
        assertThat(daemonDown.map().ok()).isFalse();
        assertThat(daemonDown.ncclCheck().mnnvl()).isEqualTo(ImexDomain.Mnnvl.ERROR);
        assertThat(daemonDown.ncclCheck().why()).contains("nvidia-imex-ctl -N");

        ImexDomain noChannel = new ImexDomain(ok.a.withChannel(false), ok.b);
        assertThat(noChannel.create().result()).startsWith("CUDA_ERROR_NOT_PERMITTED");
        assertThat(noChannel.ncclCheck().why()).contains("/dev/nvidia-caps-imex-channels");

        for (State s : List.of(State.NOT_STARTED, State.IN_PROGRESS, State.NOT_SUPPORTED)) {
            assertThat(ok.withB(ok.b.withFabric(s)).ncclCheck().mnnvl()).as(s.name()).isEqualTo(ImexDomain.Mnnvl.OFF);
        }
        // the fabric is looked at first: an incomplete fabric turns NVLink off before a missing daemon could fail the job
        assertThat(ok.withB(ok.b.withFabric(State.IN_PROGRESS).withDaemon(false)).ncclCheck().mnnvl()).isEqualTo(ImexDomain.Mnnvl.OFF);
        ImexDomain otherClique = ok.withB(new ImexDomain.Tray("tray B", true, true, State.COMPLETED, true, 2));
        assertThat(otherClique.ncclCheck().mnnvl()).isEqualTo(ImexDomain.Mnnvl.OFF);
        ImexDomain noUuid = ok.withB(new ImexDomain.Tray("tray B", true, true, State.COMPLETED, false, 1));
        assertThat(noUuid.ncclCheck().mnnvl()).isEqualTo(ImexDomain.Mnnvl.OFF);
    }

    @Test
    void theHealthyPathIsLitStepByStep() {
        List<Frame> frames = stepper.frames(GB200_TRAY);
        assertThat(frames).extracting(Frame::title).startsWith(
                "An NVL72 domain: 72 GPUs on 18 compute trays, joined by 9 NVSwitch trays",
                "Every GPU joins the fabric: state COMPLETED, one cluster UUID, one clique",
                "Tray A: cuMemCreate with CU_MEM_HANDLE_TYPE_FABRIC",
                "Tray A: cuMemExportToShareableHandle gives a 64-byte fabric handle",
                "Tray B: cuMemImportFromShareableHandle goes through the IMEX daemons",
                "Tray B: cuMemMap and cuMemSetAccess, then loads over NVLink");
        assertThat(Drawn.boxes(frames.get(2).svg())).containsEntry("process A: cuMemCreate", "box on");
        assertThat(Drawn.boxes(frames.get(4).svg())).containsEntry("IMEX daemon B", "box on").containsEntry("IMEX daemon A, channel0", "box on");
        assertThat(Drawn.boxes(frames.get(5).svg())).containsEntry("GPU B", "box ok");
        assertThat(frames.get(5).caption()).contains("900 GB/s (typical, not this machine: reference GB200 NVL72, platforms.json: vendor spec, NVLink5, 1.8 TB/s both ways)");
        assertThat(frames.getFirst().caption()).contains("make it a tray of such a domain");
    }
}
