package hostside.report.platforms;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Finding;
import hostside.core.Severity;
import hostside.report.Report;
import hostside.report.RecordedReports;

/** M1-CLASS-FLOOR: a machine's pinned copies against its reference platform's, fired, quiet, unknown and silent. */
class ClassFloorTest {
    private static Placement h200(Double h2d) {
        return Placement.of(new Placement.Axes("pcie", "NVIDIA H200", 1, 1, 16.0, h2d, null, null));
    }

    @Test
    void copiesWellUnderTheClassWarnWithTheFix() {
        Placement p = h200(30.0);
        assertThat(p.placed()).isTrue();
        Finding f = p.hostToDevice(30.0, List.of()).orElseThrow();
        assertThat(f.id()).isEqualTo("M1-CLASS-FLOOR");
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.text()).startsWith("host to device 30.0 GB/s, under hostside's floor of 0.75 x");
        assertThat(f.fix()).contains("nvidia-smi");
        assertThat(f.evidence()).isNotEmpty();
    }

    @Test
    void copiesAtTheClassAreQuiet() {
        Finding f = h200(55.3).hostToDevice(55.3, List.of()).orElseThrow();
        assertThat(f.severity()).isEqualTo(Severity.OK);
        assertThat(f.fix()).isEmpty();
        assertThat(f.text()).contains("above hostside's floor");
    }

    @Test
    void copiesMeasuredBusyAreNotJudged() {
        Finding f = h200(30.0).hostToDevice(30.0, List.of("other processes used 15.9 CPUs")).orElseThrow();
        assertThat(f.severity()).isEqualTo(Severity.UNKNOWN);
        assertThat(f.fix()).isEmpty();
        assertThat(f.text()).contains("measured while the machine was busy");
    }

    @Test
    void nothingIsSaidWithoutCopiesOrAPlace() {
        assertThat(h200(null).hostToDevice(null, List.of())).isEmpty();
        Placement unplaced = Placement.of(new Placement.Axes(null, "NVIDIA H200", 1, 1, 16.0, 30.0, null, null));
        assertThat(unplaced.placed()).isFalse();
        assertThat(unplaced.hostToDevice(30.0, List.of())).isEmpty();
    }

    @Test
    void theRecordedH200ReportConcludesItOnceInModuleOne() throws Exception {
        Report r = RecordedReports.h200();
        List<Report.Concluded> floor = r.findings().stream().filter(c -> c.id().equals("M1-CLASS-FLOOR")).toList();
        assertThat(floor).singleElement().satisfies(c -> {
            assertThat(c.module()).isEqualTo(1);
            assertThat(c.severity()).as(c.text()).isEqualTo(Severity.OK); // the recorded H200 against its own class, its machine drill quiet
            assertThat(c.text()).contains("above hostside's floor");
        });
    }
}
