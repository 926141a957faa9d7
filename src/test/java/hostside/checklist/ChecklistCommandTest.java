package hostside.checklist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Json;
import hostside.cli.Main;
import hostside.gpu.nvml.FakeNvml;
import hostside.gpu.nvml.Nvml;

/** `hostside checklist` as a user runs it: bad input, a recorded machine, short live windows on real processes. */
class ChecklistCommandTest {
    @TempDir
    Path dir;

    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    static void oneLineError(Run r, String start) {
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).startsWith(start).doesNotContain("\n").doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(r.out()).isEmpty();
    }

    @AfterEach
    void clearLibrary() {
        System.clearProperty(Nvml.LIBRARY_PROPERTY);
    }

    @Test
    void badInputIsOneLineAndExitTwo() {
        oneLineError(run("checklist", "4194303"), "hostside: PID 4194303: no such process");
        oneLineError(run("checklist", "999999999"), "hostside: Invalid value for positional parameter at index 0 (PID): \"999999999\" is out of range: choose 1 to 4194304");
        oneLineError(run("checklist", "0"), "hostside: Invalid value for positional parameter at index 0 (PID): \"0\" is out of range: choose 1 to 4194304");
        oneLineError(run("checklist", "lots"), "hostside: ");
        oneLineError(run("checklist"), "hostside: ");
        oneLineError(run("checklist", "1", "--seconds", "0"), "hostside: Invalid value for option '--seconds': \"0\" is out of range: choose 1 to 3600");
        oneLineError(run("checklist", "1", "--seconds", "3601"), "hostside: Invalid value for option '--seconds': \"3601\" is out of range");
        oneLineError(run("checklist", "1", "--root", dir.resolve("missing").toString()), "hostside: ");
    }

    @Test
    void aRecordingIsOneSnapshotAndAPidOutsideItIsBadInput() throws Exception {
        ProcBox box = new ProcBox(dir);
        box.process(77, 1, "trainer", 'R', 0, 0, 10, 5, 2, 1).thread(77, 77, "trainer", 'R', 10, 5, 1, 0, 0)
                .thread(77, 78, "pt_data_loader", 'D', 0, 0, 3, 0, 0);
        Run r = run("checklist", "77", "--root", dir.toString(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = Json.MAPPER.readTree(r.out());
        assertThat(j.path("schema").asText()).isEqualTo("hostside/2");
        assertThat(j.path("kind").asText()).isEqualTo("checklist");
        assertThat(j.path("window").path("mode").asText()).isEqualTo("snapshot");
        assertThat(j.path("verdict").path("id").asText()).isEqualTo("M4-60S-SNAPSHOT");
        assertThat(j.path("process").path("threadList")).hasSize(2);
        assertThat(j.path("process").path("threadList").get(1).path("state").asText()).isEqualTo("D");
        assertThat(j.path("cpus").isNull()).isTrue();

        Run text = run("checklist", "77", "--root", dir.toString());
        assertThat(text.code()).isZero();
        assertThat(text.out()).contains("one snapshot", "not measured: a recorded machine is one moment", "pt_data_loader")
                .doesNotContain("\u001b[");

        oneLineError(run("checklist", "4242", "--root", dir.toString()), "hostside: PID 4242: no such process in ");
    }

    @Test
    void thisJvmOverOneSecondWithTheFakeGpus() throws Exception {
        System.setProperty(Nvml.LIBRARY_PROPERTY, FakeNvml.library());
        long me = ProcessHandle.current().pid();
        Run r = run("checklist", Long.toString(me), "--seconds", "1", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).as("nothing on stderr off a terminal").isEmpty();
        JsonNode j = Json.MAPPER.readTree(r.out());
        assertThat(j.path("pid").asLong()).isEqualTo(me);
        assertThat(j.path("window").path("mode").asText()).isEqualTo("live");
        assertThat(j.path("window").path("samples").asInt()).isEqualTo(3);
        assertThat(j.path("process").path("threads").asInt()).as("a JVM has many threads").isGreaterThan(5);
        assertThat(j.path("process").path("threadList").size()).isGreaterThan(5);
        assertThat(j.path("process").path("cpuPercent").isNumber()).isTrue();
        assertThat(j.path("cpus").path("cpus").size()).as("a row per online CPU").isEqualTo(j.path("load").path("cpus").asInt());
        assertThat(j.path("gpus").path("gpus")).hasSize(2);
        assertThat(j.path("gpus").path("gpus").get(0).path("name").asText()).isEqualTo("NVIDIA H200");
        assertThat(j.path("verdicts").size()).isGreaterThanOrEqualTo(1);
        assertThat(j.path("verdict").path("text").asText()).isNotBlank();
    }

    @Test
    void aProcessThatExitsMidWindowIsANoteNotAnError() throws Exception {
        System.setProperty(Nvml.LIBRARY_PROPERTY, "/nonexistent/libnvidia-ml.so.1");
        Process p = new ProcessBuilder("sleep", "1.5").start();
        try {
            Run r = run("checklist", Long.toString(p.pid()), "--seconds", "4");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out()).contains("hostside checklist: PID " + p.pid() + " sleep").contains("note: PID " + p.pid() + " exited ")
                    .contains("6 GPUs\n  not read: no NVIDIA driver (/nonexistent/libnvidia-ml.so.1 not found)");
        } finally {
            p.destroyForcibly();
        }
    }
}
