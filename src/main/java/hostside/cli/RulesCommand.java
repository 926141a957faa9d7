package hostside.cli;

import java.util.List;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import hostside.core.BadInputException;
import hostside.core.Json;
import hostside.core.Printable;
import hostside.core.Rule;
import hostside.core.Style;
import hostside.doc.Document;
import hostside.doc.MarkdownRenderer;
import hostside.doc.TextRenderer;
import hostside.report.Rulebook;

@Command(name = "rules", mixinStandardHelpOptions = true,
        header = "The rulebook: each rule's ID, severities, fix and source.",
        description = {"Lists every rule (ID, module, the severities it gives, what it checks); with an ID, explains that rule: what a finding of it means"
                + " for training, its fix and its sources. Every finding in a report names its rule's ID."})
public final class RulesCommand implements Callable<Integer> {
    @Parameters(arity = "0..1", paramLabel = "ID", description = "A rule's ID, e.g. M3-SYSCALL.")
    String id;

    @Option(names = "--json", description = "One JSON document on stdout: the rules (or the one rule).")
    boolean json;

    @Option(names = "--markdown", description = "Markdown on stdout: what docs/rules.md holds.")
    boolean markdown;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (json && markdown) throw new BadInputException("--json and --markdown: choose one");
        List<Rule> rules = Rulebook.all();
        Document doc = Rulebook.document();
        if (id != null) {
            Rule r = Rulebook.find(id).orElseThrow(() -> new BadInputException("no rule " + Printable.of(id)
                    + ": hostside rules lists them (IDs are M<module>-TOPIC, e.g. M3-SYSCALL)"));
            rules = List.of(r);
            doc = new Document("Rule " + r.id(), r.title(), List.of(Rulebook.explain(r)));
        }
        var out = spec.commandLine().getOut();
        if (json) {
            ObjectNode n = Json.MAPPER.createObjectNode();
            ArrayNode a = n.putArray("rules");
            for (Rule r : rules) a.add(Json.MAPPER.valueToTree(r));
            out.print(Json.write(id == null ? n : a.get(0)));
        } else if (markdown) {
            out.print(new MarkdownRenderer().render(doc));
        } else {
            out.print(new TextRenderer(Style.forTerminal()).render(doc));
        }
        out.flush();
        return Main.OK;
    }
}
