package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.Fixtures;
import hostside.core.Json;
import hostside.doc.MarkdownRenderer;
import hostside.process.MachineLoad;

/**
 * The load before each drill in the report: beside the contract's four confounders, in the
 * conditions section, and at the top of the section of a drill that began on a busy machine.
 */
class DrillLoadsTest {
    static final MachineLoad BUSY = new MachineLoad(201, 2, 1.02, 0.1, 0.0, 35.0, 60.0, 4, 3.1, 0.25, true, null);
    static final MachineLoad QUIET = new MachineLoad(200, 2, 0.02, 0.1, 0.0, 0.5, 0.2, 1, 0.1, 0.25, false, null);

    @TempDir
    Path tmp;

    /** The H200 recording's report, with the loads a live run would have read. */
    Report withLoads(List<Fleet.DrillLoad> loads) throws Exception {
        ReportOutputTest.Result r = ReportOutputTest.run("report", "--root", Fixtures.h200().toString(), "--out", tmp.toString(), "--name", "h200", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        Report read = ReportReader.read(Json.MAPPER.readTree(r.out()), "test");
        Fleet.Confounders c = read.confounders();
        return new Report(read.schema(), read.kind(), read.machine(), read.hardwareClass(), read.software(),
                new Fleet.Confounders(c.clocksLocked(), c.numaBalancing(), c.thp(), c.loadAtStart(), loads), read.title(), read.questions(),
                read.headlines(), read.figures(), read.modules());
    }

    @Test
    void aRecordingsReportKeepsTheFourKeysAndAnEmptyListOfLoads() throws Exception {
        ReportOutputTest.Result r = ReportOutputTest.run("report", "--root", Fixtures.h200().toString(), "--out", tmp.toString(), "--name", "h200", "--json");
        JsonNode c = Json.MAPPER.readTree(r.out()).path("confounders");
        assertThat(c.has("clocksLocked")).isTrue();
        assertThat(c.has("numaBalancing")).isTrue();
        assertThat(c.has("thp")).isTrue();
        assertThat(c.has("loadAtStart")).isTrue();
        assertThat(c.path("drillLoads").isArray()).isTrue();
        assertThat(c.path("drillLoads")).as("nothing measured on a recording").isEmpty();
        String md = new MarkdownRenderer().render(ReportDocument.of(ReportReader.read(Json.MAPPER.readTree(r.out()), "test")));
        assertThat(md).contains("load before each drill").contains("not read: a recording, nothing measured").doesNotContain("busy:");
    }

    @Test
    void theLoadsReadBackTyped() throws Exception {
        Report r = withLoads(List.of(new Fleet.DrillLoad("machine", QUIET), new Fleet.DrillLoad("vm", BUSY)));
        JsonNode json = Json.MAPPER.readTree(Json.write(r));
        JsonNode vm = json.path("confounders").path("drillLoads").get(1);
        assertThat(vm.path("drill").asText()).isEqualTo("vm");
        assertThat(vm.path("load").path("othersCpus").asDouble()).isEqualTo(1.02);
        assertThat(ReportReader.read(json, "again").confounders()).isEqualTo(r.confounders());
    }

    @Test
    void theConditionsSayWhichDrillsBeganBusyAndEachLoad() throws Exception {
        Report r = withLoads(List.of(new Fleet.DrillLoad("machine", QUIET), new Fleet.DrillLoad("vm", BUSY),
                new Fleet.DrillLoad("cpu", BUSY), new Fleet.DrillLoad("io", QUIET)));
        assertThat(r.confounders().busyDrills()).containsExactly("vm", "cpu");
        String md = new MarkdownRenderer().render(ReportDocument.of(r));
        assertThat(md).contains("yes, as the vm, cpu drills began: their figures may be slower and noisier than this machine's best")
                .contains(QUIET.summary()).contains(BUSY.summary());
        assertThat(QUIET.summary()).startsWith("quiet: ");
        assertThat(BUSY.summary()).startsWith("busy: ");
    }

    @Test
    void aBusyDrillsSectionSaysSoAtItsTopAndAQuietOnesDoesNot() throws Exception {
        Report r = withLoads(List.of(new Fleet.DrillLoad("machine", QUIET), new Fleet.DrillLoad("vm", QUIET),
                new Fleet.DrillLoad("cpu", QUIET), new Fleet.DrillLoad("io", BUSY)));
        for (Report.Section s : r.modules()) {
            boolean busy = ReportDocument.busyBefore(s, r.confounders()).isPresent();
            assertThat(busy).as(s.command()).isEqualTo(s.module() == 4);
        }
        String md = new MarkdownRenderer().render(ReportDocument.of(r));
        assertThat(md).contains("yes, as the io drill began: its figures")
                .contains("busy: " + BUSY.busyLine("io") + ".");
        Report quiet = withLoads(List.of(new Fleet.DrillLoad("vm", QUIET)));
        assertThat(new MarkdownRenderer().render(ReportDocument.of(quiet))).contains("no: every drill began on a quiet machine")
                .doesNotContain("busy: the machine");
    }

    @Test
    void aReportWrittenBeforeTheLoadsSaysNothingOfThem() throws Exception {
        Report r = withLoads(null);
        assertThat(r.confounders().busyDrills()).isEmpty();
        assertThat(new MarkdownRenderer().render(ReportDocument.of(r))).doesNotContain("load before").doesNotContain("busy while measuring");
    }
}
