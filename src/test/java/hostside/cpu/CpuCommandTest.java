package hostside.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Json;
import hostside.testing.CliRun;

/** `hostside cpu` as a user runs it: options, bad input, a recorded machine, a short live run, the report. */
class CpuCommandTest {
    static final String H200 = hostside.Fixtures.h200().toString();

    static CliRun run(String... args) {
        return CliRun.of(args);
    }

    static JsonNode json(CliRun r) throws Exception {
        return Json.MAPPER.readTree(r.out());
    }

    @Test
    void listNamesEveryMeasurement() {
        CliRun r = run("cpu", "--list");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("syscall_getppid", "context_switch_same_core", "context_switch_cross_core", "futex_wakeup_cross_core",
                "thread_migration", "timer_jitter_quiet", "timer_jitter_noisy", "launch_jitter_quiet", "launch_jitter_noisy", "launch_jitter_pinned", "launch_jitter_graph",
                "dataloader_cow_list", "dataloader_cow_array", "fork_vs_spawn_cuda");
    }

    @Test
    void badInputIsOneLineAndExitTwo() {
        for (String[] args : new String[][] {{"cpu", "--only", "nosuch"}, {"cpu", "--launches", "5"}, {"cpu", "--period-us", "1"},
                {"cpu", "--workers", "0"}, {"cpu", "--pid", "5"}, {"cpu", "--trace", "--pid", "999999999"}, {"cpu", "--trace", "--seconds", "0"},
                {"cpu", "--dataset-size", "lots"}}) {
            CliRun r = run(args);
            assertThat(r.code()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(r.err().strip()).as(String.join(" ", args)).startsWith("hostside: ").doesNotContain("\n").doesNotContain("Exception");
        }
    }

    @Test
    void aRecordingGivesFactsAndMeasuresNothing() throws Exception {
        CliRun r = run("cpu", "--root", H200, "--json");
        assertThat(r.code()).isZero();
        JsonNode j = json(r);
        assertThat(j.path("schema").asText()).isEqualTo("hostside/2");
        assertThat(j.path("kind").asText()).isEqualTo("cpu");
        assertThat(j.path("facts").path("kernel").path("scheduler").asText()).isEqualTo("EEVDF");
        assertThat(j.path("facts").path("irqs").path("devices")).isNotEmpty();
        for (JsonNode x : j.path("measured").path("results")) {
            assertThat(x.path("status").asText()).isEqualTo("not run");
            assertThat(x.path("why").asText()).contains("recorded machine");
        }
        for (JsonNode x : j.path("dataloader")) assertThat(x.path("status").asText()).isEqualTo("not run");
        assertThat(j.path("findings")).isNotEmpty();
        assertThat(run("cpu", "--root", H200).out()).contains("The CPU that feeds the GPU").containsPattern("\\nMeasurements\\n +not run: recorded machine");
    }

    @Test
    void aShortLiveRunMeasuresTheJitterOnTheTimer() throws Exception {
        CliRun r = run("cpu", "--only", "timer_jitter_quiet,launch_jitter_quiet", "--launches", "200", "--period-us", "200", "--json");
        assertThat(r.code()).isZero();
        JsonNode res = json(r).path("measured").path("results");
        assertThat(res).hasSize(2);
        JsonNode timer = res.get(0), launch = res.get(1);
        assertThat(timer.path("key").asText()).isEqualTo("timer_jitter_quiet");
        assertThat(timer.path("status").asText()).isEqualTo("ok");
        assertThat(timer.path("anchor").asText()).isEqualTo("refs timer: cyclictest's loop without SCHED_FIFO");
        assertThat(timer.path("detail").path("lateNs").path("p99").asLong()).isPositive();
        assertThat(timer.path("detail").path("missedTicks").isIntegralNumber()).isTrue();
        assertThat(timer.path("detail").path("segments")).hasSize(5);
        assertThat(json(r).path("dataloader")).as("--only picked none of them").isEmpty();
        // the launch condition runs on a GPU only
        boolean gpu = !json(r).path("measured").path("gpu").asText().isEmpty();
        assertThat(launch.path("status").asText()).isEqualTo(gpu ? "ok" : "not run");
        if (!gpu) assertThat(launch.path("why").asText()).startsWith("no GPU to launch on");
        CliRun human = run("cpu", "--only", "timer_jitter_quiet", "--launches", "200", "--period-us", "200");
        assertThat(human.code()).isZero();
        assertThat(human.out()).contains("Timer and launch jitter").containsPattern("condition +late p50 +p99 +p99\\.9 +max +missed +launch p50")
                .containsPattern("\\n +timer quiet +\\d+\\.\\d +\\d+\\.\\d +\\d+\\.\\d +\\d+\\.\\d +\\d+( \\(\\d+\\.\\d%\\))? +- ")
                .contains("missed: ticks that had passed by the time the feeder woke");
    }

    @Test
    void theReportRendersModuleThreeFromItsJson(@TempDir Path out) throws Exception {
        CliRun r = run("report", "--root", H200, "--out", out.toString(), "--name", "box");
        assertThat(r.code()).isZero();
        String md = Files.readString(out.resolve("box.md"));
        String section = md.substring(md.indexOf("## Module 3"), md.indexOf("## Module 4"));
        assertThat(section).contains("### Scheduler, isolation, IRQs", "EEVDF scheduler", "| GPU0 | gpu |", "### Findings",
                "not run: recorded machine");
        JsonNode report = Json.MAPPER.readTree(out.resolve("box.json").toFile());
        JsonNode m3 = report.path("modules").get(2);
        assertThat(m3.path("module").asInt()).isEqualTo(3);
        assertThat(m3.path("data").path("kind").asText()).isEqualTo("cpu");
        // rendering again from the JSON alone gives the same page
        CliRun again = run("report", "--from", out.resolve("box.json").toString(), "--out", out.resolve("again").toString());
        assertThat(again.code()).isZero();
        assertThat(Files.readString(out.resolve("again/box.md"))).isEqualTo(md);
    }
}
