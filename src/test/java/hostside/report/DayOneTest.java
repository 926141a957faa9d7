package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.Json;
import hostside.rack.RackVerdict;

/** The day-one checklist closing the report: ten lines, each one verdict from what the modules judged. */
class DayOneTest {
    @TempDir
    Path tmp;

    Report report(String machine) throws Exception {
        RackReports.write(tmp, machine);
        return ReportReader.read(Json.MAPPER.readTree(tmp.resolve(machine + ".json").toFile()), machine);
    }

    @Test
    void tenLinesEachOneVerdictAndARecordingNeverReadsOkWhereItCouldNotLook() throws Exception {
        List<DayOne.Line> lines = DayOne.of(report("gh200-cdmm"));
        assertThat(lines).hasSize(10).extracting(DayOne.Line::n).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        assertThat(lines.get(2).verdict()).as("host link: copies and C2C not run on a recording").isEqualTo(RackVerdict.NOT_RUN);
        assertThat(lines.get(4).verdict()).as("schedutil on Grace").isEqualTo(RackVerdict.WARN);
        assertThat(lines.get(4).detail()).contains("governor schedutil");
        assertThat(lines.get(5).verdict()).as("memory bandwidth is a live measurement").isEqualTo(RackVerdict.NOT_RUN);
        assertThat(lines.get(8).verdict()).isEqualTo(RackVerdict.UNKNOWN);
    }

    @Test
    void itClosesTheReport() throws Exception {
        report("hgx-h100");
        String md = Files.readString(tmp.resolve("hgx-h100.md"));
        assertThat(md.strip()).contains("## Day one");
        assertThat(md.substring(md.indexOf("## Day one"))).doesNotContain("\n## ").contains("| 2 | NVLink fabric | **not run** |")
                .contains("fabric manager 4 NVSwitches; unit enabled");
    }
}
