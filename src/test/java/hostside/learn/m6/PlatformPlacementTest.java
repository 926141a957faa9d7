package hostside.learn.m6;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.junit.jupiter.api.Test;

import hostside.core.Json;
import hostside.core.Unit;
import hostside.learn.Frame;
import hostside.learn.Inputs;
import hostside.learn.StepperChecks;
import hostside.report.Placements;
import hostside.report.ReportReader;
import hostside.report.platforms.Nics;

/** Module 6's placement stepper: the report's own rule, walked a key at a time, on the H200 VM, a machine without a GPU and synthetic ones. */
class PlatformPlacementTest {
    static final PlatformPlacement S = new PlatformPlacement();

    /** A first-schema report has no class of its own; its Module 1 facts give the GPU count, so it is placed, not called "typical". */
    @Test
    void aFirstSchemaReportIsPlacedFromItsOwnFacts() throws Exception {
        List<Frame> frames = StepperChecks.check(S, StepperChecks.report("testdata/reports/h200-hostside1.json"), 6);
        String all = captions(frames);
        assertThat(all).contains("This machine has 1x NVIDIA H200").contains("Closest: HGX/DGX H200").doesNotContain("Not this machine");
    }

    @Test
    void theH200VmIsAnHgxH200WithOneGpuNotEight() throws Exception {
        List<Frame> frames = StepperChecks.check(S, StepperChecks.h200(), 6);
        common(frames);
        assertThat(frames).extracting(Frame::title).containsExactly(
                "What the placement reads",
                "Link class first: PCIe",
                "Then the same GPU",
                "Then the NVLink domain",
                "Axis: CPU cores per GPU",
                "Axis: host to device",
                "Axis: GPU to GPU",
                "Axis: NIC per GPU",
                "Closest: HGX/DGX H200",
                "The floor: 0.75x of the class's host to device");
        String all = captions(frames);
        assertThat(all).contains("55.3 GB/s (measured here)").contains("16 cores per GPU (read here: 16 cores for 1 GPU)")
                .contains("Closest: HGX/DGX H200 (PCIe Gen5 x16, not coherent), because a PCIe host link, the same GPU.")
                .contains("1 GPU in its domain, not 8")
                .contains("so its floor is 41.4 GB/s")
                .contains("The floor is 0.75 of the class's measured copy, hostside's own rule, not DCGM's")
                .doesNotContain("DCGM sets its per-SKU floors")
                .contains("GPU to GPU (one GPU: no peer to copy to)")
                .contains("NIC per GPU (no NIC speed known, NICs 1xunknown)")
                .doesNotContain("typical");
        assertThat(predict(frames, "closest to").choices()).containsExactly("RTX 4090 workstation", "HGX/DGX H100", "HGX/DGX H200", "HGX/DGX B200", "HGX/DGX B300");
        assertThat(answers(frames)).containsExactly("HGX/DGX H200", "CPU cores per GPU", "Above the floor");

        // the same place the report gives it, and the same lines of what differs
        var report = ReportReader.read(Json.MAPPER.readTree(Path.of("testdata/reports/h200-hostside2.json").toFile()), "h200");
        var placed = Placements.of(report);
        assertThat(frames.get(8).title()).isEqualTo("Closest: " + placed.closest().name());
        assertThat(frames.get(8).caption()).contains(String.join("; ", placed.differs()));
    }

    @Test
    void aMachineWithoutAGpuPlacesATypicalOneAndSaysSoInEveryFrame() {
        List<Frame> frames = StepperChecks.check(S, StepperChecks.devVm(), 6);
        common(frames);
        assertThat(frames).allSatisfy(f -> assertThat(f.caption()).as("frame " + f.number())
                .contains("Not this machine: it has no GPU (read here), and the reference platforms are GPU machines; these frames place a typical cloud VM")
                .doesNotContain("measured here"));
        assertThat(frames).allSatisfy(f -> assertThat(f.figures()).allMatch(v -> !v.mine()));
        assertThat(answers(frames)).containsExactly("HGX/DGX H100", "NIC per GPU", "Above the floor");
    }

