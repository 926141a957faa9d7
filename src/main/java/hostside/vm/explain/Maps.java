package hostside.vm.explain;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** Ordered maps for step states: JSON keeps the order they are written in, and so does the terminal. */
public final class Maps {
    private Maps() {}

    /** Key, value, key, value... Null values are kept: JSON shows them as null. */
    public static Map<String, Object> of(Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0) throw new IllegalArgumentException("keys and values must pair up");
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        return Collections.unmodifiableMap(m);
    }

    /** A read-only copy that keeps the order (Map.copyOf would not, and would refuse nulls). */
    static Map<String, Object> frozen(Map<String, Object> m) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }

    /** Adds entries to an ordered copy. */
    static Map<String, Object> with(Map<String, Object> base, Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>(base);
        m.putAll(of(keysAndValues));
        return Collections.unmodifiableMap(m);
    }
}
