package hostside.gpu.nvml;

import static hostside.gpu.nvml.FakeNvml.Variant.CURRENT;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.Json;

/**
 * bench/harness/smi_q.py puts nvidia-smi -q beside hostside's health read: here with python3 on the
 * two recorded nvidia-smi -q (testdata/h100, testdata/h200) against the fake NVML set to what each
 * machine answered, then with one difference planted.
 */
class SmiSideBySideTest {
    static final Path SCRIPT = Path.of("bench/harness/smi_q.py");

    @TempDir
    Path dir;

    @BeforeEach
    @AfterEach
    void reset() {
        FakeNvml.resetHealth(CURRENT);
        FakeNvml.resetActivity(CURRENT);
        FakeNvml.setDeviceCount(CURRENT, 2);
    }

    /** The fake as the one-GPU machine: its GPU 0 sits at 0000:00:06.0 as both machines' GPU does, idle. */
    private Path healthJson() throws IOException {
        FakeNvml.setDeviceCount(CURRENT, 1);
        FakeNvml.setActivity(CURRENT, 0, 0, NvmlTypes.nvmlClocksEventReasonGpuIdle);
        NvmlHealth h = NvmlHealth.read(FakeNvml.library());
        // as `hostside health --json` will carry it
        Path json = dir.resolve("health.json");
        Files.writeString(json, Json.MAPPER.writeValueAsString(java.util.Map.of("nvml", h)));
        return json;
    }

    record Run(int rc, String out) {}

    private Run smiQ(String fixture, Path json) throws Exception {
        Process p = new ProcessBuilder("python3", SCRIPT.toString(), Path.of(fixture).toString(), json.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), out);
    }

    private static List<String> rows(Run r, String verdict) {
        return r.out().lines().filter(l -> l.matches(".*\\s" + verdict + "( .*)?$")).toList();
    }

    @Test
    void theH100sNvidiaSmiEqualsTheFakesDefaults() throws Exception {
        Run r = smiQ("testdata/h100/nvidia-smi-q.txt", healthJson());
        assertThat(r.rc()).as(r.out()).isZero();
        assertThat(rows(r, "differs.*")).as(r.out()).isEmpty();
        // nvidia-smi's "Device Max" has no counterpart: the fake lacks nvmlDeviceGetGpuMaxPcieLinkGeneration
        assertThat(rows(r, "n-a")).as(r.out()).singleElement().asString().contains("PCIe device max gen");
        // the margin was 53 C to NVML and 55 C to nvidia-smi a moment apart: equal within the tolerance
        assertThat(r.out()).containsPattern("GPU T.Limit \\(C\\)\\s+55\\s+53\\s+equal \\(\\+-2 C\\)")
                .containsPattern("clock event reasons\\s+Idle\\s+Idle\\s+equal")
                .containsPattern("remap histogram max\\s+2560\\s+2560\\s+equal");
    }

    @Test
    void theH200sNvidiaSmiEqualsTheFakeSetToItsReadings() throws Exception {
        for (var kv : java.util.Map.of("histogram.max", 3072L, "temp.gpu", 37L, "temp.memory", 36L, "temp.margin", 50L,
                "power.averageMw", 80940L, "power.instantMw", 81090L).entrySet()) {
            FakeNvml.setHealth(CURRENT, 0, kv.getKey(), kv.getValue());
        }
        Run r = smiQ("testdata/h200/nvidia-smi-q.txt", healthJson());
        assertThat(r.rc()).as(r.out()).isZero();
        assertThat(rows(r, "differs.*")).as(r.out()).isEmpty();
    }

    @Test
    void aPlantedDifferenceDiffersAndExitsOne() throws Exception {
        FakeNvml.setHealth(CURRENT, 0, "rows.correctable", 1);
        FakeNvml.setHealth(CURRENT, 0, "power.averageMw", 90000);
        Run r = smiQ("testdata/h100/nvidia-smi-q.txt", healthJson());
        assertThat(r.rc()).as(r.out()).isEqualTo(1);
        assertThat(rows(r, "differs.*")).as(r.out()).hasSize(2)
                .anySatisfy(l -> assertThat(l).containsPattern("remapped rows correctable error\\s+0\\s+1\\s+differs"))
                .anySatisfy(l -> assertThat(l).containsPattern("power average \\(W\\)\\s+71.79\\s+90.00\\s+differs \\(\\+-10 %\\)"));
    }
}
