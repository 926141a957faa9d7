package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Json;
import hostside.core.Severity;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.harness.Result;
import hostside.io.IoResults;
import hostside.io.IoRules;
import hostside.io.IoRun;
import hostside.io.MeasuredVerdicts;
import hostside.process.MachineLoad;
import hostside.rack.RackVerdict;

/**
 * Module 4's measured findings on page one and in the day-one checklist: a loader on the slower
 * path measured quiet is a thing to fix with its rule's ID and fix; measured busy, or with 32 reads
 * in flight slower than one at a time, it is not judged, and page one says so beside the figure it
 * quotes.
 */
class IoFindingsTest {
    static final MachineLoad BUSY = MeasuredFindingsTest.BUSY, QUIET = MeasuredFindingsTest.QUIET;

    /** The page cache well behind 32 reads in flight: a loader's change to make. */
    static final List<Result> AHEAD = List.of(IoResults.read("seq_read_cold_qd1", 1.7), IoResults.read("seq_read_direct_qd1", 2.1),
            IoResults.read("seq_read_direct_uring_qd32", 6.2));
    /** A quick report's two figures, 32 in flight below the cold read (an outside review's find on page one). */
    static final List<Result> DOUBTFUL = List.of(IoResults.read("seq_read_cold_qd1", new Stats(1.67, 1.60, 1.70, 5), null, null),
            IoResults.read("seq_read_direct_uring_qd32", new Stats(0.99, 0.95, 1.03, 5), null, null));

    /** The recorded H200 report with Module 4's results and measured findings replaced by these. */
    static Report withModuleFour(List<Result> results, MachineLoad load) throws Exception {
        return RecordedReports.withRuns(RecordedReports.h200(), d -> {
            if (!(d instanceof Report.Storage st)) return d;
            IoRun io = st.io();
            return new Report.Storage(new IoRun(io.machine(), io.facts(), List.of(), io.file(), results, MeasuredVerdicts.of(results, false, "/var/tmp", load)),
                    st.container());
        });
    }

    static DayOne.Line beyondTheBox(Report r) {
        return DayOne.of(r).get(6);
    }

    @Test
    void aLoaderOnTheSlowerPathIsToFixWithItsRuleAndFix() throws Exception {
        Report r = withModuleFour(AHEAD, QUIET);
        String page = MeasuredFindingsTest.pageOne(r);
        assertThat(page).contains("**warn** (Module 4, /var/tmp, M4-LOAD-PATH): Loading a checkpoint (sequential 1 MiB reads): 1.70 GB/s")
                .contains("Fix: **read checkpoints around the page cache (O\\_DIRECT)");
        DayOne.Line line = beyondTheBox(r);
        assertThat(line.verdict()).isEqualTo(RackVerdict.WARN);
        assertThat(line.detail()).contains("Module 4's reads and writes: /var/tmp (M4-LOAD-PATH)");
    }

    @Test
    void theSameFiguresMeasuredBusyAreNotJudgedAndPageOneSaysSo() throws Exception {
        Report r = withModuleFour(AHEAD, BUSY);
        assertThat(r.module(Report.Storage.class).io().verdicts()).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.UNKNOWN);
            assertThat(f.fix()).isEmpty();
        });
        String page = MeasuredFindingsTest.pageOne(r);
        assertThat(page).doesNotContain("M4-LOAD-PATH").doesNotContain("Nothing bad or doubtful").contains("could not be judged").contains("Module 4 says which");
        assertThat(beyondTheBox(r).detail()).contains("(M4-LOAD-PATH) not judged");
    }

    @Test
    void thirtyTwoInFlightBelowOneAtATimeIsQuotedWithItsDoubt() throws Exception {
        Report r = withModuleFour(DOUBTFUL, QUIET);
        IoRun io = r.module(Report.Storage.class).io();
        assertThat(ReportBuilder.storage(io)).contains("a checkpoint reads at 1.67 GB/s cold (Module 4, seq_read_cold_qd1), 0.99 GB/s with O_DIRECT and 32 in flight"
                + " (slower than one at a time: in doubt, not judged; M4-LOAD-PATH)");
        assertThat(io.verdicts()).singleElement().extracting(Finding::severity).isEqualTo(Severity.UNKNOWN);
        assertThat(MeasuredFindingsTest.pageOne(r)).doesNotContain("**warn** (Module 4").contains("could not be judged");
        // the same two figures the other way round are no doubt, and page one quotes them plainly
        List<Result> fine = List.of(IoResults.read("seq_read_cold_qd1", 1.67), IoResults.read("seq_read_direct_uring_qd32", 1.70));
        assertThat(ReportBuilder.storage(withModuleFour(fine, QUIET).module(Report.Storage.class).io())).doesNotContain("in doubt");
    }

    @Test
    void findingsReadBackFromTheReportsJsonWithTheirRules() throws Exception {
        Report r = withModuleFour(AHEAD, QUIET);
        Report back = ReportReader.read(Json.MAPPER.readTree(Json.write(r)), "again");
        Finding f = back.module(Report.Storage.class).io().verdicts().getFirst();
        assertThat(f.id()).isEqualTo(IoRules.LOAD_PATH.id());
        assertThat(f.evidence()).hasSize(3).contains(Evidence.of("seq_read_direct_uring_qd32", 6.2, Unit.GB_PER_S));
        assertThat(f.source()).startsWith("document: open(2), O_DIRECT");
    }

    @Test
    void anEarlierReportsVerdictLinesReadAsInfoAndFixNothing() throws Exception {
        Report r = ReportReader.read(Json.MAPPER.readTree(Path.of("testdata/reports/h200-hostside2.json").toFile()), "h200-hostside2.json");
        assertThat(r.module(Report.Storage.class).io().verdicts()).hasSize(4).allSatisfy(f -> {
            assertThat(f.severity()).isEqualTo(Severity.INFO);
            assertThat(f.id()).isEmpty();
        });
        assertThat(ToFix.of(r)).noneMatch(i -> i.module() == 4 && i.text().startsWith("Loading a checkpoint"));
        assertThat(beyondTheBox(r).detail()).contains("Module 4's reads and writes: nothing bad or doubtful");
    }
}
