package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Better;
import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Json;
import hostside.core.Severity;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.harness.Result;
import hostside.harness.Status;
import hostside.machine.Host;
import hostside.process.MachineLoad;
import hostside.rack.RackVerdict;
import hostside.vm.MeasuredVerdicts;
import hostside.vm.VmRules;
import hostside.vm.VmRun;
import hostside.vm.measure.AnonTouch;

/**
 * Module 2's measured findings on page one and in the day-one checklist: a slow first touch
 * measured on a quiet machine is a thing to fix with its rule's ID and fix; the same figure
 * measured on a busy machine is not judged, and page one counts it instead of saying nothing was
 * found. An earlier report's verdict lines still read, as info of no rule.
 */
class VmFindingsTest {
    static final Host VM = new Host("guest", "6.8.0", "x86_64", "VM (KVM)", "", null, "live");

    /** What the dev VM measured (docs/measurements/2026-12-02-vm.md: 3193 ms per GiB, 12.18 us per 4 KiB fault). */
    static final Result SLOW_TOUCH = new Result("anon_first_touch_base", "first touch", Status.OK, "", Unit.MS_PER_GIB,
            new Stats(3193, 3097, 3266, 6), Better.LOWER, "", null,
            new AnonTouch.TouchDetail(256L << 20, 4096, 65536, 256.0, 12.18, null, 0, null, null, null, null));

    /** The recorded run's facts and figures, its settings' findings left out and its measured findings replaced by these alone. */
    static Report withModuleTwo(List<Finding> verdicts) throws Exception {
        return RecordedReports.withRuns(RecordedReports.h200(), d -> d instanceof VmRun v
                ? new VmRun(v.machine(), v.facts(), List.of(), v.host(), v.gpu(), verdicts) : d);
    }

    static String pageOne(Report r) {
        return RecordedReports.pageOne(r);
    }

    static DayOne.Line pages(Report r) {
        return DayOne.of(r).stream().filter(l -> l.n() == 4).findFirst().orElseThrow();
    }

    @Test
    void aSlowFirstTouchMeasuredQuietIsToFixWithItsRuleAndFix() throws Exception {
        List<Finding> v = MeasuredVerdicts.of(VM, List.of(SLOW_TOUCH), List.of(), null);
        assertThat(v).singleElement().satisfies(f -> {
            assertThat(f.id()).isEqualTo(VmRules.FIRST_TOUCH.id());
            assertThat(f.severity()).isEqualTo(Severity.WARN);
        });
        Report r = withModuleTwo(v);
        assertThat(pageOne(r)).contains("**warn** (Module 2, first touch, M2-FIRST-TOUCH): First touch costs 12.18 us per 4 KiB page")
                .contains("Fix: **reuse buffers across steps");
        assertThat(pages(r).detail()).contains("Module 2's measurements: first touch (M2-FIRST-TOUCH)");
        assertThat(pages(r).verdict()).isEqualTo(RackVerdict.WARN);
    }

    @Test
    void theSameFigureMeasuredBusyIsNotJudgedAndPageOneSaysSo() throws Exception {
        MachineLoad busy = new MachineLoad(201, 2, 1.02, 0.1, 0.0, 35.0, 60.0, 4, 3.1, 0.25, true, null);
        Report r = withModuleTwo(MeasuredVerdicts.of(VM, List.of(SLOW_TOUCH), List.of(), busy));
        assertThat(pageOne(r)).doesNotContain("M2-FIRST-TOUCH").doesNotContain("Nothing bad or doubtful").contains("could not be judged")
                .contains("Module 2");
        assertThat(pages(r).detail()).contains("first touch (M2-FIRST-TOUCH) not judged");
    }

    @Test
    void findingsReadBackFromTheReportsJsonWithTheirRulesAndEvidence() throws Exception {
        Report r = withModuleTwo(MeasuredVerdicts.of(VM, List.of(SLOW_TOUCH), List.of(), null));
        Finding f = ReportReader.read(Json.MAPPER.readTree(Json.write(r)), "again").module(VmRun.class).verdicts().getFirst();
        assertThat(f.id()).isEqualTo("M2-FIRST-TOUCH");
        assertThat(f.evidence()).containsExactly(Evidence.of("anon_first_touch_base_us_per_fault", 12.18, Unit.US),
                Evidence.of("anon_first_touch_base", 3193, Unit.MS_PER_GIB));
        assertThat(f.source()).startsWith("measurement: docs/measurements/2026-12-02-vm.md");
    }

    @Test
    void anEarlierReportsVerdictLinesReadAsInfoAndPageOneListsNoneOfThem() throws Exception {
        Report r = ReportReader.read(Json.MAPPER.readTree(Path.of("testdata/reports/h200-hostside2.json").toFile()), "h200-hostside2.json");
        assertThat(Files.readString(Path.of("testdata/reports/h200-hostside2.json"))).as("the fixture holds verdicts as lines")
                .contains("\"verdicts\" : [ \"Cold file");
        assertThat(r.module(VmRun.class).verdicts()).hasSize(7).allSatisfy(f -> {
            assertThat(f.severity()).isEqualTo(Severity.INFO);
            assertThat(f.id()).isEmpty();
        });
        assertThat(pageOne(withModuleTwo(r.module(VmRun.class).verdicts()))).doesNotContain("Module 2");
    }
}
