package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Json;
import hostside.core.Severity;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.cpu.CpuRules;
import hostside.cpu.CpuRun;
import hostside.cpu.MeasuredVerdicts;
import hostside.cpu.measure.SchedCosts;
import hostside.harness.Result;
import hostside.harness.Status;
import hostside.machine.Host;
import hostside.process.MachineLoad;

/**
 * Module 3's measured findings on page one: a slow syscall measured on a quiet machine is a thing
 * to fix with its rule's ID and fix; the same figure measured on a busy machine is not judged, and
 * page one says so instead of "nothing bad or doubtful".
 */
class MeasuredFindingsTest {
    static final Host VM = new Host("guest", "6.8.0", "x86_64", "VM (KVM)", "", null, "live");
    static final MachineLoad BUSY = new MachineLoad(201, 2, 1.02, 0.1, 0.0, 35.0, 60.0, 4, 3.1, 0.25, true, null);
    static final MachineLoad QUIET = new MachineLoad(200, 2, 0.02, 0.1, 0.0, 0.5, 0.2, 1, 0.1, 0.25, false, null);

    /** What the dev VM measured (docs/measurements/2026-12-02-cpu.md: 1218 ns). */
    static final Result SLOW_SYSCALL = new Result("syscall_getppid", "getppid", Status.OK, "", Unit.NS, new Stats(1218, 1149, 1278, 7),
            Unit.NS.usually, "", null, new SchedCosts.Syscall.Detail(11.6, 1200, 200_000));

    /** The recorded report, Module 3's facts kept and its measured findings replaced by these alone. */
    static Report withModuleThree(List<Finding> verdicts) throws Exception {
        return RecordedReports.withRuns(RecordedReports.h200(), d -> d instanceof CpuRun c
                ? new CpuRun(c.machine(), c.facts(), List.of(), c.measured(), c.dataloader(), verdicts) : d);
    }

    static String pageOne(Report r) {
        return RecordedReports.pageOne(r);
    }

    @Test
    void aSlowSyscallMeasuredQuietIsToFixWithItsRuleAndFix() throws Exception {
        List<Finding> v = MeasuredVerdicts.of(VM, List.of(SLOW_SYSCALL), false, QUIET);
        assertThat(v).singleElement().satisfies(f -> {
            assertThat(f.id()).isEqualTo(CpuRules.SYSCALL.id());
            assertThat(f.severity()).isEqualTo(Severity.WARN);
            assertThat(f.fix()).isEqualTo(CpuRules.SYSCALL.fix());
        });
        String page = pageOne(withModuleThree(v));
        assertThat(page).contains("**warn** (Module 3, CPU, M3-SYSCALL): A trivial syscall costs 1218 ns").contains("Fix: **on bare metal")
                .doesNotContain("Nothing bad");
    }

    @Test
    void theSameFigureMeasuredBusyIsNotJudgedAndPageOneSaysSo() throws Exception {
        List<Finding> v = MeasuredVerdicts.of(VM, List.of(SLOW_SYSCALL), false, BUSY);
        assertThat(v).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.UNKNOWN);
            assertThat(f.fix()).as("a busy figure never carries a fix").isEmpty();
            assertThat(f.text()).startsWith("measured while the machine was busy (").endsWith("run again on a quiet machine");
            // its figures, and nothing drawn from them: neither "slow" nor a cause nor advice
            assertThat(f.text()).contains("so not judged: syscall_getppid 1218 ns; run again").doesNotContain("slow").doesNotContain("hypervisor");
        });
        String page = pageOne(withModuleThree(v));
        assertThat(page).doesNotContain("Fix:").doesNotContain("Nothing bad or doubtful").contains("1 finding could not be judged")
                .contains("Module 3 says which");
    }

    @Test
    void aReportWhoseDrillsBeganBusySaysSoFirstAndNeverThatNothingWasFound() throws Exception {
        Report r = withModuleThree(List.of());
        var c = r.confounders();
        Report busy = new Report(r.schema(), r.kind(), r.machine(), r.hardwareClass(), r.software(),
                new Fleet.Confounders(c.clocksLocked(), c.numaBalancing(), c.thp(), c.loadAtStart(),
                        List.of(new Fleet.DrillLoad("machine", BUSY), new Fleet.DrillLoad("io", BUSY)), c.mode()),
                r.title(), r.questions(), r.headlines(), r.figures(), r.modules());
        String page = pageOne(busy);
        assertThat(page).contains("**busy**: the machine was busy as the machine, io drills began").doesNotContain("Nothing bad or doubtful");
        assertThat(pageOne(withModuleThree(List.of()))).as("the same report, quiet").doesNotContain("**busy**");
    }

    @Test
    void aCheapSyscallIsOkAndPageOneListsNothingOfIt() throws Exception {
        Result cheap = new Result("syscall_getppid", "getppid", Status.OK, "", Unit.NS, new Stats(137, 131, 145, 7), Unit.NS.usually, "", null,
                new SchedCosts.Syscall.Detail(5, 130, 200_000));
        List<Finding> v = MeasuredVerdicts.of(VM, List.of(cheap), false, QUIET);
        assertThat(v).singleElement().extracting(Finding::severity).isEqualTo(Severity.OK);
        assertThat(pageOne(withModuleThree(v))).doesNotContain("M3-SYSCALL");
    }

    @Test
    void findingsReadBackFromTheReportsJsonWithTheirRules() throws Exception {
        Report r = withModuleThree(MeasuredVerdicts.of(VM, List.of(SLOW_SYSCALL), false, QUIET));
        Report back = ReportReader.read(Json.MAPPER.readTree(Json.write(r)), "again");
        Finding f = back.module(CpuRun.class).verdicts().getFirst();
        assertThat(f.id()).isEqualTo("M3-SYSCALL");
        assertThat(f.evidence()).singleElement().isEqualTo(Evidence.of("syscall_getppid", 1218, Unit.NS));
        assertThat(f.source()).startsWith("measurement: docs/measurements/2026-12-02-cpu.md");
    }

    @Test
    void anEarlierReportsVerdictLinesReadAsInfo() throws Exception {
        Report r = ReportReader.read(Json.MAPPER.readTree(Path.of("testdata/reports/h200-hostside2.json").toFile()), "h200-hostside2.json");
        String json = Files.readString(Path.of("testdata/reports/h200-hostside2.json"));
        assertThat(json).as("the fixture holds verdicts as lines").contains("\"verdicts\" : [ \"");
        assertThat(r.module(CpuRun.class).verdicts()).isNotEmpty().allSatisfy(f -> {
            assertThat(f.severity()).isEqualTo(Severity.INFO);
            assertThat(f.id()).isEmpty();
        });
    }
}
