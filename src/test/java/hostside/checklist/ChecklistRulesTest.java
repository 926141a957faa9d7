package hostside.checklist;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.core.Finding;
import hostside.core.Json;
import hostside.core.Rule;
import hostside.core.Severity;

/**
 * Every rule of the 60-second checklist fires at every severity it gives, each finding carries its
 * rule's ID, source and (bad or warn) fix with the figures it read; a healthy window is quiet; and
 * a checklist of an earlier version, whose verdicts were codes, reads as its rules.
 */
class ChecklistRulesTest {
    static Finding first(Consumer<VerdictsTest.S> change) {
        VerdictsTest.S s = new VerdictsTest.S();
        change.accept(s);
        return s.verdict();
    }

    static List<Finding> cases() {
        List<Finding> out = new ArrayList<>();
        out.add(first(s -> s.psiMemoryFull = 8.0));
        out.add(first(s -> s.xids.add(VerdictsTest.xid(79, true, false, 240, 1))));
        out.add(first(s -> s.xids.add(VerdictsTest.xid(13, false, true, 240, 1))));
        out.add(first(s -> s.hardware = 2));
        out.add(first(s -> s.crashes.add(new KernelSection.EventUse(KernelEvent.Kind.SEGFAULT, 60.0, 60.0, 1, 200L, "pt_data_worker", null, null, null, false,
                false, false, "segfault"))));
        out.add(first(s -> {
            s.hung = 1;
            s.hungExample = "python3 (100)";
        }));
        out.add(first(s -> {
            s.iowait = 40.0;
            s.blocked = 2;
        }));
        out.add(first(s -> s.iowait = 40.0));
        out.add(first(s -> s.gpus = new ArrayList<>(List.of(VerdictsTest.S.gpu(97.0, new Signals.Reason("SW power cap", 0.9))))));
        out.add(first(s -> {
            s.busy.add(new Signals.Busy("pt_data_worker", 201, 99, 5, true));
            s.gpus = new ArrayList<>(List.of(VerdictsTest.S.gpu(40.0)));
        }));
        out.add(first(s -> {
            s.busy.add(new Signals.Busy("pt_data_worker", 201, 99, 5, true));
            s.noGpu("no NVIDIA driver");
        }));
        out.add(first(s -> {
            s.gil = 3;
            s.gpus = new ArrayList<>(List.of(VerdictsTest.S.gpu(40.0)));
        }));
        out.add(first(s -> {
            s.gil = 3;
            s.noGpu("no NVIDIA driver");
        }));
        out.add(first(s -> s.runnable = 40.0));
        out.add(first(s -> s.steal = 25.0));
        out.add(first(s -> s.snapshot = true));
        out.add(first(s -> { }));
        out.add(first(s -> {
            s.processCpu = 2.0;
            s.gpus = new ArrayList<>(List.of(VerdictsTest.S.gpu(1.0)));
        }));
        out.add(first(s -> s.gpus = new ArrayList<>(List.of(VerdictsTest.S.gpu(50.0)))));
        out.add(first(s -> s.noGpu("no NVIDIA driver")));
        return out;
    }

    @Test
    void everyRuleFiresAtEverySeverityItGives() {
        Map<String, Set<Severity>> seen = new TreeMap<>();
        for (Finding f : cases()) seen.computeIfAbsent(f.id(), k -> EnumSet.noneOf(Severity.class)).add(f.severity());
        List<String> missing = new ArrayList<>();
        for (Rule r : ChecklistRules.all()) {
            for (Severity s : r.severities()) if (!seen.getOrDefault(r.id(), Set.of()).contains(s)) missing.add(r.id() + " " + s);
        }
        assertThat(missing).as("rule and severity no case reaches").isEmpty();
    }

    @Test
    void eachFindingIsItsRulesWithItsFiguresAndFix() {
        for (Finding f : cases()) {
            Rule r = ChecklistRules.all().stream().filter(x -> x.id().equals(f.id())).findFirst().orElseThrow();
            assertThat(f.id()).startsWith("M4-60S-");
            assertThat(f.source()).isEqualTo(r.sources().getFirst().toString());
            if (f.severity().toFix()) assertThat(f.fix()).as(f.id()).isEqualTo(r.fix()).isNotEmpty();
            if (!f.id().equals(ChecklistRules.SNAPSHOT.id())) assertThat(f.evidence()).as(f.id()).isNotEmpty();
        }
    }

    @Test
    void aHealthyWindowIsQuiet() {
        assertThat(new VerdictsTest.S().verdicts()).singleElement().satisfies(f -> {
            assertThat(f.id()).isEqualTo("M4-60S-HEALTHY");
            assertThat(f.severity()).isEqualTo(Severity.INFO);
            assertThat(f.fix()).isEmpty();
        });
    }

    @Test
    void aChecklistOfAnEarlierVersionReadsItsCodesAsRules() throws Exception {
        Checklist c = Checklists.job(java.nio.file.Files.createTempDirectory("checklist-old"));
        ObjectNode tree = Json.MAPPER.valueToTree(c);
        String code = Verdicts.Code.of(c.verdict()).code();
        // as a report of an earlier version wrote it: the code under "code", no source, no fix, no evidence
        for (ObjectNode f : List.of((ObjectNode) tree.get("verdict"), (ObjectNode) tree.get("verdicts").get(0))) {
            f.remove(List.of("id", "source", "fix", "evidence"));
            f.put("code", code);
        }
        Checklist old = Json.MAPPER.treeToValue(tree, Checklist.class);
        assertThat(old.verdict().id()).isEqualTo(c.verdict().id());
        assertThat(old.verdict().source()).isEqualTo(c.verdict().source());
        assertThat(old.verdicts().getFirst().id()).startsWith("M4-60S-");
    }
}
