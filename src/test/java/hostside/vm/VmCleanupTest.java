package hostside.vm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C in the middle of the file measurements leaves no test file behind: a real process,
 * a real SIGINT, while the file exists.
 */
class VmCleanupTest {
    @TempDir
    Path dir;

    @Test
    void interruptedRunRemovesItsTestFile() throws Exception {
        // cold reads of a 512 MiB file several times over: seconds of work to interrupt
        Process p = new ProcessBuilder(hostside.HostsideJvm.command("vm", "--only", "file_read_cold,file_mmap_cold,file_read_warm,file_mmap_warm",
                "--size", "512M", "--dir", dir.toString(), "--json"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(new File(dir.toFile(), "stderr.txt")).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (testFiles().stream().noneMatch(f -> f.toString().endsWith(".tmp")) && p.isAlive() && System.nanoTime() < deadline) Thread.sleep(20);
            assertThat(testFiles()).as("the run made its test file and its lock file").hasSize(2);
            Thread.sleep(300); // inside the measurements now, or still writing: both must clean up
            new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exits on SIGINT").isTrue();
            assertThat(testFiles()).as("no test file or lock file left after Ctrl-C").isEmpty();
        } finally {
            p.destroyForcibly();
        }
    }

    private List<Path> testFiles() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(f -> f.getFileName().toString().startsWith("hostside-vm-")).toList();
        }
    }
}
