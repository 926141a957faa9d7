package hostside;

import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/** The first place two JSON documents differ, as a path ("modules[1].data.host[0].detail: 3 against 4"); "" when they are equal. */
public final class JsonDiff {
    private JsonDiff() {}

    public static String first(JsonNode a, JsonNode b) {
        return first("", a, b);
    }

    private static String first(String at, JsonNode a, JsonNode b) {
        if (a.equals(b)) return "";
        if (a.isObject() && b.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
                var e = it.next();
                JsonNode other = b.get(e.getKey());
                if (other == null) return at + "." + e.getKey() + ": only in the first";
                String d = first(at + "." + e.getKey(), e.getValue(), other);
                if (!d.isEmpty()) return d;
            }
            for (Iterator<String> it = b.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!a.has(k)) return at + "." + k + ": only in the second";
            }
        }
        if (a.isArray() && b.isArray()) {
            for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
                String d = first(at + "[" + i + "]", a.get(i), b.get(i));
                if (!d.isEmpty()) return d;
            }
            if (a.size() != b.size()) return at + ": " + a.size() + " items against " + b.size();
        }
        String x = a.toString(), y = b.toString();
        return at + ": " + (x.length() > 200 ? x.substring(0, 200) + "..." : x) + " against " + (y.length() > 200 ? y.substring(0, 200) + "..." : y);
    }
}
