package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.HostsideJvm;

/**
 * An Error (the heap exhausted by a large input) never reaches the user as a Java trace: one
 * line that says what ran out and how to give more, exit 1, and no JVM crash file left behind.
 */
class OutOfMemoryTest {
    @TempDir
    Path tmp;

    /** Valid JSON of about 48 MiB, well under report --from's 64 MiB cap: its tree does not fit a 32 MiB heap. */
    private Path largeReport() throws IOException {
        Path p = tmp.resolve("large.json");
        try (Writer w = Files.newBufferedWriter(p)) {
            w.write("{\"kind\": \"report\", \"pad\": [");
            String s = "\"" + "x".repeat(1000) + "\"";
            for (int i = 0; i < 48_000; i++) w.write((i == 0 ? "" : ",") + s);
            w.write("]}\n");
        }
        return p;
    }

    @Test
    void runningOutOfHeapIsOneLineAndExitOne() throws Exception {
        Path report = largeReport();
        Path cwd = Files.createDirectory(tmp.resolve("cwd"));
        Process p = new ProcessBuilder(HostsideJvm.command(List.of("-Xmx32m", "-XX:+UseSerialGC"), "report", "--from", report.toString(),
                "--out", tmp.resolve("out").toString())).directory(cwd.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isEqualTo(1);
        assertThat(out.strip().lines()).as(out).hasSize(1);
        assertThat(out).startsWith("hostside: out of memory: the Java heap's limit is ").contains("HOSTSIDE_JAVA_OPTS=-Xmx")
                .doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("java.lang");
        try (var s = Files.list(cwd)) {
            assertThat(s.toList()).as("nothing left in the working directory").isEmpty();
        }
    }
}
