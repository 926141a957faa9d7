package hostside.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import hostside.cli.Main;
import hostside.core.Better;
import hostside.core.Schema;
import hostside.core.Scope;
import hostside.core.Severity;
import hostside.core.Unit;

/**
 * docs/contract.md against the code where it restates what the code decides: which commands take
 * --json and --root (their options), the exit codes (Main's), and the words a typed figure and a
 * finding are written with (the enums').
 */
class ContractTest {
    static final Path CONTRACT = Path.of("docs/contract.md");

    /** The Commands table's rows: the command's name, then its --json and --root cells. */
    static Map<String, String[]> table() throws IOException {
        Map<String, String[]> rows = new LinkedHashMap<>();
        for (String line : Files.readAllLines(CONTRACT)) {
            if (!line.startsWith("| `hostside ")) continue;
            String[] cells = line.substring(1, line.length() - 1).split(" \\| ");
            String name = cells[0].strip().substring("`hostside ".length()).split("[ `]")[0];
            rows.put(name, new String[] {cells[cells.length - 2].strip(), cells[cells.length - 1].strip()});
        }
        return rows;
    }

    @Test
    void theCommandsTableIsTheCommandsOwnOptions() throws IOException {
        Map<String, String[]> rows = table();
        Map<String, CommandLine> commands = new LinkedHashMap<>(new CommandLine(new Main()).getSubcommands());
        commands.remove("help");
        assertThat(rows.keySet()).as("a row per command").containsExactlyInAnyOrderElementsOf(commands.keySet());
        commands.forEach((name, cl) -> {
            boolean json = cl.getCommandSpec().findOption("--json") != null, root = cl.getCommandSpec().findOption("--root") != null;
            assertThat(rows.get(name)[0]).as(name + " --json").isEqualTo(json ? name.equals("learn") ? "with STEPPER" : "yes" : "no");
            assertThat(rows.get(name)[1]).as(name + " --root").isEqualTo(root ? "yes" : "no");
        });
    }

    @Test
    void exitCodesSchemaAndWordsAreTheCodes() throws IOException {
        String text = Files.readString(CONTRACT).replaceAll("\\s+", " ");
        assertThat(new int[] {Main.OK, Main.FAILED, Main.BAD_INPUT}).containsExactly(0, 1, 2);
        assertThat(text).contains("## Exit codes 0 done").contains("; 1 a drill failed").contains("; 2 bad usage or bad input")
                .contains("\"schema\": \"" + Schema.CURRENT + "\"");
        for (Unit u : Unit.values()) assertThat(text).as("unit " + u).contains("`" + u.symbol() + "`");
        for (Better b : Better.values()) assertThat(text).as("better " + b).contains("`" + b.json() + "`");
        for (Severity s : Severity.values()) assertThat(text).as("severity " + s).contains("`" + s + "`");
        for (Scope.Kind k : Scope.Kind.values()) assertThat(text).as("scope " + k).contains("`" + k.prefix + (k == Scope.Kind.MACHINE ? "`" : ":"));
    }
}
