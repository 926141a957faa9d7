package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import com.fasterxml.jackson.databind.JsonNode;

import hostside.Fixtures;
import hostside.core.Json;

/** What a user sees: exit codes, one-line errors, JSON on stdout and nothing else. */
class MainTest {
    @TempDir
    Path tmp;

    record Result(int code, String out, String err) {}

    static Result run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    static void oneLineError(Result r) {
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).startsWith("hostside: ").doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(r.out()).isEmpty();
    }

    final String h200 = Fixtures.h200().toString();

    @Test
    void machineJsonIsTheFactsJsonOfTheContract() throws IOException {
        Result r = run("machine", "--root", h200, "--json");
        assertThat(r.code()).isZero();
        assertThat(r.err()).isEmpty();
        JsonNode j = Json.MAPPER.readTree(r.out());
        assertThat(j.path("schema").asText()).isEqualTo("hostside/2");
        assertThat(j.path("topology").path("packages").asInt()).isEqualTo(1);
        assertThat(j.path("topology").path("cores").asInt()).isEqualTo(16);
        assertThat(j.path("topology").path("threads").asInt()).isEqualTo(16);
        JsonNode node = j.path("topology").path("numaNodes").get(0);
        assertThat(node.path("id").asInt()).isZero();
        assertThat(node.path("cpus").asText()).isEqualTo("0-15");
        assertThat(node.path("memTotalBytes").asLong()).isEqualTo(6515664L * 1024);
        assertThat(node.path("gpuMemory").asBoolean()).isFalse();
        JsonNode cache = j.path("topology").path("caches").get(0);
        assertThat(cache.has("level") && cache.has("type") && cache.has("sizeBytes") && cache.has("cpus")).isTrue();
        JsonNode gpu = null;
        for (JsonNode d : j.path("pci")) if (d.path("address").asText().equals("0000:00:06.0")) gpu = d;
        assertThat(gpu).isNotNull();
        assertThat(gpu.path("kind").asText()).isEqualTo("gpu");
        assertThat(gpu.path("numaNode").isNull()).isTrue();
        assertThat(gpu.path("localCpus").asText()).isEqualTo("0-15");
        assertThat(gpu.path("link").path("speedGTs").asDouble()).isEqualTo(32.0);
        assertThat(gpu.path("link").path("width").asInt()).isEqualTo(16);
        assertThat(gpu.path("link").path("maxSpeedGTs").asDouble()).isEqualTo(32.0);
        assertThat(gpu.path("link").path("maxWidth").asInt()).isEqualTo(16);
    }

    @Test
    void machineTextShowsTheGpuAndTheVerdict() {
        Result r = run("machine", "--root", h200);
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("16 cores").contains("NVIDIA H200").contains("Gen5 x16").contains("PHB")
                .contains("[M1-NIC-DISTANCE]").doesNotContain("\u001b[");
    }

    @Test
    void badRootsAreOneLineErrors() throws IOException {
        oneLineError(run("machine", "--root", tmp.resolve("missing").toString()));
        oneLineError(run("machine", "--root", Files.writeString(tmp.resolve("x.tar.gz"), "garbage").toString()));
        oneLineError(run("report", "--root", tmp.resolve("missing").toString(), "--out", tmp.toString()));
        oneLineError(run("machine", "--no-such-option"));
    }

    @Test
    void reportWritesMarkdownRenderedFromItsJson() throws IOException {
        Result r = run("report", "--root", h200, "--out", tmp.toString(), "--name", "h200");
        assertThat(r.code()).isZero();
        String md = Files.readString(tmp.resolve("h200.md"));
        JsonNode json = Json.MAPPER.readTree(tmp.resolve("h200.json").toFile());
        assertThat(json.path("schema").asText()).isEqualTo("hostside/2");
        assertThat(json.path("questions")).hasSize(4);
        assertThat(md).contains("## The four questions").contains("**1. CPU:**").contains("**2. Link:**").contains("**3. Fabric:**")
                .contains("**4. Beyond the box:**").contains("NVIDIA H200").contains("## Module 1").contains("## Module 6");
        assertThat(md).contains("10 GB moves in no less than 0.16 s");

        Path again = Files.createDirectory(tmp.resolve("again"));
        assertThat(run("report", "--from", tmp.resolve("h200.json").toString(), "--out", again.toString()).code()).isZero();
        assertThat(Files.readString(again.resolve("h200.md"))).isEqualTo(md);
    }

    @Test
    void reportIntoAnUnwritablePlaceIsAOneLineError() throws IOException {
        oneLineError(run("report", "--root", h200, "--out", "/proc/hostside-cannot-write-here"));
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        oneLineError(run("report", "--root", h200, "--out", file.resolve("sub").toString()));
        oneLineError(run("report", "--from", file.toString(), "--out", tmp.toString()));
    }

    @Test
    void snapshotRoundTripsThroughTheCommandLine() throws IOException {
        Path box = tmp.resolve("box.tar.gz");
        Result s = run("snapshot", "-o", box.toString(), "--root", h200);
        assertThat(s.code()).isZero();
        assertThat(s.out()).contains("wrote").contains("hostside machine --root");
        String before = run("machine", "--root", h200, "--json").out();
        String after = run("machine", "--root", box.toString(), "--json").out();
        assertThat(after.replace(box.toString(), "SRC")).isEqualTo(before.replace(h200, "SRC"));
        oneLineError(run("snapshot", "-o", tmp.resolve("no/such/dir/x.tar.gz").toString()));
        oneLineError(run("snapshot", "-o", "/proc/x.tar.gz", "--root", h200));
    }

    @Test
    void aFailureIsSaidInWordsNeverAsAJavaClassName() {
        assertThat(Main.inWords(new IllegalStateException("strace wrote nothing\nsecond line"))).isEqualTo("strace wrote nothing");
        assertThat(Main.inWords(new RuntimeException(new java.io.IOException("No space left on device")))).isEqualTo("No space left on device");
        assertThat(Main.inWords(new java.io.UncheckedIOException("cannot copy x", new java.io.IOException("disk")))).isEqualTo("cannot copy x");
        assertThat(Main.inWords(new NullPointerException())).isEqualTo("an internal error");
        assertThat(Main.inWords(new OutOfMemoryError())).isEqualTo("out of memory");
    }
}
