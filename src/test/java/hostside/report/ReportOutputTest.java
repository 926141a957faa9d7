package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.Fixtures;
import hostside.core.Json;
import hostside.cli.Main;

/** Where a report lands: checked first, written whole, never through a planted link, refused when damaged. */
class ReportOutputTest {
    @TempDir
    Path tmp;

    final String h200 = Fixtures.h200().toString();

    record Result(int code, String out, String err) {}

    static Result run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    static void oneLineError(Result r, String says) {
        assertThat(r.code()).as(r.err()).isEqualTo(Main.BAD_INPUT);
        assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
        assertThat(r.err()).contains(says).doesNotContain("Exception").doesNotContain("\tat ");
    }

    private List<String> names(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void fourReportsIntoOneFolderAtOnceAllSucceedAndLeaveWholeFiles() throws Exception {
        // Separate processes, as four shells or four Slurm steps on shared storage would be.
        String java = ProcessHandle.current().info().command().orElse("java");
        List<Process> runs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            runs.add(new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    "hostside.cli.Main", "report", "--root", h200, "--out", tmp.toString(), "--name", "h200")
                    .redirectErrorStream(true).redirectOutput(tmp.resolveSibling(tmp.getFileName() + "-run" + i + ".log").toFile()).start());
        }
        for (int i = 0; i < runs.size(); i++) {
            Process p = runs.get(i);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("run " + i + " finished").isTrue();
            assertThat(p.exitValue()).as(Files.readString(tmp.resolveSibling(tmp.getFileName() + "-run" + i + ".log"))).isZero();
        }
        assertThat(names(tmp)).containsExactly("h200.html", "h200.json", "h200.md");
        var json = Json.MAPPER.readerFor(com.fasterxml.jackson.databind.JsonNode.class)
                .with(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readValue(tmp.resolve("h200.json").toFile());
        assertThat(((com.fasterxml.jackson.databind.JsonNode) json).path("kind").asText()).isEqualTo("report");
        assertThat(Files.readString(tmp.resolve("h200.md"))).startsWith("# ").contains("## Module 6");
        assertThat(run("report", "--from", tmp.resolve("h200.json").toString(), "--out", tmp.resolve("again").toString()).code()).isZero();
    }

    @Test
    void plantedSymlinksAreNeverWrittenThrough() throws IOException {
        Path victim = Files.writeString(tmp.resolve("victim"), "precious");
        Path out = Files.createDirectory(tmp.resolve("out"));
        Files.createSymbolicLink(out.resolve("h200.json.part"), victim);
        Files.createSymbolicLink(out.resolve("h200.md.part"), victim);
        Files.createSymbolicLink(out.resolve("h200.json"), victim);
        // a link at the report's own name is someone's: refused, neither written through nor replaced
        assertThat(run("report", "--root", h200, "--out", out.toString(), "--name", "h200").code()).isEqualTo(2);
        assertThat(Files.readString(victim)).isEqualTo("precious");
        assertThat(Files.readSymbolicLink(out.resolve("h200.json"))).isEqualTo(victim);
        Files.delete(out.resolve("h200.json"));
        assertThat(run("report", "--root", h200, "--out", out.toString(), "--name", "h200").code()).isZero();
        assertThat(Files.readString(victim)).isEqualTo("precious");
        assertThat(Files.readString(out.resolve("h200.json"))).contains("\"kind\"");

        Path box = tmp.resolve("box.tar.gz");
        Files.createSymbolicLink(tmp.resolve("box.tar.gz.part"), victim);
        assertThat(run("snapshot", "-o", box.toString(), "--root", h200).code()).isZero();
        assertThat(Files.readString(victim)).isEqualTo("precious");
    }

    @Test
    void aReportWithDataAfterItsJsonIsRefused() throws Exception {
        assertThat(run("report", "--root", h200, "--out", tmp.toString(), "--name", "h200").code()).isZero();
        Path json = tmp.resolve("h200.json");
        Path damaged = Files.writeString(tmp.resolve("damaged.json"), Files.readString(json) + "\"tail of another run\": 1}\n");
        oneLineError(run("report", "--from", damaged.toString(), "--out", tmp.resolve("again").toString()), "data after the end of its JSON document");
        Path twice = Files.writeString(tmp.resolve("twice.json"), Files.readString(json) + Files.readString(json));
        oneLineError(run("report", "--from", twice.toString(), "--out", tmp.resolve("again").toString()), "data after the end");
        assertThat(Files.exists(tmp.resolve("again/damaged.md"))).isFalse();
        // a FIFO is never opened (it would block for ever), a huge file never read
        Path fifo = tmp.resolve("fifo.json");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
                () -> oneLineError(run("report", "--from", fifo.toString(), "--out", tmp.resolve("again").toString()), "not a regular file"));
        Path huge = tmp.resolve("huge.json");
        try (var f = new java.io.RandomAccessFile(huge.toFile(), "rw")) {
            f.setLength(1L << 30); // sparse: no disk used
        }
        oneLineError(run("report", "--from", huge.toString(), "--out", tmp.resolve("again").toString()), "1073741824 bytes");
    }

    @Test
    void theOutputFolderIsCheckedBeforeTheMachineIsEvenRead() throws IOException {
        // A bad --out and a bad --root: the --out is named, so it was checked first.
        oneLineError(run("report", "--root", tmp.resolve("missing").toString(), "--out", "/proc/hostside-cannot-write-here"), "--out");
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        oneLineError(run("report", "--root", tmp.resolve("missing").toString(), "--out", file.toString()), "is a regular file, not a folder");
        // Live, no --root: exits at once with that one line, no progress from any measurement.
        oneLineError(run("report", "--out", "/proc/hostside-cannot-write-here"), "--out /proc/hostside-cannot-write-here");
        oneLineError(run("report", "--root", h200, "--out", tmp.toString(), "--name", ".hidden"), "--name");
    }
}
