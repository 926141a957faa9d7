package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.Fixtures;
import hostside.HostsideJvm;
import hostside.testing.CliRun;
import hostside.core.BadInputException;
import hostside.core.Json;

/**
 * Sizes a user types or a recording says that wrapped past 2^63 (issue 36): a test file of
 * 9223372036854775807 bytes passed the free-space check and filled the disk; a batch of that size
 * made "-16 bytes" in /dev/shm; a recording's cache, disk and node sizes came out negative or
 * summed to nonsense. Each is now refused in one line or read as unknown.
 */
class OverflowTest {
    static final String MAX = String.valueOf(Long.MAX_VALUE);

    @TempDir
    Path tmp;

    static CliRun run(String... args) {
        return CliRun.of(args);
    }

    /**
     * hostside in a JVM of its own that may write files of 32 MiB at most (ulimit -f): where the
     * check is passed by a wrapped sum, the write stops there with "File too large" instead of
     * filling the disk of whoever runs the tests.
     */
    static CliRun runCapped(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("sh", "-c", "ulimit -f 65536; exec \"$@\"", "sh"));
        cmd.addAll(HostsideJvm.command(args));
        Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        p.getOutputStream().close();
        var err = new java.util.concurrent.CompletableFuture<String>();
        Thread.ofVirtual().start(() -> {
            try {
                err.complete(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                err.completeExceptionally(e);
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("hostside " + String.join(" ", args) + " did not end");
        }
        return new CliRun(p.exitValue(), out, err.join());
    }

    @Test
    void ioRefusesATestFileOf2To63BytesBeforeWritingAnything() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("data"));
        CliRun r = runCapped("io", "--size", MAX, "--dir", dir.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).startsWith("hostside: --size 8192 PiB: not enough free space in " + dir + " (").endsWith(" kept free)\n");
        try (var s = Files.list(dir)) {
            assertThat(s.toList()).isEmpty();
        }
    }

    @Test
    void vmRefusesATestFileOf2To63BytesBeforeWritingAnything() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("data"));
        CliRun r = runCapped("vm", "--only", "file_read_cold", "--size", MAX, "--dir", dir.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).startsWith("hostside: " + dir + ": not enough free space for the 8192 PiB test file (");
        try (var s = Files.list(dir)) {
            assertThat(s.toList()).isEmpty();
        }
    }

    /** report checks --size before its minutes of measuring; the check itself, so that nothing is measured here. */
    @Test
    void reportsStorageCheckRefusesASizeOf2To63Bytes() throws IOException {
        StorageOptions o = new StorageOptions();
        o.dir = Files.createDirectories(tmp.resolve("data"));
        o.size = Long.MAX_VALUE;
        assertThatThrownBy(() -> o.check(true)).isInstanceOf(BadInputException.class)
                .hasMessageStartingWith("--size 8192 PiB: not enough free space in " + o.dir);
    }

    @Test
    void containerRefusesABatchLargerThanAnyMachinesMemory() {
        CliRun r = run("container", "--root", Fixtures.h200().toString(), "--batch-bytes", MAX);
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("hostside: --batch-bytes 9223372036854775807 bytes: at most 4503599627370496 bytes (4 PiB; a batch is collated in memory, and no machine addresses more)\n");
        // just past the bound: in PiB both would read "4 PiB", and the refusal would not say why
        assertThat(run("container", "--root", Fixtures.h200().toString(), "--batch-bytes", "4097T").err())
                .startsWith("hostside: --batch-bytes 4504699138998272 bytes: at most 4503599627370496 bytes");
        CliRun most = run("container", "--root", Fixtures.h200().toString(), "--batch-bytes", "4P", "--workers", "64", "--json");
        assertThat(most.code()).as(most.err()).isZero();
        assertThat(most.out()).contains("\"shmBytes\" : " + (64L * 2 * (4L << 50)));
    }

    @Test
    void aRecordedCacheOf2To63BytesIsOfUnknownSize() throws Exception {
        Path rec = PlantedRecording.of(tmp, "cd sys/devices/system/cpu/cpu0/cache; printf '9007199254740992K\\n' > index3/size; "
                + "printf '9007199254740991K\\n' > index2/size");
        CliRun r = run("machine", "--root", rec.toString(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode caches = Json.MAPPER.readTree(r.out()).path("topology").path("caches");
        // cpu0's own L2 and the L3 all CPUs share are the planted ones
        for (JsonNode c : caches) {
            boolean planted = c.path("level").asInt() == 3 || c.path("level").asInt() == 2 && c.path("cpus").asText().equals("0");
            if (planted) assertThat(c.path("sizeBytes").isNull()).as(c.toString()).isTrue();
            else assertThat(c.path("sizeBytes").asLong()).as(c.toString()).isPositive();
        }
    }

    @Test
    void aRecordedDiskOf2To63BytesIsOfUnknownSizeAndSaidSo() throws Exception {
        Path rec = PlantedRecording.of(tmp, "mkdir -p sys/block/vda/queue; printf '18014398509481984\\n' > sys/block/vda/size");
        CliRun r = run("io", "--root", rec.toString(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode facts = Json.MAPPER.readTree(r.out()).path("facts");
        JsonNode vda = null;
        for (JsonNode d : facts.path("blockDevices")) if (d.path("name").asText().equals("vda")) vda = d;
        assertThat(vda).as(facts.path("blockDevices").toString()).isNotNull();
        assertThat(vda.path("sizeBytes").isNull()).as(vda.toString()).isTrue();
        assertThat(facts.path("unknowns").toString()).contains("/sys/block/vda/size: more sectors than 8 EiB holds");
    }

    /** Three nodes of 8 EiB each (the cpuset allowing all three) summed past 2^64 to a positive 8 EiB: "the NUMA nodes add up to 8192 PiB". */
    @Test
    void recordedNodeSizesPastAnyMachineAreUnknownAndNotSummed() throws Exception {
        String node = "sys/devices/system/node";
        Path rec = PlantedRecording.of(tmp, "printf '0-2\\n' > " + node + "/online; for n in 1 2; do mkdir " + node + "/node$n; "
                + "printf '00000000\\n' > " + node + "/node$n/cpumap; done; "
                + "for n in 0 1 2; do printf 'Node %s MemTotal: 9007199254740991 kB\\n' $n > " + node + "/node$n/meminfo; done; "
                + "printf '0-2\\n' > sys/fs/cgroup/cpuset.mems.effective");
        CliRun r = run("machine", "--root", rec.toString(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode facts = Json.MAPPER.readTree(r.out());
        assertThat(facts.path("findings").toString()).doesNotContain("add up to");
        for (JsonNode n : facts.path("topology").path("numaNodes")) assertThat(n.path("memTotalBytes").isNull()).as(n.toString()).isTrue();
        assertThat(facts.path("unknowns").toString()).contains("memory of NUMA node 2: /sys/devices/system/node/node2/meminfo says 8192 PiB, more than any machine addresses (4 PiB)");
    }
}
