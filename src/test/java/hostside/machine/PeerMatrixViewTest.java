package hostside.machine;

import static hostside.machine.NvlinkBoxes.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.Fixtures;
import hostside.core.Json;
import hostside.core.Stats;
import hostside.fs.FsRoot;
import hostside.gpu.bench.AllGpus;
import hostside.gpu.cuda.CudaFacts;
import hostside.gpu.peer.NotMeasured;
import hostside.gpu.peer.PeerCe;
import hostside.gpu.peer.PeerCopies;
import hostside.gpu.peer.PeerMatrix;
import hostside.harness.Result;
import hostside.report.ReportBuilder;
import hostside.report.ReportMarkdown;

/** The GPU-to-GPU measurements as a user reads them: nvbandwidth's matrices in the text view and the report. */
class PeerMatrixViewTest {
    final MachineFacts h200 = MachineReader.read(FsRoot.open(Fixtures.h200().toString()));

    static final List<String> TWO = GpuResults.TWO;

    MachineFacts box(List<PciDevice> pci) {
        return new MachineFacts(h200.schema(), h200.host(), nodes(1), pci, Affinity.of(pci, nodes(1)), h200.iommu(),
                h200.kernelCmdline(), List.of(), List.of());
    }

    static CudaFacts cuda(List<String> addresses) {
        List<CudaFacts.CudaGpu> gpus = new ArrayList<>();
        for (int i = 0; i < addresses.size(); i++) {
            gpus.add(new CudaFacts.CudaGpu(i, "NVIDIA GeForce RTX 3090", "GPU-" + i, addresses.get(i), 82, 25769803776L, "8.6", "none", List.of()));
        }
        return new CudaFacts("13.0", gpus);
    }

    static PeerMatrix matrix(List<String> addresses, String rows, String columns, Double[]... values) {
        return GpuResults.matrix(addresses, rows, columns, values);
    }

    static List<Result> twoGpuResults() {
        return GpuResults.twoGpus();
    }

    MachineRun twoGpus() {
        return new MachineRun(box(twoBridgedPci()), new GpuDrill.GpuSection("", cuda(TWO), null, List.of(), twoGpuResults(), List.of()));
    }

    @Test
    void theTextPrintsEachMatrixAsNvbandwidthDoes() {
        String text = MachineDocumentTest.text(twoGpus());
        assertThat(text)
                .contains("    device_to_device_memcpy_read_ce (GB/s)\n")
                .contains("             GPU0   GPU1\n"
                        + "      GPU0    N/A  48.31\n"
                        + "      GPU1  47.92    N/A\n"
                        + "      SUM device_to_device_memcpy_read_ce 96.23\n")
                .contains("    device_to_device_latency_sm (ns)\n")
                .contains("            GPU0  GPU1\n"
                        + "      GPU0   N/A  1322\n"
                        + "      GPU1  1318   N/A\n");
        assertThat(text.replaceAll("\\s+", " "))
                .contains("Row: the GPU that issues the copy in its context and receives the data (it reads); column: the GPU read from.")
                .contains("Row: the GPU whose thread loads; column: the GPU whose memory holds the chain.");
        // latency has no SUM: adding nanoseconds of different pairs means nothing
        assertThat(text).doesNotContain("SUM device_to_device_latency_sm");
    }

    @Test
    void bidirectionalShowsTheTotalAndPointsToTheDirections() {
        String text = MachineDocumentTest.text(twoGpus());
        assertThat(text)
                .contains("    device_to_device_bidirectional_memcpy_write_ce (GB/s)\n")
                .contains("      GPU0    N/A  96.42\n"
                        + "      GPU1  96.15    N/A\n"
                        + "      SUM device_to_device_bidirectional_memcpy_write_ce 193\n"
                        + "      One direction at a time (write1, write2): in the JSON.\n")
                .doesNotContain("48.07");
    }

