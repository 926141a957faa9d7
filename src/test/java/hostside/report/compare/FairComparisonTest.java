package hostside.report.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Better;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Unit;
import hostside.doc.MarkdownRenderer;
import hostside.process.MachineLoad;
import hostside.report.Fleet;
import hostside.report.MeasuredBy;
import hostside.report.Report;
import hostside.testing.CliRun;

/**
 * What compare says is not a fair comparison: figures measured while a machine was busy during the
 * drill that measured them, and reports of one machine counted as a fleet of several.
 */
class FairComparisonTest {
    static final MachineLoad BUSY = new MachineLoad(200, 2, 1.9, 0.05, 0.0, 0.6, 0.5, 3, 2.0, 0.25, true, null);

    static Figure write(double gbs) {
        return new Figure("write_buffered", Scope.MACHINE, gbs, Unit.GB_PER_S, Better.HIGHER, gbs * 0.99, gbs * 1.01, 5, "test", null);
    }

    static Comparison.Input run(String name, String id, boolean busyIo, double gbs) {
        List<Fleet.DrillLoad> loads = busyIo ? List.of(new Fleet.DrillLoad("io", BUSY)) : List.of();
        return new Comparison.Input(name, new Report.Head(new Report.Machine(name, name, id, null, null), ComparisonTest.H200,
                new Fleet.Software("580.95", "13.0", "6.8.0"), new Fleet.Confounders(false, 0, "madvise", 0.1, loads), List.of(write(gbs))));
    }

    @Test
    void eachFigureIsTracedToTheDrillThatMeasuredIt() {
        assertThat(MeasuredBy.drill("write_buffered")).as("io has this key").isPresent();
        assertThat(MeasuredBy.drill("host_to_device_ce_pinned")).contains("machine");
        assertThat(MeasuredBy.drill("launch_jitter_quiet_p99")).as("a figure derived from a case").contains("cpu");
        assertThat(MeasuredBy.drill("no_such_case")).isEmpty();
    }

    @Test
    void twoBusyRunsAreNoFairComparison() {
        String drill = MeasuredBy.drill("write_buffered").orElseThrow();
        List<Comparison.Input> in = List.of(run("a", "1111", true, 1.0), run("b", "2222", true, 4.46));
        List<Fleet.DrillLoad> loads = List.of(new Fleet.DrillLoad(drill, BUSY));
        in = List.of(new Comparison.Input("a", withLoads(in.get(0).report(), loads)), new Comparison.Input("b", withLoads(in.get(1).report(), loads)));
        Comparison c = Comparison.of(in);
        assertThat(c.pairs()).singleElement().satisfies(p -> assertThat(p.unfair()).isEqualTo("a and b were busy during the " + drill + " drill"));
        String md = new MarkdownRenderer().render(CompareDocument.of(c, in, null));
        assertThat(md).contains("+346%, not fair").contains("not a fair comparison: a and b were busy");
    }

    @Test
    void aBusyFigureWithinTheSpreadIsStillNoFairComparison() {
        // 1.00 (0.99-1.01) against 1.009 (0.999-1.019): within the spread, but b was busy, which is what the cell says
        String drill = MeasuredBy.drill("write_buffered").orElseThrow();
        List<Comparison.Input> in = List.of(run("a", "1111", false, 1.0),
                new Comparison.Input("b", withLoads(run("b", "2222", false, 1.009).report(), List.of(new Fleet.DrillLoad(drill, BUSY)))));
        String md = new MarkdownRenderer().render(CompareDocument.of(Comparison.of(in), in, null));
        assertThat(md).contains("(+1%, not fair)").doesNotContain("within spread");
        List<Comparison.Input> quiet = List.of(run("a", "1111", false, 1.0), run("b", "2222", false, 1.009));
        assertThat(new MarkdownRenderer().render(CompareDocument.of(Comparison.of(quiet), quiet, null))).contains("(+1%, within spread)");
    }

    @Test
    void twoQuietRunsAreCompared() {
        Comparison c = Comparison.of(List.of(run("a", "1111", false, 1.0), run("b", "2222", false, 4.46)));
        assertThat(c.pairs()).singleElement().satisfies(p -> assertThat(p.unfair()).isEmpty());
    }

    @Test
    void reportsOfOneMachineAreCountedAsOneMachine() {
        Comparison c = Comparison.of(List.of(run("a", "1111", false, 1.0), run("a again", "1111", false, 1.0), run("b", "2222", false, 1.0)));
        assertThat(c.fleet()).startsWith("3 reports of 2 machines, 1 class; class 1 (3 reports of 2 machines)");
        assertThat(Comparison.of(List.of(run("a", "1111", false, 1.0), run("b", "2222", false, 1.0))).fleet()).startsWith("2 machines, 1 class");
    }

    @Test
    void oneReportIsNothingToCompare() {
        CliRun r = CliRun.of("compare", "testdata/reports/h200-hostside2.json");
        assertThat(r.code()).isZero();
        assertThat(r.out()).isEqualTo("hostside compare: one report (h200): nothing to compare it with; give two reports or more, or a folder of them"
                + " (two runs of one machine give its noise floor)\n");
    }

    static Report.Head withLoads(Report.Head h, List<Fleet.DrillLoad> loads) {
        return new Report.Head(h.machine(), h.hardwareClass(), h.software(), new Fleet.Confounders(false, 0, "madvise", 0.1, loads), h.figures());
    }
}
