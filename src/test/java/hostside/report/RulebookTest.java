package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import hostside.testing.CliRun;
import hostside.core.Rule;
import hostside.doc.MarkdownRenderer;

/** The rulebook: its IDs, docs/rules.md kept as the registry writes it, and `hostside rules`. */
class RulebookTest {
    static final Path DOC = Path.of("docs/rules.md");

    @Test
    void docsRulesIsWhatTheRegistryWrites() throws Exception {
        String now = new MarkdownRenderer().render(Rulebook.document());
        assertThat(Files.exists(DOC) ? Files.readString(DOC) : "")
                .as("docs/rules.md is stale: write it anew with `hostside rules --markdown > docs/rules.md`").isEqualTo(now);
    }

    @Test
    void everyIdIsWellFormedAndFindable() {
        assertThat(Rulebook.all()).isNotEmpty().allSatisfy(r -> {
            assertThat(r.id()).matches(Rule.ID);
            assertThat(Rulebook.find(r.id())).contains(r);
        });
        assertThat(Rulebook.all().stream().map(Rule::id).distinct().count()).isEqualTo(Rulebook.all().size());
    }

    @Test
    void theCommandListsExplainsAndRefuses() {
        CliRun list = CliRun.of("rules");
        assertThat(list.code()).isZero();
        for (Rule r : Rulebook.all()) assertThat(list.out()).contains(r.id());
        CliRun one = CliRun.of("rules", "M3-SYSCALL");
        assertThat(one.code()).isZero();
        assertThat(one.out()).contains("fix").contains("source      measurement: docs/measurements/2026-12-02-cpu.md");
        CliRun json = CliRun.of("rules", "--json");
        assertThat(json.code()).isZero();
        assertThat(json.out()).startsWith("{").contains("\"id\" : \"M3-SYSCALL\"").contains("\"severities\" : [ \"warn\", \"unknown\", \"ok\" ]");
        CliRun none = CliRun.of("rules", "M9-\u001b[2J");
        assertThat(none.code()).isEqualTo(2);
        assertThat(none.err()).startsWith("hostside: no rule M9-\\x1b[2J").doesNotContain("\u001b");
    }
}
