package hostside.core;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** How much a finding matters: bad costs performance now, warn may cost it (check), info explains. Worst first. */
public enum Severity {
    BAD, WARN, INFO;

    @JsonValue
    @Override
    public String toString() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    @JsonCreator
    public static Severity parse(String s) {
        for (Severity v : values()) if (v.toString().equals(s)) return v;
        throw new IllegalArgumentException("\"" + s + "\" is not bad, warn or info");
    }
}
