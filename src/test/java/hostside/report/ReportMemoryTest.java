package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import hostside.cpu.CpuDrill;
import hostside.harness.DrillOptions;
import hostside.io.IoDrill;
import hostside.machine.MachineDrill;
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
        assertThat(cpu.launches()).isEqualTo(CpuDrill.Options.defaults().launches());
        assertThat(Profile.MEASUREMENT.why()).contains("256.0 MiB").contains("512.0 MiB");
    }

    @Test
    void theRunLineStatesTheTimeAndThePeakAgainstStreamsArrays() {
        RunCost c = new RunCost(112.4, 612L * MIB);
        assertThat(c.text(384L * MIB, 96L * MIB)).isEqualTo("took 1 min 52 s; peak memory 612 MiB (STREAM's arrays 384 MiB, 228 MiB besides); the DataLoader's Python processes 96 MiB at most");
        assertThat(new RunCost(8.44, 300L * MIB).text(null, null)).isEqualTo("took 8.4 s; peak memory 300 MiB");
        assertThat(new RunCost(52, null).text(null, null)).isEqualTo("took 52 s; peak memory not read");
    }

    @Test
    void theCostIsThisProcesssOwnHighWaterMark() {
        RunCost c = RunCost.since(System.nanoTime() - 1_000_000_000L);
        assertThat(c.seconds()).isGreaterThanOrEqualTo(1.0);
        assertThat(c.peakRssBytes()).as("a JVM holds tens of MiB at least").isGreaterThan(16 * MIB);
    }
}
