package hostside.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.core.CpuSet;
import hostside.core.Finding;
import hostside.core.Json;
import hostside.cpu.dataloader.CowDetail;
import hostside.cpu.dataloader.DatasetKind;
import hostside.cpu.dataloader.SpawnDetail;
import hostside.cpu.facts.CpuFacts;
import hostside.cpu.measure.LaunchJitter;
import hostside.cpu.measure.SchedCosts;
import hostside.harness.DetailTypes;
import hostside.harness.Result;
import hostside.harness.Status;
import hostside.testing.CliRun;

/** A run reads back from its own JSON into an equal record, and an old report's Module 3 into the typed records. */
class CpuRunJsonTest {
    @BeforeAll
    static void register() {
        DetailTypes.register(CpuDrill.DRILL.cases());
    }

    static CpuRun back(JsonNode json) throws Exception {
        return Json.MAPPER.treeToValue(json, CpuRun.class);
    }

    static void roundTrip(CpuRun run) throws Exception {
        ObjectNode json = run.json();
        CpuRun again = back(json);
        assertThat(again).isEqualTo(run);
        assertThat(again.json()).as("JSON to record to JSON").isEqualTo(json);
        assertThat(Json.MAPPER.treeToValue(json.get("facts"), CpuFacts.class)).isEqualTo(run.facts());
        assertThat(Json.MAPPER.treeToValue(json.get("measured"), CpuDrill.Measured.class)).isEqualTo(run.measured());
    }

    @Test
    void theH200RecordingReadsBackEqual() throws Exception {
        CliRun r = CliRun.of("cpu", "--root", CpuCommandTest.H200, "--json");
        assertThat(r.code()).isZero();
        ObjectNode printed = (ObjectNode) Json.MAPPER.readTree(r.out());
        CpuRun run = back(printed);
        assertThat(run.facts().kernel().scheduler()).isEqualTo("EEVDF");
        assertThat(run.measured().results()).isNotEmpty().allMatch(x -> x.status() == Status.NOT_RUN);
        assertThat(Json.write(run.json())).as("what the command printed, read and written again").isEqualTo(r.out());
        roundTrip(run);
    }

    @Test
    void aRunWithEveryCaseMeasuredReadsBackEqual() throws Exception {
        CpuRun run = Runs.full();
        roundTrip(run);
        Result list = back(run.json()).dataloader().getFirst();
        assertThat(list.detail()).as("read back as its record, cut and all").isInstanceOf(CowDetail.class);
        assertThat(((CowDetail) list.detail()).cut().used()).isEqualTo(269_533_184);
    }

    @Test
    void theModuleThreeOfAnOldReportReadsIntoTheRecords() throws Exception {
        JsonNode report = hostside.Fixtures.firstSchemaReport();
        JsonNode data = report.path("modules").get(2).path("data");
        assertThat(data.path("kind").asText()).isEqualTo("cpu");
        CpuRun run = back(data);

        Result syscall = run.measured().results().get(0);
        assertThat(syscall.detail()).isEqualTo(new SchedCosts.Syscall.Detail(11.61453, 139.182685, 200_000));
        assertThat(((SchedCosts.PingPong.Detail) run.measured().results().get(2).detail()).cpus()).as("[0, 1] then").isEqualTo(CpuSet.of(0, 1));
        LaunchJitter.Detail noisy = (LaunchJitter.Detail) run.measured().results().get(6).detail();
        assertThat(noisy.lateNs().p999()).as("p99.9 then").isEqualTo(96319);
        assertThat(noisy.lateNs().histogram()).as("no histogram then").isEmpty();
        assertThat(noisy.hogCpus()).isEqualTo(CpuSet.range(0, 15));
        assertThat(noisy.missedTicks()).isEqualTo(451);
        assertThat(((LaunchJitter.Detail) run.measured().results().get(8).detail()).kernelsPerLaunch()).isEqualTo(10);

        CowDetail cow = (CowDetail) run.dataloader().get(0).detail();
        assertThat(cow.data()).isEqualTo(DatasetKind.LIST);
        assertThat(cow.datasetMeasuredBy()).isEqualTo(CowDetail.DatasetMeasure.MAIN_USS_GROWTH);
        assertThat(cow.perWorker()).hasSize(4);
        assertThat(cow.perWorker().getFirst().samples()).hasSize(32);
        assertThat(cow.rssCheck()).isEqualTo(data.path("dataloader").get(0).path("detail").path("rssCheck").asText());
        SpawnDetail spawn = (SpawnDetail) run.dataloader().get(2).detail();
        assertThat(spawn.fork().failed()).isTrue();
        assertThat(spawn.fork().error()).startsWith("RuntimeError: Cannot re-initialize CUDA in forked subprocess");
        assertThat(spawn.spawnTries()).extracting(SpawnDetail.SpawnTry::attempt).containsExactly(1, 2, 3);

        assertThat(run.figures()).as("an old report has figures too").isNotEmpty();
        List<String> now = MeasuredVerdictsTest.texts(run.machine(), run.measured().results(), true),
                then = run.verdicts().subList(0, 5).stream().map(Finding::text).toList();
        assertThat(now).as("the verdicts read from the records say what the report said then").hasSize(5);
        assertThat(List.of(now.get(1), now.get(4))).containsExactly(then.get(1), then.get(4));
        // the syscall line no longer says launches and syncs pay syscalls (they make none: docs/measurements/2026-12-06-findings-h100.md)
        assertThat(now.get(0)).startsWith(then.get(0).substring(0, then.get(0).indexOf(": cheap enough") + 14)).contains("kernel launches make none");
        // the jitter lines now also give p99.9 and say "within noise"; their figures are the same
        assertThat(now.get(2)).as("no segments then: no spread to call it disturbed").startsWith(then.get(2).substring(0, then.get(2).indexOf("(0.9x)") + 6))
                .contains("p99.9 96 us").contains("2% of the ticks are missed outright");
        assertThat(now.get(3)).isEqualTo(then.get(3).replace("does not help here;", "does not help here (even within noise);"));
    }
}
