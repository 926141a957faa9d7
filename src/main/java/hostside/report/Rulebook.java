package hostside.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import hostside.checklist.ChecklistRules;
import hostside.core.Rule;
import hostside.core.Source;
import hostside.drills.Drills;
import hostside.harness.Drill;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;
import hostside.doc.Block;
import hostside.doc.Document;
import hostside.doc.Text;
import hostside.report.platforms.Placement;

/**
 * Every rule hostside draws a conclusion by, in one registry: what `hostside rules` lists and
 * docs/rules.md is generated from. Each drill declares its rules beside the code that judges them;
 * this is the one place that gathers them, above the drills, so that the report, compare and the
 * course quote the same IDs.
 */
public final class Rulebook {
    private Rulebook() {}

    private static final List<Rule> ALL = gather();

    /** Every drill's rules, then those a drill does not judge by: the report's placement among platforms and the 60-second checklist's. */
    private static List<Rule> gather() {
        List<Rule> all = new ArrayList<>();
        for (Drill<?, ?> d : Drills.all()) all.addAll(d.rules());
        all.add(Placement.CLASS_FLOOR);
        all.addAll(ChecklistRules.all());
        Map<String, Rule> byId = new LinkedHashMap<>();
        for (Rule r : all) {
            if (byId.put(r.id(), r) != null) throw new IllegalStateException("two rules with the ID " + r.id());
        }
        return all.stream().sorted(Comparator.comparingInt(Rule::module).thenComparing(Rule::id)).toList();
    }

    /** Every rule, by module, then ID. */
    public static List<Rule> all() {
        return ALL;
    }

    public static Optional<Rule> find(String id) {
        return ALL.stream().filter(r -> r.id().equals(id)).findFirst();
    }

    /** How many rules cite a primary source first (a document, a source file at a version, a measurement): the rest rest on a thread or a reason. */
    public static long primary() {
        return ALL.stream().filter(r -> r.sources().getFirst().kind().primary()).count();
    }

    /** The rulebook as a document: a table of every rule, then each rule in full. */
    public static Document document() {
        List<Block> blocks = new ArrayList<>();
        blocks.add(Block.Paragraph.of(String.format(java.util.Locale.ROOT,
                "%d rules; %d cite a primary source first (a vendor's document, a source file at a version, a measurement in docs/measurements),"
                        + " the rest a thread or hostside's own reasoning, said in the rule. A finding carries its rule's ID, severity, evidence, fix and"
                        + " source; a figure measured on a busy machine, within the noise of what it compares, or in doubt (32 reads in flight slower than"
                        + " one at a time) gives unknown, stating its figures and nothing drawn from them, never a fix. Each rule has a test that makes it"
                        + " fire and one that sees it quiet (the test suite's RuleCoverageTest fails otherwise).",
                ALL.size(), primary())));
        List<List<Text>> rows = ALL.stream().map(r -> List.of(Text.of(r.id()), Text.of(String.valueOf(r.module())), Text.of(r.severityRange()),
                Text.of(r.title()))).toList();
        blocks.add(new Block.Table(List.of(new Column("ID", Align.LEFT), new Column("module", Align.RIGHT), new Column("severities", Align.LEFT),
                new Column("checks", Align.LEFT)), rows));
        for (Rule r : ALL) blocks.add(explain(r));
        return new Document("The rulebook", "every rule hostside concludes by; written by hostside rules --markdown", blocks);
    }

    /** One rule in full. */
    public static Block explain(Rule r) {
        List<Block.KeyValues.Entry> e = new ArrayList<>();
        e.add(Block.KeyValues.Entry.of("module", String.valueOf(r.module())));
        e.add(Block.KeyValues.Entry.of("checks", r.title()));
        e.add(Block.KeyValues.Entry.of("severities", r.severityRange()));
        e.add(Block.KeyValues.Entry.of("means", r.meaning()));
        if (!r.fix().isEmpty()) e.add(Block.KeyValues.Entry.of("fix", r.fix()));
        for (Source s : r.sources()) e.add(Block.KeyValues.Entry.of("source", s.toString()));
        return new Block.Section(r.id(), List.of(new Block.KeyValues(e)));
    }
}
