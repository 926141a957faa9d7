package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/** README.md's and docs/commands.md's sentence on which commands take --json and --root is the commands' own options, so it cannot drift from them. */
class ReadmeOptionsTest {
    /** "`a`", "`a` and `b`", "`a`, `b` and `c`". */
    static String named(List<String> names) {
        List<String> q = names.stream().map(n -> "`" + n + "`").toList();
        return q.size() == 1 ? q.getFirst() : String.join(", ", q.subList(0, q.size() - 1)) + " and " + q.getLast();
    }

    static List<String> without(String option) {
        Map<String, CommandLine> all = HelpAndOptionsTest.commands();
        return all.entrySet().stream().filter(e -> e.getValue().getCommandSpec().findOption(option) == null).map(Map.Entry::getKey).toList();
    }

    @Test
    void theReadmeAndTheCommandsPageSayWhichCommandsTakeJsonAndRoot() throws Exception {
        List<String> noJson = without("--json"), noRoot = without("--root");
        assertThat(noJson).as("a command without --json").isNotEmpty();
        for (String page : List.of("README.md", "docs/commands.md")) {
            assertThat(Files.readString(Path.of(page)).replaceAll("\\s+", " ")).as(page)
                    .contains("Every command but " + named(noJson) + " takes `--json`")
                    .contains("every one but " + named(noRoot) + " takes `--root DIR|TARBALL`");
        }
    }
}
