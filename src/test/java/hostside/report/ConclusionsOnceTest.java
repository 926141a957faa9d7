package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Rule;
import hostside.core.Severity;
import hostside.rack.RackRules;

/** A rule's finding about one subject that two modules drew is said once on the page, the worse kept. */
class ConclusionsOnceTest {
    static Report.Concluded quota(int module, Severity s) {
        return new Report.Concluded(module, "M3-CPU-QUOTA", s, "CPU quota", "module " + module, "OMP_NUM_THREADS");
    }

    @Test
    void theCpuQuotaOfTheCpuFactsAndTheContainerIsSaidOnceTheWorseKept() {
        List<Report.Concluded> out = new ArrayList<>();
        Conclusions.say(out, quota(3, Severity.WARN));
        Conclusions.say(out, new Report.Concluded(4, "M4-PIDS", Severity.BAD, "pids", "pids", "--pids-limit"));
        Conclusions.say(out, quota(4, Severity.BAD));
        assertThat(out).extracting(Report.Concluded::id).containsExactly("M3-CPU-QUOTA", "M4-PIDS");
        assertThat(out.getFirst().severity()).isEqualTo(Severity.BAD);
        assertThat(out.getFirst().text()).isEqualTo("module 4");

        List<Report.Concluded> milder = new ArrayList<>();
        Conclusions.say(milder, quota(3, Severity.WARN));
        Conclusions.say(milder, quota(4, Severity.WARN));
        assertThat(milder).singleElement().satisfies(c -> assertThat(c.text()).isEqualTo("module 3"));
    }

    @Test
    void oneModuleMayFindOneRuleTwiceAndFindingsWithoutARuleAreAllKept() {
        List<Report.Concluded> out = new ArrayList<>();
        Conclusions.say(out, new Report.Concluded(3, "M3-GOVERNOR", Severity.WARN, "cpufreq", "CPUs 0-3", "performance"));
        Conclusions.say(out, new Report.Concluded(3, "M3-GOVERNOR", Severity.INFO, "cpufreq", "CPUs 4-7", ""));
        Conclusions.say(out, new Report.Concluded(5, "", Severity.WARN, "x", "a", ""));
        Conclusions.say(out, new Report.Concluded(4, "", Severity.WARN, "x", "b", ""));
        assertThat(out).hasSize(4);
    }

    static Report.Concluded c(int module, String id, Severity s, String subject) {
        return new Report.Concluded(module, id, s, subject, id + " " + s, s.toFix() ? "fix " + id : "");
    }

    @Test
    void aSettingAModuleFoundIsSaidOnceNotAgainByTheRack() {
        List<Report.Concluded> out = new ArrayList<>();
        Conclusions.say(out, c(2, "M2-NUMA-BALANCING", Severity.WARN, "NUMA balancing"));
        Conclusions.sayOnce(out, c(5, "M5-NUMA-BALANCING", Severity.WARN, "numa_balancing"));
        assertThat(out).extracting(Report.Concluded::id).containsExactly("M2-NUMA-BALANCING");

        Conclusions.say(out, c(3, "M3-GOVERNOR", Severity.WARN, "cpufreq"));
        Conclusions.sayOnce(out, c(5, "M5-CPU-GOVERNOR", Severity.WARN, "cpu_governor"));
        assertThat(out).extracting(Report.Concluded::id).containsExactly("M2-NUMA-BALANCING", "M3-GOVERNOR");
    }

    @Test
    void aModulesOkFindingOrAnotherSettingLeavesTheRacksItem() {
        List<Report.Concluded> out = new ArrayList<>();
        Conclusions.say(out, c(2, "M2-THP", Severity.OK, "THP"));
        Conclusions.say(out, c(2, "M2-NUMA-BALANCING", Severity.WARN, "NUMA balancing"));
        Conclusions.sayOnce(out, c(5, "M5-THP", Severity.WARN, "thp"));
        Conclusions.sayOnce(out, c(5, "M5-IOMMU", Severity.INFO, "iommu"));
        assertThat(out).extracting(Report.Concluded::id).containsExactly("M2-THP", "M2-NUMA-BALANCING", "M5-THP", "M5-IOMMU");
    }

    @Test
    void aReportOfAnEarlierVersionIsMatchedByTheSubject() {
        List<Report.Concluded> out = new ArrayList<>();
        Conclusions.say(out, c(2, "", Severity.WARN, "NUMA balancing"));
        Conclusions.sayOnce(out, c(5, "", Severity.WARN, "numa_balancing"));
        Conclusions.sayOnce(out, c(5, "", Severity.WARN, "thp"));
        assertThat(out).extracting(Report.Concluded::subject).containsExactly("NUMA balancing", "thp");
    }

    @Test
    void noRackRuleOfASettingAModuleJudgesIsWorseThanWarn() {
        // Conclusions keeps the module's finding of such a setting: it holds only while the rack's is never worse
        for (Rule r : RackRules.all()) {
            if (!RackRules.judgedAlsoBy(r.id()).isEmpty()) assertThat(r.severities()).as(r.id()).doesNotContain(Severity.BAD);
        }
        assertThat(RackRules.judgedAlsoBy("M5-CPU-GOVERNOR")).containsExactly("M3-GOVERNOR");
    }
}
