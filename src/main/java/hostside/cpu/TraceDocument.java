package hostside.cpu;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Finding;
import hostside.cpu.trace.CrossCheck;
import hostside.cpu.trace.ProfileTables;
import hostside.cpu.trace.StraceSummary;
import hostside.cpu.trace.SyscallProfile;
import hostside.doc.Block;
import hostside.doc.Block.Findings;
import hostside.doc.Block.Note;
import hostside.doc.Block.Paragraph;
import hostside.doc.Block.Section;
import hostside.doc.Document;

/**
 * What {@code hostside cpu --trace} shows, as a document: the headline, the profile by group and
 * by thread, the two strace runs side by side with strace -c's own table, their cross-check, and
 * the findings with the notes and the caveat. Its --json stays its own (kind "cpu-trace").
 */
public final class TraceDocument {
    private TraceDocument() {}

    /**
     * One trace, as {@link CpuTrace} gathered it.
     *
     * @param target  what was traced, in words
     * @param note    why the built-in step was not traced; "" when it was, or a command was given
     * @param strace  strace's version ("6.8")
     * @param exit    the command's exit status in words; "" when hostside stopped it (or attached)
     * @param marked  whether the profile is of the marked training steps rather than the whole run
     * @param profile the timed trace's profile (of the steps when marked)
     * @param summary strace -c's own figures, and their profile
     * @param notes   the profile's notes that the headline does not already say
     */
    public record Trace(String target, String note, String strace, String headline, String exit, boolean marked, SyscallProfile profile,
                        StraceSummary summary, SyscallProfile summaryProfile, CrossCheck.Result check, List<Finding> findings, List<String> notes,
                        String caveat) {}

    public static Document of(Trace t) {
        List<Block> b = new ArrayList<>();
        if (!t.note().isEmpty()) b.add(Paragraph.of(t.note()));
        b.add(Paragraph.of(t.headline()));
        if (!t.exit().isEmpty()) b.add(Paragraph.of(t.exit()));
        b.add(new Section("By group (timed trace" + (t.marked() ? ", the marked steps" : "") + ")", List.of(ProfileTables.groups(t.profile()))));
        b.add(new Section("Busiest threads", List.of(ProfileTables.threads(t.profile(), 10))));
        b.add(new Section("The two runs side by side: strace -c against the timed trace",
                List.of(ProfileTables.groupsSideBySide(t.summaryProfile(), t.profile()))));
        b.add(new Section("strace -c as it printed it (top 15)", List.of(ProfileTables.summary(t.summary(), 15))));
        b.add(new Section("Cross-check", List.of(Paragraph.of(t.check().headline()), ProfileTables.crossCheck(t.check(), 12))));
        List<Block> findings = new ArrayList<>();
        findings.add(new Findings(t.findings(), "none"));
        for (String n : t.notes()) findings.add(Note.of("note: " + n));
        findings.add(Note.of(t.caveat()));
        b.add(new Section("Findings", findings));
        return new Document("Syscall profile of " + t.target(), "strace " + t.strace(), b);
    }
}
