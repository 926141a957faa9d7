package hostside.process;

import hostside.core.GarbageException;
import hostside.fs.FactReads;
import hostside.fs.FsRoot;

/**
 * /proc/PID/stat or /proc/PID/task/TID/stat (proc(5) numbers the fields from 1). The comm, field
 * 2, is in parentheses and may itself hold spaces and parentheses ("(python3) (worker)"): it ends
 * at the last ')' of the line, and the numbered fields start after it.
 *
 * @param utime     field 14, ticks (USER_HZ) in user mode; for a process, its live and dead threads
 * @param stime     field 15, ticks in kernel mode
 * @param minflt    field 10, minor faults (page present in memory, only the mapping was missing)
 * @param majflt    field 12, major faults (the page had to be read from disk)
 * @param threads   field 20
 * @param startTime field 22, ticks after boot when it started: with the pid, it tells a reused pid apart
 * @param processor field 39, the CPU it last ran on; null on kernels too old to say
 */
public record TaskStat(long pid, String comm, TaskState state, long ppid, long minflt, long majflt, long utime, long stime,
                       long threads, long startTime, Integer processor) {

    /** Ticks of CPU time, user and kernel. */
    public long cpuTicks() {
        return utime + stime;
    }

    /** Z (zombie) and X (dead): exited, only its entry is left. */
    public boolean exited() {
        return state.exited();
    }

    /** /proc/PID/stat of this machine or a recording; empty where it is missing (the task is gone) or garbled. */
    public static java.util.Optional<TaskStat> read(FsRoot fs, long pid) {
        return fs.text("/proc/" + pid + "/stat").flatMap(t -> {
            try {
                return java.util.Optional.of(parse(t));
            } catch (GarbageException e) {
                return java.util.Optional.empty();
            }
        });
    }

    public static TaskStat parse(String text) {
        String s = text.strip();
        int open = s.indexOf('('), close = s.lastIndexOf(')');
        if (open <= 0 || close < open) throw garbage(text);
        Long pid = FactReads.parseNumber(s.substring(0, open).strip());
        String[] f = s.substring(close + 1).strip().split("\\s+");
        // f[0] is field 3; field n is f[n - 3]
        TaskState state = f.length > 0 && f[0].length() == 1 ? TaskState.of(f[0].charAt(0)) : null;
        if (pid == null || f.length < 20 || state == null) throw garbage(text);
        Integer processor = null;
        if (f.length > 36) {
            Long p = FactReads.parseNumber(f[36]);
            if (p == null || p > Integer.MAX_VALUE) throw garbage(text);
            processor = p.intValue();
        }
        return new TaskStat(pid, s.substring(open + 1, close), state, field(f, 4, text), field(f, 10, text),
                field(f, 12, text), field(f, 14, text), field(f, 15, text), field(f, 20, text), field(f, 22, text), processor);
    }

    private static long field(String[] f, int n, String text) {
        if (n - 3 >= f.length) throw garbage(text);
        Long v = FactReads.parseNumber(f[n - 3]);
        if (v == null) throw garbage(text);
        return v;
    }

    private static GarbageException garbage(String text) {
        return new GarbageException("not a /proc stat line: \"" + FactReads.shown(text) + "\"");
    }
}
