package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.Fixtures;
import hostside.core.CpuSet;
import hostside.core.Json;
import hostside.core.Scope;
import hostside.fs.FsRoot;
import hostside.gpu.bench.Copies;
import hostside.gpu.bench.Sweep;
import hostside.gpu.peer.PeerCopies;
import hostside.harness.DetailTypes;
import hostside.harness.DrillContext;
import hostside.harness.Result;
import hostside.harness.Selection;
import hostside.harness.TestCase;
import hostside.testing.CliRun;

/**
 * A run of Module 1 reads back from its own JSON into an equal record, details as their records
 * (not maps), so that a report's --from, compare and the learning pages work on types; and the
 * Module 1 part of a hostside/1 report reads into the same records.
 */
class MachineReadBackTest {
    @BeforeAll
    static void register() {
        List<TestCase<?>> all = new ArrayList<>(GpuDrill.tests());
        all.addAll(GpuDrill.allGpuTests());
        all.addAll(PeerCopies.loopbacks());
        all.addAll(MemoryDrill.tests());
        DetailTypes.register(all);
    }

    /** JSON to record to JSON: the same tree, and the record read equals the one written. */
    static MachineRun roundTrip(MachineRun run) throws Exception {
        ObjectNode json = run.json();
        MachineRun back = Json.MAPPER.treeToValue(json, MachineRun.class);
        assertThat(back.json()).isEqualTo(json);
        assertThat(back).isEqualTo(run);
        // and through the text, as a report file is read
        assertThat(Json.MAPPER.readValue(Json.write(json), MachineRun.class)).isEqualTo(run);
        return back;
    }

    @Test
    void aRunWithMemoryFiguresReadsBackEqualWithThemInItsFigures() throws Exception {
        MachineRun recorded = MachineDrill.DRILL.run(DrillContext.alone(FsRoot.open(Fixtures.h200().toString()), Selection.all(), e -> { }, null), MachineDrill.DRILL.defaults());
        MemoryDrill.MemorySection memory = new MemoryDrill.MemorySection("", MemoryVerdictsTest.TWO_NODES, List.of(
                MemoryVerdictsTest.stream(MemoryVerdictsTest.TRIAD, Scope.MACHINE, "all CPUs", 200, 195, 205, CpuSet.range(0, 7)),
                MemoryVerdictsTest.read(0, 1, 61, 60, 62), MemoryVerdictsTest.latency(0, 1, 140)));
        MachineRun run = new MachineRun(recorded.facts(), recorded.gpu(), recorded.gpuMatrix(), memory);
        MachineRun back = roundTrip(run);
        assertThat(back.memory()).isEqualTo(memory);
        assertThat(back.figures()).extracting(f -> f.key() + "@" + f.scope()).startsWith("memory_bandwidth_triad@machine", "memory_bandwidth_copy@machine",
                "memory_bandwidth_scale@machine", "memory_bandwidth_add@machine", "memory_bandwidth_read@nodes:0,1", "memory_latency@nodes:0,1");
        // a document from before the memory measurements (no "memory") reads with none
        ObjectNode old = run.json();
        old.remove("memory");
        assertThat(Json.MAPPER.treeToValue(old, MachineRun.class).memory()).isNull();
    }

    @Test
    void theH200RecordingReadsBackEqual() throws Exception {
        MachineRun recorded = MachineDrill.DRILL.run(DrillContext.alone(FsRoot.open(Fixtures.h200().toString()), Selection.all(), e -> { }, null), MachineDrill.DRILL.defaults());
        roundTrip(recorded);
        // what `hostside machine --root ... --json` prints is that document
        CliRun cli = CliRun.of("machine", "--root", Fixtures.h200().toString(), "--json");
        assertThat(cli.code()).as(cli.err()).isZero();
        JsonNode printed = Json.MAPPER.readTree(cli.out());
        // (as text: a number parsed is an int node where the record wrote a long one, the same JSON all the same)
        assertThat(Json.write(Json.MAPPER.treeToValue(printed, MachineRun.class).json())).isEqualTo(Json.write(printed));
    }

