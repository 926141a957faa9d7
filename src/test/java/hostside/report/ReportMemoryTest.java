package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.core.Scope;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.cpu.CpuDrill;
import hostside.harness.DrillOptions;
import hostside.harness.MemoryCap;
import hostside.harness.ProgressSink;
import hostside.harness.Result;
import hostside.harness.Status;
import hostside.io.IoDrill;
import hostside.machine.MachineDrill;
import hostside.machine.MachineRun;
import hostside.machine.MemoryDrill;
import hostside.memory.MemoryDetails;
import hostside.memory.Placement;
import hostside.vm.VmDrill;

/** What a report lets each drill hold beyond STREAM's arrays, and how it states what it held. */
class ReportMemoryTest {
    static final long MIB = 1L << 20;

    @Test
    void everyMeasurementBesidesStreamsGetsHalfOfTheFiveHundredTwelveMib() {
        DrillOptions o = Profile.options(new IoDrill.Options(Path.of("/var/tmp"), null, null, null), Profile.Mode.FULL);
        assertThat(Profile.MEASUREMENT.bytes()).isEqualTo(256 * MIB);
        assertThat(o.of(MachineDrill.DRILL).hostCap()).isEqualTo(Profile.MEASUREMENT);
        assertThat(o.of(MachineDrill.DRILL).streamArrayBytes()).as("STREAM's arrays stay STREAM's rule").isNull();
        assertThat(o.of(VmDrill.DRILL).cap()).isEqualTo(Profile.MEASUREMENT);
        CpuDrill.Options cpu = o.of(CpuDrill.DRILL);
        assertThat(cpu.datasetBytes() * (cpu.workers() + 1)).as("main's list and a copy in each worker").isLessThanOrEqualTo(256 * MIB);
        assertThat(cpu.datasetBytes()).isEqualTo(51 * MIB);
        assertThat(cpu.launches()).as("a second of ticks at the drill's cadence, half the drill's window").isEqualTo(10_000).isEqualTo(CpuDrill.Options.defaults().launches() / 2);
        assertThat(cpu.periodNs()).isEqualTo(CpuDrill.Options.defaults().periodNs());
        assertThat(Profile.MEASUREMENT.why()).contains("256.0 MiB").contains("512.0 MiB");
    }

    @Test
    void aMeasurementAfterStreamMayBeAsLargeAsStreamsFreedArrays() {
        assertThat(Profile.afterStream(0)).as("no STREAM ran (a quick report)").isEqualTo(Profile.MEASUREMENT);
        assertThat(Profile.afterStream(192 * MIB)).as("arrays smaller than the share: the share").isEqualTo(Profile.MEASUREMENT);
        MemoryCap h100 = Profile.afterStream(3 * 1200 * MIB);
        assertThat(h100.bytes()).as("what Module 2's figures need: the TLB walk's at 1 GiB, the test file").isEqualTo(1024 * MIB);
        assertThat(h100.why()).contains("the size Module 2's figures are measured at").contains("512.0 MiB besides");
        MemoryCap between = Profile.afterStream(3 * 200 * MIB);
        assertThat(between.bytes()).as("arrays between the share and 1 GiB: the arrays").isEqualTo(600 * MIB);
        assertThat(between.why()).contains("STREAM's three arrays, freed before it");

        var triad = MemoryDrill.tests().stream().filter(t -> t.key().equals("memory_bandwidth_triad")).findFirst().orElseThrow();
        Stats s = new Stats(100, 99, 101, 9);
        CpuSet cpus = CpuSet.range(0, 3);
        MemoryDrill.Measured ran = new MemoryDrill.Measured(Scope.MACHINE, "every CPU", Result.ok(triad, Unit.GB_PER_S, s, "m",
                new MemoryDetails.Stream(s, s, s, 1200 * MIB, cpus, new Placement(null, Map.of(0, 256), 256, ""), "", null)));
        MemoryDrill.Measured failed = new MemoryDrill.Measured(Scope.MACHINE, "every CPU", Result.failed(triad, "no memory"));
        MachineRun machine = new MachineRun(null, null, null, new MemoryDrill.MemorySection("", null, List.of(ran, failed)));
        assertThat(Profile.streamBytes(machine)).isEqualTo(3600 * MIB);
        DrillOptions before = Profile.options(new IoDrill.Options(Path.of("/var/tmp"), null, null, null), Profile.Mode.FULL);
        DrillOptions after = Profile.after(before, machine);
        assertThat(after.of(VmDrill.DRILL).cap().bytes()).as("Module 2 after STREAM's 3 x 1200 MiB").isEqualTo(1024 * MIB);
        assertThat(after.of(MachineDrill.DRILL).hostCap()).as("nothing else changes").isEqualTo(Profile.MEASUREMENT);
        assertThat(Profile.streamBytes(new MachineRun(null, null, null, new MemoryDrill.MemorySection("", null, List.of(failed)))))
                .as("arrays that were never allocated bound nothing").isZero();
        assertThat(Profile.streamBytes(new MachineRun(null, null, null, null))).isZero();
    }

