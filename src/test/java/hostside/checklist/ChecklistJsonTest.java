package hostside.checklist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Json;

/** The checklist's JSON keeps the words it wrote before its values were typed: enums and CPU sets write what the strings did. */
class ChecklistJsonTest {
    @TempDir
    Path dir;

    /** The training job of {@link SamplerTest} with a kernel log of an OOM kill by the cgroup's limit (the verdicts are the window's, not the log's). */
    Checklist job() throws InterruptedException {
        return Checklists.with(Checklists.job(dir), Checklists.kernel(), new GpuSection("-", List.of()), List.of());
    }

    @Test
    void wordsAndListsAreWrittenAsBefore() throws Exception {
        JsonNode j = Json.MAPPER.readTree(Json.write(job()));
        assertThat(j.path("window").path("mode").asText()).isEqualTo("live");
        assertThat(j.path("load").path("pressure").fieldNames()).toIterable().containsExactly("cpu", "memory", "io");
        JsonNode loader = j.path("process").path("threadList").get(0);
        assertThat(loader.path("name").asText()).isEqualTo("pt_data_loader");
        assertThat(loader.path("state").asText()).isEqualTo("R");
        assertThat(loader.path("stateShares").fieldNames()).toIterable().containsExactly("R", "D");
        assertThat(j.path("process").path("children").path("list").get(0).path("state").asText()).isEqualTo("R");
        assertThat(j.path("process").path("cpusAllowed").asText()).isEqualTo("0-3");
        JsonNode events = j.path("kernel").path("events");
        assertThat(events).extracting(e -> e.path("kind").asText()).containsExactly("hung-task", "xid", "oom-kill");
        JsonNode oom = events.get(2);
        assertThat(oom.path("cgroupLimit").asBoolean()).isTrue();
        assertThat(j.path("verdict").path("id").asText()).isEqualTo("M4-60S-CPU-BOUND-FEEDING");
        assertThat(j.path("verdict").path("severity").asText()).isEqualTo("warn");
    }
}
