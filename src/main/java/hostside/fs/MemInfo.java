package hostside.fs;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * /proc/meminfo and /sys/devices/system/node/nodeN/meminfo ("Node 0 MemTotal: 123 kB"),
 * with every value in bytes ("kB" there means KiB). Counters without a unit (HugePages_Total)
 * are kept as counts.
 */
public record MemInfo(Map<String, Long> values) {

    public static MemInfo parse(String text) {
        Map<String, Long> v = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) continue;
            String key = line.substring(0, colon).strip();
            if (key.startsWith("Node ")) { // per-node files prefix "Node <n> "
                int sp = key.indexOf(' ', 5);
                if (sp < 0) continue;
                key = key.substring(sp + 1);
            }
            String[] rest = line.substring(colon + 1).strip().split("\\s+");
            if (rest.length == 0 || rest[0].isEmpty()) continue;
            try {
                long n = Long.parseLong(rest[0]);
                if (n < 0) continue;
                long mult = rest.length > 1 && rest[1].equalsIgnoreCase("kB") ? 1024 : 1;
                v.put(key, Math.multiplyExact(n, mult));
            } catch (NumberFormatException | ArithmeticException e) {
                // a garbled line: leave that key out, the caller reports it as unknown
            }
        }
        return new MemInfo(Map.copyOf(v));
    }

    public OptionalLong get(String key) {
        Long x = values.get(key);
        return x == null ? OptionalLong.empty() : OptionalLong.of(x);
    }
}
