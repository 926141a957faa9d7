package hostside.cpu.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM ends mid-trace (SIGTERM, as a kill or a closing terminal sends): the shutdown hook
 * kills strace and the traced command and deletes strace's file. A real JVM, real processes.
 */
class JvmExitCleanupTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"summary", "timed"})
    void endingTheJvmMidTraceLeavesNothing(String mode) throws Exception {
        assumeTrue(Strace.find(System.getenv("PATH")).isPresent(), "strace is not installed here");
        Path work = Files.createDirectory(dir.resolve("work"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process jvm = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), TraceUntilKilled.class.getName(), work.toString(), mode)
                .redirectError(new File(dir.toFile(), "stderr.txt")).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream()));
            String line = out.readLine();
            assertThat(line).as("the child JVM reports strace and sleep running; stderr: " + stderr()).startsWith("running ");
            String[] pids = line.split(" ");
            long strace = Long.parseLong(pids[1]), sleep = Long.parseLong(pids[2]);
            assertThat(files(work)).as("strace's folder (its file inside) and its lock exist while it runs").hasSize(2)
                    .anyMatch(p -> p.getFileName().toString().matches("hostside-strace-[0-9a-f]{16}\\.d") && Files.exists(p.resolve("trace.txt")));
            jvm.destroy(); // SIGTERM: shutdown hooks run
            assertThat(jvm.waitFor(30, TimeUnit.SECONDS)).as("the JVM exits").isTrue();
            assertThat(alive(sleep)).as("the traced sleep is gone").isFalse();
            assertThat(alive(strace)).as("strace is gone").isFalse();
            assertThat(files(work)).as("strace's file is deleted").isEmpty();
        } finally {
            jvm.destroyForcibly();
        }
    }

    private String stderr() {
        try {
            return Files.readString(dir.resolve("stderr.txt"));
        } catch (Exception e) {
            return "";
        }
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private static java.util.List<Path> files(Path d) throws Exception {
        try (Stream<Path> s = Files.list(d)) {
            return s.toList();
        }
    }
}
