package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.Fixtures;
import hostside.core.Json;
import hostside.fs.FsRoot;
import hostside.gpu.bench.Copies;
import hostside.gpu.bench.SmAccess;
import hostside.gpu.cuda.CudaFacts;
import hostside.harness.Result;
import hostside.report.ReportBuilder;
import hostside.report.ReportMarkdown;

/** The GPU half as a user reads it: the text view, the JSON and the report, from one measured run. */
class GpuViewTest {
    final MachineFacts h200 = MachineReader.read(FsRoot.open(Fixtures.h200().toString()));

    MachineRun measured() {
        List<Result> rs = List.of(GpuResults.copy(new Copies.CePinned(true), 55.3),
                GpuResults.copy(new Copies.CePageable(true), 6.5), GpuResults.sweep(true),
                Result.failed(new SmAccess.Latency(), "cuLaunchKernel: CUDA_ERROR_LAUNCH_TIMEOUT (702)"));
        CudaFacts cuda = new CudaFacts("13.0", List.of(new CudaFacts.CudaGpu(0, "NVIDIA H200", "GPU-01c09c09-09b4-ce9d-48d3-8841a624d4dd",
                "0000:00:06.0", 132, 150754820096L, "9.0", "none", List.of(new CudaFacts.Attribute("pageableMemoryAccess", 88, 0, "")))));
        GpuDrill.GpuRun run = new GpuDrill.GpuRun("GPU0", "0000:00:06.0", rs,
                CopyVerdicts.of("GPU0", rs, h200.gpus().getFirst().link(), List.of()), new PciLink(32.0, 16, 32.0, 16));
        return new MachineRun(h200, new GpuDrill.GpuSection("", cuda, null, List.of(run), List.of(), List.of()));
    }

    @Test
    void textShowsFiguresFailuresAndVerdicts() {
        String text = MachineDocumentTest.text(measured());
        assertThat(text).containsPattern("CUDA driver +13.0\n").contains("pinned or managed memory only")
                .contains("host_to_device_ce_pinned").contains("55.30").contains("failed: cuLaunchKernel: CUDA_ERROR_LAUNCH_TIMEOUT (702)")
                .contains("256 KiB").containsPattern("link under copy load +Gen5 x16 of Gen5 x16\n")
                .contains("pageable host-to-device copies run at 12% of pinned");
    }

    @Test
    void theReportCarriesTheMeasurements() throws Exception {
        var report = ReportBuilder.build(measured(), java.time.ZonedDateTime.parse("2026-12-02T12:00:00Z"));
        JsonNode json = Json.MAPPER.readTree(Json.write(report));
        assertThat(json.path("questions").get(1).path("status").asText()).isEqualTo("measured");
        assertThat(json.path("questions").get(1).path("answer").asText()).contains("pinned 55.3 GB/s, pageable 6.5 GB/s").contains("0.18 s");
        String md = ReportMarkdown.render(json);
        assertThat(md).contains("### GPUs and copies").contains("`host_to_device_ce_pinned`").contains("failed: cuLaunchKernel");
    }

    @Test
    void aMachineWithoutDriverSaysWhy() {
        MachineRun none = new MachineRun(h200, GpuDrill.GpuSection.notRun("no NVIDIA driver (libcuda.so.1 not found)", null));
        assertThat(MachineDocumentTest.text(none)).contains("not run: no NVIDIA driver (libcuda.so.1 not found)");
    }
}
