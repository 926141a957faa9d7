package hostside.drills;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.cpu.CpuRules;
import hostside.harness.Result;
import hostside.harness.Settling;
import hostside.harness.Status;
import hostside.harness.Unsettled;
import hostside.io.IoRules;
import hostside.machine.GpuRules;
import hostside.testing.RuleTally;
import hostside.vm.VmRules;

/** Each measuring drill's M<n>-UNSETTLED: a warning naming each figure that did not settle, none where all did or none was adaptive. */
class UnsettledFindingsTest {
    static List<Rule> rules() {
        return List.of(GpuRules.UNSETTLED, VmRules.UNSETTLED, CpuRules.UNSETTLED, IoRules.UNSETTLED);
    }

    static Result result(String key, Settling s) {
        return new Result(key, "", Status.OK, "", Unit.GB_PER_S, new Stats(2, 1, 3, s == null ? 5 : s.samples()), Unit.GB_PER_S.usually, "", null,
                null, s);
    }

    static final Settling SETTLED = new Settling(1, 5, 25, Settling.Stop.SETTLED, 0.004, 0.01, 0.9375, 1.2);
    static final Settling CAPPED = new Settling(2, 14, 25, Settling.Stop.TIME_CAP, 0.073, 0.05, 0.94, 4.06);

    @ParameterizedTest
    @MethodSource("rules")
    void warnsOfEachFigureThatDidNotSettle(Rule rule) {
        List<Result> rs = List.of(result("fixed", null), result("quiet", SETTLED), result("seq_read_cold_qd1", CAPPED));
        Finding f = Unsettled.finding(rule, rs, "/var/tmp", List.of()).orElseThrow();
        assertThat(f.id()).isEqualTo(rule.id());
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.text()).isEqualTo("1 of 2 adaptive figures did not settle: seq_read_cold_qd1: 14 samples in 4.1 s, its median known to 7.3%"
                + " (asked 5.0%), stopped at its time cap");
        assertThat(f.fix()).isNotEmpty();
        assertThat(f.evidence()).hasSize(1);
        Finding busy = Unsettled.finding(rule, rs, "/var/tmp", List.of("load 3.1 on 2 CPUs")).orElseThrow();
        assertThat(busy.severity()).as("a busy machine explains it").isEqualTo(Severity.UNKNOWN);
        assertThat(busy.fix()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("rules")
    void aLoopStoppedEarlySaysItsSpreadStoppedIt(Rule rule) {
        Settling early = new Settling(1, 5, 10, Settling.Stop.OUT_OF_REACH, 0.119, 0.01, 0.9375, 0.8);
        Finding f = Unsettled.finding(rule, List.of(result("host_to_device_ce_pageable", early)), "GPU0", List.of()).orElseThrow();
        assertThat(f.text()).endsWith("host_to_device_ce_pageable: 5 samples in 0.8 s, its median known to 11.9% (asked 1.0%), stopped at its"
                + " samples' spread (more would not have settled it)");
    }

    @ParameterizedTest
    @MethodSource("rules")
    void quietWhereEveryAdaptiveFigureSettledOrNoneWasAdaptive(Rule rule) {
        Optional<Finding> settled = Unsettled.finding(rule, List.of(result("quiet", SETTLED), result("fixed", null)), "here", List.of());
        RuleTally.quiet(settled.stream().toList(), rule);
        RuleTally.quiet(Unsettled.adding(List.of(), rule, List.of(result("fixed", null)), "here", List.of()), rule);
    }
}
