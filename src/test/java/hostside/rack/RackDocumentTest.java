package hostside.rack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Json;
import hostside.core.Severity;
import hostside.core.Stats;
import hostside.core.Style;
import hostside.core.Unit;
import hostside.doc.Document;
import hostside.doc.HtmlRenderer;
import hostside.doc.MarkdownRenderer;
import hostside.doc.TextRenderer;
import hostside.gpu.bench.Copies;
import hostside.gpu.bench.SmAccess;
import hostside.gpu.cuda.CudaFacts;
import hostside.harness.Detail;
import hostside.harness.Result;
import hostside.harness.TestCase;
import hostside.machine.GpuDrill;
import hostside.machine.GpuRules;
import hostside.testing.CliRun;

/** hostside rack as one document: each GPU's coherence class, and copy engines against SMs with their ratio, in all three renderings. */
class RackDocumentTest {
    static final String H200 = "0000:00:06.0";

    static Result ok(TestCase<?> t, double gbs) {
        return Result.ok(t, Unit.GB_PER_S, new Stats(gbs, gbs - 0.1, gbs + 0.1, 5), "nvbandwidth's", (Detail) null);
    }

    static GpuDrill.GpuSection measured() {
        CudaFacts cuda = new CudaFacts("13.0", List.of(new CudaFacts.CudaGpu(0, "NVIDIA H200", "GPU-0", H200, 132, 150754820096L, "9.0", "none",
                List.of(new CudaFacts.Attribute("pageableMemoryAccess", 88, 0, "reads and writes pageable host memory without registering it"),
                        new CudaFacts.Attribute("pageableMemoryAccessUsesHostPageTables", 100, null, "walks the CPU's page tables (ATS)")))));
        List<Result> rs = new ArrayList<>(List.of(ok(new Copies.CePinned(true), 55.46), ok(new Copies.CePinned(false), 55.31),
                ok(new SmAccess.SmCopy(true), 51.12)));
        rs.add(Result.failed(new SmAccess.SmCopy(false), "cuLaunchKernel: CUDA_ERROR_LAUNCH_TIMEOUT (702)"));
        GpuDrill.GpuRun run = new GpuDrill.GpuRun("GPU0", H200, rs, List.of(
                GpuRules.SM_COPY.finding(Severity.INFO, "GPU0", "SMs reading host memory reach 92% of the copy engine"),
                GpuRules.PAGEABLE.finding(Severity.INFO, "GPU0", "other verdict")), null);
        return new GpuDrill.GpuSection("", cuda, null, List.of(run), List.of(), List.of());
    }

    @Test
    void coherenceAndTheRatioShowInEveryRendering() {
        Document doc = RackDocument.of(measured());
        String text = new TextRenderer(Style.plain()).render(doc);
        String md = new MarkdownRenderer().render(doc).replace("\\_", "_"); // Markdown escapes the underscores of plain text
        String html = org.jsoup.Jsoup.parse(new HtmlRenderer().render(doc)).text();
        for (String r : List.of(text, md, html)) {
            assertThat(r).contains("NVIDIA H200 (0000:00:06.0)").contains("Coherence class").contains("only pinned (or managed) memory")
                    .contains("pageableMemoryAccess (88)").contains("unknown")
                    .contains("55.46").contains("51.12").contains("92%").contains("55.31")
                    .contains("CUDA_ERROR_LAUNCH_TIMEOUT (702)").contains("SMs reading host memory reach 92%").doesNotContain("other verdict");
        }
        assertThat(text).containsPattern("host to device +55.46 +51.12 +92%\n").containsPattern("device to host +55.31 +- +-\n");
    }

    @Test
    void withoutADriverItSaysWhy() {
        String text = new TextRenderer(Style.plain()).render(RackDocument.of(GpuDrill.GpuSection.notRun("no NVIDIA driver (libcuda.so.1 not found)", null)));
        assertThat(text).isEqualTo("hostside rack: coherence and copy engine vs SMs\n\nNot run: no NVIDIA driver (libcuda.so.1 not found)\n");
    }

    @Test
    void theCommandPrintsTheDocumentOnARecording() {
        CliRun r = CliRun.of("rack", "--root", hostside.Fixtures.h200().toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("hostside rack: coherent superchips and NVLink racks\n")
                .contains("Platform: GPUs on PCIe (NVIDIA GPU 0x2335 on PCIe).")
                .containsPattern("binding +ok +GPU0 \\(0000:00:06.0\\): numactl --cpunodebind=0 --membind=0 \\(or taskset -c 0-15\\)")
                .contains("Coherence and copies not run: recorded machine: nothing is measured under --root").doesNotContain("\u001b[");
    }

    @Test
    void theJsonCarriesTheTypedFiguresOfItsCopies() throws Exception {
        CliRun r = CliRun.of("rack", "--root", hostside.Fixtures.h200().toString(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        var json = Json.MAPPER.readTree(r.out());
        assertThat(json.path("schema").asText()).isEqualTo("hostside/2");
        assertThat(json.path("kind").asText()).isEqualTo("rack");
        assertThat(json.path("figures").isArray()).as("a recording measures nothing: an empty list, not a missing one").isTrue();
        assertThat(json.path("figures")).isEmpty();
        assertThat(json.path("platform").path("kind").asText()).isEqualTo("PCIE");
        var items = new java.util.ArrayList<String>();
        json.path("checklist").forEach(c -> items.add(c.path("item").asText()));
        assertThat(items).containsExactly("base_page_size", "thp", "init_on_alloc", "numa_balancing", "gpu_memory_mode", "node_roles", "binding",
                "process_placement", "cpu_governor", "power_meter_cap", "iommu", "pci_power", "persistence", "c2c_link", "fabric_state",
                "fabric_manager", "imex", "fabric_readiness", "nvls", "gpudirect", "failure_domain", "memory_bandwidth");
        for (var c : json.path("checklist")) {
            assertThat(c.path("verdict").asText()).isIn("ok", "info", "warn", "bad", "unknown", "n/a", "not run");
            assertThat(c.has("value") && c.has("why") && c.has("fix")).as(c.toString()).isTrue();
        }
        assertThat(json.path("checklist").get(0).path("value").asText()).isEqualTo("4 KiB");
        assertThat(json.path("checklist").get(12).path("verdict").asText()).as("persistence: NVML's, not in a recording").isEqualTo("not run");
        assertThat(json.path("checklist").get(12).path("why").asText()).contains("recorded machine");
    }
}