    @Test
    void hostToAllShowsEachGpu() {
        String text = MachineDocumentTest.text(twoGpus());
        assertThat(text).contains("    host_to_all_memcpy_ce, each GPU while all copy (GB/s)\n"
                + "      GPU   median    min    max  n\n"
                + "      GPU0   12.31  12.20  12.40  3\n"
                + "      GPU1   11.87  11.80  11.90  3\n");
    }

    @Test
    void failedAndNotRunCasesKeepTheirSummaryLineAndNoMatrix() {
        String text = MachineDocumentTest.text(twoGpus());
        assertThat(text).contains("    device_to_device_memcpy_staged_ce: failed: cuMemcpyAsync: CUDA_ERROR_OUT_OF_MEMORY (2)\n")
                .doesNotContain("device_to_device_memcpy_staged_ce (");

        List<Result> oneGpu = new ArrayList<>(List.of(GpuResults.allGpus(true,
                List.of(new AllGpus.PerGpu("NVIDIA H200", "0000:00:06.0", new Stats(55.3, 55.1, 55.5, 3))))));
        oneGpu.add(Result.notRun(new PeerCe.Unidirectional(true), "one GPU in this machine"));
        MachineRun run = new MachineRun(h200, new GpuDrill.GpuSection("", cuda(List.of("0000:00:06.0")), null, List.of(), oneGpu, List.of()));
        String one = MachineDocumentTest.text(run);
        assertThat(one).contains("    device_to_device_memcpy_read_ce: not run: one GPU in this machine\n")
                .containsPattern("host_to_all_memcpy_ce +55.30 +55.10 +55.50 +GB/s +3\n")
                .as("one GPU's figure is the sum: no table of one row").doesNotContain("each GPU while all copy")
                .doesNotContain("SUM ").doesNotContain("N/A");
    }

    @Test
    void gpusOutsideThePcieTreeGoByCudaOrdinalAndLeftOutPairsByLabel() throws Exception {
        List<String> three = List.of(TWO.get(0), TWO.get(1), "0000:c1:00.0");
        PeerMatrix m = matrix(three, "the GPU that issues the copy", "the GPU written to",
                new Double[] {null, 48.5, 20.1}, new Double[] {48.4, null, null}, new Double[] {20.2, null, null});
        Result r = GpuResults.oneWay(new PeerCe.Unidirectional(false), m,
                List.of(new NotMeasured(1, 2, "cuDeviceCanAccessPeer is 0"), new NotMeasured(2, 1, "cuDeviceCanAccessPeer is 0")));
        MachineRun run = new MachineRun(box(twoBridgedPci()), new GpuDrill.GpuSection("", cuda(three), null, List.of(), List.of(r), List.of()));
        String text = MachineDocumentTest.text(run);
        assertThat(text).contains("              GPU0   GPU1  cuda2\n")
                .contains("      cuda2  20.20    N/A    N/A\n");
        assertThat(text.replaceAll("\\s+", " "))
                .contains("Not measured: GPU1 to cuda2: cuDeviceCanAccessPeer is 0; cuda2 to GPU1: cuDeviceCanAccessPeer is 0.");

        var report = ReportBuilder.build(run, java.time.ZonedDateTime.parse("2026-12-02T12:00:00Z"));
        String md = ReportMarkdown.render(Json.MAPPER.readTree(Json.write(report)));
        assertThat(md).contains("|  | GPU0 | GPU1 | cuda2 |\n").contains("| cuda2 | 20.20 | N/A | N/A |\n")
                .contains("_Not measured: GPU1 to cuda2: cuDeviceCanAccessPeer is 0; cuda2 to GPU1: cuDeviceCanAccessPeer is 0._\n");
    }

    @Test
    void theJsonCarriesTheMatrixAsTheReportReadsIt() {
        JsonNode m = twoGpus().json().path("gpu").path("allGpus").get(1).path("detail").path("matrix");
        List<String> fields = new ArrayList<>();
        m.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("gpus", "addresses", "rows", "columns", "values", "min", "max");
        assertThat(m.path("values").toString()).isEqualTo("[[null,48.31],[47.92,null]]");
    }

