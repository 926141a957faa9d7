package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Json;

/** Module 3's measured tables in the report, from a `hostside cpu --json` document alone. */
class CpuMarkdownTest {
    static final String MEASURED = """
            {"facts": {}, "findings": [],
             "measured": {"gpu": "NVIDIA H200 (0000:19:00.0)", "results": [
               {"key": "syscall_getppid", "status": "ok", "unit": "ns", "value": {"median": 125.4, "min": 120.0, "max": 140.2, "samples": 25}},
               {"key": "launch_jitter_quiet", "status": "ok", "unit": "us", "value": {"median": 58.1, "min": 1.0, "max": 900.0, "samples": 20000},
                "detail": {"missedTicks": 12, "lateNs": {"p50": 58100, "p99": 61000, "p99.9": 75000, "max": 900000},
                           "launchNs": {"p50": 4000, "p99": 6100, "p99.9": 9000, "max": 30000}}},
               {"key": "launch_jitter_pinned", "status": "not applicable", "why": "this process may run on one CPU only"}]},
             "dataloader": []}
            """;

    @Test
    void jitterRowsCarryPercentilesMissedTicksAndLaunchTimes() throws Exception {
        JsonNode cpu = Json.MAPPER.readTree(MEASURED);
        StringBuilder md = new StringBuilder();
        CpuMarkdown.render(md, cpu);
        String s = md.toString();
        assertThat(s).contains("| `syscall_getppid` | 125 | 120 | 140 | ns |");
        assertThat(s).contains("Empty kernels on NVIDIA H200 (0000:19:00.0), one per tick.");
        assertThat(s).contains("| condition | late p50 | p99 | p99.9 | max | missed ticks | launch p50 | launch p99 |");
        assertThat(s).contains("| quiet | 58.1 | 61.0 | 75.0 | 900.0 | 12 | 4.0 | 6.1 |");
        assertThat(s).contains("| pinned | not applicable: this process may run on one CPU only |");
    }

    @Test
    void aDistributionWrittenNowReadsAsTheOldMapsDid() throws Exception {
        JsonNode cpu = Json.MAPPER.readTree(MEASURED.replace("\"p99.9\": 75000", "\"p999\": 75000, \"unit\": \"ns\", \"count\": 20000, \"histogram\": []"));
        StringBuilder md = new StringBuilder();
        CpuMarkdown.render(md, cpu);
        assertThat(md.toString()).contains("| quiet | 58.1 | 61.0 | 75.0 | 900.0 | 12 | 4.0 | 6.1 |");
    }
}
