package hostside.machine;

import static hostside.machine.GpuResults.H200;
import static hostside.machine.GpuResults.TWO;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.ArrayList;
import java.util.List;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.Fixtures;
import hostside.core.Better;
import hostside.core.CpuSet;
import hostside.core.Figure;
import hostside.core.Json;
import hostside.core.Scope;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.fs.FsRoot;
import hostside.gpu.bench.AllGpus;
import hostside.gpu.cuda.CudaFacts;
import hostside.harness.DrillContext;
import hostside.harness.Result;
import hostside.harness.Selection;

/** Module 1's figures, flat and typed: each GPU's about it, the all-GPU ones about the machine, and those inside details. */
class MachineFiguresTest {
    static final MachineFacts H200_FACTS = MachineReader.read(FsRoot.open(Fixtures.h200().toString()));

    static CudaFacts h200Cuda() {
        return new CudaFacts("13.0", List.of(new CudaFacts.CudaGpu(0, "NVIDIA H200", "GPU-01c09c09-09b4-ce9d-48d3-8841a624d4dd",
                H200, 132, 150754820096L, "9.0", "none", List.of(new CudaFacts.Attribute("pageableMemoryAccess", 88, 0,
                "reads and writes pageable host memory without registering it")))));
    }

    /** The H200 with every per-GPU case measured, and host to all of its one GPU. */
    static MachineRun h200() {
        List<Result> rs = GpuResults.h200();
        GpuDrill.GpuRun run = new GpuDrill.GpuRun("GPU0", H200, rs, CopyVerdicts.of("GPU0", rs, H200_FACTS.gpus().getFirst().link(), List.of()), null);
        Result all = GpuResults.allGpus(true, List.of(new AllGpus.PerGpu("NVIDIA H200", H200, new Stats(55.47, 55.45, 55.48, 5))));
        return new MachineRun(H200_FACTS, new GpuDrill.GpuSection("", h200Cuda(), null, List.of(run), List.of(all), List.of()));
    }

    static Figure one(List<Figure> f, String key, Scope scope) {
        return f.stream().filter(x -> x.key().equals(key) && x.scope().equals(scope)).findFirst().orElseThrow(() -> new AssertionError(key + " " + scope));
    }

    @Test
    void eachGpusFiguresAreAboutItAndTheDetailsHeadlinesStandBeside() {
        List<Figure> f = h200().figures();
        Scope gpu = Scope.gpu(H200);
        assertThat(f).extracting(Figure::key).containsExactly("host_to_device_ce_pinned", "device_to_host_ce_pinned",
                "bidirectional_ce_pinned", "bidirectional_ce_pinned_device_to_host", "host_to_device_ce_pageable", "device_to_host_ce_pageable",
                "device_local_copy", "pin_cost_host_alloc", "pin_cost_host_register",
                "host_to_device_sweep_pinned", "host_to_device_sweep_pinned_peak_bytes", "host_to_device_sweep_pinned_half_peak_bytes",
                "host_to_device_sweep_pageable", "host_to_device_sweep_pageable_peak_bytes", "host_to_device_sweep_pageable_half_peak_bytes",
                "host_to_device_sm", "device_to_host_sm", "host_device_latency_sm",
                "launch_cost_by_core_kind", "kernel_launch_cost", "copy_submit_cost",
                "host_copies_by_node", "host_to_device_ce_pinned_node", "device_to_host_ce_pinned_node", "host_to_device_ce_pageable_node",
                "device_to_host_ce_pageable_node", "host_to_all_memcpy_ce", "host_to_all_memcpy_ce");
        assertThat(f.subList(0, 19)).allSatisfy(x -> assertThat(x.scope()).isEqualTo(gpu));
        // the launch costs: the case's figure about the GPU, each core's costs about that CPU
        assertThat(f.subList(19, 21)).allSatisfy(x -> assertThat(x.scope()).isEqualTo(Scope.cpus(CpuSet.of(1))));
        assertThat(f.get(21).scope()).isEqualTo(gpu);
        // the copies from each node: the case's share about the GPU, each node's copies about the GPU fed from that node
        assertThat(f.subList(22, 26)).allSatisfy(x -> assertThat(x.scope()).isEqualTo(Scope.gpuNode(H200, 0)));

        Figure pinned = one(f, "host_to_device_ce_pinned", gpu);
        assertThat(pinned).isEqualTo(new Figure("host_to_device_ce_pinned", gpu, 55.46, Unit.GB_PER_S, Better.HIGHER, 55.46 * 0.99, 55.46 * 1.01, 5,
                "nvbandwidth's", "nvbandwidth host_to_device_memcpy_ce"));
        Figure back = one(f, "bidirectional_ce_pinned_device_to_host", gpu);
        assertThat(back.value()).isEqualTo(50.86);
        assertThat(back.anchor()).isEqualTo("nvbandwidth device_to_host_bidirectional_memcpy_ce");
        assertThat(back.unit()).isEqualTo(Unit.GB_PER_S);
        assertThat(back.better()).isEqualTo(Better.HIGHER);
        assertThat(one(f, "host_to_device_ce_pageable", gpu).anchor()).startsWith("PyTorch tensor.copy_");
        assertThat(one(f, "pin_cost_host_alloc", gpu)).extracting(Figure::unit, Figure::better, Figure::anchor)
                .containsExactly(Unit.MS_PER_GIB, Better.LOWER, null);
        assertThat(one(f, "host_device_latency_sm", gpu)).extracting(Figure::value, Figure::unit, Figure::better)
                .containsExactly(1205.3, Unit.NS, Better.LOWER);

        // the sweep: its peak GB/s is the result's figure; where the peak and half of it are reached, figures in bytes
        assertThat(one(f, "host_to_device_sweep_pinned", gpu).value()).isEqualTo(55.37);
        assertThat(one(f, "host_to_device_sweep_pinned_peak_bytes", gpu)).extracting(Figure::value, Figure::unit, Figure::better, Figure::min, Figure::max)
                .containsExactly(268435456.0, Unit.BYTES, Better.LOWER, 268435456.0, 268435456.0);
        assertThat(one(f, "host_to_device_sweep_pinned_half_peak_bytes", gpu).value()).isEqualTo(262144.0);
        assertThat(one(f, "host_to_device_sweep_pageable_peak_bytes", gpu).value()).isEqualTo(1048576.0);
        assertThat(one(f, "host_to_device_sweep_pageable_half_peak_bytes", gpu).value()).isEqualTo(262144.0);

        // host to all: the sum about the machine, each GPU's share about that GPU
        assertThat(one(f, "host_to_all_memcpy_ce", Scope.MACHINE).anchor()).isEqualTo("nvbandwidth host_to_all_memcpy_ce");
        assertThat(one(f, "host_to_all_memcpy_ce", gpu)).extracting(Figure::value, Figure::min, Figure::max, Figure::samples)
                .containsExactly(55.47, 55.45, 55.48, 5);
    }

