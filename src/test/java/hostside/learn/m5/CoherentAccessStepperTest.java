package hostside.learn.m5;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.core.Unit;
import hostside.learn.Frame;
import hostside.learn.Inputs;
import hostside.learn.StepperChecks;
import hostside.learn.m2.Drawn;
import hostside.report.platforms.Platforms;

class CoherentAccessStepperTest {
    static final Inputs GH200 = Drawn.machine(Map.of("gpu", "1x NVIDIA GH200 480GB", "gpu_count", "1", "host_link", "c2c", "page_size_bytes", "65536",
            "cpu", "Neoverse-V2, 72 cores"), Map.of("host_to_device_ce_pinned", 340.0));
    static final Inputs HMM = Drawn.machine(Map.of("gpu", "1x NVIDIA RTX 4090", "gpu_count", "1", "host_link", "pcie-gen4-x16", "addressing_mode", "HMM"), Map.of());
    static final Inputs SPARK = Drawn.machine(Map.of("gpu", "1x NVIDIA GB10", "gpu_count", "1", "host_link", "integrated"), Map.of());

    final CoherentAccessStepper stepper = new CoherentAccessStepper();

    @Test
    void everyStepperCheckHoldsOnBothReportsAndWithoutOne() {
        for (Inputs in : List.of(StepperChecks.h200(), StepperChecks.devVm(), Inputs.typical(Map.of()), GH200, HMM, SPARK)) {
            List<Frame> frames = StepperChecks.check(stepper, in, 6);
            Drawn.readable(frames);
            assertThat(Drawn.predictions(frames)).as(in.machine()).hasSizeGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void whetherAKernelCanDereferenceMallocFollowsTheHostLink() {
        String q = "dereference";
        assertThat(Drawn.answer(Drawn.asking(stepper.frames(StepperChecks.h200()), q))).startsWith("No: only pinned");
        assertThat(Drawn.asking(stepper.frames(StepperChecks.h200()), q).why()).isEqualTo("Decided by the host link: PCIe Gen5 x16 (read here).");
        assertThat(Drawn.answer(Drawn.asking(stepper.frames(GH200), q))).startsWith("Yes: the GPU translates it");
        assertThat(Drawn.answer(Drawn.asking(stepper.frames(SPARK), q))).startsWith("Yes: the GPU translates it");
        assertThat(Drawn.answer(Drawn.asking(stepper.frames(HMM), q))).startsWith("Yes, through HMM");
        assertThat(Drawn.answer(Drawn.asking(stepper.frames(StepperChecks.devVm()), q))).isEqualTo("There is no GPU here");
        // PCIe without a report is PCIe Gen5 x16, said to be typical
        assertThat(Drawn.asking(stepper.frames(Inputs.typical(Map.of())), q).why()).contains("typical, not this machine");
    }

    @Test
    void onPcieTheContrastIsGh200sReferenceFigures() {
        List<Frame> frames = stepper.frames(StepperChecks.h200());
        assertThat(frames.get(1).caption()).contains("This machine's link is not coherent: this frame shows a GH200.");
        assertThat(frames.get(2).caption()).contains("346 GB/s (typical, not this machine: reference GH200, platforms.json: one third-party source, nvbandwidth#23",
                "450 GB/s (typical, not this machine: reference GH200, platforms.json: vendor spec, NVLink-C2C, 900 GB/s both ways, one GPU per Grace: 450 each way)");
        Frame copy = frames.get(4);
        assertThat(copy.caption()).contains("55.3 GB/s (measured here)", "7.96 GB/s (measured here)");
        Frame here = frames.get(5);
        assertThat(here.title()).isEqualTo("On this machine: not coherent, only pinned or managed memory");
        assertThat(here.caption()).contains("PCIe Gen5 x16 (read here)", "51.1 GB/s (measured here)", "1190 ns (measured here)");
        assertThat(Drawn.boxes(here.svg())).containsEntry("illegal address on the GPU", "box bad");
        assertThat(Drawn.boxes(stepper.frames(GH200).get(5).svg())).containsEntry("read in place (ATS)", "box ok");
        assertThat(stepper.frames(GH200).get(1).caption()).contains("64 KiB (read here)", "This machine's link is coherent");
    }

    @Test
    void faultsOrPrefetchIsAnsweredFromTheMeasuredFigures() {
        Frame.Predict h200 = Drawn.asking(stepper.frames(StepperChecks.h200()), "managed memory");
        assertThat(Drawn.answer(h200)).startsWith("Prefetching first");
        assertThat(h200.why()).isEqualTo("Faults 13.8 GB/s (measured here), prefetch 48.8 GB/s (measured here): a ratio of 3.52.");
        Inputs even = Drawn.machine(Map.of("host_link", "pcie-gen5-x16", "gpu_count", "1"),
                Map.of("managed_gpu_faults_h2d", 40.0, "managed_prefetch_h2d", 42.0));
        assertThat(Drawn.answer(Drawn.asking(stepper.frames(even), "managed memory"))).isEqualTo("About the same (within 10%)");
        assertThat(stepper.frames(StepperChecks.h200()).get(6).title()).isEqualTo("Managed memory: 77.5 ms by faults, 22 ms by prefetch, per GiB");
    }

    @Test
    void theReferenceFiguresAreThePlatformsFiles() {
        Platforms.Platform gh = Platforms.get().platforms().stream().filter(p -> p.id().equals("gh200")).findFirst().orElseThrow();
        assertThat(Reference.gh200HostToDevice().value()).isEqualTo(gh.hostToDevice().value()).isEqualTo(346);
        assertThat(gh.linkDetail()).contains("900 GB/s both ways", "one GPU per Grace");
        assertThat(Reference.gh200C2cPerDirection().value()).isEqualTo(gh.hostLinkPerGpu().value()).isEqualTo(450);
        // a figure the data does not know is no reference: asking for one fails loudly, it is never drawn as 0
        Platforms.Platform gb = Platforms.get().platforms().stream().filter(p -> p.id().equals("gb200-nvl72")).findFirst().orElseThrow();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Reference.figure("gb200-nvl72", "c2c_per_direction", gb.hostLinkPerGpu(), Unit.GB_PER_S))
                .hasMessageContaining("per superchip");
        assertThat(Reference.pcieHostToDevice().value()).isEqualTo(55.2);
        assertThat(Reference.nvl72GpuToGpu().value()).isEqualTo(900);
        assertThat(Reference.nvl72Domain()).isEqualTo(72);
    }
}
