package hostside.learn.m1;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.junit.jupiter.api.Test;

import hostside.core.Unit;
import hostside.learn.Frame;
import hostside.learn.Inputs;
import hostside.learn.StepperChecks;

/** Module 1's copy stepper: the H200's own figures, typical ones said to be typical, and predictions that follow the inputs. */
class H2dCopyTest {
    static final H2dCopy S = new H2dCopy();

    @Test
    void theH200QuotesItsOwnCopiesAndItsLink() {
        List<Frame> frames = StepperChecks.check(S, StepperChecks.h200(), 6);
        common(frames);
        assertThat(frames).extracting(Frame::title).containsExactly(
                "1 GiB in pageable host memory, bound for the GPU",
                "Pageable: the CPU copies it into a pinned staging buffer",
                "Pageable, end to end",
                "Pinned: the copy engine reads the tensor itself",
                "How close pinned comes to the link's limit",
                "1 GiB, and a 10 GB batch",
                "What pinning itself costs",
                "What to do in PyTorch");
        String all = captions(frames);
        assertThat(all).contains("55.3 GB/s (measured here)").contains("7.96 GB/s (measured here)")
                .contains("PCIe Gen5 x16, at most 63 GB/s (read here: 32 GT/s x 16 lanes, 128b/130b encoding)")
                .contains("pinned is 6.95x faster").contains("88% of it")
                .contains("1 GiB takes 19.4 ms pinned and 135 ms pageable").contains("181 ms pinned and 1.26 s pageable")
                .contains("360 ms/GiB (measured here)").contains("34.6 ms/GiB (measured here)")
                .contains("did best at 1 MiB, at 19.4 GB/s (measured here)")
                .contains("pin_memory=True").contains("non_blocking=True")
                .contains("NUMA node unknown")
                .doesNotContain("typical");
        assertThat(answers(frames)).containsExactly(
                "No: its pages can move, so the driver first copies it into a pinned staging buffer",
                "Pinned, by more than 5x", "80% to 95%", "1 s to 2 s", "5 to 20");
        assertThat(frames.getFirst().caption()).contains("the NVIDIA H200");
    }

    @Test
    void aMachineWithoutAGpuRunsOnTypicalFiguresAndSaysSoInEveryFrame() {
        List<Frame> frames = StepperChecks.check(S, StepperChecks.devVm(), 6);
        common(frames);
        for (Frame f : frames) {
            assertThat(f.caption()).as("frame " + f.number()).contains("typical figures of a PCIe Gen5 x16 H100/H200 box, not this machine's: this machine has no GPU (read here)")
                    .doesNotContain("measured here");
            assertThat(f.figures()).allMatch(v -> !v.mine());
        }
        assertThat(captions(frames)).contains("55 GB/s (typical, not this machine").contains("12 GB/s (typical, not this machine");
        assertThat(answers(frames)).contains("Pinned, by 2x to 5x", "0.5 s to 1 s");
    }

    @Test
    void noReportAtAllIsTypicalThroughout() {
        List<Frame> frames = StepperChecks.check(S, Inputs.typical(Map.of()), 6);
        common(frames);
        assertThat(frames).allSatisfy(f -> assertThat(f.caption()).contains("not this machine's: there is no report"));
    }

    @Test
    void theAnswersFollowTheFigures() {
        // pageable faster than pinned: the first answer, and the reason given is not the usual one
        List<Frame> odd = S.frames(synthetic("pcie-gen5-x16", 30, 60, 360));
        assertThat(predict(odd, "Which is faster").answer()).isZero();
        assertThat(predict(odd, "Which is faster").why()).startsWith("Pageable 60 GB/s against pinned 30 GB/s");
        assertThat(predict(odd, "share of the link").answer()).as("30 of 63 GB/s").isEqualTo(0);
        assertThat(predict(odd, "10 GB batch").answer()).as("10 GB at 60 GB/s: 0.167 s").isEqualTo(0);

        // a little slower pageable: by less than 2x; a Gen4 link: 31.5 GB/s, so 25 GB/s is 79%
        List<Frame> gen4 = S.frames(synthetic("pcie-gen4-x16", 25, 15, 10));
        assertThat(predict(gen4, "Which is faster").answer()).isEqualTo(1);
        assertThat(predict(gen4, "share of the link").answer()).isEqualTo(1);
        assertThat(captions(gen4)).contains("PCIe Gen4 x16, at most 31.5 GB/s");
        assertThat(predict(gen4, "Pinning 1 GiB").answer()).as("10 ms to pin, 43 ms a copy").isZero();
        assertThat(predict(gen4, "10 GB batch").answer()).as("10 GB at 15 GB/s: 0.667 s").isEqualTo(2);

        // the H200's pinned and pageable swapped by hand: the H200 answer flips
        Inputs h200 = StepperChecks.h200();
        assertThat(predict(S.frames(h200), "Which is faster").answer()).isEqualTo(3);
        Map<String, Inputs.Value> v = new HashMap<>(h200.values());
        v.put("host_to_device_ce_pageable", new Inputs.Value("host_to_device_ce_pageable", 70, Unit.GB_PER_S, Inputs.Source.MEASURED, ""));
        assertThat(predict(S.frames(new Inputs("h200, edited", v, h200.facts())), "Which is faster").answer()).isZero();
    }

