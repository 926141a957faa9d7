package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.Fixtures;
import hostside.core.CpuSet;
import hostside.core.Distribution;
import hostside.core.Json;
import hostside.core.Unit;
import hostside.cpu.measure.LaunchJitter;
import hostside.cpu.measure.SchedCosts;
import hostside.machine.TopologyRules;

/** A report of schema hostside/1 is rewritten into today's shape in one place, before any reader sees it. */
class UpgradeTest {
    /** A hostside/1 report holding one module's data. */
    static JsonNode report(int module, String data) throws Exception {
        return Json.MAPPER.readTree("{\"schema\": \"hostside/1\", \"kind\": \"report\", \"modules\": [{\"module\": " + module + ", \"data\": " + data + "}]}");
    }

    static JsonNode data(JsonNode upgraded) {
        return upgraded.path("modules").get(0).path("data");
    }

    @Test
    void aJitterDetailsSeriesAndCpusReadInTodaysShape() throws Exception {
        JsonNode old = report(3, """
                {"measured": {"results": [{"key": "launch_jitter", "status": "ok", "unit": "ns", "value": {"median": 1, "min": 1, "max": 1, "samples": 1},
                 "detail": {"launches": 20000, "periodNs": 100000, "gpu": null, "feederCpu": 0, "hogCpus": [1, 2, 3], "timerSlackNs": 50000,
                 "missedTicks": 234, "warmupTicks": 13057, "warmupMs": 1307, "jitSettledInWarmup": true,
                 "lateNs": {"p50": 54687, "p99": 58399, "p99.9": 103103, "max": 5296127},
                 "gapNs": {"p50": 100031, "p99": 102719, "p99.9": 155391, "max": 5341183}}},
                 {"key": "sched_pingpong", "status": "ok", "detail": {"cpus": [0, 1], "roundTripsPerSample": 20000}}]}}
                """);
        JsonNode results = data(Upgrade.report(old)).path("measured").path("results");
        assertThat(results.get(0).path("better").asText()).as("the way ns are usually better").isEqualTo("lower");
        LaunchJitter.Detail d = Json.MAPPER.treeToValue(results.get(0).path("detail"), LaunchJitter.Detail.class);
        assertThat(d.hogCpus()).isEqualTo(CpuSet.range(1, 3));
        assertThat(d.lateNs()).isEqualTo(new Distribution(Unit.NS, 0, 54687, 58399, 103103, 5296127, List.of()));
        assertThat(d.launchNs()).isNull();
        assertThat(Json.MAPPER.treeToValue(results.get(1).path("detail"), SchedCosts.PingPong.Detail.class).cpus()).isEqualTo(CpuSet.of(0, 1));
        assertThat(old.toString()).as("the document given is left as it was").contains("p99.9").doesNotContain("better");
    }

    @Test
    void cpusThatAreNoNumbersAreLeftForTheReaderToRefuse() throws Exception {
        JsonNode old = report(3, "{\"measured\": {\"results\": [{\"key\": \"sched_pingpong\", \"status\": \"ok\", \"detail\": {\"cpus\": [1, \"x\"]}}]}}");
        assertThat(data(Upgrade.report(old)).path("measured").path("results").get(0).path("detail").path("cpus").isArray()).isTrue();
    }

    @Test
    void moduleOnesWordCodesAreTodaysRuleIds() throws Exception {
        JsonNode old = report(1, """
                {"findings": [{"severity": "warn", "subject": "GPU0", "text": "t", "code": "link-below-max"},
                 {"severity": "info", "subject": "GPU0", "text": "t", "code": "idle-link-below-max"}, {"severity": "info", "subject": "NUMA", "text": "t", "code": ""}]}
                """);
        JsonNode findings = data(Upgrade.report(old)).path("findings");
        assertThat(findings.findValuesAsText("id")).containsExactly(TopologyRules.LINK_BELOW_MAX.id(), TopologyRules.LINK_IDLE.id(), "");
        assertThat(findings.findValues("code")).isEmpty();
    }

    @Test
    void anIoResultsFioOptionsAreItsAnchor() throws Exception {
        JsonNode old = report(4, """
                {"results": [{"key": "seq_read_cold_qd1", "status": "ok", "unit": "GB/s", "value": {"median": 1.75, "min": 1.64, "max": 1.78, "samples": 5},
                 "detail": {"fio": "--rw=read --bs=1M", "iops": 1666, "latencyUs": {"p50": 136, "p99": 8118, "max": 9000}, "fsyncMs": 2.5}}]}
                """);
        JsonNode r = data(Upgrade.report(old)).path("results").get(0);
        assertThat(r.path("anchor").asText()).isEqualTo("fio --rw=read --bs=1M");
        assertThat(r.path("better").asText()).isEqualTo("higher");
        assertThat(r.path("detail").has("fio")).isFalse();
        assertThat(r.path("detail").has("iops")).isFalse();
        assertThat(r.path("detail").path("latencyUs").path("p999").asDouble()).as("the max, p99.9's upper bound").isEqualTo(9000);
        assertThat(r.path("detail").path("fsyncMs").path("samples").asInt()).isEqualTo(1);
    }

    @Test
    void moduleTwoMeasuredOnTheFirstGpuItLists() throws Exception {
        JsonNode old = report(2, "{\"gpu\": {\"gpus\": [{\"pciAddress\": \"0000:00:06.0\"}], \"results\": [{\"key\": \"k\", \"status\": \"ok\"}]}}");
        assertThat(data(Upgrade.report(old)).path("gpu").path("measuredPciAddress").asText()).isEqualTo("0000:00:06.0");
        JsonNode none = report(2, "{\"gpu\": {\"gpus\": [{\"pciAddress\": \"0000:00:06.0\"}], \"results\": []}}");
        assertThat(data(Upgrade.report(none)).path("gpu").path("measuredPciAddress").asText()).isEmpty();
    }

    @Test
    void aReportOfTodaysSchemaPassesAsItIs() throws Exception {
        JsonNode now = Json.MAPPER.readTree(Fixtures.testdata().resolve("reports/h200-hostside2.json").toFile());
        assertThat(Upgrade.report(now)).isSameAs(now);
    }
}
