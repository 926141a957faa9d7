package hostside.core;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How much a finding matters, worst first (the enum's order is the order findings are listed in):
 * bad costs performance now, warn may cost it (check), unknown could not be judged (measured on a
 * busy machine, within the noise of what it compares, or a fact not read: measure again, never a
 * fix), info explains, ok says a check passed.
 */
public enum Severity {
    BAD, WARN, UNKNOWN, INFO, OK;

    @JsonValue
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether a finding of this severity is something to act on: page one's "what to fix". */
    public boolean toFix() {
        return this == BAD || this == WARN;
    }

    @JsonCreator
    public static Severity parse(String s) {
        for (Severity v : values()) if (v.toString().equals(s)) return v;
        throw new IllegalArgumentException("\"" + s + "\" is not bad, warn, unknown, info or ok");
    }
}
