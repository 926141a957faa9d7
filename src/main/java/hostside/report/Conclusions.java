package hostside.report;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Finding;
import hostside.core.Severity;
import hostside.harness.DrillRun;
import hostside.rack.RackCheck;
import hostside.rack.RackRules;

/**
 * Every conclusion a report's modules drew, in the modules' order: the one list page one's "What
 * to fix here", the report's own {@code findings} (what compare reads of a report without its
 * pages) and the course's self-check are drawn from, so that none of them can say what the others
 * do not.
 */
public final class Conclusions {
    private Conclusions() {}

    /** The findings of each module's run, its facts' first, then its measured ones. */
    public static List<Report.Concluded> of(List<Report.Section> modules) {
        List<Report.Concluded> out = new ArrayList<>();
        if (modules == null) return out;
        for (Report.Section s : modules) {
            if (s == null) continue;
            switch (s.data()) {
                case null -> { }
                case Report.Storage st -> {
                    add(out, 4, st.io().conclusions()); // a loader on the slower path is Module 4's as much as a network file system
                    if (st.container() != null) add(out, 4, st.container().conclusions());
                }
                case Report.Rack rack -> {
                    for (RackCheck c : rack.checklist()) {
                        Finding f = c.finding(); // null for n/a and not run: not a conclusion about this machine
                        if (f != null) sayOnce(out, new Report.Concluded(5, f.id(), f.severity(), f.subject(), f.text(), f.fix()));
                    }
                }
                case DrillRun r -> add(out, s.module(), r.conclusions()); // the facts' findings first, then the measured ones
                default -> { }
            }
        }
        return out;
    }

    /** M1-CLASS-FLOOR's finding for a report's head: its pinned copies against its reference platform's, unknown where the machine drill began busy. */
    public static java.util.Optional<Report.Concluded> classFloor(Report.Head head) {
        // a malformed report draws nothing here: ReportChecks names what is wrong with it
        if (head.figures() == null || head.figures().stream().anyMatch(f -> f == null || f.key() == null || f.scope() == null)) return java.util.Optional.empty();
        List<String> busy = head.confounders() == null ? List.of() : head.confounders().busyReasons("machine");
        return Placements.of(head).hostToDevice(Placements.median(head, Placements.HOST_TO_DEVICE), busy)
                .map(f -> new Report.Concluded(1, f.id(), f.severity(), f.subject(), f.text(), f.fix()));
    }

    private static void add(List<Report.Concluded> out, int module, List<Finding> findings) {
        if (findings == null) return;
        for (Finding f : findings) {
            if (f == null) continue;
            say(out, new Report.Concluded(module, f.id(), f.severity(), f.subject(), f.text(), f.fix()));
        }
    }

    /**
     * Adds a rack checklist item's finding {@code c}, except where a module already found something
     * to fix, or could not judge, about the same setting (M5-NUMA-BALANCING: Module 2's
     * M2-NUMA-BALANCING, by {@link RackRules#judgedAlsoBy}; a report of an earlier
     * version, whose findings have no rule IDs, by the subject): then the setting is said once, by
     * the module (no rack rule is worse than the module's of its setting: they give warn at most). A
     * module's ok finding does not hide the rack's item: on a superchip the rack may ask more of a
     * setting than a module does.
     */
    static void sayOnce(List<Report.Concluded> out, Report.Concluded c) {
        List<String> also = RackRules.judgedAlsoBy(c.id());
        String subject = c.subject().toLowerCase(java.util.Locale.ROOT);
        for (int i = 0; i < out.size(); i++) {
            Report.Concluded o = out.get(i);
            if (o.module() == 5 || !(o.severity().toFix() || o.severity() == Severity.UNKNOWN)) continue;
            boolean same = !c.id().isEmpty() ? also.contains(o.id())
                    : o.subject().toLowerCase(java.util.Locale.ROOT).replace(' ', '_').equals(subject);
            if (same) return;
        }
        out.add(c);
    }

    /**
     * Adds {@code c}, except that one rule's finding about one subject that two modules drew
     * (M3-CPU-QUOTA: the CPU facts and the container read the same cgroup) is said once, the worse of
     * the two kept where the first stood.
     */
    static void say(List<Report.Concluded> out, Report.Concluded c) {
        int same = -1;
        for (int i = 0; i < out.size() && !c.id().isEmpty(); i++) {
            Report.Concluded o = out.get(i);
            if (o.module() != c.module() && o.id().equals(c.id()) && o.subject().equals(c.subject())) same = i;
        }
        if (same < 0) out.add(c);
        else if (c.severity().compareTo(out.get(same).severity()) < 0) out.set(same, c);
    }
}