    @Test
    void theRunLineStatesTheTimeAndThePeakAgainstStreamsArrays() {
        RunCost c = new RunCost(112.4, 612L * MIB);
        assertThat(c.text(384L * MIB, 96L * MIB)).isEqualTo("took 1 min 52 s; peak memory 612 MiB (STREAM's arrays 384 MiB, 228 MiB besides); the DataLoader's Python processes 96 MiB at most");
        assertThat(new RunCost(8.44, 300L * MIB).text(null, null)).isEqualTo("took 8.4 s; peak memory 300 MiB");
        assertThat(new RunCost(52, null).text(null, null)).isEqualTo("took 52 s; peak memory not read");
        RunCost drills = new RunCost(76.2, 3779L * MIB, List.of(new RunCost.Spent("machine", 24.0, 20.1), new RunCost.Spent("vm", 16.3, 15.0),
                new RunCost.Spent("cpu", 19.0, 17.8), new RunCost.Spent("io", 15.1, 14.6), new RunCost.Spent("health", 0.4, 0)));
        assertThat(drills.text(3600L * MIB, null)).as("where a drained node's minute went, and how much of it measured")
                .isEqualTo("took 1 min 16 s (machine 24 s, vm 16 s, cpu 19 s, io 15 s, health 0.4 s; 1 min 8 s of it in the measurements themselves); "
                        + "peak memory 3.7 GiB (STREAM's arrays 3.5 GiB, 179 MiB besides)");
        assertThat(new RunCost(10, 300L * MIB, List.of()).text(null, null)).as("no drill long enough to name").isEqualTo("took 10 s; peak memory 300 MiB");
    }

    @Test
    void aDrillsCasesAreTimedAsTheyEndAndEveryEventStillReachesTheProgress() {
        List<ProgressSink.Event> seen = new ArrayList<>();
        long[] nanos = {0};
        ProgressSink counted = Profile.countingCases(seen::add, nanos);
        counted.accept(new ProgressSink.CaseStarted("a", 1, 2));
        counted.accept(new ProgressSink.CaseEnded("a", 1, 2, Status.OK, 1_500_000_000L));
        counted.on("GPU0").accept(new ProgressSink.CaseEnded("b", 2, 2, Status.NOT_RUN, 2_000L));
        counted.accept(new ProgressSink.Step("writing the test file"));
        assertThat(nanos[0]).isEqualTo(1_500_002_000L);
        assertThat(seen).hasSize(4);
    }

    @Test
    void theCostIsThisProcesssOwnHighWaterMark() {
        RunCost c = RunCost.since(System.nanoTime() - 1_000_000_000L, List.of());
        assertThat(c.seconds()).isGreaterThanOrEqualTo(1.0);
        assertThat(c.peakRssBytes()).as("a JVM holds tens of MiB at least").isGreaterThan(16 * MIB);
    }
}
