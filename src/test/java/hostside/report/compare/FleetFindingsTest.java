package hostside.report.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Better;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Severity;
import hostside.core.Unit;
import hostside.doc.MarkdownRenderer;
import hostside.report.Fleet;
import hostside.report.Report;
import hostside.report.ReportFiles;

/**
 * compare over a fleet counts each rule's findings over the machines ("2 of 3: M2-THP"), the worst
 * first, and says which reports recorded no findings rather than counting them as clean; a GPU
 * figure of a machine with locked clocks beside one without is no fair comparison.
 */
class FleetFindingsTest {
    static Report.Concluded found(int module, String id, Severity s) {
        return new Report.Concluded(module, id, s, "subject", "text of " + id, s.toFix() ? "the fix" : "");
    }

    static Comparison.Input machine(String name, Boolean clocksLocked, List<Report.Concluded> findings, Figure... figures) {
        return new Comparison.Input(name, new Report.Head(new Report.Machine(name, name, "id-" + name, null, null), ComparisonTest.H200,
                new Fleet.Software("580.95", "13.0", "6.8.0"), new Fleet.Confounders(clocksLocked, 0, "madvise", 0.1, List.of()), List.of(figures), findings));
    }

    static String md(List<Comparison.Input> in) {
        return new MarkdownRenderer().render(CompareDocument.of(Comparison.of(in), in, null));
    }

    @Test
    void eachRuleIsCountedOverTheMachinesTheWorstFirst() {
        List<Comparison.Input> in = List.of(
                machine("n1", false, List.of(found(2, "M2-THP", Severity.WARN), found(3, "M3-TIMER", Severity.UNKNOWN), found(3, "M3-SYSCALL", Severity.OK))),
                machine("n2", false, List.of(found(2, "M2-THP", Severity.WARN), found(2, "M2-MEMLOCK", Severity.BAD), found(2, "M2-MEMLOCK", Severity.WARN))),
                machine("n3", false, List.of(found(2, "M2-THP", Severity.INFO))));
        Comparison.FleetFindings f = Comparison.of(in).findings();
        assertThat(f.recorded()).isEqualTo(3);
        assertThat(f.rules()).extracting(Comparison.RuleCount::id).as("bad, then warn, then unknown; an ok or info finding is not counted")
                .containsExactly("M2-MEMLOCK", "M2-THP", "M3-TIMER");
        assertThat(f.rules().getFirst()).satisfies(r -> {
            assertThat(r.machines()).as("two findings of one rule on one machine: that machine once, at its worst").containsExactly("n2");
            assertThat(r.worst()).containsExactly(Severity.BAD);
            assertThat(r.title()).as("the rulebook's title").contains("memlock");
        });
        assertThat(f.rules().get(1).machines()).containsExactly("n1", "n2");
        assertThat(md(in)).contains("## Findings by rule").contains("**2 of 3**: `M2-THP` (warn, Module 2)").contains("**1 of 3**: `M2-MEMLOCK` (bad, Module 2)")
                .contains("Unknown: measured on a busy machine");
    }

    @Test
    void severitiesThatDifferAcrossMachinesAreSplit() {
        assertThat(md(List.of(machine("n1", false, List.of(found(2, "M2-MEMLOCK", Severity.BAD))),
                machine("n2", false, List.of(found(2, "M2-MEMLOCK", Severity.WARN)))))).contains("**2 of 2**: `M2-MEMLOCK` (bad on 1, warn on 1, Module 2)");
    }

