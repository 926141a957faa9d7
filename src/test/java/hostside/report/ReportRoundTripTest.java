package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.Fixtures;
import hostside.core.BadInputException;
import hostside.core.Json;
import hostside.doc.Document;
import hostside.doc.HtmlRenderer;
import hostside.doc.MarkdownRenderer;
import hostside.machine.MachineRun;

/**
 * A report read back is the same report (issue 16): its JSON into the records and out again gives
 * the same document, a report of the first schema still draws, and one this version cannot read
 * says so in a line.
 */
class ReportRoundTripTest {
    @TempDir
    Path tmp;

    JsonNode recorded() throws Exception {
        ReportOutputTest.Result r = ReportOutputTest.run("report", "--root", Fixtures.h200().toString(), "--out", tmp.toString(), "--name", "h200",
                "--json");
        assertThat(r.code()).as(r.err()).isZero();
        return Json.MAPPER.readTree(r.out());
    }

    @Test
    void jsonToRecordsToJsonIsTheSameDocument() throws Exception {
        JsonNode json = recorded();
        Report r = ReportReader.read(json, "test");
        JsonNode again = Json.MAPPER.readTree(Json.write(r)); // as text, then parsed: what a reader of the file gets
        assertThat(hostside.JsonDiff.first(json, again)).as("the first difference").isEmpty();
        assertThat(r.modules()).extracting(Report.Section::status).startsWith(Report.SectionStatus.RUN);
        assertThat(r.modules().getFirst().data()).isInstanceOf(MachineRun.class);
        assertThat(r.modules().get(3).data()).isInstanceOf(Report.Storage.class);
    }

    @Test
    void theReportCarriesTheContractsObjects() throws Exception {
        JsonNode json = recorded();
        assertThat(json.path("schema").asText()).isEqualTo("hostside/2");
        assertThat(json.path("class").path("hostLink").asText()).isEqualTo("pcie-gen5-x16");
        assertThat(json.path("class").path("gpuCount").asInt()).isEqualTo(1);
        assertThat(json.path("software").path("kernel").asText()).isEqualTo("6.18.44-fc-v973-gpu");
        assertThat(json.has("confounders")).isTrue();
        assertThat(json.path("figures").isArray()).as("a recording measures nothing, so the list is empty, not missing").isTrue();
    }

    @Test
    void theFirstSchemasH200ReportDrawsFromTheRecords() throws Exception {
        JsonNode v1 = Json.MAPPER.readTree(Fixtures.testdata().resolve("reports/h200-hostside1.json").toFile());
        Report r = ReportReader.read(v1, "h200-hostside1.json");
        assertThat(r.schema()).isEqualTo("hostside/1");
        Document page = ReportDocument.of(r);
        String md = new MarkdownRenderer().render(page), html = new HtmlRenderer().render(page);
        for (String s : new String[] {md, html}) {
            assertThat(s).contains("How much CPU feeds each GPU?").contains("55.2").contains("NVIDIA H200");
        }
        // the typed figures of a first-schema report are derived again from its results
        assertThat(r.figures()).anySatisfy(f -> {
            assertThat(f.key()).isEqualTo("host_to_device_ce_pinned");
            assertThat(f.scope().toString()).isEqualTo("gpu:0000:00:06.0");
        });
    }

    /**
     * The first schema's report and the same report written again from its records draw the same
     * page: the old detail shapes (the TLB points, the jitter's p99.9 maps, the fio jobs in details)
     * read into today's records.
     */
    @Test
    void bothSchemasDrawTheSamePage() throws Exception {
        JsonNode v1 = Json.MAPPER.readTree(Fixtures.testdata().resolve("reports/h200-hostside1.json").toFile());
        JsonNode again = Json.MAPPER.valueToTree(ReportReader.read(v1, "v1"));
        assertThat(again.path("modules").get(1).path("data").path("host").toString()).as("the TLB curve in today's shape").contains("\"sweep\"");
        String before = ReportMarkdown.render(v1), after = ReportMarkdown.render(again);
        assertThat(after).isEqualTo(before);
        assertThat(before).contains("launch_jitter_noisy", "tlb_reach_base", "seq_read_cold_qd1", "host_to_device_ce_pinned", "anon_first_touch_base")
                .contains("fio --rw=read --bs=1M");
    }

    @Test
    void aSchemaThisVersionDoesNotKnowIsOneLine() throws Exception {
        ObjectNode json = (ObjectNode) recorded();
        json.put("schema", "hostside/9");
        assertThatThrownBy(() -> ReportReader.read(json, "x.json")).isInstanceOf(BadInputException.class)
                .hasMessage("x.json: a report of schema \"hostside/9\"; this hostside reads hostside/1 and hostside/2");
        Path f = tmp.resolve("x.json");
        Files.writeString(f, Json.write(json));
        ReportOutputTest.oneLineError(ReportOutputTest.run("report", "--from", f.toString(), "--out", tmp.resolve("o").toString()), "hostside/9");
    }

    @Test
    void fromWritesTheThreeFiles() throws Exception {
        Path v1 = tmp.resolve("h200.json");
        Files.copy(Fixtures.testdata().resolve("reports/h200-hostside1.json"), v1);
        Path out = tmp.resolve("out");
        ReportOutputTest.Result r = ReportOutputTest.run("report", "--from", v1.toString(), "--out", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Files.readString(out.resolve("h200.html"))).startsWith("<!DOCTYPE html>").contains("NVIDIA H200");
        assertThat(Files.readString(out.resolve("h200.md"))).startsWith("# hostside report: vm");
        assertThat(Json.MAPPER.readTree(out.resolve("h200.json").toFile())).isEqualTo(Json.MAPPER.readTree(v1.toFile()));
    }
}
