package hostside.process;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import hostside.core.GarbageException;
import hostside.fs.FactReads;
import hostside.fs.FsRoot;

/**
 * /proc/PID/status or a thread's: "Key:\tvalue" lines, the one reader of them. The checklist reads
 * the context switch counts (voluntary: the thread blocked, on I/O, a lock or a sleep; involuntary:
 * the scheduler took the CPU away, a sign of too many runnable threads), the state,
 * Cpus_allowed_list and VmRSS; {@link ThisProcess} this process's capabilities, uid and allowed
 * CPUs and nodes; the DataLoader watch a worker's VmRSS and VmHWM.
 */
public record ProcStatus(Map<String, String> fields) {

    public ProcStatus {
        fields = Map.copyOf(fields);
    }

    /** A status file, refused as garbage when it has neither a Name nor a State line (a checklist tick says so). */
    public static ProcStatus parse(String text) {
        ProcStatus s = lines(text);
        if (!s.fields.containsKey("Name") && !s.fields.containsKey("State")) {
            throw new GarbageException("not a /proc status file (no Name or State line): \"" + FactReads.shown(text) + "\"");
        }
        return s;
    }

    /** The "Key: value" lines of {@code text}, the first of each key kept; a line that is none is left out. */
    public static ProcStatus lines(String text) {
        Map<String, String> f = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon <= 0) continue;
            String key = line.substring(0, colon).strip();
            if (key.isEmpty() || key.contains(" ")) continue;
            f.putIfAbsent(key, line.substring(colon + 1).strip());
        }
        return new ProcStatus(f);
    }

    /** {@code path} (/proc/self/status, /proc/PID/status) read through {@code fs}; empty when it cannot be read. */
    public static Optional<ProcStatus> read(FsRoot fs, String path) {
        return fs.text(path).map(ProcStatus::lines);
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

    /**
     * Whether capability {@code bit} (linux/capability.h) is in CapEff; empty when the line is
     * missing or not a mask.
     */
    public Optional<Boolean> effective(int bit) {
        return get("CapEff").filter(c -> c.matches("[0-9a-fA-F]{1,16}")).map(c -> (Long.parseUnsignedLong(c, 16) >>> bit & 1) == 1);
    }
}
