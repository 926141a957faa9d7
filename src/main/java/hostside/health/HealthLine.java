package hostside.health;

import java.util.List;
import java.util.Locale;

import hostside.core.Finding;
import hostside.core.Severity;

/**
 * The health of a node in one line of printable ASCII, at most {@link #MAX} characters: what a
 * Slurm drain reason, a node-problem-detector condition message and a terminal's first line carry.
 * "ok: 31 checks passed", "warn: M6-HEALTH-PERSISTENCE GPU0: persistence mode is off",
 * "bad: M6-HEALTH-ROW-REMAP-FAILED GPU3: a row remapping has failed (+2 more)".
 */
public final class HealthLine {
    /** node-problem-detector's default max_output_length: a longer message is cut there. */
    public static final int MAX = 80;

    private HealthLine() {}

    /**
     * The line for findings sorted worst first, after {@code passed} checks found nothing;
     * {@code gpusNotJudged}: the GPUs could not be judged at all, which no count of passed checks may hide.
     */
    static String of(List<Finding> findings, int passed, boolean gpusNotJudged) {
        List<Finding> toFix = findings.stream().filter(f -> f.severity().toFix()).toList();
        long unknown = findings.stream().filter(f -> f.severity() == Severity.UNKNOWN).count();
        if (toFix.isEmpty() && gpusNotJudged) {
            Finding why = findings.stream().filter(f -> f.id().equals(HealthRules.NOT_JUDGED.id()) && f.subject().equals("GPUs")).findFirst()
                    .orElse(null);
            return fit("unknown: " + HealthRules.NOT_JUDGED.id() + " ", why == null ? "the GPUs could not be judged" : ascii(why.text()), "");
        }
        if (toFix.isEmpty()) {
            String line = String.format(Locale.ROOT, "ok: %d check%s passed", passed, passed == 1 ? "" : "s");
            return unknown == 0 ? line : line + String.format(Locale.ROOT, ", %d not judged", unknown);
        }
        Finding worst = toFix.getFirst();
        String more = toFix.size() > 1 ? " (+" + (toFix.size() - 1) + " more)" : "";
        String head = worst.severity() + ": " + worst.id() + " ";
        return fit(head, ascii(worst.text()), more);
    }

    /** {@code head}, as much of {@code text} as fits, then {@code tail}: at most MAX characters. */
    static String fit(String head, String text, String tail) {
        int room = MAX - head.length() - tail.length();
        if (text.length() > room) text = room > 3 ? text.substring(0, room - 3).stripTrailing() + "..." : "";
        return head + text + tail;
    }

    /**
     * Printable ASCII only: a Slurm reason and a plugin's message pass through shells, scontrol and
     * JSON, and text from a recording may hold anything. A double quote becomes a single one, so the
     * line can be quoted as it is.
     */
    static String ascii(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(c == '"' ? '\'' : c >= 0x20 && c < 0x7f ? c : Character.isWhitespace(c) ? ' ' : '?');
        }
        return b.toString();
    }
}
