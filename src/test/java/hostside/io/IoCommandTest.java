package hostside.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Json;
import hostside.testing.CliRun;

/** `hostside io` as a user runs it: options, bad input, a recorded machine, a short live run, Ctrl-C. */
class IoCommandTest {
    @TempDir
    Path dir;

    static CliRun run(String... args) {
        return CliRun.of(args);
    }

    /** A folder on a disk: @TempDir may be on tmpfs, where nothing is read cold. */
    Path diskDir() throws Exception {
        return Files.createTempDirectory(Path.of("/var/tmp"), "hostside-io-test");
    }

    @Test
    void listNamesEveryMeasurement() {
        CliRun r = run("io", "--list");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("seq_read_cold_qd1", "seq_read_direct_uring_qd32", "rand_read_direct_uring_qd32", "write_fsync");
    }

    @Test
    void badInputIsOneLineAndExitTwoAndWritesNothing() throws Exception {
        Path small = Files.write(dir.resolve("small"), new byte[4096]);
        for (String[] args : new String[][] {{"io", "--dir", "/proc"}, {"io", "--dir", dir.resolve("missing").toString()},
                {"io", "--file", dir.resolve("missing").toString()}, {"io", "--file", small.toString()}, {"io", "--size", "1M", "--dir", dir.toString()},
                {"io", "--sample-ms", "5"}, {"io", "--file", small.toString(), "--size", "1G"}, {"io", "--size", "lots"},
                {"io", "--dir", dir.toString(), "--size", "1000T"}, {"io", "--only", "nosuch"}}) {
            CliRun r = run(args);
            assertThat(r.code()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(r.err().strip()).as(String.join(" ", args)).startsWith("hostside: ").doesNotContain("\n").doesNotContain("Exception");
        }
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString()).toList()).as("no test file left").containsExactly("small");
        }
    }

    @Test
    void aRecordingMeasuresNothing() throws Exception {
        CliRun r = run("io", "--root", hostside.Fixtures.h200().toString(), "--json");
        assertThat(r.code()).isZero();
        JsonNode j = Json.MAPPER.readTree(r.out());
        assertThat(j.path("kind").asText()).isEqualTo("io");
        assertThat(j.path("results")).isNotEmpty();
        for (JsonNode x : j.path("results")) assertThat(x.path("why").asText()).contains("recorded machine");
    }

    @Test
    void aShortLiveRunReadsAndWritesAndLeavesNothing() throws Exception {
        Path disk = diskDir();
        try {
            CliRun r = run("io", "--dir", disk.toString(), "--size", "64M", "--sample-ms", "100", "--json",
                    "--only", "seq_read_cold_qd1,seq_read_warm_qd1,rand_read_direct_qd1,rand_read_direct_uring_qd32,write_fsync");
            assertThat(r.code()).as(r.err()).isZero();
            JsonNode j = Json.MAPPER.readTree(r.out());
            assertThat(j.path("file").path("bytes").asLong()).isEqualTo(64L << 20);
            for (JsonNode x : j.path("results")) {
                String key = x.path("key").asText();
                if (key.contains("uring") && x.path("status").asText().equals("not run")) continue; // a kernel that refuses io_uring says why
                assertThat(x.path("status").asText()).as(key + ": " + x.path("why").asText()).isEqualTo("ok");
                assertThat(x.path("value").path("median").asDouble()).as(key).isPositive();
                assertThat(x.path("anchor").asText()).as(key).startsWith("fio --rw=").contains("--size=" + (64L << 20));
                if (key.contains("read")) assertThat(x.path("detail").path("latencyUs").path("count").asLong()).as(key).isPositive();
                else assertThat(x.path("detail").path("fsyncMs").path("samples").asInt()).as(key).isPositive();
            }
            assertThat(j.path("results").get(1).path("detail").path("pageCacheBytes").asLong()).as("the warm file is all cached").isEqualTo(64L << 20);
            assertThat(j.path("verdicts")).isNotEmpty();
            try (Stream<Path> s = Files.list(disk)) {
                assertThat(s.toList()).as("the test files are gone").isEmpty();
            }
        } finally {
            Files.deleteIfExists(disk);
        }
    }

    @Test
    void ctrlCLeavesNoTestFile() throws Exception {
        Path disk = diskDir();
        Process p = new ProcessBuilder(hostside.HostsideJvm.command(
                "io", "--dir", disk.toString(), "--size", "256M", "--sample-ms", "2000", "--json"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(new File(dir.toFile(), "stderr.txt")).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (files(disk).isEmpty() && p.isAlive() && System.nanoTime() < deadline) Thread.sleep(20);
            assertThat(files(disk)).as("the run made its test file").isNotEmpty();
            Thread.sleep(1500);
            new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exits on SIGINT").isTrue();
            assertThat(files(disk)).as("no test file left after Ctrl-C").isEmpty();
        } finally {
            p.destroyForcibly();
            for (Path f : files(disk)) Files.deleteIfExists(f);
            Files.deleteIfExists(disk);
        }
    }

    private static List<Path> files(Path d) throws Exception {
        try (Stream<Path> s = Files.list(d)) {
            return s.toList();
        }
    }
}
