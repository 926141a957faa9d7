package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import hostside.Fixtures;
import hostside.core.Json;
import hostside.harness.ProgressSink;
import hostside.testing.CliRun;
import hostside.testing.Hostile;

/**
 * One compromised node must not reach the administrator's terminal: a host, GPU or CPU name holding
 * escape sequences, read from a recording or a report, is shown as visible escapes by every
 * command that prints it (machine --root, compare, learn --from, the report's .md and .html, the
 * error lines that quote input) and escaped in every JSON output, which still reads back as written.
 */
class TerminalInjectionTest {
    @TempDir
    Path tmp;

    /** A hostside/2 report of the H200 whose machine, host, CPU and GPU names are {@link Hostile#NAME}. */
    Path hostileReport(String file) throws Exception {
        JsonNode r = Json.MAPPER.readTree(Path.of(LearnCommandTest.H200).toFile());
        plant(r);
        Path p = tmp.resolve(file);
        Files.writeString(p, Json.MAPPER.writeValueAsString(r));
        return p;
    }

    /** Every string that names the machine, its CPU or its GPU, anywhere in the report. */
    private static void plant(JsonNode n) {
        if (n instanceof ObjectNode o) {
            for (var e : o.properties()) {
                if (e.getValue() instanceof TextNode t && named(t.asText())) o.put(e.getKey(), t.asText() + Hostile.NAME);
                else plant(e.getValue());
            }
        } else if (n instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i) instanceof TextNode t && named(t.asText())) a.set(i, t.asText() + Hostile.NAME);
                else plant(a.get(i));
            }
        }
    }

    private static boolean named(String s) {
        return List.of("h200", "vm", "NVIDIA H200", "Intel(R) Xeon(R) Processor").contains(s) || s.startsWith("GPU0: NVIDIA H200");
    }

    /** The H200 recording unpacked, its CPU model and the driver's GPU model {@link Hostile#ONE_LINE} (both are read a line at a time). */
    Path hostileRecording() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("node"));
        Process tar = new ProcessBuilder("tar", "xzf", Fixtures.h200().toString(), "-C", root.toString()).inheritIO().start();
        assertThat(tar.waitFor()).isZero();
        for (String file : List.of("proc/cpuinfo", "proc/driver/nvidia/gpus/0000:00:06.0/information")) {
            Path p = root.resolve(file);
            Files.writeString(p, Files.readString(p).replace("Intel(R) Xeon(R) Processor", "CPU" + Hostile.ONE_LINE).replace("NVIDIA H200", "GPU" + Hostile.ONE_LINE));
        }
        return root;
    }

    @Test
    void machineOfARecordingShowsAnEscapeInTheCpuAndGpuModels() throws Exception {
        CliRun r = CliRun.of("machine", "--root", hostileRecording().toString());
        assertThat(r.code()).as(r.err()).isZero();
        Hostile.assertNothingHidden("machine --root", r.out());
        Hostile.assertNothingHidden("machine --root's stderr", r.err());
        assertThat(r.out()).contains("CPU" + Hostile.SHOWN).contains("GPU" + Hostile.SHOWN);
    }

    @Test
    void fleetsBatchScriptNamesARecordingsGpuOnItsOneCommentLine() throws Exception {
        CliRun r = CliRun.of("fleet", "--recipe", "slurm", "--root", hostileRecording().toString());
        assertThat(r.code()).as(r.err()).isZero();
        Hostile.assertNothingHidden("fleet --recipe slurm", r.out());
        assertThat(r.out()).contains("# Filled in by hostside fleet --recipe slurm on a machine with 1 GPU (GPU" + Hostile.SHOWN + ")");
    }

    @Test
    void compareShowsEscapesInMachineNamesClassesAndFileNames() throws Exception {
        Path fleet = Files.createDirectories(tmp.resolve("fleet"));
        Files.copy(hostileReport("a.json"), fleet.resolve("a.json"));
        Files.copy(Path.of(LearnCommandTest.H200), fleet.resolve("b.json"));
        // a first-schema report is named after its file: a file name from a node is as hostile as its contents
        Files.copy(Fixtures.testdata().resolve("reports/h200-hostside1.json"), fleet.resolve("n\u001b]0;pwned\u0007.json"));

        CliRun r = CliRun.of("compare", fleet.toString());
        assertThat(r.code()).as(r.err()).isZero();
        Hostile.assertNothingHidden("compare", r.out());
        Hostile.assertNothingHidden("compare's stderr", r.err());
        assertThat(r.out()).contains("h200" + Hostile.SHOWN).contains("n\\x1b]0;pwned\\x07").contains("1x NVIDIA H200" + Hostile.SHOWN);
    }

    @Test
    void compareJsonEscapesEveryHiddenCharacterAndReadsBackAsWritten() throws Exception {
        CliRun r = CliRun.of("compare", "--json", hostileReport("a.json").toString(), LearnCommandTest.H200);
        assertThat(r.code()).as(r.err()).isZero();
        Hostile.assertNothingHidden("compare --json", r.out());
        JsonNode n = Json.MAPPER.readTree(r.out());
        assertThat(n.path("machines").get(0).path("name").asText()).as("the data stays what the report said").isEqualTo("h200" + Hostile.NAME);
    }

    @Test
    void aReportsMarkdownHtmlAndJsonFromAHostileReport() throws Exception {
        Path out = Files.createDirectories(tmp.resolve("out"));
        CliRun r = CliRun.of("report", "--from", hostileReport("node.json").toString(), "--out", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        String md = Files.readString(out.resolve("node.md")), html = Files.readString(out.resolve("node.html")), json = Files.readString(out.resolve("node.json"));
        Hostile.assertNothingHidden("node.md", md);
        Hostile.assertNothingHidden("node.html", html);
        Hostile.assertNothingHidden("node.json", json);
        // Markdown escapes the escapes' backslashes and brackets; what it shows is the visible form
        assertThat(md).contains("EVIL\\\\x1b\\]52;c;SGVsbG8=\\\\x07\\\\x1b\\[2J\\\\u009b31m\\\\u202e\\\\x7f\\\\nhostside:");
        assertThat(html).contains(Hostile.SHOWN + "\\nhostside:");
        assertThat(Json.MAPPER.readTree(json).path("title").path("cpu").asText()).isEqualTo("Intel(R) Xeon(R) Processor" + Hostile.NAME);

        CliRun j = CliRun.of("report", "--from", hostileReport("node2.json").toString(), "--out", out.toString(), "--json");
        assertThat(j.code()).as(j.err()).isZero();
        Hostile.assertNothingHidden("report --json", j.out());
    }

    @Test
    void learnPlaysAStepperOfAHostileReportWithTheNamesShown() throws Exception {
        CliRun r = CliRun.of("learn", "h2d-copy", "--from", hostileReport("node.json").toString());
        assertThat(r.code()).as(r.err()).isZero();
        Hostile.assertNothingHidden("learn h2d-copy", r.out());
        assertThat(r.out()).contains("figures: h200" + Hostile.SHOWN);

        CliRun j = CliRun.of("learn", "h2d-copy", "--json", "--from", hostileReport("node.json").toString());
        assertThat(j.code()).as(j.err()).isZero();
        Hostile.assertNothingHidden("learn --json", j.out());
    }

    @Test
    void errorLinesShowEscapesInTheFileNamesAndValuesTheyQuote() throws Exception {
        String name = tmp.resolve("evil\u001b]52;c;SGVsbG8=\u0007\u001b[2J.json").toString();
        for (String[] args : new String[][] {{"report", "--from", name, "--out", tmp.toString()}, {"compare", name}, {"learn", "h2d-copy", "--from", name},
                {"machine", "--root", name}, {"machine", "--bogus\u001b[2J"}}) {
            CliRun r = CliRun.of(args);
            assertThat(r.code()).as(r.err()).isEqualTo(Main.BAD_INPUT);
            Hostile.assertNothingHidden(String.join(" ", args), r.err());
            assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
            assertThat(r.err()).contains("\\x1b");
        }
        // a value inside a report, quoted by the reader's complaint
        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, "{\"schema\": \"" + "hostside/9\\u001b[2J\\n" + Hostile.FORGED + "\", \"kind\": \"report\"}");
        CliRun r = CliRun.of("report", "--from", bad.toString(), "--out", tmp.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(Main.BAD_INPUT);
        Hostile.assertNothingHidden("a bad schema", r.err());
        assertThat(r.err()).contains("hostside/9\\x1b[2J\\n" + Hostile.FORGED);
    }

    @Test
    void progressShowsAnEscapeInWhatItNamesAndKeepsItsOwnLineControl() {
        StringWriter live = new StringWriter();
        try (Progress p = new Progress(live, true, System::nanoTime, 200)) {
            p.accept(new ProgressSink.Step("unpacking " + Hostile.NAME));
        }
        assertThat(live.toString()).startsWith("\r\u001b[K").contains(Hostile.SHOWN);
        Hostile.assertNothingHidden("the live line", live.toString().replace("\r\u001b[K", ""));

        StringWriter log = new StringWriter();
        try (Progress p = new Progress(log, false, System::nanoTime, 80)) {
            p.drill("machine" + Hostile.NAME, 1, 2);
        }
        Hostile.assertNothingHidden("progress lines", log.toString());
        assertThat(log.toString()).contains("machine" + Hostile.SHOWN);
    }
}
