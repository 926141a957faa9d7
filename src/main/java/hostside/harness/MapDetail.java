package hostside.harness;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * A detail still kept as named values: the shape every result had before details were typed, and
 * what a report of schema hostside/1 holds for a case whose record is not known. Drills replace it
 * with a record of their own, one test case at a time.
 */
public record MapDetail(@JsonValue Map<String, Object> values) implements Detail {
    public MapDetail {
        values = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(values));
    }

    public Object get(String name) {
        return values.get(name);
    }

    /** The named values of {@code r}'s detail; empty when it keeps none or keeps a record. */
    public static Map<String, Object> of(Result r) {
        return r.detail() instanceof MapDetail m ? m.values() : Map.of();
    }
}
