package hostside.checklist;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import hostside.fs.FactReads;
import hostside.core.GarbageException;

/**
 * /proc/PID/status or a thread's: "Key:\tvalue" lines. The checklist reads the context switch
 * counts (voluntary: the thread blocked, on I/O, a lock or a sleep; involuntary: the scheduler
 * took the CPU away, a sign of too many runnable threads), the state, Cpus_allowed_list and VmRSS.
 */
public record ProcStatus(Map<String, String> fields) {

    public ProcStatus {
        fields = Map.copyOf(fields);
    }

    public static ProcStatus parse(String text) {
        Map<String, String> f = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon <= 0) continue;
            String key = line.substring(0, colon).strip();
            if (key.isEmpty() || key.contains(" ")) continue;
            f.putIfAbsent(key, line.substring(colon + 1).strip());
        }
        if (!f.containsKey("Name") && !f.containsKey("State")) {
            throw new GarbageException("not a /proc status file (no Name or State line): \"" + FactReads.shown(text) + "\"");
        }
        return new ProcStatus(f);
    }

    public Optional<String> get(String key) {
        return Optional.ofNullable(fields.get(key));
    }

    /** A count ("voluntary_ctxt_switches:\t1234"); null when absent or not a number. */
    public Long count(String key) {
        String v = fields.get(key);
        return v == null ? null : FactReads.parseNumber(v);
    }

    /** A size in bytes ("VmRSS:\t  1234 kB", kB meaning KiB); null when absent or garbled. */
    public Long bytes(String key) {
        String v = fields.get(key);
        if (v == null) return null;
        String[] p = v.strip().split("\\s+");
        Long n = FactReads.parseNumber(p[0]);
        if (n == null) return null;
        if (!(p.length > 1 && p[1].equalsIgnoreCase("kB"))) return n;
        return n <= Long.MAX_VALUE / 1024 ? n * 1024 : null; // more KiB than 2^63 bytes: garbled
    }

    public Long voluntarySwitches() {
        return count("voluntary_ctxt_switches");
    }

    public Long involuntarySwitches() {
        return count("nonvoluntary_ctxt_switches");
    }

    /** "S (sleeping)" as the kernel writes it. */
    public Optional<String> state() {
        return get("State");
    }

    public Optional<String> cpusAllowed() {
        return get("Cpus_allowed_list");
    }
}
