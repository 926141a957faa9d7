package hostside.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class RuleTest {
    static final Rule SLOW = Rule.of("M3-SYSCALL", "the cost of a trivial syscall", EnumSet.of(Severity.OK, Severity.WARN, Severity.UNKNOWN),
            "every launch pays it", "check the mitigations", Source.measurement("docs/measurements/x.md"), Source.reasoned("why"));

    @Test
    void aFindingCarriesItsRulesIdFixAndSource() {
        Finding f = SLOW.finding(Severity.WARN, "CPU", "slow", Evidence.of("syscall_getppid", 900, Unit.NS));
        assertThat(f.id()).isEqualTo("M3-SYSCALL");
        assertThat(f.fix()).isEqualTo("check the mitigations");
        assertThat(f.source()).isEqualTo("measurement: docs/measurements/x.md");
        assertThat(SLOW.finding(Severity.OK, "CPU", "cheap").fix()).as("no fix where nothing is to be fixed").isEmpty();
    }

    @Test
    void anUnknownFindingNeverCarriesAFix() {
        Finding f = SLOW.unknown("CPU", "measured busy: run again", List.of());
        assertThat(f.severity()).isEqualTo(Severity.UNKNOWN);
        assertThat(f.fix()).isEmpty();
    }

    @Test
    void aMeasuredFindingOnABusyMachineIsUnknownAndSaysItsFigures() {
        Finding quiet = SLOW.measured(Severity.WARN, "CPU", "slow: fix it", "900 ns", List.of(), List.of());
        assertThat(quiet.severity()).isEqualTo(Severity.WARN);
        assertThat(quiet.fix()).isEqualTo("check the mitigations");
        Finding busy = SLOW.measured(Severity.WARN, "CPU", "slow: fix it", "900 ns", List.of(), List.of("others 1.02 CPUs"));
        assertThat(busy.severity()).isEqualTo(Severity.UNKNOWN);
        assertThat(busy.fix()).isEmpty();
        assertThat(busy.text()).isEqualTo("measured while the machine was busy (others 1.02 CPUs), so not judged: 900 ns; run again on a quiet machine");
    }

    @Test
    void aRuleGivesOnlyItsSeverities() {
        assertThatThrownBy(() -> SLOW.finding(Severity.BAD, "CPU", "x")).isInstanceOf(IllegalStateException.class).hasMessageContaining("M3-SYSCALL");
    }

    @Test
    void aRuleIsWellFormed() {
        Source s = Source.reasoned("r");
        assertThatThrownBy(() -> Rule.of("cpu-syscall", "t", Set.of(Severity.OK), "m", "", s)).hasMessageContaining("M<module>-TOPIC");
        assertThatThrownBy(() -> new Rule("M3-X", 2, "t", Set.of(Severity.OK), "m", "", List.of(s))).hasMessageContaining("not of module 2");
        assertThatThrownBy(() -> Rule.of("M3-X", "t", Set.of(Severity.WARN), "m", "", s)).hasMessageContaining("no fix");
        assertThatThrownBy(() -> new Rule("M3-X", 3, "t", Set.of(Severity.OK), "m", "", List.of())).hasMessageContaining("no source");
    }

    @Test
    void aFindingReadsBackWithItsEvidenceTyped() throws Exception {
        Finding f = SLOW.finding(Severity.WARN, "CPU", "slow", Evidence.of("syscall_getppid", 900, Unit.NS), Evidence.fact("host.virtualized", "kvm"));
        Finding back = Json.MAPPER.readValue(Json.write(f), Finding.class);
        assertThat(back).isEqualTo(f);
        assertThat(back.evidence().get(0)).isInstanceOf(Evidence.Measured.class);
        assertThat(back.evidence().get(1)).isInstanceOf(Evidence.Fact.class);
    }

    @Test
    void anEarlierReportsFindingReadsWithItsCodeAsItsId() throws Exception {
        Finding old = Json.MAPPER.readValue("{\"severity\":\"warn\",\"subject\":\"GPU0\",\"text\":\"t\",\"code\":\"link-below-max\"}", Finding.class);
        assertThat(old.id()).isEqualTo("link-below-max");
        assertThat(old.evidence()).isEmpty();
        assertThat(old.fix()).isEmpty();
    }

    @Test
    void severitiesAreWorstFirstAndOnlyBadAndWarnAreToFix() {
        assertThat(List.of(Severity.values())).containsExactly(Severity.BAD, Severity.WARN, Severity.UNKNOWN, Severity.INFO, Severity.OK);
        assertThat(EnumSet.allOf(Severity.class).stream().filter(Severity::toFix)).containsExactly(Severity.BAD, Severity.WARN);
        assertThat(SLOW.severityRange()).isEqualTo("warn, unknown, ok");
    }
}
