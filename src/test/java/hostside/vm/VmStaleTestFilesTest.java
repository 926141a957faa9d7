package hostside.vm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Finding;
import hostside.core.Json;
import hostside.testing.RuleTally;
import hostside.testing.CliRun;

/** `hostside vm` removes a killed run's test files from its --dir before writing there, and keeps the note among its findings. */
class VmStaleTestFilesTest {
    @TempDir
    Path dir;

    @Test
    void aKilledRunsFilesAreRemovedAndNoted() throws Exception {
        // what a SIGKILLed vm run leaves: the data file and its lock file, nobody holding the lock
        Files.writeString(dir.resolve("hostside-vm-00000000deadbeef.lock"), "hostside vm test file lock, pid 1\n");
        Files.write(dir.resolve("hostside-vm-00000000deadbeef.tmp"), new byte[1 << 20]);
        Path foreign = Files.writeString(dir.resolve("hostside-vm-1.tmp"), "not provably ours: stays");
        CliRun r = CliRun.of("vm", "--only", "file_read_warm", "--size", "64M", "--dir", dir.toString(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = Json.MAPPER.readTree(r.out());
        assertThat(j.path("findings").findValuesAsText("id")).contains("M2-STALE-TEST-FILES");
        assertThat(j.path("findings").findValuesAsText("text")).anyMatch(t -> t.startsWith("removed 1 test file (1.0 MiB) that a killed hostside run left in " + dir)
                && t.endsWith("hostside-vm-00000000deadbeef.tmp"));
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s.toList()).containsExactly(foreign);
        }
    }

    @Test
    void aFolderWithNoKilledRunsFilesIsQuiet() throws Exception {
        // a file of hostside's shape without its lock file is not provably a dead run's: it stays, and nothing is said
        Path foreign = Files.writeString(dir.resolve("hostside-vm-1.tmp"), "not provably ours: stays");
        CliRun r = CliRun.of("vm", "--only", "file_read_warm", "--size", "64M", "--dir", dir.toString(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode said = Json.MAPPER.readTree(r.out()).path("findings");
        assertThat(said.isArray()).as(r.out()).isTrue();
        List<Finding> findings = List.of(Json.MAPPER.treeToValue(said, Finding[].class));
        RuleTally.quiet(findings, VmRules.STALE_TEST_FILES);
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s.toList()).containsExactly(foreign);
        }
    }
}
