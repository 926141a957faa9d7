package hostside.checklist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Json;

/** The checklist's JSON keeps the words it wrote before its values were typed: enums and CPU sets write what the strings did. */
class ChecklistJsonTest {
    @TempDir
    Path dir;

    /** The training job of {@link SamplerTest} over two seconds, with a kernel log of an OOM kill by the cgroup's limit (the verdicts are the window's, not the log's). */
    Checklist job() throws InterruptedException {
        SamplerTest job = new SamplerTest();
        job.dir = dir;
        job.job();
        Checklist c = ChecklistRun.gather(job.box.fs(), SamplerTest.PID, 2, true, new FakeTicker(job::advance), GpuFeed.none("no GPU in a test"), i -> {});
        KernelSection kernel = KernelSectionTest.section(Set.of(SamplerTest.PID, SamplerTest.WORKER),
                KernelSectionTest.record(1, 1800, "Memory cgroup out of memory: Killed process 200 (pt_data_worker) total-vm:1kB, anon-rss:1kB"));
        return new Checklist(c.schema(), c.kind(), c.pid(), c.comm(), c.window(), c.verdict(), c.verdicts(), c.notes(), c.load(), kernel,
                c.cpus(), c.process(), c.io(), c.gpus(), c.unknowns());
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
        JsonNode oom = j.path("kernel").path("events").get(0);
        assertThat(oom.path("kind").asText()).isEqualTo("oom-kill");
        assertThat(oom.path("cgroupLimit").asBoolean()).isTrue();
        assertThat(j.path("verdict").path("code").asText()).isEqualTo("cpu-bound-feeding");
        assertThat(j.path("verdict").path("severity").asText()).isEqualTo("warn");
    }
}
