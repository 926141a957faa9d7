package hostside.report.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import hostside.core.Figure;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.core.Units;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;
import hostside.doc.Block;
import hostside.doc.Document;
import hostside.doc.Text;

/**
 * A comparison said once: the fleet line, each class with its findings; up to {@link #SIDE_BY_SIDE}
 * machines side by side (figures as rows, machines as columns, the difference to the baseline),
 * more as per-figure statistics; then the outliers, worst first.
 */
public final class CompareDocument {
    private CompareDocument() {}

    /** Up to this many machines fit side by side in 100 columns. */
    public static final int SIDE_BY_SIDE = 8;

    /**
     * @param inputs   the reports, for the side-by-side values
     * @param baseline the machine the others are set against in the side-by-side view (the first when null)
     */
    public static Document of(Comparison c, List<Comparison.Input> inputs, String baseline) {
        List<Block> b = new ArrayList<>();
        b.add(new Block.Paragraph(Text.strong("Fleet: ").plain(c.fleet() + ".")));
        boolean few = inputs.size() <= SIDE_BY_SIDE;
        b.add(findings(c.findings()));
        for (int i = 0; i < c.classes().size(); i++) {
            Comparison.ClassGroup g = c.classes().get(i);
            List<Block> in = new ArrayList<>();
            in.add(new Block.Paragraph(Text.of(g.label() + ": " + Finding.some(g.machines()) + ".")));
            if (!g.findings().isEmpty()) in.add(new Block.Bullets(g.findings().stream().map(Text::of).toList()));
            if (!few) in.add(statistics(g));
            b.add(new Block.Section("Class " + (i + 1), in));
        }
        if (few) {
            List<Block> in = new ArrayList<>();
            if (c.classes().size() > 1) {
                in.add(Block.Note.of("The machines are of " + c.classes().size() + " classes: their differences show what the hardware gives, not which machine is sick; outliers are judged within a class only."));
            }
            in.add(sideBySide(inputs, baseline));
            if (inputs.stream().anyMatch(i -> i.report().confounders() != null && !i.report().confounders().busyDrills().isEmpty())
                    || inputs.stream().map(i -> i.report().confounders() == null ? null : i.report().confounders().clocksLocked()).distinct().count() > 1) {
                in.add(Block.Note.of("not fair: a difference so marked says nothing about either machine: one of the two, or both, was busy as the drill"
                        + " measuring that figure began, or one had its GPU clocks locked or capped and the other not (the reports' conditions say which);"
                        + " run both again on quiet machines with the same clock settings."));
            }
            b.add(new Block.Section("Side by side", in));
        }
        if (!c.belowFloor().isEmpty()) {
            List<Text> lines = c.belowFloor().stream().map(f -> Text.of(f.machine() + ": ").andCode(f.key()).plain(String.format(Locale.ROOT,
                    " %s GB/s, under %s GB/s (hostside's floor: 0.75 of %s's reference figure) [%s]", Units.figure(f.value()), Units.figure(f.floor()), f.platform(),
                    f.id()))).toList();
            b.add(new Block.Section("Below their reference class's floor", List.of(new Block.Bullets(lines))));
        }
        b.add(outliers(c));
        if (!c.pairs().isEmpty()) {
            List<Text> lines = c.pairs().stream().map(p -> Text.code(p.key()).plain(String.format(Locale.ROOT, " (%s): %s %s, %s %s: %+.1f%%", p.scope(),
                    p.a(), Units.figure(p.valueA()), p.b(), Units.figure(p.valueB()), p.percent())
                    + (p.unfair().isEmpty() ? "" : "; not a fair comparison: " + p.unfair() + ", so the difference says nothing about either machine"))).toList();
            b.add(new Block.Section("Two machines of one class: the differences beyond tolerance and spread", List.of(new Block.Bullets(lines))));
        }
        String title = "hostside compare: " + c.machines().size() + " report" + (c.machines().size() == 1 ? "" : "s");
        return new Document(title, b);
    }

    /**
     * The findings grouped by rule: "3 of 64 machines: M2-THP warn ...", the worst first, with the
     * machines named (a few, then a count); the reports that recorded none said in a line.
     */
    static Block findings(Comparison.FleetFindings f) {
        List<Block> in = new ArrayList<>();
        String of = f.recorded() + (f.recorded() == 1 ? " report" : " reports");
        if (f.rules().isEmpty()) {
            in.add(Block.Paragraph.of(f.recorded() == 0 ? "No report records its findings." : "No rule found anything bad, doubtful or unjudged on any of the " + of + "."));
        } else {
            List<Text> lines = new ArrayList<>();
            for (Comparison.RuleCount r : f.rules()) {
                Map<Severity, Long> bySeverity = new java.util.TreeMap<>();
                for (Severity s : r.worst()) bySeverity.merge(s, 1L, Long::sum);
                String split = bySeverity.size() == 1 ? r.severity().toString() : String.join(", ", bySeverity.entrySet().stream()
                        .map(e -> e.getKey() + " on " + e.getValue()).toList());
                lines.add(Text.strong(r.machines().size() + " of " + f.recorded()).plain(": ").andCode(r.id()).plain(" (" + split + ", Module " + r.module()
                        + ") " + r.title() + ": " + Finding.some(r.machines())));
            }
            in.add(new Block.Bullets(lines));
            in.add(Block.Note.of("Counted over the " + of + " that record their findings; hostside rules ID says what each rule checks, why, and its fix."
                    + (f.rules().stream().anyMatch(r -> r.worst().contains(Severity.UNKNOWN))
                    ? " Unknown: measured on a busy machine or within noise there; run it again before comparing." : "")));
        }
        if (!f.unrecorded().isEmpty()) {
            in.add(Block.Note.of(f.unrecorded().size() + (f.unrecorded().size() == 1 ? " report records" : " reports record") + " no findings (written by a hostside"
                    + " older than the rulebook): " + Finding.some(f.unrecorded()) + "; run hostside report there again to count them."));
        }
        return new Block.Section("Findings by rule", in);
    }