    @Test
    void theLinkDecidesWhoTouchesThePageableBytes() {
        assertThat(predict(S.frames(synthetic("pcie-gen5-x16", 55, 8, 360)), "Can the GPU").answer()).isEqualTo(1);
        // GH200: one GPU per Grace, so C2C's 900 GB/s both ways is the GPU's 450 each way
        List<Frame> c2c = StepperChecks.check(S, synthetic("c2c", 300, 100, 360, "NVIDIA GH200 480GB"), 6);
        common(c2c);
        assertThat(predict(c2c, "Can the GPU").answer()).isEqualTo(2);
        assertThat(c2c.get(1).title()).isEqualTo("Pageable over coherent C2C: the GPU can read it in place");
        assertThat(captions(c2c)).contains("NVLink-C2C carries 450 GB/s (read here: GH200's vendor spec: NVLink-C2C, 900 GB/s both ways, one GPU per Grace: 450 each way) per direction for this GPU")
                .contains("one user's GH200 copied 346 GB/s (nvbandwidth#23").contains("one third-party report, never a floor")
                .doesNotContain("staging buffer goes over");
        assertThat(predict(c2c, "share of the link").answer()).as("300 of 450: 67%").isEqualTo(1);
        assertThat(c2c.get(6).caption()).as("measured copies, the register cost not measured").contains("35 ms/GiB (typical, not this machine")
                .contains("A pinning cost marked typical was not measured here.");
        assertThat(c2c.getFirst().caption()).contains("It is going to the NVIDIA GH200 480GB, over NVLink-C2C, at most 450 GB/s");

        // GB200: one Grace's C2C serves two GPUs and is quoted per superchip: no per-GPU limit, no share of it asked
        for (String gpu : List.of("NVIDIA GB200", "NVIDIA Test GPU")) {
            List<Frame> gb = StepperChecks.check(S, synthetic("c2c", 300, 100, 360, gpu), 6);
            common(gb);
            assertThat(gb.getFirst().caption()).as(gpu).contains("over NVLink-C2C, whose limit for one GPU is not known (")
                    .doesNotContain("at most 450").doesNotContain("at most 900");
            assertThat(gb).extracting(Frame::title).as(gpu).contains("Pinned over C2C: one GPU's share of the link is not known")
                    .doesNotContain("How close pinned comes to the link's limit", "No link to fill");
            assertThat(gb.stream().map(Frame::predict).filter(Objects::nonNull).map(Frame.Predict::question)).as(gpu).noneMatch(q -> q.contains("share of the link"));
        }
        assertThat(captions(S.frames(synthetic("c2c", 300, 100, 360, "NVIDIA GB200")))).contains("GB200 NVL72's NVLink-C2C's 900 GB/s both ways is quoted per superchip of one Grace and two GPUs");

        // a C2C machine whose copies were not measured: the typical copies are a PCIe box's, and so is the link they are drawn on
        Map<String, Inputs.Fact> c2cFacts = Map.of("host_link", new Inputs.Fact("host_link", "c2c", Inputs.Source.READ));
        List<Frame> unmeasured = S.frames(new Inputs("c2c, no copies", Map.of(), c2cFacts));
        assertThat(unmeasured.getFirst().caption()).contains("a typical H100, over PCIe Gen5 x16");
        assertThat(predict(unmeasured, "Can the GPU").answer()).isEqualTo(1);

        List<Frame> integrated = StepperChecks.check(S, synthetic("integrated", 100, 50, 100), 6);
        common(integrated);
        assertThat(predict(integrated, "Can the GPU").answer()).isEqualTo(3);
        assertThat(integrated).extracting(Frame::title).contains("No link to fill");
        assertThat(integrated.stream().filter(f -> f.predict() != null).count()).isGreaterThanOrEqualTo(2);

        // a link the kernel could not read: a typical PCIe Gen5 link, said to be typical, beside this machine's own copies
        List<Frame> unknown = StepperChecks.check(S, synthetic("unknown", 55, 8, 360), 6);
        assertThat(unknown.getFirst().caption()).contains("The link is typical (the host link read here is 'unknown')")
                .contains("63 GB/s (typical, not this machine");
    }

