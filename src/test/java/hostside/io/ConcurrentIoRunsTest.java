package hostside.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Json;
import hostside.testing.Tools;

/**
 * `hostside io` beside other runs, as real processes: two runs at once into one folder, each in
 * its own PID namespace so both are PID 1 (two containers on one disk); other people's files,
 * whatever their names, survive a run; and a SIGKILLed run's files are removed by the next run,
 * which says so.
 */
class ConcurrentIoRunsTest {
    static final String ONLY = "seq_read_cold_qd1,rand_read_warm_qd1,rand_read_direct_qd1,write_buffered,write_fsync";

    @TempDir
    Path logs;

    /** On a disk: @TempDir may be tmpfs, where nothing is read cold. */
    Path disk;

    @BeforeEach
    void makeDisk() throws IOException {
        disk = Files.createTempDirectory(Path.of("/var/tmp"), "hostside-concurrent-test");
    }

    @AfterEach
    void removeDisk() throws IOException {
        for (Path f : files(disk)) Files.deleteIfExists(f);
        Files.deleteIfExists(disk);
    }

    static List<Path> files(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.sorted().toList();
        }
    }

    /** {@code hostside io} in a child JVM, in a new PID namespace (as its PID 1) when asked. */
    Process io(boolean ownPidNamespace, String name, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        // -XX:-UsePerfData: the JVM's own /tmp/hsperfdata_USER/PID collides between two PID 1s too (and says so on stdout)
        if (ownPidNamespace) {
            Tools.require(Tools.isRoot() && Tools.onPath("unshare") != null, "root and unshare (util-linux) for a PID namespace");
            cmd.addAll(List.of("unshare", "--pid", "--fork", "--kill-child"));
        }
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-XX:-UsePerfData", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), "hostside.cli.Main", "io", "--dir", disk.toString()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectOutput(new File(logs.toFile(), name + ".json"))
                .redirectError(new File(logs.toFile(), name + ".err")).start();
    }

    int finish(Process p) throws InterruptedException {
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("hostside io did not finish in 5 minutes");
        }
        return p.exitValue();
    }

    String err(String name) throws IOException {
        return Files.readString(logs.resolve(name + ".err"), StandardCharsets.UTF_8);
    }

    /** Every measurement ran (io_uring may be refused by the kernel, and says so); none failed. */
    void allMeasured(String name) throws IOException {
        String out = Files.readString(logs.resolve(name + ".json"));
        assertThat(out).as(name + " prints one JSON document").startsWith("{");
        JsonNode j = Json.MAPPER.readTree(out);
        assertThat(j.path("results")).as(name).hasSize(ONLY.split(",").length);
        for (JsonNode x : j.path("results")) {
            String status = x.path("status").asText();
            assertThat(status).as(name + " " + x.path("key").asText() + ": " + x.path("why").asText()).isNotEqualTo("failed");
            if (!x.path("key").asText().contains("uring") && !j.path("file").path("filesystem").asText().equals("tmpfs")) {
                assertThat(status).as(name + " " + x.path("key").asText() + ": " + x.path("why").asText()).isEqualTo("ok");
            }
        }
    }

    @Test
    void twoRunsAtOnceInOneFolderBothAsPid1BothSucceedAndLeaveNothing() throws Exception {
        Process a = io(true, "a", "--size", "64M", "--sample-ms", "100", "--json", "--only", ONLY);
        Process b = io(true, "b", "--size", "64M", "--sample-ms", "100", "--json", "--only", ONLY);
        try {
            assertThat(finish(a)).as(err("a")).isZero();
            assertThat(finish(b)).as(err("b")).isZero();
        } finally {
            a.destroyForcibly();
            b.destroyForcibly();
        }
        allMeasured("a");
        allMeasured("b");
        assertThat(files(disk)).as("both runs removed all their files").isEmpty();
    }

    @Test
    void otherPeoplesFilesSurviveARunWhateverTheirNames() throws Exception {
        // the PID-named files of the old scheme, which a run as PID 1 used to take for its own
        Path old = Files.writeString(disk.resolve("hostside-io-1.tmp"), "someone's");
        Path oldWrite = Files.writeString(disk.resolve("hostside-io-write-1.tmp"), "someone's too");
        Path oldProbe = Files.writeString(disk.resolve("hostside-probe-1.tmp"), "and this");
        Process p = io(true, "run", "--size", "64M", "--sample-ms", "100", "--json", "--only", ONLY);
        try {
            assertThat(finish(p)).as(err("run")).isZero();
        } finally {
            p.destroyForcibly();
        }
        allMeasured("run");
        assertThat(files(disk)).containsExactly(old, oldWrite, oldProbe);
        assertThat(Files.readString(old)).isEqualTo("someone's");
        assertThat(Files.readString(oldWrite)).isEqualTo("someone's too");
        assertThat(Files.readString(oldProbe)).isEqualTo("and this");
    }

    private static boolean isTestFile(Path f) {
        String name = f.getFileName().toString();
        return name.startsWith("hostside-io-") && name.endsWith(".tmp");
    }

    @Test
    void aSigkilledRunsFilesAreRemovedByTheNextRunWhichSaysSo() throws Exception {
        Process killed = io(false, "killed", "--size", "256M", "--sample-ms", "2000", "--json");
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            // the test file, not the writability probe that comes and goes before it: a kill between the
            // probe's creation and its removal left nothing behind (or only the probe) on a busy machine
            while (files(disk).stream().noneMatch(ConcurrentIoRunsTest::isTestFile) && killed.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(files(disk)).as("the run made its test file").anyMatch(ConcurrentIoRunsTest::isTestFile);
        } finally {
            killed.destroyForcibly(); // SIGKILL: no exit hook runs
            assertThat(killed.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        List<Path> left = files(disk);
        assertThat(left).as("SIGKILL left files behind").isNotEmpty();

        Process next = io(false, "next", "--size", "64M", "--sample-ms", "100", "--json", "--only", "write_buffered");
        try {
            assertThat(finish(next)).as(err("next")).isZero();
        } finally {
            next.destroyForcibly();
        }
        String said = err("next");
        long dataFiles = left.stream().filter(f -> f.toString().endsWith(".tmp")).count();
        assertThat(said).contains("hostside: removed " + dataFiles + " test file").contains("that a killed hostside run left in " + disk);
        for (Path f : left) if (f.toString().endsWith(".tmp")) assertThat(said).contains(f.getFileName().toString());
        JsonNode j = Json.MAPPER.readTree(logs.resolve("next.json").toFile());
        assertThat(j.path("findings").findValuesAsText("text")).anyMatch(t -> t.startsWith("removed ") && t.contains("killed hostside run"));
        assertThat(files(disk)).isEmpty();
    }
}
