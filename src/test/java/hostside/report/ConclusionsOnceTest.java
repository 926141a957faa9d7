package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Severity;

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
}
