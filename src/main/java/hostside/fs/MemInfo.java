package hostside.fs;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * /proc/meminfo and /sys/devices/system/node/nodeN/meminfo ("Node 0 MemTotal: 123 kB"),
 * with every value in bytes ("kB" there means KiB). Counters without a unit (HugePages_Total)
 * are kept as counts. The one parser of those files, and of /proc/PID/smaps' sizes.
 *
 * @param values  each key's value
 * @param garbled each key whose value is not a size, with the text it holds (a reader says so as garbage)
 */
public record MemInfo(Map<String, Long> values, Map<String, String> garbled) {
    public static final String PROC = "/proc/meminfo";

    /** /proc/meminfo through {@code fs}; empty when it cannot be read. */
    public static Optional<MemInfo> read(FsRoot fs) {
        return fs.text(PROC).map(MemInfo::parse);
    }

    /** {@code key} of /proc/meminfo in bytes; null when the file, the key or its number is missing. */
    public static Long proc(FsRoot fs, String key) {
        return read(fs).map(m -> m.bytes(key)).orElse(null);
    }

    public static MemInfo parse(String text) {
        Map<String, Long> v = new LinkedHashMap<>();
        Map<String, String> bad = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) continue;
            String key = line.substring(0, colon).strip();
            if (key.startsWith("Node ")) { // per-node files prefix "Node <n> "
                int sp = key.indexOf(' ', 5);
                if (sp < 0) continue;
                key = key.substring(sp + 1);
            }
            String value = line.substring(colon + 1).strip();
            String[] rest = value.split("\\s+");
            try {
                long n = Long.parseLong(rest[0]);
                if (n < 0) throw new NumberFormatException("negative");
                long mult = rest.length > 1 && rest[1].equalsIgnoreCase("kB") ? 1024 : 1;
                v.put(key, Math.multiplyExact(n, mult));
            } catch (NumberFormatException | ArithmeticException e) {
                bad.putIfAbsent(key, value); // left out of the values, for the caller to name
            }
        }
        return new MemInfo(Map.copyOf(v), Map.copyOf(bad));
    }

    /** {@code key} in bytes (or its count); null when absent or garbled. */
    public Long bytes(String key) {
        return values.get(key);
    }

    public OptionalLong get(String key) {
        Long x = values.get(key);
        return x == null ? OptionalLong.empty() : OptionalLong.of(x);
    }
}
