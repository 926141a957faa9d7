package hostside.core;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Which way a figure improves: bandwidth is better higher, latency and cost lower. */
public enum Better {
    HIGHER, LOWER;

    @JsonValue
    public String json() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    @JsonCreator
    public static Better parse(String s) {
        for (Better b : values()) if (b.json().equals(s)) return b;
        throw new IllegalArgumentException("\"" + s + "\" is not higher or lower");
    }
}