    @Test
    void aRunWithEveryCaseMeasuredReadsBackEqual() throws Exception {
        MachineRun back = roundTrip(MachineFiguresTest.h200());
        assertThat(back.gpu().runs().getFirst().results()).allSatisfy(r -> assertThat(r.detail()).as(r.key())
                .isInstanceOf(GpuDrill.tests().stream().filter(t -> t.key().equals(r.key())).findFirst().orElseThrow().detailType()));
        assertThat(back.figures()).isEqualTo(MachineFiguresTest.h200().figures());
    }

    @Test
    void theAllGpuCasesOnTwoGpusReadBackEqual() throws Exception {
        MachineFacts h200 = MachineFiguresTest.H200_FACTS;
        MachineFacts box = new MachineFacts(h200.schema(), h200.host(), NvlinkBoxes.nodes(1), NvlinkBoxes.twoBridgedPci(),
                Affinity.of(NvlinkBoxes.twoBridgedPci(), NvlinkBoxes.nodes(1)), h200.iommu(), h200.kernelCmdline(), List.of(), List.of());
        MachineRun run = new MachineRun(box, new GpuDrill.GpuSection("", PeerMatrixViewTest.cuda(GpuResults.TWO), null, List.of(),
                GpuResults.twoGpus(), List.of()));
        roundTrip(run);
    }

    @Test
    void aGpuSectionNotRunReadsBackEqual() throws Exception {
        roundTrip(new MachineRun(MachineFiguresTest.H200_FACTS, GpuDrill.GpuSection.notRun("no NVIDIA driver (libcuda.so.1 not found)", null)));
    }

    /** modules[0].data of the report hostside wrote on the H200 on 2026-12-03 (schema hostside/1). */
    static JsonNode oldModule1() throws Exception {
        JsonNode report = Fixtures.firstSchemaReport();
        for (JsonNode m : report.path("modules")) if (m.path("module").asInt() == 1) return m.path("data");
        throw new AssertionError("no Module 1 in the report");
    }

    @Test
    void theModuleOfAHostside1ReportReadsIntoTheRecords() throws Exception {
        MachineRun old = Json.MAPPER.treeToValue(oldModule1(), MachineRun.class);
        assertThat(old.facts().gpus()).extracting(PciDevice::address).containsExactly("0000:00:06.0");
        GpuDrill.GpuRun gpu0 = old.gpu().runs().getFirst();
        Result pinned = gpu0.results().getFirst();
        assertThat(pinned.key()).isEqualTo("host_to_device_ce_pinned");
        assertThat(pinned.value().median()).isEqualTo(55.46420806240603);
        assertThat(pinned.detail()).isEqualTo(new Copies.CopyDetail("NVIDIA H200 (0000:00:06.0)", 536870912L, 8));
        Copies.BidirectionalDetail bidir = (Copies.BidirectionalDetail) gpu0.results().get(2).detail();
        assertThat(bidir.deviceToHostGBs().median()).isEqualTo(50.855230060092374);
        // hostside/1 kept the sweep's sizes as "points": they read into the sweep
        Sweep.SweepDetail sweep = (Sweep.SweepDetail) gpu0.results().stream().filter(r -> r.key().equals("host_to_device_sweep_pinned"))
                .findFirst().orElseThrow().detail();
        assertThat(sweep.sweep().points()).hasSize(10);
        assertThat(sweep.sweep().points().getFirst().bytes()).isEqualTo(4096);
        assertThat(sweep.copies().getFirst()).isEqualTo(256);
        assertThat(sweep.halfPeakBytes()).isEqualTo(262144);
        // an old report has no anchors, but its figures are figures all the same
        assertThat(old.figures()).extracting(f -> f.key()).contains("host_to_device_ce_pinned", "bidirectional_ce_pinned_device_to_host",
                "host_to_device_sweep_pinned_half_peak_bytes", "host_to_all_memcpy_ce");
        // and what it reads as writes the same again
        assertThat(Json.MAPPER.treeToValue(old.json(), MachineRun.class)).isEqualTo(old);
    }
}
