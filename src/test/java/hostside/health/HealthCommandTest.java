package hostside.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.Fixtures;
import hostside.core.Json;
import hostside.fs.FsRoot;
import hostside.gpu.nvml.FakeNvml;
import hostside.gpu.nvml.Nvml;
import hostside.testing.CliRun;

/**
 * hostside health as a platform team runs it: on the fake NVML (two GPUs, fake_nvml.c's), its
 * exit codes, its one line, its Prometheus file, and a snapshot of the node replayed under --root
 * with the NVML answers it recorded.
 */
class HealthCommandTest {
    @TempDir
    Path tmp;

    @BeforeEach
    void fake() {
        System.setProperty(Nvml.LIBRARY_PROPERTY, FakeNvml.library());
        FakeNvml.resetHealth(FakeNvml.Variant.CURRENT);
    }

    @AfterEach
    void real() {
        FakeNvml.resetHealth(FakeNvml.Variant.CURRENT);
        System.clearProperty(Nvml.LIBRARY_PROPERTY);
    }

    /**
     * The fake's node as fake_nvml.c's header comment describes it: GPU0 with one of its two NVLinks
     * inactive (bad), GPU1 with ECC off until the next reboot (warn) and its persistence mode refused.
     */
    @Test
    void theFakesNodeIsBadForItsInactiveNvLinkInOneLine() {
        CliRun r = CliRun.of("health", "--format", "line", "--no-load");
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).startsWith("bad: M6-HEALTH-NVLINK-DOWN GPU0: NVLink 1 inactive").endsWith("\n");
        assertThat(r.out().strip()).hasSizeLessThanOrEqualTo(HealthLine.MAX).doesNotContain("\n");
    }

    @Test
    void aWarningPassesUnlessFailOnWarnAndAFailedRowRemapIsBad() throws Exception {
        FakeNvml.setSwitchLinks(FakeNvml.Variant.CURRENT, 0, 2);
        try {
            CliRun r = CliRun.of("health", "--format", "line", "--no-load");
            assertThat(r.code()).as("ECC off on GPU1 is a warning: " + r.out()).isZero();
            assertThat(r.out()).startsWith("warn: M6-HEALTH-ECC-MODE GPU1: ECC is off");
            assertThat(CliRun.of("health", "--format", "line", "--no-load", "--fail-on", "warn").code()).isEqualTo(1);

            FakeNvml.setHealth(FakeNvml.Variant.CURRENT, 1, "rows.failure", 1);
            CliRun failed = CliRun.of("health", "--format", "line", "--no-load");
            assertThat(failed.code()).isEqualTo(1);
            assertThat(failed.out()).startsWith("bad: M6-HEALTH-ROW-REMAP-FAILED GPU1: a row remapping has failed");
        } finally {
            FakeNvml.resetLinks(FakeNvml.Variant.CURRENT);
        }
    }

    @Test
    void aSnapshotReplaysTheNodesHealthElsewhere() throws Exception {
        FakeNvml.setHealth(FakeNvml.Variant.CURRENT, 0, "rows.failure", 1);
        CliRun live = CliRun.of("health", "--json", "--no-load");
        Path snap = tmp.resolve("node.tar.gz");
        assertThat(CliRun.of("snapshot", "-o", snap.toString()).code()).isZero();
        // elsewhere: no NVIDIA driver at all
        System.setProperty(Nvml.LIBRARY_PROPERTY, "/nonexistent/libnvidia-ml.so.1");
        CliRun replay = CliRun.of("health", "--json", "--root", snap.toString());
        assertThat(replay.code()).as(replay.err()).isEqualTo(1);
        JsonNode a = Json.MAPPER.readTree(live.out()), b = Json.MAPPER.readTree(replay.out());
        assertThat(b.path("kind").asText()).isEqualTo("health");
        // the same answers, but a GPU's UUID, which names the board as a serial number does: a stand-in
        String uuid = a.at("/facts/nvml/gpus/0/uuid").asText();
        assertThat(b.at("/facts/nvml/gpus/0/uuid").asText()).isEqualTo(HealthReader.standIn(uuid)).startsWith("GPU-hash-").doesNotContain(uuid);
        for (JsonNode doc : new JsonNode[] {a, b}) {
            for (JsonNode g : doc.at("/facts/nvml/gpus")) ((ObjectNode) g).remove("uuid");
        }
        assertThat(b.at("/facts/nvml")).isEqualTo(a.at("/facts/nvml"));
        assertThat(FsRoot.open(snap.toString()).text(HealthReader.RECORDED_NVML).orElseThrow()).contains("\"gpus\"").doesNotContain(uuid);
        assertThat(b.at("/facts/nvml/gpus").size()).isEqualTo(2);
        assertThat(b.path("verdict").asText()).isEqualTo(a.path("verdict").asText());
        assertThat(b.path("findings").findValuesAsText("id")).contains("M6-HEALTH-ROW-REMAP-FAILED", "M6-HEALTH-NVLINK-DOWN");
    }

    @Test
    void prometheusGoesToItsFileWithTheGpusLabelled() throws Exception {
        FakeNvml.setHealth(FakeNvml.Variant.CURRENT, 0, "rows.failure", 1);
        Path prom = tmp.resolve("hostside.prom");
        CliRun r = CliRun.of("health", "--format", "prometheus", "-o", prom.toString(), "--no-load");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        String text = Files.readString(prom);
        assertThat(text).contains("# TYPE hostside_gpu_row_remap_failure gauge\n")
                .contains("hostside_gpu_row_remap_failure{gpu=\"0\",pci_bus_id=\"" )
                .contains("hostside_health_finding{rule=\"M6-HEALTH-ROW-REMAP-FAILED\",severity=\"bad\",subject=\"GPU0\"} 1\n")
                .contains("hostside_health_gpus_judged 1\n")
                .contains("hostside_gpu_remap_banks{gpu=\"0\"");
        assertThat(text).endsWith("\n");
        try (var files = Files.list(tmp)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("hostside.prom");
        }
    }

    @Test
    void aRecordingWithGpusButNoNvmlAnswersCannotBeJudged() {
        CliRun r = CliRun.of("health", "--format", "line", "--root", Fixtures.h200().toString());
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.out()).startsWith("unknown: M6-HEALTH-NOT-JUDGED the recording shows 1 NVIDIA GPU on its bus");
    }

    @Test
    void jsonAndAnotherFormatAtOnceIsBadInput() {
        CliRun r = CliRun.of("health", "--json", "--format", "line");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).startsWith("hostside: --json and --format line: choose one");
    }
}
