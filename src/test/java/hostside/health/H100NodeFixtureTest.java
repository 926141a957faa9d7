package hostside.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import hostside.fs.FsRoot;
import hostside.gpu.nvml.Nvml;
import hostside.testing.CliRun;

/**
 * testdata/health/h100-node.tar.gz, the H100 VM with NVML's answers as a snapshot keeps them, is
 * what the fake answers now (run H100NodeFixture and make-fixtures.py when it is not), and reads as
 * a healthy node; the Slurm and node_exporter checks of CI replay it.
 */
class H100NodeFixtureTest {
    @AfterEach
    void real() {
        System.clearProperty(Nvml.LIBRARY_PROPERTY);
    }

    @Test
    void theRecordedAnswersAreTheFakesH100AnswersAsASnapshotKeepsThem() throws Exception {
        assertThat(Files.readString(H100NodeFixture.JSON)).as("run hostside.health.H100NodeFixture, then testdata/health/make-fixtures.py")
                .isEqualTo(H100NodeFixture.answers());
        assertThat(FsRoot.open(H100NodeFixture.NODE.toString()).text(HealthReader.RECORDED_NVML).orElseThrow() + "\n")
                .as("run testdata/health/make-fixtures.py").isEqualTo(Files.readString(H100NodeFixture.JSON));
    }

    @Test
    void itReplaysAsAHealthyNodeWithoutAnyDriverHere() {
        System.setProperty(Nvml.LIBRARY_PROPERTY, "/nonexistent/libnvidia-ml.so.1");
        CliRun r = CliRun.of("health", "--root", H100NodeFixture.NODE.toString(), "--format", "line");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).startsWith("ok: ");
    }
}
