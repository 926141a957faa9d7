package hostside.machine;

import static hostside.machine.NvlinkBoxes.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import com.fasterxml.jackson.databind.JsonNode;

import hostside.Fixtures;
import hostside.cli.MachineCommand;
import hostside.core.Json;
import hostside.fs.FsRoot;
import hostside.gpu.nvml.FakeNvml;
import hostside.gpu.nvml.NvmlFacts;
import hostside.gpu.nvml.NvmlGpu;
import hostside.gpu.nvml.NvmlReader;
import hostside.report.ReportBuilder;
import hostside.report.ReportMarkdown;

/** The GPU matrix as a user meets it: hostside machine's text, its JSON, the report; and from the fake NVML up. */
class GpuMatrixViewTest {
    final MachineFacts h200 = MachineReader.read(FsRoot.open(Fixtures.h200().toString()));

    /** The H200 recording's host, with another box's PCIe tree and NUMA nodes. */
    MachineFacts box(List<PciDevice> pci, Topology topology) {
        return new MachineFacts(h200.schema(), h200.host(), topology, pci, Affinity.of(pci, topology), h200.iommu(),
                h200.kernelCmdline(), List.of(), List.of());
    }

    static NvmlFacts nvml(List<NvmlGpu> gpus) {
        return new NvmlFacts("libnvidia-ml.so.1", null, "580.95.05", "13.580.95.05", "13.0", gpus, List.of(), List.of());
    }

    /** As MachineCommand.run builds it: the matrix from the drill's NVML read, its findings among the facts'. */
    MachineRun run(MachineFacts facts, NvmlFacts nvml) {
        GpuDrill.GpuSection gpu = GpuDrill.GpuSection.notRun("copies not asked for", nvml);
        GpuMatrix m = GpuMatrix.of(facts, gpu);
        return new MachineRun(MachineDrill.withFindings(facts, m.findings()), gpu, m);
    }

    @AfterEach
    void fakeLinksBack() {
        FakeNvml.resetLinks(FakeNvml.Variant.CURRENT);
    }

    @Test
    void theTextPrintsTheMatrixAsNvidiaSmiDoes() {
        String text = MachineDocumentTest.text(run(box(hgxPci(), nodes(2)), nvml(hgxNvml(3, 2, true))));
        assertThat(text).contains("GPU to GPU\n  In nvidia-smi topo -m terms: NV# = # active NVLinks")
                .contains("  host bridges of one NUMA node, SYS = across NUMA nodes.\n"
                        + "        GPU0  GPU1  GPU2  GPU3  GPU4  GPU5  GPU6  GPU7\n"
                        + "  GPU0  X     NV18  NV18  NV16  NV18  NV18  NV18  NV18\n")
                .contains("  GPU7  NV18  NV18  NV18  NV16  NV18  NV18  NV18  X\n")
                .contains("  - GPU0, GPU1, GPU2, GPU4, GPU5, GPU6, GPU7: 18 NVLinks up (NVLink 4.0), 18 to NVSwitches\n")
                .contains("  - GPU3: 16 NVLinks up (NVLink 4.0), 16 to NVSwitches; 2 down\n")
                .contains("GPU3 has 2 of its 18 NVLinks down");
    }

    @Test
    void oneGpuShowsNoMatrix() {
        String text = MachineDocumentTest.text(new MachineRun(h200, GpuDrill.GpuSection.notRun("recorded machine: nothing is measured under --root", null)));
        assertThat(text).doesNotContain("GPU to GPU");
    }

    @Test
    void aRecordedMachineShowsPcieClassesAndWhyNvlinkIsUnknown() {
        MachineFacts facts = box(bridgedPairsPci(), nodes(2));
        MachineRun run = new MachineRun(facts, GpuDrill.GpuSection.notRun("recorded machine: nothing is measured under --root", null));
        String text = MachineDocumentTest.text(run);
        assertThat(text).contains("  GPU0  X     PHB   SYS   SYS\n")
                .contains("  - NVLink unknown: recorded machine: nothing is measured under --root\n")
                .doesNotContain("no NVLink:");
    }