    @Test
    void noReportAtAllPlacesTheTypicalMachine() {
        List<Frame> frames = StepperChecks.check(S, Inputs.typical(Map.of()), 6);
        common(frames);
        assertThat(frames).allSatisfy(f -> assertThat(f.caption()).contains("Not this machine: there is no report"));
    }

    @Test
    void theClosestPlatformFollowsTheGpuAndTheLinkClass() {
        assertThat(predict(S.frames(machine("NVIDIA H100 80GB HBM3", 8, 112, "pcie-gen5-x16", "nvswitch-8", "8x400g-rdma,2x200g", 55.0)), "closest to").choices()
                .get(predict(S.frames(machine("NVIDIA H100 80GB HBM3", 8, 112, "pcie-gen5-x16", "nvswitch-8", "8x400g-rdma,2x200g", 55.0)), "closest to").answer()))
                .isEqualTo("HGX/DGX H100");
        // a coherent box is among the coherent ones only, and at 120 GB/s still a GH200; GH200's 346 GB/s is one user's
        // report (T), quoted but never a floor (it was "below its floor of 260" while the figure was tagged measured)
        List<Frame> gh = StepperChecks.check(S, machine("NVIDIA GH200 480GB", 1, 72, "c2c", "none", "none", 120.0), 6);
        common(gh);
        Frame.Predict closest = predict(gh, "closest to");
        assertThat(closest.choices()).containsExactly("GH200", "GB200 NVL72", "GB300 NVL72", "Vera Rubin NVL72");
        assertThat(closest.choices().get(closest.answer())).isEqualTo("GH200");
        assertThat(answer(gh, "above the class floor")).isEqualTo("No floor: the class has no measured host-to-device copy");
        assertThat(captions(gh)).contains("346 GB/s (T: nvbandwidth#23").contains("the floor is taken only of a measured copy (M)").doesNotContain("is below it");
        // a GB200 tray: its class's copy is not known per GPU, so no floor, and the page says not known rather than 0
        List<Frame> gb = S.frames(machine("NVIDIA GB200", 4, 144, "c2c", "nvswitch-4", "4x400g-rdma", 170.0));
        assertThat(answer(gb, "closest to")).isEqualTo("GB200 NVL72");
        assertThat(answer(gb, "above the class floor")).isEqualTo("No floor: the class has no measured host-to-device copy");
        assertThat(captions(gb)).contains("host to device 170 GB/s here; the class's is not known (?: ").contains("not known (?: no per-GPU copy over C2C");
        // integrated: the class has one platform, and the other choice is the coherent box it is not
        List<Frame> spark = StepperChecks.check(S, machine("NVIDIA GB10", 1, 20, "integrated", "none", "2x200g", null), 6);
        assertThat(predict(spark, "closest to").choices()).containsExactly("DGX Spark (GB10)", "GH200");
        assertThat(answer(spark, "closest to")).isEqualTo("DGX Spark (GB10)");
        assertThat(answer(spark, "above the class floor")).isEqualTo("No floor: the class has no measured host-to-device copy");
    }

    @Test
    void theFloorAndTheFarthestAxisFollowTheFigures() {
        // the H200 VM's own inputs with its host link at 30 GB/s: below the class floor of 41.4
        Inputs h200 = StepperChecks.h200();
        assertThat(answer(S.frames(h200), "above the class floor")).isEqualTo("Above the floor");
        Map<String, Inputs.Value> v = new HashMap<>(h200.values());
        v.put("host_to_device_ce_pinned", new Inputs.Value("host_to_device_ce_pinned", 30, Unit.GB_PER_S, Inputs.Source.MEASURED, ""));
        List<Frame> slow = S.frames(new Inputs("h200, edited", v, h200.facts()));
        assertThat(answer(slow, "above the class floor")).isEqualTo("Below the floor");
        assertThat(answer(slow, "farthest from")).as("30 against 55.2 is 0.54x, farther than 16 cores against 14").isEqualTo("host to device");
        // and with no copy measured: not known
        v.remove("host_to_device_ce_pinned");
        assertThat(answer(S.frames(new Inputs("h200, no copies", v, h200.facts())), "above the class floor")).isEqualTo("Not known: host to device was not measured");

        // one 100 Gb/s NIC for one GPU: 4x below the class's 400, the farthest axis
        assertThat(answer(S.frames(machine("NVIDIA H200", 1, 16, "pcie-gen5-x16", "none", "1x100g", 55.3)), "farthest from")).isEqualTo("NIC per GPU");
        // a box of its class's own figures differs by less than 5% everywhere
        assertThat(answer(S.frames(machine("NVIDIA H100 80GB HBM3", 8, 112, "pcie-gen5-x16", "nvswitch-8", "8x400g-rdma", 55.2)), "farthest from"))
                .isEqualTo("None: within 5% on every axis both have");
    }

