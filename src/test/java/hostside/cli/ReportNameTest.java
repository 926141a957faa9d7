package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.Fixtures;
import hostside.testing.CliRun;

/** A report's file name that will not do is blamed on where it came from: --name only when --name was given. */
class ReportNameTest {
    @TempDir
    Path tmp;

    @Test
    void aFromFileWithASpaceNamesTheFileNotTheOptionNobodyGave() throws Exception {
        Path from = Files.copy(Fixtures.testdata().resolve("reports/h200-hostside1.json"), tmp.resolve("my report.json"));
        String out = tmp.resolve("out").toString();
        CliRun.of("report", "--from", from.toString(), "--out", out)
                .assertOneLineError("hostside: --from " + from + ": its file name, \"my report\", is not a usable file name for the report");
        CliRun.of("report", "--from", from.toString(), "--out", out, "--name", "a b").assertOneLineError("hostside: --name: \"a b\" is not a usable file name");
        assertThat(CliRun.of("report", "--from", from.toString(), "--out", out, "--name", "my-report").code()).isZero();
        assertThat(Path.of(out, "my-report.json")).isRegularFile();
    }
}
