package hostside.core;

import java.util.List;

/** Findings of no rule, for tests of what renders or carries findings whatever their rule. */
public final class Findings {
    private Findings() {}

    public static Finding bad(String subject, String text) {
        return of(Severity.BAD, subject, text);
    }

    public static Finding warn(String subject, String text) {
        return of(Severity.WARN, subject, text);
    }

    public static Finding info(String subject, String text) {
        return of(Severity.INFO, subject, text);
    }

    public static Finding of(Severity severity, String subject, String text) {
        return new Finding("", severity, subject, text, "", List.of(), "");
    }
}
