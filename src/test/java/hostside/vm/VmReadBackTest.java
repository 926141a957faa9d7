package hostside.vm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Json;
import hostside.core.Sweep;
import hostside.core.Unit;
import hostside.fs.FsRoot;
import hostside.harness.Cut;
import hostside.harness.DrillContext;
import hostside.harness.Result;
import hostside.harness.Selection;
import hostside.vm.facts.VmFacts;
import hostside.vm.measure.AnonTouch;
import hostside.vm.measure.FileRead;
import hostside.vm.measure.ManagedMigration;
import hostside.vm.measure.TlbReach;

/**
 * A Module 2 run read back from its own JSON is the same run, its details the cases' records again;
 * and the vm part of a report of schema hostside/1 reads into the same records.
 */
class VmReadBackTest {
    @BeforeAll
    static void register() {
        Runs.registerDetails();
    }

    static VmRun readBack(JsonNode json) throws Exception {
        return Json.MAPPER.treeToValue(json, VmRun.class);
    }

    static void sameBothWays(VmRun run) throws Exception {
        JsonNode json = run.json();
        VmRun back = readBack(json);
        assertThat(back).isEqualTo(run);
        assertThat(back.json()).isEqualTo(json);
        // and through text, as a report file is read
        assertThat(readBack(Json.MAPPER.readTree(Json.write(json)))).isEqualTo(run);
    }

    @Test
    void theH200RecordingReadsBackEqual() throws Exception {
        VmRun run = VmDrill.DRILL.run(DrillContext.alone(FsRoot.open(hostside.Fixtures.h200().toString()), Selection.all(), k -> { }, null),
                VmDrill.DRILL.defaults());
        assertThat(run.host()).isNotEmpty().allSatisfy(r -> assertThat(r.isOk()).isFalse());
        sameBothWays(run);
    }

    @Test
    void theCommandLinesLoadBesideTheRunIsSkipped() throws Exception {
        VmRun run = Runs.measured(new Cut("--anon-size", 1L << 40, 256L << 20, "a quarter of available memory (by hand)"));
        com.fasterxml.jackson.databind.node.ObjectNode json = run.json().deepCopy();
        json.putObject("load").put("busy", true); // what `hostside vm --json` sets beside the run when it read the load
        assertThat(readBack(json)).isEqualTo(run);
    }

    @Test
    void aRunWithEveryCaseMeasuredReadsBackEqualWithItsRecords() throws Exception {
        VmRun run = Runs.measured(new Cut("--anon-size", 1L << 40, 256L << 20, "a quarter of available memory (by hand)"));
        sameBothWays(run);
        VmRun back = readBack(run.json());
        assertThat(back.host()).extracting(r -> (Object) r.detail().getClass()).containsExactly(
                FileRead.FileDetail.class, FileRead.FileDetail.class, FileRead.FileDetail.class, FileRead.FileDetail.class,
                AnonTouch.TouchDetail.class, AnonTouch.TouchDetail.class, TlbReach.TlbDetail.class, TlbReach.TlbDetail.class);
        assertThat(Cut.in(back.host().get(4))).as("the cut survives").contains(run.host().get(4).detail() instanceof Cut.Holder h ? h.cut() : null);
        assertThat(back.gpu().results()).filteredOn(r -> r.key().startsWith("managed_"))
                .allSatisfy(r -> assertThat(r.detail()).isInstanceOf(ManagedMigration.MigrationDetail.class));
        assertThat(back.figures()).isEqualTo(run.figures());
    }

    @Test
    void failedAndNotRunCasesReadBackEqual() throws Exception {
        sameBothWays(Runs.someNotMeasured());
        VmRun none = new VmRun(Runs.measured().machine(), Runs.measured().facts(), List.of(), List.of(), VmGpu.notRun("no NVIDIA driver"), List.of());
        sameBothWays(none);
    }

    /** The vm module's data of the H200 report of 2026-12-03, schema hostside/1. */
    static JsonNode firstSchemaVm() throws Exception {
        JsonNode report = hostside.Fixtures.firstSchemaReport();
        for (JsonNode m : report.path("modules")) if (m.path("data").path("kind").asText().equals("vm")) return m.path("data");
        throw new AssertionError("no vm module in the report");
    }

    @Test
    void theFirstSchemasReportReadsIntoTheRecords() throws Exception {
        VmRun old = readBack(firstSchemaVm());
        assertThat(old.machine().name()).isEqualTo("vm");
        VmFacts f = old.facts();
        assertThat(f.pageSize().bytes()).isEqualTo(4096L);
        assertThat(f.thp().enabled().selected()).isEqualTo("madvise");
        assertThat(old.findings()).hasSize(2);
        assertThat(old.host()).hasSize(8).allSatisfy(r -> assertThat(r.isOk()).isTrue());

        var cold = (FileRead.FileDetail) old.host().get(0).detail();
        assertThat(cold.fileBytes()).isEqualTo(1L << 30);
        assertThat(cold.residentAtStartPercent()).isEqualTo(0.0);
        assertThat(cold.dir()).isEqualTo(Path.of("/var/tmp"));
        assertThat(((FileRead.FileDetail) old.host().get(2).detail()).residentAtStartPercent()).as("warm: none written then").isNull();

        var base = (AnonTouch.TouchDetail) old.host().get(4).detail();
        assertThat(base.usPerFault()).isEqualTo(1.651791748046875);
        assertThat(base.hugePercent()).isNull();
        assertThat(base.cut()).isNull();
        var thp = (AnonTouch.TouchDetail) old.host().get(5).detail();
        assertThat(thp.hugePercent()).isEqualTo(100.0);
        assertThat(thp.thpFaultFallback()).isZero();

        // the curve was a list "points" of {bytes, ns}: it is the sweep in ns now
        var tlb = (TlbReach.TlbDetail) old.host().get(6).detail();
        Sweep s = tlb.sweep();
        assertThat(s.unit()).isEqualTo(Unit.NS);
        assertThat(s.points()).hasSize(9);
        assertThat(s.points().getFirst().bytes()).isEqualTo(64L << 10);
        assertThat(s.points().getLast().bytes()).isEqualTo(4L << 30);
        assertThat(s.points().getLast().value()).isEqualTo(old.host().get(6).value());
        assertThat(((TlbReach.TlbDetail) old.host().get(7).detail()).hugePageSize()).isEqualTo(2L << 20);

        assertThat(old.gpu().gpus()).hasSize(1);
        assertThat(old.gpu().measuredPciAddress()).as("the first GPU, where the drill measured").isEqualTo("0000:00:06.0");
        Result back = old.gpu().results().stream().filter(r -> r.key().equals("managed_cpu_faults_d2h")).findFirst().orElseThrow();
        assertThat(((ManagedMigration.MigrationDetail) back.detail()).cpuFaultsCounted()).isZero();
        assertThat(old.verdicts()).hasSize(7);
    }

    @Test
    void theFirstSchemasRunGivesItsFigures() throws Exception {
        VmRun old = readBack(firstSchemaVm());
        assertThat(old.figures()).hasSize(17);
        assertThat(old.figures().getFirst().scope().toString()).isEqualTo("dir:/var/tmp");
        assertThat(old.figures()).filteredOn(f -> f.key().startsWith("managed_")).allSatisfy(f -> assertThat(f.scope().toString()).isEqualTo("gpu:0000:00:06.0"));
        // read once into the records, the old run writes and reads back as any other
        sameBothWays(old);
    }
}
