package hostside.checklist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Better;
import hostside.core.Figure;
import hostside.core.Json;
import hostside.core.Scope;
import hostside.core.Unit;

/**
 * The checklist's typed figures: each GPU's utilisation, the one reading the window keeps with
 * its samples' spread; a GPU read once, or not at all, gives none, and nothing else is a figure.
 */
class ChecklistFiguresTest {
    @TempDir
    Path dir;

    static GpuSection.GpuUse gpu(int index, String pci, Double mean, Integer min, Integer max, Double median, int samples) {
        return Checklists.gpu(index, pci, mean, min, max, median, samples);
    }

    /** The job of {@link SamplerTest} over two seconds, with {@code gpus} in place of the GPUs it could not read. */
    Checklist withGpus(GpuSection gpus) throws InterruptedException {
        Checklist c = Checklists.job(dir);
        return Checklists.with(c, c.kernel(), gpus, c.unknowns());
    }

    @Test
    void eachGpuSampledSeveralTimesIsAFigureWithItsSpread() throws InterruptedException {
        Checklist c = withGpus(new GpuSection(null, List.of(
                gpu(0, "0000:3b:00.0", 35.2, 20, 60, 30.0, 5),
                gpu(1, "0000:5e:00.0", 90.0, 90, 90, 90.0, 1),
                gpu(2, null, 50.0, 40, 60, 50.0, 3),
                gpu(3, "0000:bb:00.0", null, null, null, null, 0))));
        List<Figure> f = c.figures();
        assertThat(f).extracting(Figure::key).containsExactly("gpu_util_percent", "gpu2_util_percent");
        assertThat(f).extracting(Figure::scope).containsExactly(Scope.gpu("0000:3b:00.0"), Scope.MACHINE);
        Figure busy = f.getFirst();
        assertThat(busy.value()).as("the median, not the mean the verdicts weigh").isEqualTo(30.0);
        assertThat(busy.min()).isEqualTo(20.0);
        assertThat(busy.max()).isEqualTo(60.0);
        assertThat(busy.samples()).isEqualTo(5);
        assertThat(busy.unit()).isEqualTo(Unit.PERCENT);
        assertThat(busy.better()).as("a host that keeps the GPU busy").isEqualTo(Better.HIGHER);
        assertThat(busy.method()).contains("every 500 ms");
        assertThat(busy.anchor()).isEqualTo("nvidia-smi dmon -s u");
    }

    @Test
    void withoutGpusThereAreNoFiguresAndTheJsonSaysSo() throws Exception {
        Checklist none = withGpus(new GpuSection("no NVIDIA driver (libnvidia-ml.so.1 not found)", List.of()));
        assertThat(none.figures()).as("CPU, memory and I/O are one reading per window: no spread, no figure").isEmpty();
        assertThat(Json.MAPPER.readTree(Json.write(none)).path("figures").isArray()).isTrue();

        Checklist one = withGpus(new GpuSection(null, List.of(gpu(0, "0000:3b:00.0", 35.2, 20, 60, 30.0, 5))));
        JsonNode j = Json.MAPPER.readTree(Json.write(one)).path("figures");
        assertThat(j).hasSize(1);
        assertThat(j.get(0).path("key").asText()).isEqualTo("gpu_util_percent");
        assertThat(j.get(0).path("scope").asText()).isEqualTo("gpu:0000:3b:00.0");
        assertThat(j.get(0).path("unit").asText()).isEqualTo("%");
        assertThat(j.get(0).path("better").asText()).isEqualTo("higher");
        assertThat(j.get(0).path("value").asDouble()).isEqualTo(30.0);
        assertThat(j.get(0).path("samples").asInt()).isEqualTo(5);
    }
}
