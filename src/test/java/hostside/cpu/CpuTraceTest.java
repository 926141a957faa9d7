package hostside.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Json;
import hostside.testing.CliRun;

/** `hostside cpu --trace` ends as a result, not a failure: a process blocked in the window, a command that fails. strace is installed here and in CI. */
class CpuTraceTest {
    @Test
    void aBlockedProcessIsZeroCallsAndExitZero() throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "1000").start();
        try {
            CliRun r = CliRun.of("cpu", "--trace", "--pid", Long.toString(sleeper.pid()), "--seconds", "1");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.err()).doesNotContain("Exception").doesNotContain("failed");
            assertThat(r.out().replaceAll("\\s+", " ")).as("the headline, however it wraps")
                    .contains("PID " + sleeper.pid() + " finished no system call in the 1 s window: its thread was blocked in one call");
            CliRun j = CliRun.of("cpu", "--trace", "--pid", Long.toString(sleeper.pid()), "--seconds", "1", "--json");
            assertThat(j.code()).isZero();
            JsonNode n = Json.MAPPER.readTree(j.out());
            assertThat(n.path("headline").asText()).startsWith("PID " + sleeper.pid() + " finished no system call");
            assertThat(n.path("summary").path("totalCalls").asLong()).isZero();
            assertThat(n.has("commandExit")).as("an attached process has no exit of ours to report").isFalse();
            assertThat(sleeper.isAlive()).isTrue();
        } finally {
            sleeper.destroyForcibly();
            sleeper.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aFailingCommandIsReportedAndHostsideExitsZero() throws Exception {
        CliRun r = CliRun.of("cpu", "--trace", "--", "sh", "-c", "echo it broke >&2; exit 3");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("\nthe command exited with status 3 (in both runs)\n");
        CliRun j = CliRun.of("cpu", "--trace", "--json", "--", "sh", "-c", "exit 3");
        assertThat(j.code()).isZero();
        JsonNode e = Json.MAPPER.readTree(j.out()).path("commandExit");
        assertThat(e.path("timedRun").path("status").asInt()).isEqualTo(3);
        assertThat(e.path("summaryRun").path("status").asInt()).isEqualTo(3);
        CliRun ok = CliRun.of("cpu", "--trace", "--json", "--", "true");
        assertThat(Json.MAPPER.readTree(ok.out()).path("commandExit").path("timedRun").path("status").asInt(-1)).isZero();
    }
}