    @Test
    void aMachineWhoseLinkIsUnknownIsNotPlacedAndSaysWhy() {
        List<Frame> frames = StepperChecks.check(S, machine("NVIDIA H100", 1, 16, "unknown", "none", "none", 50.0), 6);
        assertThat(frames).allSatisfy(f -> assertThat(f.caption()).contains("Not this machine: it cannot be placed (the host link is unknown: no class to place it in)"));
    }

    /** Two predictions or more, each with its reason; each figure quoted with its source; the canvas. */
    static void common(List<Frame> frames) {
        assertThat(frames.stream().filter(f -> f.predict() != null).count()).isGreaterThanOrEqualTo(2);
        for (Frame f : frames) {
            for (Inputs.Value v : f.figures()) assertThat(f.caption()).as("frame " + f.number() + " quotes " + v.key() + " with its source").contains(v.shown());
            if (f.predict() != null) assertThat(f.predict().why()).isNotBlank();
            assertThat(f.svg()).contains("viewBox=\"0 0 640 260\"");
        }
    }

    static Inputs machine(String gpu, int gpus, int cores, String link, String fabric, String nics, Double h2d) {
        Map<String, Inputs.Fact> f = new HashMap<>();
        for (String[] kv : new String[][] {{"gpu", gpus + "x " + gpu}, {"host_link", link},
                {"fabric", fabric}, {"nics", nics}}) {
            f.put(kv[0], new Inputs.Fact(kv[0], kv[1], Inputs.Source.READ));
        }
        Map<String, Inputs.Value> v = new HashMap<>();
        v.put(Inputs.GPU_COUNT, new Inputs.Value(Inputs.GPU_COUNT, gpus, Unit.COUNT, "GPUs", Inputs.Source.READ, ""));
        v.put(Inputs.CORES, new Inputs.Value(Inputs.CORES, cores, Unit.COUNT, "cores", Inputs.Source.READ, ""));
        if (h2d != null) v.put("host_to_device_ce_pinned", new Inputs.Value("host_to_device_ce_pinned", h2d, Unit.GB_PER_S, Inputs.Source.MEASURED, ""));
        // the NICs as a report's class holds them, and their figure as Inputs.from makes it
        Inputs.nicPerGpu(Nics.parse(nics), gpus, Inputs.Source.READ).ifPresent(n -> v.put(n.key(), n));
        return new Inputs("synthetic " + gpu, v, f);
    }

    static Frame.Predict predict(List<Frame> frames, String question) {
        return frames.stream().map(Frame::predict).filter(Objects::nonNull).filter(p -> p.question().contains(question)).findFirst()
                .orElseThrow(() -> new AssertionError("no prediction asks '" + question + "'"));
    }

    static String answer(List<Frame> frames, String question) {
        Frame.Predict p = predict(frames, question);
        return p.choices().get(p.answer());
    }

    static List<String> answers(List<Frame> frames) {
        return frames.stream().map(Frame::predict).filter(Objects::nonNull).map(p -> p.choices().get(p.answer())).toList();
    }

    static String captions(List<Frame> frames) {
        return String.join("\n", frames.stream().map(Frame::caption).toList());
    }
}
