package hostside.report.compare;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

import hostside.core.Better;
import hostside.core.Figure;
import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.health.HealthRules;
import hostside.report.Conclusions;
import hostside.report.Fleet;
import hostside.report.MeasuredBy;
import hostside.report.Placements;
import hostside.report.Report;
import hostside.report.Rulebook;
import hostside.report.platforms.Placement;

/**
 * Reports of several machines compared as design/compare.md (3.2) says: grouped by hardware class
 * only, each figure's centre and spread per group, outliers by the modified z-score and a relative
 * deviation in the bad direction, small groups by their own rules, a probable cause only where
 * exactly one fact of the machine differs from its group, and one fleet line.
 *
 * @param machines  the machines, in the order given
 * @param classes   one group per hardware class, the largest first
 * @param outliers  every outlier, the worst first
 * @param pairs     in groups of two: the figures that differ by more than their tolerance and their spread
 * @param fleet     one line: machines, classes, outliers per class, the figure with the widest spread
 */
public record Comparison(List<Machine> machines, List<ClassGroup> classes, List<Outlier> outliers, List<PairDifference> pairs,
                         List<BelowFloor> belowFloor, FleetFindings findings, String fleet) {

    /**
     * The reports' findings grouped by rule across the fleet, as kube-bench counts a check over
     * nodes: each rule that finds something bad, doubtful or unjudged on at least one machine, with
     * how many of the machines whose findings were recorded it fired on, the worst first.
     *
     * @param rules      per rule, the machines it fired on
     * @param recorded   the reports whose findings are recorded (their count is the "of N")
     * @param unrecorded the reports written before reports recorded their findings: not counted
     */
    public record FleetFindings(List<RuleCount> rules, int recorded, List<String> unrecorded) {}

    /**
     * One rule over the fleet.
     *
     * @param severity the worst it gave on any machine
     * @param machines the reports it gave {@code severity} or any of bad, warn, unknown on, in the order given
     * @param worst    per report in {@code machines}, the worst it gave there
     */
    public record RuleCount(String id, int module, Severity severity, String title, List<String> machines,
                            List<Severity> worst) {}

    /**
     * A machine whose host-to-device copy is under 0.75 of its reference class's (hostside's own rule:
     * DCGM's diag-skus.yaml takes 0.75 of its measured SM and memory figures, and sets no PCIe bandwidth floor): the
     * fleet-wide regression that a group's median cannot see, since every machine of the group may be low.
     */
    /** A machine whose copies its rule ({@code id}, M1-CLASS-FLOOR) found under its reference class's floor. */
    public record BelowFloor(String machine, String key, double value, double floor, String platform, String id) {}

    /**
     * One report as compared: its name (unique among them), class, software and confounders, and
     * the reference platform it was placed next to ("" when it was not placed).
     */
    public record Machine(String name, Fleet.HardwareClass hardwareClass, Fleet.Software software, Fleet.Confounders confounders, String closest,
                          @com.fasterxml.jackson.annotation.JsonIgnore String id) {}

    /**
     * @param label     the class in a line ("1x 0x2335, 16 cores, pcie-gen5-x16, ...")
     * @param machines  its machines' names
     * @param findings  software and confounder differences inside the class ("3 of 40 run driver 570.1, the rest 580.2")
     * @param figures   per figure, its spread over the class's machines
     */
    public record ClassGroup(String label, Fleet.HardwareClass hardwareClass, List<String> machines, List<String> findings, List<FigureSpread> figures) {}

    /** One figure's spread over a class: n, median, MAD, min and max, in its unit. */
    public record FigureSpread(String key, String scope, Unit unit, Better better, int n, double median, double mad, double min, double max) {}

    /**
     * @param deviation how much worse than the group, as a fraction of its median (0.12: 12% worse)
     * @param cause     "probable cause: ..." where exactly one fact differs from the group, "differs in: ..."
     *                  where several do, "" where none does
     */
    public record Outlier(String machine, String key, String scope, double value, double median, double deviation, String cause) {}

    /**
     * In a class of two machines: {@code b} differs from {@code a} by {@code percent} (signed), beyond both runs' spread.
     *
     * @param unfair why the difference is not a fair one ("h200 was busy during the io drill"), "" where it is
     */
    public record PairDifference(String key, String scope, Unit unit, String a, double valueA, String b, double valueB, double percent, String unfair) {}

    /**
     * One report to compare, under the name it is shown by: its head alone (its class, software,
     * confounders and figures), so that what compare holds grows with the figures, not with the
     * reports' size.
     */
    public record Input(String name, Report.Head report) {}

    public static Comparison of(List<Input> inputs) {
        List<Machine> machines = new ArrayList<>();
        List<BelowFloor> below = new ArrayList<>();
        for (Input i : inputs) {
            Placement p = Placements.of(i.report());
            machines.add(new Machine(i.name(), i.report().hardwareClass(), i.report().software(), i.report().confounders(), p.placed() ? p.closest().name() : "",
                    i.report().machine() == null ? null : i.report().machine().id()));
            // the report's M1-CLASS-FLOOR finding, by the rule page one reads: a copy measured busy is unknown, never below the floor
            Double h2d = Placements.median(i.report(), Placements.HOST_TO_DEVICE);
            boolean under = Conclusions.classFloor(i.report()).filter(f -> f.severity() == Severity.WARN).isPresent();
            if (under) below.add(new BelowFloor(i.name(), Placements.HOST_TO_DEVICE, h2d, p.hostToDeviceFloor(), p.closest().name(),
                    Placement.CLASS_FLOOR.id()));
        }
        Map<Fleet.HardwareClass, List<Input>> byClass = new LinkedHashMap<>();
        for (Input i : inputs) byClass.computeIfAbsent(i.report().hardwareClass(), k -> new ArrayList<>()).add(i);
        List<ClassGroup> classes = new ArrayList<>();
        List<Outlier> outliers = new ArrayList<>();
        List<PairDifference> pairs = new ArrayList<>();
        for (var e : byClass.entrySet()) {
            List<Input> group = e.getValue();
            List<FigureSpread> spreads = new ArrayList<>();
            for (var row : rows(group).entrySet()) {
                Map<String, Figure> values = row.getValue();
                Figure any = values.values().iterator().next();
                Spread s = Spread.of(values.values().stream().mapToDouble(Figure::value).toArray());
                spreads.add(new FigureSpread(any.key(), any.scope().toString(), any.unit(), any.better(), s.n(), s.median(), s.mad(), s.min(), s.max()));
                if (s.n() >= 5) outliers.addAll(large(group, values, s));
                else if (s.n() >= 3) outliers.addAll(small(group, values));
                else if (s.n() == 2) pair(values, group).ifPresent(pairs::add);
            }
            classes.add(new ClassGroup(label(e.getKey()), e.getKey(), group.stream().map(Input::name).toList(), findings(group), spreads));
        }
        classes.sort(Comparator.comparingInt((ClassGroup c) -> -c.machines().size()));
        outliers.sort(Comparator.comparingDouble(Outlier::deviation).reversed());
        return new Comparison(machines, classes, outliers, pairs, below, fleetFindings(inputs), fleetLine(machines, classes, outliers, below));
    }

    /** Each figure (key and scope) of a group, with the figure of every machine that has it, in the group's order. */
    static Map<String, Map<String, Figure>> rows(List<Input> group) {
        Map<String, Map<String, Figure>> rows = new TreeMap<>();
        for (Input i : group) {
            for (Figure f : i.report().figures()) rows.computeIfAbsent(f.key() + " " + f.scope(), k -> new LinkedHashMap<>()).putIfAbsent(i.name(), f);
        }
        return rows;
    }

    /** Five or more: the modified z-score beyond 3.5 and a deviation beyond the tolerance, both. */
    static List<Outlier> large(List<Input> group, Map<String, Figure> values, Spread s) {
        List<Outlier> out = new ArrayList<>();
        for (var v : values.entrySet()) {
            Figure f = v.getValue();
            double worse = Tolerance.worse(f.value(), s.median(), f.better());
            if (s.z(f.value(), (f.max() - f.min()) / 2) > Spread.Z_CUT && worse > Tolerance.of(f).tau) {
                out.add(new Outlier(v.getKey(), f.key(), f.scope().toString(), f.value(), s.median(), worse, cause(group, v.getKey())));
            }
        }
        return out;
    }

    /** Three or four: too few for a spread; beyond twice the tolerance from the median of the others. */
    static List<Outlier> small(List<Input> group, Map<String, Figure> values) {
        List<Outlier> out = new ArrayList<>();
        for (var v : values.entrySet()) {
            Figure f = v.getValue();
            double[] others = values.entrySet().stream().filter(o -> !o.getKey().equals(v.getKey())).mapToDouble(o -> o.getValue().value()).toArray();
            double m = Spread.of(others).median();
            double worse = Tolerance.worse(f.value(), m, f.better());
            if (worse > 2 * Tolerance.of(f).tau) out.add(new Outlier(v.getKey(), f.key(), f.scope().toString(), f.value(), m, worse, cause(group, v.getKey())));
        }
        return out;
    }

    /** Two: the difference, where it exceeds the tolerance and the two runs' ranges do not overlap. */
    static java.util.Optional<PairDifference> pair(Map<String, Figure> values, List<Input> group) {
        var it = values.entrySet().iterator();
        var a = it.next();
        var b = it.next();
        Figure fa = a.getValue(), fb = b.getValue();
        if (fa.value() == 0 || !fa.differsFrom(fb)) return java.util.Optional.empty();
        double pct = 100 * (fb.value() - fa.value()) / Math.abs(fa.value());
        if (Math.abs(pct) <= 100 * Tolerance.of(fa).tau) return java.util.Optional.empty();
        return java.util.Optional.of(new PairDifference(fa.key(), fa.scope().toString(), fa.unit(), a.getKey(), fa.value(), b.getKey(), fb.value(), pct,
                unfair(fa.key(), group.stream().filter(i -> i.name().equals(a.getKey()) || i.name().equals(b.getKey())).toList())));
    }

    /**
     * Each rule's bad, warn and unknown findings counted over the machines (a rule that fires on
     * several GPUs of one machine counts that machine once, at its worst); findings without a
     * rule's ID (from a report older than the rulebook) are not grouped.
     */
    static FleetFindings fleetFindings(List<Input> inputs) {
        Map<String, Map<String, Severity>> byRule = new LinkedHashMap<>();
        Map<String, Integer> module = new LinkedHashMap<>();
        List<String> unrecorded = new ArrayList<>();
        int recorded = 0;
        for (Input i : inputs) {
            List<Report.Concluded> found = i.report().findings();
            if (found == null) {
                unrecorded.add(i.name());
                continue;
            }
            recorded++;
            for (Report.Concluded c : found) {
                if (c.id().isEmpty() || !(c.severity().toFix() || c.severity() == Severity.UNKNOWN)) continue;
                module.putIfAbsent(c.id(), c.module());
                // the enum's order is worst first: keep the smaller
                byRule.computeIfAbsent(c.id(), k -> new LinkedHashMap<>()).merge(i.name(), c.severity(), (a, b) -> a.compareTo(b) <= 0 ? a : b);
            }
        }
        List<RuleCount> rules = new ArrayList<>();
        byRule.forEach((id, on) -> {
            Severity worst = on.values().stream().min(Comparator.naturalOrder()).orElseThrow();
            String title = Rulebook.find(id).map(Rule::title).orElse("a rule this version does not have");
            rules.add(new RuleCount(id, module.get(id), worst, title, List.copyOf(on.keySet()), List.copyOf(on.values())));
        });
        rules.sort(Comparator.comparing(RuleCount::severity).thenComparingInt(r -> -r.machines().size()).thenComparing(RuleCount::id));
        return new FleetFindings(rules, recorded, unrecorded);
    }

    // ---- facts that differ inside a class: findings, and an outlier's probable cause ----

    /** The facts a class's machines may differ in without being another class: software and confounders. */
    static final Map<String, Function<Report.Head, Object>> FACTS = facts();

    private static Map<String, Function<Report.Head, Object>> facts() {
        Map<String, Function<Report.Head, Object>> m = new LinkedHashMap<>();
        m.put("driver", r -> r.software() == null ? null : r.software().driver());
        m.put("CUDA", r -> r.software() == null ? null : r.software().cuda());
        m.put("kernel", r -> r.software() == null ? null : r.software().kernel());
        m.put("GPU clocks locked", r -> r.confounders() == null ? null : r.confounders().clocksLocked());
        m.put("numa_balancing", r -> r.confounders() == null ? null : r.confounders().numaBalancing());
        m.put("THP", r -> r.confounders() == null ? null : r.confounders().thp());
        // a quick report measures the same figures the same way but skips most: a mixed group is said, not hidden
        m.put("report mode", r -> r.confounders() == null ? "full" : r.confounders().modeOrFull());
        // a drill that began on a busy machine measured the load as much as the machine
        m.put("load", r -> r.confounders() == null || r.confounders().drillLoads() == null ? "not read"
                : r.confounders().busyDrills().isEmpty() ? "quiet" : "busy during the " + String.join(" and ", r.confounders().busyDrills()) + " drill"
                + (r.confounders().busyDrills().size() > 1 ? "s" : ""));
        return m;
    }

    /** The most common value of a fact in a group (the first seen among equals). */
    static Object mode(List<Input> group, Function<Report.Head, Object> fact) {
        Map<Object, Integer> counts = new LinkedHashMap<>();
        for (Input i : group) counts.merge(String.valueOf(fact.apply(i.report())), 1, Integer::sum);
        return counts.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
    }

    /** "3 of 40 run driver 570.86, the rest 580.95": one line per fact on which the class is not unanimous. */
    static List<String> findings(List<Input> group) {
        List<String> out = new ArrayList<>();
        if (group.size() < 2) return out;
        for (var f : FACTS.entrySet()) {
            Object mode = mode(group, f.getValue());
            Map<String, List<String>> others = new TreeMap<>();
            for (Input i : group) {
                String v = String.valueOf(f.getValue().apply(i.report()));
                if (!v.equals(mode)) others.computeIfAbsent(v, k -> new ArrayList<>()).add(i.name());
            }
            others.forEach((v, names) -> out.add(String.format(Locale.ROOT, "%d of %d have %s %s (%s), the rest %s", names.size(), group.size(), f.getKey(), v,
                    Finding.some(names), mode)));
        }
        return out;
    }

    /** What of this machine differs from its group's mode; a probable cause only when exactly one fact does. */
    /**
     * Facts said as findings but never blamed for a figure: a quick report measures each figure it
     * keeps exactly as a full one does, so its mode says which figures exist, not why one is worse
     * (on the H200, three runs of one machine had a full run's pageable copy 21% below two quick
     * ones: noise that "probable cause: report mode" would have misnamed).
     */
    static final java.util.Set<String> NEVER_A_CAUSE = java.util.Set.of("report mode");

    static String cause(List<Input> group, String machine) {
        if (group.size() < 2) return "";
        Report.Head r = group.stream().filter(i -> i.name().equals(machine)).findFirst().orElseThrow().report();
        List<String> differ = new ArrayList<>();
        for (var f : FACTS.entrySet()) {
            if (NEVER_A_CAUSE.contains(f.getKey())) continue;
            Object mode = mode(group, f.getValue());
            String mine = String.valueOf(f.getValue().apply(r));
            if (!mine.equals(mode)) differ.add(f.getKey() + " " + mine + " (the group: " + mode + ")");
        }
        List<String> health = healthCauses(group, r);
        if (!health.isEmpty()) {
            return "probable cause, node health: " + Finding.some(health) + (differ.isEmpty() ? "" : "; also differs in: " + String.join("; ", differ));
        }
        if (differ.isEmpty()) return "";
        return differ.size() == 1 ? "probable cause: " + differ.getFirst() : "differs in: " + String.join("; ", differ);
    }

    /**
     * The machine's node-health findings to fix (bad or warn) whose rule fired on at most half of
     * its group: a GPU held down by HW slowdown, a link trained down or a pending row remap explains
     * a figure below its peers better than any setting, and a finding the whole class shares explains
     * nothing about one machine. A report written before health was checked has none to give.
     */
    static List<String> healthCauses(List<Input> group, Report.Head machine) {
        if (machine.findings() == null) return List.of();
        List<String> out = new ArrayList<>();
        for (Report.Concluded c : machine.findings()) {
            if (!HealthRules.isHealth(c.id()) || !c.severity().toFix()) continue;
            long sharing = group.stream().filter(i -> i.report().findings() != null
                    && i.report().findings().stream().anyMatch(o -> o.id().equals(c.id()) && o.severity().toFix())).count();
            if (sharing * 2 <= group.size()) out.add(c.id() + " " + c.subject() + " (" + c.severity() + ")");
        }
        return out;
    }

    /**
     * Why figure {@code key} of these machines is not a fair comparison: each of them that was busy
     * as the drill measuring it began ("h200 was busy during the io drill"); "" where none was, or
     * where no load was recorded. A busy run measured the load as much as the machine, so two busy
     * runs are no fairer than one: a difference between them says nothing about either machine.
     */
    static String unfair(String key, List<Input> machines) {
        String drill = MeasuredBy.drill(key).orElse(null);
        if (drill == null) return "";
        List<String> why = new ArrayList<>();
        List<String> busy = machines.stream().filter(i -> i.report().confounders() != null && i.report().confounders().busyDrills().contains(drill))
                .map(Input::name).toList();
        if (!busy.isEmpty()) why.add(String.join(" and ", busy) + (busy.size() == 1 ? " was" : " were") + " busy during the " + drill + " drill");
        if (MeasuredBy.onGpu(key)) {
            // a GPU held at a locked or capped clock copies and launches at that clock, not at the machine's
            List<String> locked = machines.stream().filter(i -> i.report().confounders() != null && Boolean.TRUE.equals(i.report().confounders().clocksLocked()))
                    .map(Input::name).toList();
            boolean known = machines.stream().allMatch(i -> i.report().confounders() != null && i.report().confounders().clocksLocked() != null);
            if (known && !locked.isEmpty() && locked.size() < machines.size()) {
                why.add(String.join(" and ", locked) + (locked.size() == 1 ? " had its" : " had their") + " GPU clocks locked or capped, the other not");
            }
        }
        return String.join("; ", why);
    }

    // ---- lines ----

    static String label(Fleet.HardwareClass c) {
        if (c == null) return "unknown class";
        String gpus = c.gpuCount() == 0 ? "no GPU" : c.gpuCount() + "x " + c.gpu() + ", host link " + c.hostLink() + ", fabric " + c.fabric();
        return String.format(Locale.ROOT, "%s; %s, %d cores; NICs %s%s", gpus, c.cpuModel(), c.cores(), c.nics(),
                c.pageSize() == null ? "" : "; " + Units.bytes(c.pageSize()) + " pages");
    }

    /** N machines, K classes, outliers per class, and the figure that spreads most (MAD over median) where a class has three or more. */
    static String fleetLine(List<Machine> machines, List<ClassGroup> classes, List<Outlier> outliers, List<BelowFloor> below) {
        List<String> per = new ArrayList<>();
        for (int i = 0; i < classes.size(); i++) {
            ClassGroup c = classes.get(i);
            long n = outliers.stream().filter(o -> c.machines().contains(o.machine())).map(Outlier::machine).distinct().count();
            per.add(String.format(Locale.ROOT, "class %d (%s): %d outlier machine%s", i + 1,
                    count(machines.stream().filter(m -> c.machines().contains(m.name())).toList()), n, n == 1 ? "" : "s"));
        }
        FigureSpread widest = classes.stream().filter(c -> c.machines().size() >= 3).flatMap(c -> c.figures().stream())
                .filter(f -> f.median() != 0 && f.n() >= 3).max(Comparator.comparingDouble(f -> f.mad() / Math.abs(f.median()))).orElse(null);
        return String.format(Locale.ROOT, "%s, %d class%s; %s%s%s", count(machines), classes.size(),
                classes.size() == 1 ? "" : "es", String.join("; ", per),
                below.isEmpty() ? "" : String.format(Locale.ROOT, "; %d below their reference class's floor", below.size()),
                widest == null ? "" : String.format(Locale.ROOT, "; widest spread: %s %s (MAD %.1f%% of its median)", widest.key(), widest.scope(),
                        100 * widest.mad() / Math.abs(widest.median())));
    }

    /**
     * "3 machines", or "4 reports of 3 machines" where reports share a machine's identity (two runs
     * of one node, or one report given twice): a fleet is counted in machines, not files.
     */
    static String count(List<Machine> machines) {
        long distinct = machines.stream().map(m -> m.id() == null ? "report " + m.name() : m.id()).distinct().count();
        String m = distinct + " machine" + (distinct == 1 ? "" : "s");
        return distinct == machines.size() ? m : machines.size() + " reports of " + m;
    }

    /** Machines ranked: most outlier figures first, then the worst deviation. */
    public List<String> ranked() {
        Map<String, List<Outlier>> by = new LinkedHashMap<>();
        for (Outlier o : outliers) by.computeIfAbsent(o.machine(), k -> new ArrayList<>()).add(o);
        return by.entrySet().stream().sorted(Comparator.comparingInt((Map.Entry<String, List<Outlier>> e) -> -e.getValue().size())
                        .thenComparingDouble(e -> -e.getValue().stream().mapToDouble(Outlier::deviation).max().orElse(0)))
                .map(Map.Entry::getKey).filter(Objects::nonNull).toList();
    }
}