    /** Figures as rows, machines as columns; each value beside the baseline's, with its difference in percent. */
    static Block sideBySide(List<Comparison.Input> machines, String baseline) {
        Comparison.Input base = machines.stream().filter(m -> m.name().equals(baseline)).findFirst().orElse(machines.getFirst());
        Map<String, Map<String, Figure>> rows = Comparison.rows(machines);
        List<Column> cols = new ArrayList<>(List.of(new Column("figure", Align.LEFT), new Column("scope", Align.LEFT), new Column("unit", Align.LEFT)));
        for (Comparison.Input m : machines) cols.add(new Column(m.name() + (m == base ? " (baseline)" : ""), Align.RIGHT));
        List<List<Text>> table = new ArrayList<>();
        for (Map<String, Figure> row : rows.values()) {
            Figure any = row.values().iterator().next();
            Figure ref = row.get(base.name());
            List<Text> cells = new ArrayList<>(List.of(Text.code(any.key()), Text.of(any.scope().toString()), Text.of(any.unit().toString())));
            for (Comparison.Input m : machines) {
                Figure f = row.get(m.name());
                String cell = f == null ? "-" : Units.figure(f.value());
                if (f != null && ref != null && m != base && ref.value() != 0) {
                    // not fair first: a figure measured busy says nothing, whatever its spread
                    String why = !Comparison.unfair(f.key(), List.of(base, m)).isEmpty() ? ", not fair" : !f.differsFrom(ref) ? ", within spread" : "";
                    cell += String.format(Locale.ROOT, " (%+.0f%%%s)", 100 * (f.value() - ref.value()) / Math.abs(ref.value()), why);
                }
                cells.add(Text.of(cell));
            }
            table.add(cells);
        }
        return new Block.Table(cols, table);
    }

    /** Per figure: n, median, MAD as a share of the median, min and max. */
    static Block statistics(Comparison.ClassGroup g) {
        List<List<Text>> rows = new ArrayList<>();
        for (Comparison.FigureSpread f : g.figures()) {
            rows.add(List.of(Text.code(f.key()), Text.of(f.scope()), Text.of(f.unit().toString()), Text.of(String.valueOf(f.n())), Text.of(Units.figure(f.median())),
                    Text.of(f.median() == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * f.mad() / Math.abs(f.median()))),
                    Text.of(Units.figure(f.min())), Text.of(Units.figure(f.max()))));
        }
        return new Block.Table(List.of(new Column("figure", Align.LEFT), new Column("scope", Align.LEFT), new Column("unit", Align.LEFT), new Column("n", Align.RIGHT),
                new Column("median", Align.RIGHT), new Column("MAD", Align.RIGHT), new Column("min", Align.RIGHT), new Column("max", Align.RIGHT)), rows);
    }

    /** The machines ranked (most outlier figures first), each figure with its deviation and cause. */
    static Block outliers(Comparison c) {
        if (c.outliers().isEmpty()) {
            return new Block.Section("Outliers", List.of(Block.Note.of("None: no machine sits beyond its class's spread and tolerance"
                    + (c.classes().stream().allMatch(g -> g.machines().size() < 3) ? " (no class has three machines: too few to judge one against the rest)" : "") + ".")));
        }
        Map<String, List<Comparison.Outlier>> by = new LinkedHashMap<>();
        for (String m : c.ranked()) by.put(m, new ArrayList<>());
        for (Comparison.Outlier o : c.outliers()) by.get(o.machine()).add(o);
        List<List<Text>> rows = new ArrayList<>();
        by.forEach((m, os) -> {
            for (Comparison.Outlier o : os) {
                rows.add(List.of(Text.of(m), Text.code(o.key()), Text.of(o.scope()), Text.of(Units.figure(o.value())), Text.of(Units.figure(o.median())),
                        Text.of(String.format(Locale.ROOT, "%.1f%% worse", 100 * o.deviation())), Text.of(o.cause().isEmpty() ? "-" : o.cause())));
            }
        });
        return new Block.Section("Outliers", List.of(new Block.Table(List.of(new Column("machine", Align.LEFT), new Column("figure", Align.LEFT),
                new Column("scope", Align.LEFT), new Column("value", Align.RIGHT), new Column("class median", Align.RIGHT), new Column("deviation", Align.RIGHT),
                new Column("cause", Align.LEFT)), rows)));
    }
}
