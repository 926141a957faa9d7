package hostside.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.Fixtures;
import hostside.core.Finding;
import hostside.core.Json;
import hostside.core.Severity;
import hostside.core.Stats;
import hostside.fs.FsRoot;
import hostside.harness.DetailTypes;
import hostside.harness.DrillContext;
import hostside.harness.ProgressSink;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.Selection;
import hostside.harness.TestCase;
import hostside.io.facts.IoVerdicts;
import hostside.io.measure.IoTarget;
import hostside.io.measure.ReadTest;
import hostside.io.measure.WriteTest;
import hostside.machine.Host;
import hostside.testing.CliRun;

/** An I/O run's JSON reads back into an equal run, and the I/O part of a report of schema hostside/1 reads into the same records. */
class IoReadBackTest {
    @BeforeAll
    static void registerTheCases() {
        DetailTypes.register(IoDrill.tests());
    }

    /** A tree as the JSON text reads: a tree built from records holds longs where a parsed one holds ints, and the two differ. */
    static JsonNode parsed(JsonNode tree) throws Exception {
        return Json.MAPPER.readTree(Json.write(tree));
    }

    static IoRun readBack(JsonNode json) throws Exception {
        return Json.MAPPER.treeToValue(json, IoRun.class);
    }

    @Test
    void theH200RecordingAsTheCommandWritesIt() throws Exception {
        CliRun r = CliRun.of("io", "--root", Fixtures.h200().toString(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode written = Json.MAPPER.readTree(r.out());
        IoRun run = readBack(written);
        assertThat(parsed(run.json())).isEqualTo(written);
        assertThat(run.facts().nics()).extracting(n -> n.name()).containsExactly("eth0");
        assertThat(run.results()).hasSize(IoDrill.tests().size()).allSatisfy(x -> assertThat(x.why()).isEqualTo(Runner.RECORDED));
    }

    @Test
    void theH200RecordingAsTheDrillMakesIt() throws Exception {
        IoRun run = IoDrill.DRILL.run(DrillContext.alone(FsRoot.open(Fixtures.h200().toString()), Selection.all(), ProgressSink.NONE, null), IoDrill.DRILL.defaults());
        assertThat(readBack(run.json())).isEqualTo(run);
    }

    /** Every case measured, facts with Lustre, NVMe and InfiniBand, findings and verdicts. */
    static IoRun everyCase() {
        FsRoot fs = FsRoot.open(Fixtures.hwloc().resolve("32em64t-2n8c+dax+nvme+mic+dimms.tar.bz2").toString());
        var facts = IoDrill.facts(fs, Host.read(fs), new IoDrill.Options(Path.of("/work/run"), null, null, null));
        List<Result> results = new ArrayList<>();
        double v = 1;
        for (TestCase<IoTarget> t : IoDrill.tests()) {
            v += 0.5;
            if (t instanceof ReadTest read) {
                boolean seq = read.pattern() == ReadTest.Pattern.SEQUENTIAL;
                Stats value = seq ? new Stats(v, v - 0.25, v + 0.25, 5) : new Stats(v * 10_000, v * 9_000, v * 11_000, 5);
                Long cached = read.cache() == ReadTest.Cache.DIRECT ? null : 1L << 30;
                results.add(IoResults.read(t.key(), value, IoResults.latency(v * 10, v * 40, v * 100), cached));
            } else {
                WriteTest w = (WriteTest) t;
                results.add(IoResults.write(t.key(), new Stats(v, v - 0.1, v + 0.1, 3), w.fsync() ? new Stats(410, 400, 430, 3) : null));
            }
        }
        return new IoRun(new Host("node", "6.8", "x86_64", "none detected", "", null, "live"), facts,
                IoVerdicts.of(facts, List.of(0)), new IoRun.FileUsed(IoResults.FILE, 2L << 30, "xfs", true), results,
                MeasuredVerdicts.of(results, false, "/data", null));
    }

    @Test
    void aHandBuiltRunOfEveryCase() throws Exception {
        IoRun run = everyCase();
        assertThat(run.facts().rdmaDevices()).isNotEmpty();
        assertThat(run.findings()).isNotEmpty();
        assertThat(run.results()).allSatisfy(r -> assertThat(r.isOk()).isTrue());
        JsonNode json = run.json();
        IoRun back = readBack(json);
        assertThat(back).isEqualTo(run);
        assertThat(parsed(back.json())).isEqualTo(parsed(json));
        assertThat(back.results().getFirst().detail()).isInstanceOf(ReadTest.ReadDetail.class);
        assertThat(back.results().getLast().detail()).isInstanceOf(WriteTest.WriteDetail.class);
        assertThat(back.figures()).isEqualTo(run.figures());
        assertThat(back.verdicts()).as("the findings with their rules and evidence").isEqualTo(run.verdicts())
                .extracting(Finding::id).containsExactly("M4-LOAD-PATH", "M4-PAGE-CACHE", "M4-RANDOM-DEPTH", "M4-SAVE");
    }

    @Test
    void theIoPartOfAReportOfTheFirstSchema() throws Exception {
        JsonNode data = Fixtures.firstSchemaReport().path("modules").get(3).path("data");
        assertThat(data.path("kind").asText()).isEqualTo("io");
        IoRun old = readBack(data);
        assertThat(old.machine().name()).isEqualTo("vm");
        assertThat(old.file().path()).isEqualTo("/var/tmp/hostside-io-459.tmp");
        assertThat(old.results()).hasSize(11).allSatisfy(r -> assertThat(r.isOk()).isTrue());
        Result cold = old.results().getFirst();
        assertThat(cold.anchor()).as("the options its detail kept, as the anchor")
                .isEqualTo("fio --rw=read --bs=1M --ioengine=psync --iodepth=1 --direct=0 --invalidate=1 --io_size=1073741824");
        ReadTest.ReadDetail d = (ReadTest.ReadDetail) cold.detail();
        assertThat(d.latencyUs().p50()).isEqualTo(136.319);
        assertThat(d.latencyUs().p99()).isEqualTo(8118.271);
        assertThat(d.latencyUs().count()).as("not kept then").isZero();
        assertThat(d.pageCacheBytes()).isEqualTo(1082130432L);
        assertThat(d.residentBeforePercent()).isEqualTo(0.390625);
        assertThat(d.otherUnit(cold.unit(), cold.value()).median()).as("the IOPS it wrote, derived").isCloseTo(1665.9489203401536, org.assertj.core.data.Offset.offset(1e-6));
        WriteTest.WriteDetail fsync = (WriteTest.WriteDetail) old.results().getLast().detail();
        assertThat(fsync.fsyncMs().samples()).as("the median alone").isEqualTo(1);
        assertThat(old.figures()).extracting(f -> f.key()).contains("seq_read_cold_qd1", "seq_read_cold_qd1_iops", "write_fsync_fsync")
                .doesNotContain("seq_read_cold_qd1_p99");
        assertThat(old.figures()).extracting(f -> f.scope().toString()).containsOnly("dir:/var/tmp");
        assertThat(old.verdicts()).as("its verdicts were lines: info findings of no rule").hasSize(4).allSatisfy(f -> {
            assertThat(f.severity()).isEqualTo(Severity.INFO);
            assertThat(f.id()).isEmpty();
        });
        assertThat(old.verdicts().getFirst().text()).startsWith("Loading a checkpoint (sequential 1 MiB reads): 1.75 GB/s");
        assertThat(readBack(old.json())).as("and once read, as any run").isEqualTo(old);
    }
}
