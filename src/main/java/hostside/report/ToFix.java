package hostside.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import hostside.core.Rule;
import hostside.core.Severity;
import hostside.doc.Block;
import hostside.doc.Text;

/**
 * Page one's "what to fix here": every finding of every module that is bad or may cost performance
 * (warn), and the rack checklist's bad and warn items with their fixes (a setting a module already
 * judged said once: {@link Conclusions}); the bad first, then in the
 * modules' order, at most {@link #SHOWN} on page one, the rest counted. Findings that could not be
 * judged (unknown: measured on a busy machine, within noise) are counted beside them, so that page
 * one never says nothing was found where a module could not tell.
 */
final class ToFix {
    private ToFix() {}

    static final int SHOWN = 5;

    /** One thing to fix: how much it matters, where it was found, by which rule ("" for a finding not yet of one), what, and how to fix it. */
    record Item(Severity severity, int module, String subject, String id, String text, String fix) {}

    static List<Item> of(Report r) {
        List<Item> out = new ArrayList<>();
        for (Report.Concluded c : r.findings()) {
            if (!c.severity().toFix() && c.severity() != Severity.UNKNOWN) continue; // unknown ones are counted on page one, not listed as things to fix
            if (c.module() == 5 && !c.severity().toFix()) continue; // the rack checklist's unknown items are facts it could not read, not figures in doubt: its own table says them
            out.add(new Item(c.severity(), c.module(), c.subject(), c.id(), c.text(), c.fix()));
        }
        out.sort(Comparator.comparing(Item::severity).thenComparingInt(Item::module)); // BAD before WARN: the enum's order
        return out;
    }

    static Block block(Report r) {
        List<Item> all = of(r);
        List<Item> items = all.stream().filter(i -> i.severity().toFix()).toList();
        List<Item> unknown = all.stream().filter(i -> i.severity() == Severity.UNKNOWN).toList();
        List<Block> b = new ArrayList<>();
        List<String> busy = r.confounders() == null ? List.of() : r.confounders().busyDrills();
        if (!busy.isEmpty()) {
            // said first: every figure of these drills, and every finding drawn from them, is weighed by it
            b.add(new Block.Paragraph(Text.strong("busy").plain(": the machine was busy as the " + String.join(", ", busy) + " drill" + (busy.size() == 1 ? "" : "s")
                    + " began, so " + (busy.size() == 1 ? "its" : "their") + " figures may be slower and noisier than this machine's best and are not judged here;"
                    + " run hostside report again on a quiet machine before acting on them.")));
        }
        if (items.isEmpty()) {
            b.add(Block.Paragraph.of(unknown.isEmpty() && busy.isEmpty() ? "Nothing bad or doubtful was found; the modules below say what each figure means."
                    : "Nothing bad was found among what could be judged."));
        } else {
            List<Text> lines = new ArrayList<>();
            for (Item i : items.subList(0, Math.min(SHOWN, items.size()))) {
                String where = "Module " + i.module() + ", " + i.subject() + (i.id().isEmpty() || !Rule.ID.matcher(i.id()).matches() ? "" : ", " + i.id());
                Text t = Text.strong(i.severity().toString()).plain(" (" + where + "): " + i.text());
                if (!i.fix().isEmpty()) t = t.plain(". Fix: ").andStrong(i.fix());
                lines.add(t);
            }
            b.add(new Block.Bullets(lines));
            if (items.size() > SHOWN) b.add(Block.Note.of((items.size() - SHOWN) + " more in the modules below."));
        }
        if (!unknown.isEmpty()) {
            List<String> modules = unknown.stream().map(i -> "Module " + i.module()).distinct().toList();
            b.add(Block.Note.of(unknown.size() + (unknown.size() == 1 ? " finding" : " findings") + " could not be judged (measured on a busy machine,"
                    + " within the noise of what it compares, or figures in doubt, such as 32 reads in flight slower than one at a time): "
                    + String.join(" and ", modules) + (modules.size() == 1 ? " says" : " say") + " which; run again on a quiet machine before acting on them."));
        }
        return new Block.Section("What to fix here", b);
    }
}
