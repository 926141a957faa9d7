package hostside.vm.facts;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** /proc/vmstat: "name value" lines, counters since boot. */
public final class VmStat {
    private VmStat() {}

    /**
     * The counters {@link VmFacts#vmstat()} keeps: huge page faults and their fallbacks,
     * collapses, faults, NUMA hinting faults and migrations, and direct compaction stalls.
     */
    public static final List<String> COUNTERS = List.of("thp_fault_alloc", "thp_fault_fallback", "thp_collapse_alloc",
            "pgfault", "pgmajfault", "numa_hint_faults", "numa_pages_migrated", "compact_stall");

    /** Every well-formed "name value" line, in file order; garbled lines are left out. */
    public static Map<String, Long> parse(String text) {
        Map<String, Long> out = new LinkedHashMap<>();
        if (text == null) return out;
        for (String line : text.split("\n")) {
            String[] f = line.strip().split("\\s+");
            if (f.length != 2 || !f[0].matches("[A-Za-z0-9_]+") || !f[1].matches("-?\\d{1,19}")) continue;
            try {
                out.putIfAbsent(f[0], Long.parseLong(f[1]));
            } catch (NumberFormatException e) {
                // beyond a long: leave it out
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /**
     * after - before for each counter in both, in after's order. A counter that went down
     * (a wrapped or reset counter) is left out rather than reported negative.
     */
    public static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> out = new LinkedHashMap<>();
        after.forEach((k, v) -> {
            Long b = before.get(k);
            if (b != null && v != null && v >= b) out.put(k, v - b);
        });
        return Collections.unmodifiableMap(out);
    }
}
