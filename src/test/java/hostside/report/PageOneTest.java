package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.Json;
import hostside.doc.MarkdownRenderer;

/**
 * Page one (everything before the machine's class and conditions) fits 60 lines of Markdown on
 * every machine the tests have: the H200's real report, the dev VM's, and the rack recordings,
 * the GH200 of CDMM defaults with five things to fix among them.
 */
class PageOneTest {
    @TempDir
    Path tmp;

    static int pageOne(String md) {
        int end = md.indexOf("## The machine's class and the run's conditions");
        assertThat(end).as("page one ends where the class and conditions begin").isPositive();
        return (int) md.substring(0, end).lines().count();
    }

    static String render(Path json) throws Exception {
        return new MarkdownRenderer().render(ReportDocument.of(ReportReader.read(Json.MAPPER.readTree(json.toFile()), json.toString())));
    }

    @Test
    void realReportsFit() throws Exception {
        for (String f : List.of("h200-hostside2.json", "devvm-hostside2.json")) {
            String md = render(Path.of("testdata/reports", f));
            assertThat(pageOne(md)).as(f).isLessThanOrEqualTo(ReportDocument.PAGE_ONE);
            assertThat(md.substring(0, md.indexOf("## The machine's class"))).as(f).contains("## The four questions").contains("## What to fix here")
                    .contains("## Headline numbers").contains("(evidence: ");
        }
        String h200 = render(Path.of("testdata/reports/h200-hostside2.json"));
        assertThat(h200).contains("## Among the reference platforms").contains("## Offload math").contains("more in the modules and under \"Every figure\"");
    }

    @Test
    void recordedRackMachinesFit() throws Exception {
        for (String m : List.of("gh200-numa", "gh200-cdmm", "gb200-tray", "dgx-spark", "hgx-h100")) {
            RackReports.write(tmp, m);
            String md = Files.readString(tmp.resolve(m + ".md"));
            assertThat(pageOne(md)).as(m).isLessThanOrEqualTo(ReportDocument.PAGE_ONE);
        }
    }
}
