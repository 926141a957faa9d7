package hostside.cpu.dataloader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.fs.FsRoot;
import hostside.harness.Cut;

class DataLoaderTargetTest {
    @TempDir
    Path dir;

    FsRoot withMemAvailable(String line) throws Exception {
        Files.createDirectories(dir.resolve("proc"));
        Files.writeString(dir.resolve("proc/meminfo"), "MemTotal:       24683548 kB\n" + line);
        return FsRoot.open(dir.toString());
    }

    @Test
    void theDatasetFitsAQuarterOfAvailableMemoryWithAllWorkers() throws Exception {
        FsRoot fs = withMemAvailable("MemAvailable:    20971520 kB\n"); // 20 GiB
        assertThat(DataLoaderTarget.boundedBytes(fs, 256L << 20, 4)).as("fits").isEqualTo(256L << 20);
        assertThat(DataLoaderTarget.boundedBytes(fs, 8L << 30, 4)).as("20 GiB / 4 / 5").isEqualTo(1024L << 20);
        assertThat(DataLoaderTarget.boundedBytes(fs, 8L << 30, 9)).isEqualTo(512L << 20);
    }

    @Test
    void aCutDatasetSaysWhatItUsedAndWhy() throws Exception {
        FsRoot fs = withMemAvailable("MemAvailable:    20971520 kB\n"); // 20 GiB
        Cut c = DataLoaderTarget.cut(fs, 1L << 40, 4).orElseThrow();
        assertThat(c.option()).isEqualTo("--dataset-size");
        assertThat(c.asked()).isEqualTo(1L << 40);
        assertThat(c.used()).isEqualTo(1024L << 20);
        assertThat(c.text()).isEqualTo("--dataset-size 1.0 TiB asked, 1.0 GiB used: a quarter of available memory (20.0 GiB)"
                + " over the 4 workers and main, each of which may end up holding a copy");
        assertThat(DataLoaderTarget.cut(fs, 256L << 20, 4)).as("fits: no cut").isEmpty();
        assertThat(DataLoaderTarget.cut(withMemAvailable(""), 8L << 30, 4).orElseThrow().why()).startsWith("available memory is unknown here");
    }

    @Test
    void unknownAvailableMemoryCapsAtTheDefault() throws Exception {
        FsRoot fs = withMemAvailable("");
        assertThat(DataLoaderTarget.boundedBytes(fs, 8L << 30, 4)).isEqualTo(DataLoaderTarget.DEFAULT_DATASET_BYTES);
        assertThat(DataLoaderTarget.boundedBytes(fs, 10, 4)).as("at least 1 MiB").isEqualTo(1L << 20);
    }

    @Test
    void badSettingsAreRefused() {
        FsRoot fs = FsRoot.live();
        assertThatThrownBy(() -> new DataLoaderTarget(fs, "python3", 1 << 20, 0, Duration.ofSeconds(1))).hasMessageContaining("--workers 0");
        assertThatThrownBy(() -> new DataLoaderTarget(fs, "python3", 0, 1, Duration.ofSeconds(1))).hasMessageContaining("dataset size");
        assertThatThrownBy(() -> new DataLoaderTarget(fs, "python3", 1 << 20, 1, Duration.ZERO)).hasMessageContaining("timeout");
        DataLoaderTarget t = new DataLoaderTarget(fs, "python3", 1 << 20, 2, Duration.ofSeconds(9));
        assertThat(t.passes()).isEqualTo(DataLoaderTarget.DEFAULT_PASSES);
        assertThat(t.withPasses(1, Duration.ZERO).passes()).isEqualTo(1);
        assertThat(t.withTimeout(Duration.ofSeconds(3)).timeout()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void thisMachine() {
        DataLoaderTarget t = DataLoaderTarget.onThisMachine(64L << 20, 2, Duration.ofSeconds(30));
        assertThat(t.fs().isLive()).isTrue();
        assertThat(t.datasetBytes()).isBetween(1L << 20, 64L << 20);
        assertThat(t.hasPython()).isEqualTo(Python.onPath().isPresent());
    }
}
