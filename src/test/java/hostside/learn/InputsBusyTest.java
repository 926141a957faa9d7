package hostside.learn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.process.MachineLoad;
import hostside.report.Fleet;
import hostside.report.RecordedReports;
import hostside.report.Report;

/** The course shows a figure measured while its drill began busy as such, as the report does: never as the machine's best. */
class InputsBusyTest {
    static final MachineLoad BUSY = new MachineLoad(200, 2, 1.9, 0.05, 0.0, 0.6, 0.5, 3, 2.0, 0.25, true, null);

    @Test
    void aFigureOfADrillThatBeganBusyIsSaidToBe() throws Exception {
        Report r = RecordedReports.h200();
        Fleet.Confounders c = r.confounders();
        Report busyIo = new Report(r.schema(), r.kind(), r.machine(), r.hardwareClass(), r.software(),
                new Fleet.Confounders(c.clocksLocked(), c.numaBalancing(), c.thp(), c.loadAtStart(), List.of(new Fleet.DrillLoad("io", BUSY)), c.mode()),
                r.title(), r.questions(), r.headlines(), r.figures(), r.modules());
        Inputs quiet = Inputs.from(r), busy = Inputs.from(busyIo);
        assertThat(quiet.values().get("seq_read_cold_qd1").source()).isEqualTo(Inputs.Source.MEASURED);
        Inputs.Value read = busy.values().get("seq_read_cold_qd1");
        assertThat(read.source()).isEqualTo(Inputs.Source.MEASURED_BUSY);
        assertThat(read.mine()).isTrue();
        assertThat(read.shown()).contains("measured here while the machine was busy");
        assertThat(busy.values().get("host_to_device_ce_pinned").source()).as("the machine drill was quiet").isEqualTo(Inputs.Source.MEASURED);
    }
}
