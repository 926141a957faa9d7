package hostside.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import hostside.core.Finding;
import hostside.core.Severity;
import hostside.doc.Block;
import hostside.doc.Text;

/**
 * Page one's "what to fix here": every finding of every module that is bad or may cost performance
 * (warn), and the rack checklist's bad and warn items with their fixes; the bad first, then in the
 * modules' order, at most {@link #SHOWN} on page one, the rest counted.
 */
final class ToFix {
    private ToFix() {}

    static final int SHOWN = 5;

    /** One thing to fix: how much it matters, where it was found, what, and how to fix it where the finding says. */
    record Item(Severity severity, int module, String subject, String text, String fix) {}

    static List<Item> of(Report r) {
        List<Item> out = new ArrayList<>();
        for (Report.Section s : r.modules()) {
            switch (s.data()) {
                case null -> { }
                case hostside.machine.MachineRun m -> add(out, 1, m.facts().findings());
                case hostside.vm.VmRun v -> add(out, 2, v.findings());
                case hostside.cpu.CpuRun c -> add(out, 3, c.findings());
                case Report.Storage st -> {
                    add(out, 4, st.io().findings());
                    if (st.container() != null) add(out, 4, st.container().findings());
                }
                case Report.Rack rack -> {
                    for (hostside.rack.RackCheck c : rack.checklist()) {
                        Severity sev = c.verdict() == hostside.rack.RackVerdict.BAD ? Severity.BAD : c.verdict() == hostside.rack.RackVerdict.WARN ? Severity.WARN : null;
                        // an item a module already found (NUMA balancing: Module 2's) is said once, there
                        boolean found = out.stream().anyMatch(i -> i.subject().toLowerCase(java.util.Locale.ROOT).replace(' ', '_').equals(c.item().id()));
                        if (sev != null && !found) out.add(new Item(sev, 5, c.item().id(), c.value() + ": " + c.why(), c.fix()));
                    }
                }
                default -> { }
            }
        }
        out.sort(Comparator.comparing(Item::severity).thenComparingInt(Item::module)); // BAD before WARN: the enum's order
        return out;
    }

    private static void add(List<Item> out, int module, List<Finding> findings) {
        if (findings == null) return;
        for (Finding f : findings) if (f.severity() != Severity.INFO) out.add(new Item(f.severity(), module, f.subject(), f.text(), ""));
    }

    static Block block(Report r) {
        List<Item> items = of(r);
        List<Block> b = new ArrayList<>();
        if (items.isEmpty()) {
            b.add(Block.Paragraph.of("Nothing bad or doubtful was found; the modules below say what each figure means."));
        } else {
            List<Text> lines = new ArrayList<>();
            for (Item i : items.subList(0, Math.min(SHOWN, items.size()))) {
                Text t = Text.strong(i.severity().toString()).plain(" (Module " + i.module() + ", " + i.subject() + "): " + i.text());
                if (!i.fix().isEmpty()) t = t.plain(". Fix: ").andStrong(i.fix());
                lines.add(t);
            }
            b.add(new Block.Bullets(lines));
            if (items.size() > SHOWN) b.add(Block.Note.of((items.size() - SHOWN) + " more in the modules below."));
        }
        return new Block.Section("What to fix here", b);
    }
}
