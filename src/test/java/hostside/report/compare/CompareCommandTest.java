package hostside.report.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Json;
import hostside.fs.SpecialFiles;
import hostside.testing.CliRun;

/** hostside compare as users run it: files or a folder, side by side or as a fleet, --json, --strict, and bad input. */
class CompareCommandTest {
    @TempDir
    Path dir;

    Path write(String file, Comparison.Input in) throws IOException {
        Path p = dir.resolve(file);
        Files.writeString(p, Json.write(Json.MAPPER.valueToTree(ComparisonTest.report(in.report()))));
        return p;
    }

    /** An H200's report of one figure, host-to-device at {@code gbs}, in {@code file}. */
    Path h2d(String file, String machine, double gbs) throws IOException {
        return write(file, ComparisonTest.machine(machine, ComparisonTest.H200, "580.95", ComparisonTest.gbs("host_to_device_ce_pinned", gbs)));
    }

    @Test
    void twoReportsSideBySideWithTheDifferenceToTheBaseline() throws IOException {
        Path a = h2d("a.json", "a", 55.0);
        Path b = h2d("b.json", "b", 44.0);
        CliRun r = CliRun.of("compare", a.toString(), b.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("Fleet: 2 machines, 1 class").containsPattern("host_to_device_ce_pinned +machine +GB/s +55.00 +44.00 \\(-20%\\)")
                .contains("a (baseline)").contains("host_to_device_ce_pinned (machine): a 55.00, b 44.00: -20.0%");
        CliRun base = CliRun.of("compare", "--baseline", "b", a.toString(), b.toString());
        assertThat(base.out()).contains("b (baseline)").containsPattern("55.00 \\(\\+25%\\) +44.00");
    }

    @Test
    void twoReportsOfOneMachineKeepBothAndShowTheNoiseFloor() throws IOException {
        Path a = h2d("run1.json", "h200", 55.0);
        Path b = h2d("run2.json", "h200", 55.1);
        CliRun r = CliRun.of("compare", a.toString(), b.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("h200 (baseline)").contains("h200 (run2.json)").contains("within spread");
    }

    @Test
    void aFolderOfFortyFindsItsStragglerAndStrictFailsTheJob() throws IOException {
        List<Comparison.Input> fleet = new java.util.ArrayList<>(ComparisonTest.fleet(40));
        fleet.set(9, ComparisonTest.machine("node9", ComparisonTest.H200, "580.95", ComparisonTest.gbs("host_to_device_ce_pinned", 40.0),
                ComparisonTest.us("kernel_launch_cost", 3.0)));
        for (Comparison.Input in : fleet) write(in.name() + ".json", in);
        Files.writeString(dir.resolve("job.json"), "{\"kind\": \"machine\"}"); // not a report: passed over, said on stderr
        CliRun r = CliRun.of("compare", dir.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("passed over").contains("job.json");
        assertThat(r.out()).contains("Fleet: 40 machines, 1 class; class 1 (40 machines): 1 outlier machine")
                .containsPattern("host_to_device_ce_pinned +machine +GB/s +40 +55.00") // n and median, the statistics of a fleet
                .containsPattern("node9 +host_to_device_ce_pinned +machine +40.00 +55.00 +27.3% worse");
        assertThat(CliRun.of("compare", "--strict", dir.toString()).code()).isEqualTo(1);

        CliRun j = CliRun.of("compare", "--json", dir.toString());
        assertThat(j.code()).isZero();
        JsonNode n = Json.MAPPER.readTree(j.out());
        assertThat(n.path("kind").asText()).isEqualTo("compare");
        JsonNode o = n.path("outliers").get(0);
        assertThat(o.path("machine").asText()).isEqualTo("node9");
        assertThat(o.path("key").asText()).isEqualTo("host_to_device_ce_pinned");
        assertThat(o.path("scope").asText()).isEqualTo("machine");
        assertThat(o.path("value").asDouble()).isEqualTo(40.0);
        assertThat(o.path("median").asDouble()).isEqualTo(55.0);
        assertThat(o.path("deviation").asDouble()).isBetween(0.27, 0.28);
        assertThat(o.has("cause")).isTrue();
        assertThat(n.path("ranked").get(0).asText()).isEqualTo("node9");
    }

    @Test
    void aLinkToAFolderGivenAloneIsSaidToBeOneNotAFolderAmongOthers() throws IOException {
        Path fleet = Files.createDirectory(dir.resolve("fleet"));
        h2d("fleet/a.json", "a", 55.0);
        Path link = Files.createSymbolicLink(dir.resolve("latest"), fleet);
        CliRun r = CliRun.of("compare", link.toString());
        r.assertOneLineError("hostside: " + link + ": a symbolic link to a folder, which compare does not follow; give the folder itself (" + fleet.toRealPath() + ")");
        assertThat(r.err()).doesNotContain("other paths");
        assertThat(CliRun.of("compare", fleet.toString()).code()).as("the folder itself").isZero();
    }

    /** In a folder, what is named .json but is no regular file is passed over and said, not skipped in silence: the count must add up. */
    @Test
    void aFolderSaysWhatItPassedOverThatIsNoRegularFile() throws Exception {
        h2d("a.json", "a", 55.0);
        h2d("b.json", "b", 44.0);
        SpecialFiles.fifo(dir.resolve("fifo.json"));
        Files.createSymbolicLink(dir.resolve("link.json"), dir.resolve("a.json"));
        Files.createDirectory(dir.resolve("folder.json"));
        CliRun r = CliRun.of("compare", dir.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err().lines().toList()).containsExactly(
                "hostside: passed over " + dir.resolve("fifo.json") + ": not a regular file (a FIFO, socket or device is never opened)",
                "hostside: passed over " + dir.resolve("folder.json") + ": a folder",
                "hostside: passed over " + dir.resolve("link.json") + ": a symbolic link, not followed");
        assertThat(r.out()).contains("Fleet: 2 machines");
    }

    @Test
    void badInputIsOneLineAndExitTwo() throws IOException {
        CliRun missing = CliRun.of("compare", dir.resolve("nope.json").toString());
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err().strip().lines()).hasSize(1);
        assertThat(missing.err()).doesNotContain("Exception").contains("no such file");

        Path notReport = dir.resolve("x.json");
        Files.writeString(notReport, "{\"kind\": \"machine\"}");
        assertThat(CliRun.of("compare", notReport.toString()).code()).as("a file named on the command line must be a report").isEqualTo(2);

        Path empty = Files.createDirectory(dir.resolve("empty"));
        CliRun none = CliRun.of("compare", empty.toString());
        assertThat(none.code()).isEqualTo(2);
        assertThat(none.err()).contains("no .json file");

        Path a = h2d("a.json", "a", 55.0);
        CliRun base = CliRun.of("compare", "--baseline", "zz", a.toString());
        assertThat(base.code()).isEqualTo(2);
        assertThat(base.err()).contains("--baseline").contains("zz");
    }
}
