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

}