    @Test
    void theReportHasTheMatricesAndThePerGpuTable() throws Exception {
        var report = ReportBuilder.build(twoGpus(), java.time.ZonedDateTime.parse("2026-12-02T12:00:00Z"));
        String md = ReportMarkdown.render(Json.MAPPER.readTree(Json.write(report)));
        assertThat(md)
                .contains("##### device\\_to\\_device\\_memcpy\\_read\\_ce (GB/s)\n\n"
                        + "Row: the GPU that issues the copy in its context and receives the data (it reads); column: the GPU read from.\n\n"
                        + "|  | GPU0 | GPU1 |\n| --- | ---: | ---: |\n| GPU0 | N/A | 48.31 |\n| GPU1 | 47.92 | N/A |\n\n"
                        + "SUM `device_to_device_memcpy_read_ce` **96.23**\n")
                .contains("| GPU0 | N/A | 96.42 |\n| GPU1 | 96.15 | N/A |\n\nSUM `device_to_device_bidirectional_memcpy_write_ce` **193**\n\n"
                        + "_One direction at a time (write1, write2): in the JSON._\n")
                .contains("| GPU0 | N/A | 1322 |\n| GPU1 | 1318 | N/A |\n")
                .contains("##### host\\_to\\_all\\_memcpy\\_ce, each GPU while all copy (GB/s)\n\n| GPU | median | min | max | n |\n| --- | ---: | ---: | ---: | ---: |\n"
                        + "| GPU0 | 12.31 | 12.20 | 12.40 | 3 |\n| GPU1 | 11.87 | 11.80 | 11.90 | 3 |\n")
                .contains("\n_`device_to_device_memcpy_staged_ce`: failed: cuMemcpyAsync: CUDA\\_ERROR\\_OUT\\_OF\\_MEMORY (2)_\n")
                .doesNotContain("| `device_to_device_memcpy_staged_ce` |")
                .doesNotContain("SUM `device_to_device_latency_sm`");
        // the Fabric answer carries what peer traffic got, besides what the wiring says
        assertThat(report.questions()).filteredOn(a -> a.axis().equals("Fabric")).singleElement()
                .satisfies(a -> assertThat(a.answer()).isEqualTo("2 GPUs; GPU to GPU: PHB between all 1 pair; NVLink unknown, so these are the PCIe paths;"
                        + " peer copies 48.12 GB/s (47.92 to 48.31 over 2 ordered pairs); one load across 1320 ns (1318 to 1322 over 2 ordered pairs)"));
    }

    @Test
    void longListsOfKeysWrapAfterACommaWithinTheWidth() {
        // one GPU: the eight peer cases share one reason, their keys listed in one note
        List<Result> oneGpu = new ArrayList<>(List.of(GpuResults.allGpus(true,
                List.of(new AllGpus.PerGpu("NVIDIA H200", "0000:00:06.0", new Stats(55.3, 55.1, 55.5, 3))))));
        for (var t : PeerCopies.all()) oneGpu.add(Result.notRun(t, "one GPU in this machine"));
        String text = MachineDocumentTest.text(new MachineRun(h200, new GpuDrill.GpuSection("", cuda(List.of("0000:00:06.0")), null, List.of(), oneGpu, List.of())));
        List<String> lines = text.lines().filter(l -> l.contains("device_to_device_")).toList();
        assertThat(lines).as("the keys take several lines").hasSizeGreaterThan(2);
        assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(100));
        assertThat(lines.subList(0, lines.size() - 1)).as("a key is never split: every line but the last ends after a comma").allSatisfy(l -> assertThat(l).endsWith(","));
        assertThat(lines.getLast()).endsWith("device_to_device_memcpy_staged_ce: not run: one GPU in this machine");
    }
}