    @Test
    void jsonAndReportCarryTheMatrix() throws Exception {
        MachineRun run = run(box(bridgedPairsPci(), nodes(2)), nvml(bridgedPairsNvml()));
        JsonNode json = run.json();
        JsonNode m = json.path("gpuMatrix");
        assertThat(m.path("matrix").get(0).toString()).isEqualTo("[\"X\",\"NV12\",\"SYS\",\"SYS\"]");
        JsonNode p = m.path("pairs").get(0);
        assertThat(p.path("a").asText() + p.path("b").asText() + p.path("nvlinks").asInt() + p.path("versions").toString())
                .isEqualTo("GPU0GPU112[\"3.1\"]");
        assertThat(json.path("findings").toString()).contains("GPU0-GPU2, GPU0-GPU3, GPU1-GPU2, GPU1-GPU3: no NVLink");

        var report = ReportBuilder.build(run, java.time.ZonedDateTime.parse("2026-12-02T12:00:00Z"));
        JsonNode r = Json.MAPPER.readTree(Json.write(report));
        assertThat(r.path("questions").get(2).path("answer").asText())
                .isEqualTo("4 GPUs; GPU to GPU: NV12 for GPU0-GPU1, GPU2-GPU3 (direct, NVLink 3.1); SYS for 4 pairs");
        String md = ReportMarkdown.render(r);
        assertThat(md).contains("### GPU to GPU").contains("| GPU0 | X | NV12 | SYS | SYS |")
                .contains("| GPU0-GPU1, GPU2-GPU3 | 12 | direct | 3.1 |");
    }

    @Test
    void theReportSaysNvlinkIsUnknownWhereNvmlWasNotAsked() throws Exception {
        MachineRun run = new MachineRun(box(pcieOnlyPci(), nodes(2)),
                GpuDrill.GpuSection.notRun("recorded machine: nothing is measured under --root", null));
        var answer = ReportBuilder.build(run, java.time.ZonedDateTime.parse("2026-12-02T12:00:00Z")).questions().get(2);
        assertThat(answer.answer()).startsWith("6 GPUs; GPU to GPU: ").contains("SYS for 5 pairs")
                .endsWith("; NVLink unknown, so these are the PCIe paths");
        assertThat(answer.evidence()).isEqualTo("PCIe tree from sysfs; NVLink unknown: recorded machine: nothing is measured under --root");
    }

    // ---- from the fake libnvidia-ml.so.1 through NvmlReader: its GPUs at 0000:00:06.0 and 0001:0a:00.0

    MachineFacts fakeBox() {
        return box(List.of(gpu("0000:00:06.0", "GPU0", null, "pci0000:00", 0), gpu("0001:0a:00.0", "GPU1", null, "pci0001:00", 1)),
                nodes(2));
    }

    @Test
    void theFakesDirectLinkAndItsDownedLinkReachTheMatrix() {
        MachineRun run = run(fakeBox(), NvmlReader.read(FakeNvml.library()));
        GpuMatrix m = run.gpuMatrix();
        assertThat(m.matrix()).containsExactly(List.of("X", "NV1"), List.of("NV1", "X"));
        assertThat(m.pairs().getFirst()).isEqualTo(new GpuMatrix.Pair("GPU0", "GPU1", "SYS", 1, "direct", List.of("4.0"), "NV1", null));
        assertThat(m.links().getFirst().inactiveLinks()).containsExactly(1);
        assertThat(run.facts().findings()).anySatisfy(f -> assertThat(f.text())
                .startsWith("GPU0 has 1 of its 2 NVLinks down (link 1) while 1 are up: it has 50% of its NVLink bandwidth"));
    }

    @Test
    void theFakeOnNvSwitchesIsNv18() {
        FakeNvml.setSwitchLinks(FakeNvml.Variant.CURRENT, 0, 18);
        FakeNvml.setSwitchLinks(FakeNvml.Variant.CURRENT, 1, 18);
        MachineRun run = run(fakeBox(), NvmlReader.read(FakeNvml.library()));
        assertThat(run.gpuMatrix().pairs().getFirst()).isEqualTo(
                new GpuMatrix.Pair("GPU0", "GPU1", "SYS", 18, "NVSwitch", List.of("4.0"), "NV18", null));
        assertThat(run.facts().findings()).noneMatch(f -> f.subject().equals("GPU peers") || f.text().contains("NVLinks down"));
    }

    @Test
    void aMachineWithoutNvidiaDriverSaysWhyNvlinkIsUnknown() {
        MachineRun run = run(fakeBox(), NvmlReader.read("/nonexistent/libnvidia-ml.so.1"));
        assertThat(run.gpuMatrix().notes()).containsExactly("NVLink unknown: no NVIDIA driver (/nonexistent/libnvidia-ml.so.1 not found)");
        assertThat(run.gpuMatrix().matrix().getFirst()).containsExactly("X", "SYS");
    }
}
