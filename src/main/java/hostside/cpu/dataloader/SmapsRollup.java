package hostside.cpu.dataloader;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

import hostside.core.GarbageException;

/**
 * /proc/PID/smaps_rollup: one process's memory summed over all its mappings, every value in bytes
 * ("kB" there means KiB). RSS counts every resident page in full; PSS divides each page by the
 * number of processes mapping it (so PSS adds up over processes); USS is what only this process
 * maps, Private_Clean + Private_Dirty: what would be freed if it exited.
 */
public record SmapsRollup(Map<String, Long> values) {

    public SmapsRollup {
        values = Map.copyOf(values);
    }

    /**
     * Parses the file's text. Lines that are not "Key: N kB" (the "[rollup]" header, a garbled
     * line) are left out; a key missing here reads as empty. Text with neither Rss nor Pss is not
     * smaps_rollup at all: {@link GarbageException}.
     */
    public static SmapsRollup parse(String text) {
        Map<String, Long> v = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon <= 0) continue;
            String key = line.substring(0, colon).strip();
            if (key.isEmpty() || key.contains(" ")) continue; // the header: "5600-7fff ---p 00000000 00:00 0 [rollup]"
            String[] rest = line.substring(colon + 1).strip().split("\\s+");
            if (rest.length != 2 || !rest[1].equals("kB")) continue;
            try {
                long n = Long.parseLong(rest[0]);
                if (n < 0) continue;
                v.put(key, Math.multiplyExact(n, 1024L));
            } catch (NumberFormatException | ArithmeticException e) {
                // garbled: leave the key out, it reads as unknown
            }
        }
        if (!v.containsKey("Rss") && !v.containsKey("Pss")) {
            String first = text.strip().lines().findFirst().orElse("");
            throw new GarbageException("not smaps_rollup (no Rss or Pss line): \"" + (first.length() > 60 ? first.substring(0, 60) + "..." : first) + "\"");
        }
        return new SmapsRollup(v);
    }

    public OptionalLong get(String key) {
        Long x = values.get(key);
        return x == null ? OptionalLong.empty() : OptionalLong.of(x);
    }

    public OptionalLong rss() {
        return get("Rss");
    }

    public OptionalLong pss() {
        return get("Pss");
    }

    public OptionalLong pssAnon() {
        return get("Pss_Anon");
    }

    public OptionalLong pssFile() {
        return get("Pss_File");
    }

    public OptionalLong pssShmem() {
        return get("Pss_Shmem");
    }

    public OptionalLong anonymous() {
        return get("Anonymous");
    }

    public OptionalLong swap() {
        return get("Swap");
    }

    /** Unique set size: Private_Clean + Private_Dirty; empty when either is missing. */
    public OptionalLong uss() {
        return sum("Private_Clean", "Private_Dirty");
    }

    /** Resident pages some other process maps too: Shared_Clean + Shared_Dirty. */
    public OptionalLong shared() {
        return sum("Shared_Clean", "Shared_Dirty");
    }

    private OptionalLong sum(String a, String b) {
        Long x = values.get(a), y = values.get(b);
        return x == null || y == null ? OptionalLong.empty() : OptionalLong.of(x + y);
    }
}
