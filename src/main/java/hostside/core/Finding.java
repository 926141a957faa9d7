package hostside.core;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonCreator;

/**
 * A conclusion about the machine, with what it read and where its rule comes from (docs/contract.md's
 * findings: id, severity, subject, text, fix, evidence, source). Made by a {@link Rule}: a finding
 * with an empty ID is a line of a report from before findings were typed.
 *
 * @param id       the rule's ID ("M3-SYSCALL"); a report of an earlier version wrote it as "code"
 * @param severity bad (costs performance now), warn (may cost it, check), unknown, info, ok
 * @param subject  what it is about: "GPU0", "NUMA", "IOMMU"
 * @param text     one line saying what was found and what it costs, with its figures
 * @param fix      what to do ("" where nothing is to be done)
 * @param evidence the figures and facts it read
 * @param source   the rule's main source, as "kind: citation"
 */
public record Finding(@JsonAlias("code") String id, Severity severity, String subject, String text, String fix, List<Evidence> evidence, String source) {
    public Finding {
        if (id == null) id = "";
        if (fix == null) fix = "";
        evidence = evidence == null ? List.of() : List.copyOf(evidence);
        if (source == null) source = "";
    }

    /** A line of a report from before findings were typed (a drill's "verdicts" were strings): what it said, severity unknown to it, so info. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static Finding said(String text) {
        return new Finding("", Severity.INFO, "", text, "", List.of(), "");
    }

    /** The same finding, its subject and text replaced (made printable, say). */
    public Finding with(String subject, String text) {
        return subject.equals(this.subject) && text.equals(this.text) ? this : new Finding(id, severity, subject, text, fix, evidence, source);
    }

    /** The same finding with the fix of this case in place of its rule's general one. */
    public Finding withFix(String fix) {
        return fix.equals(this.fix) ? this : new Finding(id, severity, subject, text, fix, evidence, source);
    }

    /** Up to six names, then how many more: a finding names what it is about without running on. */
    public static String some(java.util.List<String> items) {
        return items.size() <= 6 ? String.join(", ", items)
                : String.join(", ", items.subList(0, 6)) + " and " + (items.size() - 6) + " more";
    }
}
