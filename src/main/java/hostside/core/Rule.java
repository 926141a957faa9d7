package hostside.core;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * One conclusion hostside may draw, in the spirit of kube-bench's checks and Lynis' tests: a stable
 * ID, the module it belongs to, what it checks, the severities it can give, what a finding of it
 * means for training, how to fix what it finds, and where its threshold or claim comes from. The
 * condition itself is code beside the figures it reads (each drill's rules class); a rule's
 * findings are made only through {@link #finding} and {@link #unknown}, so that each carries the
 * rule's ID, fix and source.
 *
 * @param id         stable across versions ("M3-SYSCALL"); a retired ID is never reused
 * @param module     the course's module, 1 to 6
 * @param title      what it checks, in one line
 * @param severities the severities its findings can have
 * @param meaning    what a finding of it means for training
 * @param fix        what to do about a bad or warn finding: a command, a flag, a setting ("" where it gives neither)
 * @param sources    where its threshold or claim comes from, the first the main one
 */
public record Rule(String id, int module, String title, Set<Severity> severities, String meaning, String fix, List<Source> sources) {
    /** "M" and the module, then the topic in capitals: M3-SYSCALL, M1-LINK-IDLE. */
    public static final Pattern ID = Pattern.compile("M[1-6]-[A-Z0-9]+(-[A-Z0-9]+)*");

    public Rule {
        if (id == null || !ID.matcher(id).matches()) throw new IllegalArgumentException("a rule's ID is M<module>-TOPIC: " + id);
        if (module != id.charAt(1) - '0') throw new IllegalArgumentException(id + " is not of module " + module);
        if (severities == null || severities.isEmpty()) throw new IllegalArgumentException(id + " gives no severity");
        severities = java.util.Collections.unmodifiableSet(EnumSet.copyOf(severities)); // worst first, as listed
        if (sources == null || sources.isEmpty()) throw new IllegalArgumentException(id + " cites no source");
        sources = List.copyOf(sources);
        if (fix == null) fix = "";
        if (fix.isEmpty() && severities.stream().anyMatch(Severity::toFix)) throw new IllegalArgumentException(id + " can be bad or warn but says no fix");
    }

    /** A rule of the module its ID names, with the severities given and its sources, the first the main one. */
    public static Rule of(String id, String title, Set<Severity> severities, String meaning, String fix, Source first, Source... more) {
        List<Source> s = new java.util.ArrayList<>();
        s.add(first);
        s.addAll(List.of(more));
        return new Rule(id, id.charAt(1) - '0', title, severities, meaning, fix, s);
    }

    /** Where each finding a rule makes is handed as well; nowhere unless {@link #witness} was called. */
    private static volatile Consumer<Finding> witness = f -> {};

    /**
     * Hands every finding any rule makes from now on to {@code w} as well ({@code null}: to no one).
     * The test suite tallies by it which rules its tests made fire and which they saw quiet, since
     * every rule needs both; hostside itself never calls it.
     */
    public static void witness(Consumer<Finding> w) {
        witness = w == null ? f -> {} : w;
    }

    private static Finding made(Finding f) {
        witness.accept(f);
        return f;
    }

    /** A finding of this rule; {@code severity} must be one the rule gives (a rule that gives another is a bug). */
    public Finding finding(Severity severity, String subject, String text, List<Evidence> evidence) {
        if (!severities.contains(severity)) throw new IllegalStateException(id + " gives no " + severity + " finding");
        return made(new Finding(id, severity, subject, text, severity.toFix() ? fix : "", evidence, sources.getFirst().toString()));
    }

    public Finding finding(Severity severity, String subject, String text, Evidence... evidence) {
        return finding(severity, subject, text, List.of(evidence));
    }

    /**
     * A finding that could not be judged: the figures were measured on a busy machine, or differ by
     * less than their spread. It names the figures and says why, and never carries a fix.
     */
    public Finding unknown(String subject, String why, List<Evidence> evidence) {
        if (!severities.contains(Severity.UNKNOWN)) throw new IllegalStateException(id + " gives no unknown finding");
        return made(new Finding(id, Severity.UNKNOWN, subject, why, "", evidence, sources.getFirst().toString()));
    }

    /**
     * A finding drawn from measured figures: the one {@code severity} gives where the machine was
     * quiet, else (where {@code busy} names what made it busy, as process.MachineLoad says it) an
     * unknown finding that says {@code figures} and asks for a run on a quiet machine, never a fix.
     * Every drill weighs its load by this one rule.
     */
    public Finding measured(Severity severity, String subject, String text, String figures, List<Evidence> evidence, List<String> busy) {
        if (!busy.isEmpty()) {
            return unknown(subject, "measured while the machine was busy (" + String.join(", ", busy) + "), so not judged: " + figures
                    + "; run again on a quiet machine", evidence);
        }
        return severity == Severity.UNKNOWN ? unknown(subject, text, evidence) : finding(severity, subject, text, evidence);
    }

    /** What the rule's severities read as: "ok, warn, unknown", worst first. */
    public String severityRange() {
        return String.join(", ", EnumSet.copyOf(severities).stream().map(Severity::toString).toList());
    }
}