    @Test
    void peerMatricesGiveOneFigurePerOrderedPairBesideTheSummary() {
        MachineFacts box = new MachineFacts(H200_FACTS.schema(), H200_FACTS.host(), NvlinkBoxes.nodes(1), NvlinkBoxes.twoBridgedPci(),
                Affinity.of(NvlinkBoxes.twoBridgedPci(), NvlinkBoxes.nodes(1)), H200_FACTS.iommu(), H200_FACTS.kernelCmdline(), List.of(), List.of());
        MachineRun run = new MachineRun(box, new GpuDrill.GpuSection("", PeerMatrixViewTest.cuda(TWO), null, List.of(), GpuResults.twoGpus(), List.of()));
        List<Figure> f = run.figures();
        Scope ab = Scope.pair(TWO.get(0), TWO.get(1)), ba = Scope.pair(TWO.get(1), TWO.get(0));
        String read = "device_to_device_memcpy_read_ce";
        assertThat(f.stream().filter(x -> x.key().startsWith(read))).extracting(Figure::key, Figure::scope, Figure::value).containsExactly(
                tuple(read, Scope.MACHINE, (47.92 + 48.31) / 2), tuple(read, ab, 48.31), tuple(read, ba, 47.92),
                tuple(read + "_sum", Scope.MACHINE, 96.23));
        Figure pair = one(f, read, ab);
        assertThat(pair.min()).isCloseTo(48.21, Offset.offset(1e-9));
        assertThat(pair.max()).isCloseTo(48.41, Offset.offset(1e-9));
        assertThat(pair.samples()).as("the samples behind each pair's figure").isEqualTo(3);
        assertThat(pair.anchor()).isEqualTo("nvbandwidth device_to_device_memcpy_read_ce");
        assertThat(one(f, read + "_sum", Scope.MACHINE).min()).isCloseTo(96.03, Offset.offset(1e-9));

        // bidirectional: the pair's total; latency: ns, lower is better, and no SUM
        assertThat(one(f, "device_to_device_bidirectional_memcpy_write_ce", ba).value()).isEqualTo(96.15);
        assertThat(one(f, "device_to_device_latency_sm", ab)).extracting(Figure::value, Figure::unit, Figure::better).containsExactly(1321.7, Unit.NS, Better.LOWER);
        assertThat(f).extracting(Figure::key).doesNotContain("device_to_device_latency_sm_sum")
                .as("a failed case has no figure").noneMatch(k -> k.startsWith("device_to_device_memcpy_staged_ce"));
        // each GPU of host to all, about that GPU
        assertThat(f.stream().filter(x -> x.key().equals("host_to_all_memcpy_ce"))).extracting(Figure::scope, Figure::value)
                .containsExactly(tuple(Scope.MACHINE, 24.18), tuple(Scope.gpu(TWO.get(0)), 12.31), tuple(Scope.gpu(TWO.get(1)), 11.87));
    }

    @Test
    void theJsonListsTheFiguresAsTheContractWritesThem() throws Exception {
        MachineRun run = h200();
        JsonNode figures = run.json().path("figures");
        assertThat(figures.size()).isEqualTo(run.figures().size());
        JsonNode first = figures.get(0);
        List<String> fields = new ArrayList<>();
        first.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("key", "scope", "value", "unit", "better", "min", "max", "samples", "method", "anchor");
        assertThat(first.path("scope").asText()).isEqualTo("gpu:0000:00:06.0");
        assertThat(first.path("unit").asText()).isEqualTo("GB/s");
        assertThat(first.path("better").asText()).isEqualTo("higher");
        assertThat(Json.MAPPER.treeToValue(figures, Figure[].class)).containsExactlyElementsOf(run.figures());
    }

    @Test
    void aRecordingHasNoFigures() {
        MachineRun recorded = MachineDrill.DRILL.run(DrillContext.alone(FsRoot.open(Fixtures.h200().toString()), Selection.all(), e -> { }, null), MachineDrill.DRILL.defaults());
        assertThat(recorded.figures()).isEmpty();
        assertThat(recorded.json().path("figures").isArray()).isTrue();
    }
}
