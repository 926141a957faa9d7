package hostside.learn;

import java.util.Optional;

import hostside.core.Severity;
import hostside.report.Report;

/**
 * What a frame says where it would judge a figure that a rule of the report judges: the report's
 * finding of that rule, by its ID and severity, in place of a verdict of the stepper's own. The
 * report weighs the samples' spread and the machine's load, which a stepper's medians cannot, so a
 * course that judged on its own could call slow what the report calls within noise, or fix what
 * the report did not judge. A finding the report could not judge (measured busy, within noise) is
 * said to be not judged, with the report's reason, and no cause or fix comes with it.
 */
public final class Judgement {
    private Judgement() {}

    /** Whether the report drew {@code finding} and could not judge it: measured busy, or within noise. */
    public static boolean unjudged(Optional<Report.Concluded> finding) {
        return finding.isPresent() && finding.get().severity() == Severity.UNKNOWN;
    }

    /**
     * "The report's finding M1-LINK-SHARE (ok): pinned copies reach 88% ..."; a finding to act on
     * with its fix; one the report could not judge as "not judged", with why and no fix.
     */
    public static String quote(Report.Concluded c) {
        if (c.severity() == Severity.UNKNOWN) {
            return "The report did not judge this (" + c.id() + ", " + c.severity() + "): " + sentence(c.text())
                    + " So no cause and no fix is drawn from these figures here.";
        }
        return "The report's finding " + c.id() + " (" + c.severity() + "): " + sentence(c.text())
                + (c.severity().toFix() && !c.fix().isEmpty() ? " Fix: " + sentence(c.fix()) : "");
    }

    /** The report's finding quoted, else {@code own}: the stepper's explanation where the report drew none (no report, or one older than its rules). */
    public static String quoteOr(Optional<Report.Concluded> finding, String own) {
        return finding.map(Judgement::quote).orElse(own);
    }

    /** The text with a full stop at its end, as the report wrote it otherwise (after a colon, its first letter stays). */
    static String sentence(String text) {
        String t = text.strip();
        return t.isEmpty() || t.endsWith(".") ? t : t + ".";
    }
}
