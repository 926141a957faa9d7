package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Json;
import hostside.core.Severity;
import hostside.core.Unit;
import hostside.cpu.CpuRules;
import hostside.cpu.CpuRun;
import hostside.io.IoRules;
import hostside.io.IoRun;
import hostside.learn.SelfCheck;
import hostside.report.compare.Comparison;
import hostside.vm.VmRules;
import hostside.vm.VmRun;

/**
 * Page one, compare and the course's self-check drawn from one report's JSON: the same findings,
 * by rule ID and severity, in all three. A conclusion one of them drew on its own (or dropped)
 * is what a reader catches first and trusts the tool less for.
 */
class OneReportThreeWaysTest {
    @TempDir
    Path tmp;

    static final Evidence TOUCH = new Evidence.Measured("anon_first_touch_base", 3193, Unit.MS_PER_GIB);

    /** The recorded H200 report with findings of every kind planted in Modules 2, 3 and 4. */
    static Report planted() throws Exception {
        List<Finding> vm = List.of(VmRules.FIRST_TOUCH.finding(Severity.WARN, "first touch", "First touch costs 12.18 us per 4 KiB page", TOUCH));
        List<Finding> cpu = List.of(CpuRules.TIMER.finding(Severity.WARN, "timer", "24% of ticks missed", new Evidence.Measured("timer_jitter_quiet_p99", 410, Unit.US)),
                CpuRules.PIN.unknown("pinning", "measured on a busy machine", List.of(new Evidence.Measured("launch_jitter_pinned_p99", 30, Unit.US))),
                CpuRules.SYSCALL.finding(Severity.OK, "syscall", "a trivial syscall costs 0.1 us", new Evidence.Measured("syscall_getppid", 100, Unit.NS)));
        List<Finding> io = List.of(IoRules.LOAD_PATH.unknown("checkpoint loads", "the paths are within each other's spread",
                        List.of(new Evidence.Measured("seq_read_cold_qd1", 2.31, Unit.GB_PER_S))),
                IoRules.RANDOM_DEPTH.finding(Severity.WARN, "random reads", "32 in flight gain little", new Evidence.Measured("rand_read_qd32", 0.99, Unit.GB_PER_S)));
        return RecordedReports.withRuns(RecordedReports.h200(), d -> switch (d) {
            case VmRun v -> new VmRun(v.machine(), v.facts(), v.findings(), v.host(), v.gpu(), vm);
            case CpuRun c -> new CpuRun(c.machine(), c.facts(), c.findings(), c.measured(), c.dataloader(), cpu);
            case Report.Storage st -> new Report.Storage(new IoRun(st.io().machine(), st.io().facts(), st.io().findings(), st.io().file(), st.io().results(), io),
                    st.container());
            default -> d;
        });
    }

    /** "ID severity" of each finding, the rule-less ones left out. */
    static Set<String> keys(List<Report.Concluded> found, Set<Severity> of) {
        Set<String> out = new TreeSet<>();
        for (Report.Concluded c : found) if (!c.id().isEmpty() && of.contains(c.severity())) out.add(c.id() + " " + c.severity());
        return out;
    }

    static final Set<Severity> JUDGED = Set.of(Severity.BAD, Severity.WARN, Severity.UNKNOWN);

    @Test
    void pageOneCompareAndTheSelfCheckSayTheSameFindings() throws Exception {
        Path file = tmp.resolve("h200.json");
        Files.writeString(file, Json.write(planted()));
        Report read = ReportReader.read(Json.MAPPER.readTree(file.toFile()), "h200.json");

        // page one: what to fix, and what could not be judged
        Set<String> pageOne = new TreeSet<>();
        for (ToFix.Item i : ToFix.of(read)) if (!i.id().isEmpty()) pageOne.add(i.id() + " " + i.severity());
        assertThat(pageOne).as("the planted findings reach page one").contains("M2-FIRST-TOUCH warn", "M3-TIMER warn", "M3-PIN unknown", "M4-LOAD-PATH unknown",
                "M4-RANDOM-DEPTH warn").doesNotContain("M3-SYSCALL ok");
        String md = RecordedReports.pageOne(read);
        for (ToFix.Item i : ToFix.of(read).stream().filter(i -> i.severity().toFix()).limit(ToFix.SHOWN).toList()) assertThat(md).contains(i.id());

        // compare: the report's head alone, as compare reads a fleet, beside a second copy of itself
        Path other = tmp.resolve("again.json");
        Files.copy(file, other);
        Comparison c = Comparison.of(List.of(new Comparison.Input("a", ReportFiles.head(file)), new Comparison.Input("b", ReportFiles.head(other))));
        Set<String> compared = new TreeSet<>();
        for (Comparison.RuleCount rc : c.findings().rules()) {
            assertThat(rc.machines()).as(rc.id()).containsExactly("a", "b");
            compared.add(rc.id() + " " + rc.severity());
        }
        assertThat(c.findings().unrecorded()).isEmpty();
        assertThat(compared).isEqualTo(keys(read.findings(), JUDGED)).isEqualTo(pageOne);

        // the self-check: each question quotes the report's findings of its rules, and none of its own
        List<SelfCheck.Question> check = SelfCheck.of(read);
        Set<String> quoted = new TreeSet<>();
        for (SelfCheck.Question q : check) {
            for (Report.Concluded f : q.findings()) {
                assertThat(SelfCheck.RULES.get(q.number() - 1)).contains(f.id());
                if (JUDGED.contains(f.severity())) quoted.add(f.id() + " " + f.severity());
            }
        }
        Set<String> concerned = new TreeSet<>();
        for (String k : pageOne) if (SelfCheck.RULES.stream().anyMatch(r -> r.contains(k.substring(0, k.indexOf(' '))))) concerned.add(k);
        assertThat(quoted).isEqualTo(concerned).contains("M4-LOAD-PATH unknown", "M3-TIMER warn", "M2-FIRST-TOUCH warn");
        SelfCheck.Question io = check.get(5);
        assertThat(io.answer()).as("the course does not pick a path the report could not judge").contains("could not judge").contains("M4-LOAD-PATH");
    }

    @Test
    void everyRuleTheSelfCheckQuotesIsInTheRulebook() {
        for (List<String> ids : SelfCheck.RULES) for (String id : ids) assertThat(Rulebook.find(id)).as(id).isPresent();
    }
}