    @Test
    void aZeroFigureIsNotARate() {
        List<Frame> frames = StepperChecks.check(S, synthetic("pcie-gen5-x16", 0, 8, 360), 6);
        assertThat(captions(frames)).contains("Pinned is a typical figure of a PCIe Gen5 x16 H100/H200 box, not this machine's");
    }

    @Test
    void theGpusNumaNodeIsSaidWhenKnownAndUnknownWhenTheKernelSaysMinusOne() {
        Inputs in = synthetic("pcie-gen5-x16", 55, 8, 360);
        Map<String, Inputs.Fact> facts = new HashMap<>(in.facts());
        facts.put("gpu_numa_node", new Inputs.Fact("gpu_numa_node", "1", Inputs.Source.READ));
        assertThat(S.frames(new Inputs("m", in.values(), facts)).getFirst().caption()).contains("on NUMA node 1, the GPU's own node (read here)");
        facts.put("gpu_numa_node", new Inputs.Fact("gpu_numa_node", "-1", Inputs.Source.READ));
        assertThat(S.frames(new Inputs("m", in.values(), facts)).getFirst().caption()).contains("NUMA node unknown (the kernel says -1");
    }

    /** What every run holds: two predictions or more, each figure quoted with its source, no prediction without its reason. */
    static void common(List<Frame> frames) {
        assertThat(frames.stream().filter(f -> f.predict() != null).count()).isGreaterThanOrEqualTo(2);
        for (Frame f : frames) {
            for (Inputs.Value v : f.figures()) assertThat(f.caption()).as("frame " + f.number() + " quotes " + v.key() + " with its source").contains(v.shown());
            if (f.predict() != null) assertThat(f.predict().why()).isNotBlank();
            assertThat(f.svg()).contains("viewBox=\"0 0 640 260\"");
        }
    }

    static Inputs synthetic(String link, double pinned, double pageable, double allocMs) {
        return synthetic(link, pinned, pageable, allocMs, "NVIDIA Test GPU");
    }

    static Inputs synthetic(String link, double pinned, double pageable, double allocMs, String gpu) {
        Map<String, Inputs.Value> v = Map.of(
                "host_to_device_ce_pinned", new Inputs.Value("host_to_device_ce_pinned", pinned, Unit.GB_PER_S, Inputs.Source.MEASURED, ""),
                "host_to_device_ce_pageable", new Inputs.Value("host_to_device_ce_pageable", pageable, Unit.GB_PER_S, Inputs.Source.MEASURED, ""),
                "pin_cost_host_alloc", new Inputs.Value("pin_cost_host_alloc", allocMs, Unit.MS_PER_GIB, Inputs.Source.MEASURED, ""));
        Map<String, Inputs.Fact> f = Map.of(
                "gpu", new Inputs.Fact("gpu", "1x " + gpu, Inputs.Source.READ),
                "host_link", new Inputs.Fact("host_link", link, Inputs.Source.READ));
        return new Inputs("synthetic", v, f);
    }

    static Frame.Predict predict(List<Frame> frames, String question) {
        return frames.stream().map(Frame::predict).filter(Objects::nonNull).filter(p -> p.question().contains(question)).findFirst()
                .orElseThrow(() -> new AssertionError("no prediction asks '" + question + "'"));
    }

    static List<String> answers(List<Frame> frames) {
        return frames.stream().map(Frame::predict).filter(Objects::nonNull).map(p -> p.choices().get(p.answer())).toList();
    }

    static String captions(List<Frame> frames) {
        return String.join("\n", frames.stream().map(Frame::caption).toList());
    }
}