    @Test
    void aCleanFleetSaysSoAndAReportWithoutFindingsIsNotCountedAsClean() {
        List<Comparison.Input> clean = List.of(machine("n1", false, List.of()), machine("n2", false, List.of(found(3, "M3-SYSCALL", Severity.OK))));
        assertThat(Comparison.of(clean).findings().rules()).isEmpty();
        assertThat(md(clean)).contains("No rule found anything bad, doubtful or unjudged on any of the 2 reports");

        List<Comparison.Input> mixed = List.of(machine("n1", false, List.of(found(2, "M2-THP", Severity.WARN))), machine("old", false, null));
        assertThat(Comparison.of(mixed).findings().recorded()).isEqualTo(1);
        assertThat(Comparison.of(mixed).findings().unrecorded()).containsExactly("old");
        assertThat(md(mixed)).contains("**1 of 1**: `M2-THP`")
                .contains("1 report records no findings (written by a hostside older than the rulebook): old");
    }

    @Test
    void aReportWrittenBeforeFindingsWereRecordedReadsWithNone() {
        Report.Head old = ReportFiles.head(Path.of("testdata/reports/h200-hostside2.json"));
        assertThat(old.findings()).isNull();
        assertThat(old.figures()).isNotEmpty();
    }

    static Figure h2d(double v) {
        return new Figure("host_to_device_ce_pinned", Scope.MACHINE, v, Unit.GB_PER_S, Better.HIGHER, v * 0.995, v * 1.005, 5, "test", null);
    }

    static Figure write(double v) {
        return new Figure("write_buffered", Scope.MACHINE, v, Unit.GB_PER_S, Better.HIGHER, v * 0.99, v * 1.01, 5, "test", null);
    }

    @Test
    void aGpuFigureOfALockedClockBesideAnUnlockedOneIsNoFairComparison() {
        Comparison c = Comparison.of(List.of(machine("a", true, List.of(), h2d(40), write(2)), machine("b", false, List.of(), h2d(55), write(4))));
        List<String> unfair = new ArrayList<>();
        for (Comparison.PairDifference p : c.pairs()) unfair.add(p.key() + ": " + p.unfair());
        assertThat(unfair).containsExactlyInAnyOrder("host_to_device_ce_pinned: a had its GPU clocks locked or capped, the other not",
                "write_buffered: ");

        Comparison same = Comparison.of(List.of(machine("a", true, List.of(), h2d(40)), machine("b", true, List.of(), h2d(55))));
        assertThat(same.pairs()).singleElement().satisfies(p -> assertThat(p.unfair()).as("both locked: the same condition").isEmpty());
        Comparison unread = Comparison.of(List.of(machine("a", true, List.of(), h2d(40)), machine("b", null, List.of(), h2d(55))));
        assertThat(unread.pairs()).singleElement().satisfies(p -> assertThat(p.unfair()).as("not read on one: nothing known to differ").isEmpty());
    }

    /**
     * A node whose figure trails its class and whose own health check found the GPU slowed by the
     * hardware: the health finding is the probable cause, before any setting; a finding the whole
     * class shares explains nothing about one node.
     */
    @Test
    void aNodesOwnHealthFindingIsTheProbableCauseOfItsOutlyingFigure() {
        List<Comparison.Input> in = new ArrayList<>();
        Report.Concluded shared = new Report.Concluded(6, "M6-HEALTH-PERSISTENCE", Severity.WARN, "GPU0", "persistence mode is off", "nvidia-persistenced");
        for (int i = 0; i < 6; i++) {
            double wobble = 1 + 0.002 * (i % 3);
            in.add(machine("n" + i, false, List.of(shared), ComparisonTest.gbs("host_to_device_ce_pinned", 55.0 * wobble)));
        }
        in.set(4, machine("n4", false, List.of(shared, new Report.Concluded(6, "M6-HEALTH-CLOCK-SLOWDOWN", Severity.BAD, "GPU0",
                "GPU0: clocks held down now by HW Thermal Slowdown", "check its cooling")), ComparisonTest.gbs("host_to_device_ce_pinned", 40.0)));
        Comparison c = Comparison.of(in);
        assertThat(c.outliers()).singleElement().satisfies(o -> {
            assertThat(o.machine()).isEqualTo("n4");
            assertThat(o.cause()).isEqualTo("probable cause, node health: M6-HEALTH-CLOCK-SLOWDOWN GPU0 (bad)");
        });
    }
}
