package hostside.checklist;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * A kernel message an on-call engineer acts on, found in the log by its wording.
 *
 * @param kind      what happened
 * @param atSeconds when, in seconds since boot (the record's timestamp)
 * @param pid       the process it names (the OOM victim, the hung or crashed task, the process
 *                  the Xid names), or null
 * @param process   that process's comm, or null
 * @param xid       for an Xid, the parsed report; else null
 * @param cgroupLimit an OOM kill by a memory cgroup's limit (the job's own limit, "Memory cgroup out
 *                  of memory"), not the machine running out; false for every other kind
 * @param text      the message, shortened
 */
public record KernelEvent(Kind kind, double atSeconds, Long pid, String process, Xid xid, boolean cgroupLimit, String text) {
    /** What happened; written in JSON as "oom-kill", "xid", "hung-task", "segfault", "mce", "edac". */
    public enum Kind {
        OOM_KILL, XID, HUNG_TASK, SEGFAULT, MCE, EDAC;

        @JsonValue
        public String json() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        @JsonCreator
        public static Kind parse(String s) {
            for (Kind k : values()) if (k.json().equals(s)) return k;
            throw new IllegalArgumentException("\"" + s + "\" is not a kernel event kind (oom-kill, xid, hung-task, segfault, mce, edac)");
        }

        @Override
        public String toString() {
            return json();
        }
    }

    /** Longest message text kept: enough for an Xid's or OOM line's gist, short enough for one screen. */
    static final int MAX_TEXT = 160;

    // "Out of memory: Killed process 1234 (python3) total-vm:...", the cgroup's "Memory cgroup out
    // of memory: Killed process ...", and before 5.x a line of its own after "Kill process ... or
    // sacrifice child": one "Killed process" per kill (the "oom-kill:" and "oom_reaper:" lines
    // about the same kill are not counted again).
    private static final Pattern OOM = Pattern.compile("Killed process (\\d+) \\((.*?)\\)(?:\\s+total-vm|,|\\s*$)");
    private static final Pattern HUNG = Pattern.compile("^INFO: task (.+):(\\d+) blocked for more than (\\d+) seconds");
    private static final Pattern CRASH = Pattern.compile("^(?:traps: )?(.+?)\\[(\\d+)\\]:? (?:segfault at|general protection|trap )");
    private static final Pattern EDAC = Pattern.compile("^EDAC .*\\b(?:CE|UE)\\b");

    public static Optional<KernelEvent> of(KmsgRecord r) {
        String m = r.message();
        double at = r.secondsSinceBoot();
        Optional<Xid> xid = Xid.parse(m);
        if (xid.isPresent()) return Optional.of(new KernelEvent(Kind.XID, at, xid.get().pid(), xid.get().processName(), xid.get(), false, shortened(m)));
        Matcher x;
        if ((x = OOM.matcher(m)).find()) {
            boolean cgroup = m.strip().startsWith("Memory cgroup");
            return Optional.of(new KernelEvent(Kind.OOM_KILL, at, Long.parseLong(x.group(1)), x.group(2), null, cgroup, shortened(m)));
        }
        if ((x = HUNG.matcher(m)).find()) {
            return Optional.of(new KernelEvent(Kind.HUNG_TASK, at, Long.parseLong(x.group(2)), x.group(1), null, false, shortened(m)));
        }
        if ((x = CRASH.matcher(m)).find()) {
            return Optional.of(new KernelEvent(Kind.SEGFAULT, at, Long.parseLong(x.group(2)), x.group(1), null, false, shortened(m)));
        }
        if (m.startsWith("mce:") || m.contains("[Hardware Error]")) return Optional.of(new KernelEvent(Kind.MCE, at, null, null, null, false, shortened(m)));
        if (EDAC.matcher(m).find()) return Optional.of(new KernelEvent(Kind.EDAC, at, null, null, null, false, shortened(m)));
        return Optional.empty();
    }

    public static List<KernelEvent> of(List<KmsgRecord> records) {
        List<KernelEvent> out = new ArrayList<>();
        for (KmsgRecord r : records) of(r).ifPresent(out::add);
        return out;
    }

    private static String shortened(String m) {
        String s = m.strip();
        return s.length() > MAX_TEXT ? s.substring(0, MAX_TEXT - 3) + "..." : s;
    }
}
