package hostside.rack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import hostside.core.Json;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.gpu.cuda.FabricRulesTest;
import hostside.report.Rulebook;

/**
 * Every rule of the rack checklist fires at every severity it gives, on the recorded machines of
 * testdata/rack and the live rows of {@link RackLiveChecksTest}: a severity a rule lists but no
 * machine reaches is a rule that says more than its code does. Each row carries its rule's ID and
 * source, and its finding is its rule's.
 */
class RackRuleSeveritiesTest {
    static final List<String> MACHINES = List.of("gh200-numa", "gh200-cdmm", "gb200-tray", "dgx-spark", "hgx-h100");

    static List<RackCheck> rows() {
        List<RackCheck> all = new ArrayList<>();
        for (String m : MACHINES) all.addAll(RackFixturesTest.judge(m).checks().values());
        all.addAll(RackRuleCases.live());
        all.addAll(RackRuleCases.synthetic());
        return all;
    }

    @Test
    void everyRuleFiresAtEverySeverityItGives() {
        Map<String, Set<Severity>> seen = new TreeMap<>();
        for (RackCheck c : rows()) {
            if (c.severity() != null) seen.computeIfAbsent(c.id(), k -> EnumSet.noneOf(Severity.class)).add(c.severity());
        }
        // fabric readiness's own findings, per GPU: ready, not applicable, and a step this version does not know (a report of another)
        for (var r : FabricRulesTest.cases()) {
            seen.computeIfAbsent(r.finding().id(), k -> EnumSet.noneOf(Severity.class)).add(r.finding().severity());
        }
        List<String> missing = new ArrayList<>();
        for (RackItem i : RackItem.values()) {
            Rule r = RackRules.of(i);
            for (Severity s : r.severities()) if (!seen.getOrDefault(r.id(), Set.of()).contains(s)) missing.add(r.id() + " " + s);
        }
        assertThat(missing).as("rule and severity no case reaches").isEmpty();
    }

    @Test
    void everyRowCarriesItsRulesIdSourceAndAFindingOfIt() {
        for (RackCheck c : rows()) {
            Rule r = c.rule();
            assertThat(c.id()).as(c.item().id()).isEqualTo(r.id()).startsWith("M5-");
            assertThat(c.source()).isEqualTo(r.sources().getFirst().toString());
            if (c.severity() == null) {
                assertThat(c.finding()).as("n/a and not run conclude nothing").isNull();
                continue;
            }
            var f = c.finding();
            assertThat(f.id()).isEqualTo(r.id());
            assertThat(f.severity()).isEqualTo(c.severity());
            assertThat(f.evidence()).as(c.item().id()).isNotEmpty();
            if (c.severity() == Severity.UNKNOWN) assertThat(f.fix()).isEmpty();
            if (c.severity().toFix()) assertThat(f.fix()).isNotEmpty();
        }
    }

    @Test
    void aHealthyGraceBoxIsQuiet() {
        // gh200-numa is set up as NVIDIA's guides say: nothing of its recorded rows is bad or warn
        assertThat(RackFixturesTest.judge("gh200-numa").checks().values()).extracting(RackCheck::severity)
                .doesNotContain(Severity.BAD, Severity.WARN);
    }

    @Test
    void aRecordedReportOfAnEarlierVersionReadsItsRowsAsRules() throws Exception {
        // the H200's rack --json of 2026-12-05: rows as the contract first had them, {item, value, verdict, why, fix}
        var tree = Json.MAPPER.readTree(java.nio.file.Path.of("testdata/reports/h200-rack.json").toFile());
        List<RackCheck> rows = new ArrayList<>();
        for (var n : tree.get("checklist")) {
            assertThat(n.has("id")).isFalse();
            rows.add(Json.MAPPER.treeToValue(n, RackCheck.class));
        }
        assertThat(rows).extracting(RackCheck::item).containsExactly(RackItem.values());
        for (RackCheck c : rows) {
            assertThat(c.id()).isEqualTo(RackRules.of(c.item()).id());
            assertThat(c.source()).isNotEmpty();
        }
        // and a row written now reads back equal, its added fields included
        for (RackCheck c : rows) {
            var json = Json.MAPPER.valueToTree(c);
            assertThat(json.has("id") && json.has("evidence") && json.has("source")).isTrue();
            assertThat(Json.MAPPER.treeToValue(json, RackCheck.class)).isEqualTo(c);
        }
    }

    @Test
    void aRackRuleNamesTheModuleRuleThatJudgesTheSameSetting() {
        assertThat(RackRules.judgedAlsoBy("M5-THP")).containsExactly("M2-THP");
        assertThat(RackRules.judgedAlsoBy("M5-NUMA-BALANCING")).containsExactly("M2-NUMA-BALANCING");
        assertThat(RackRules.judgedAlsoBy("M5-IMEX")).isEmpty();
        for (String id : List.of("M5-THP", "M5-NUMA-BALANCING", "M5-BASE-PAGE-SIZE")) {
            for (String other : RackRules.judgedAlsoBy(id)) assertThat(Rulebook.find(other)).as(other).isPresent();
        }
    }
}
