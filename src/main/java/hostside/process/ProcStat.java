package hostside.process;

import java.util.LinkedHashMap;
import java.util.Map;

import hostside.fs.FactReads;
import hostside.core.GarbageException;

/**
 * /proc/stat: the CPU time of the machine and of each online CPU, and the scheduler's counters.
 * Kernels before 2.6.33 give fewer columns (no guest_nice, older still no steal): those read as 0.
 *
 * @param cpus            by CPU number; offline CPUs have no line
 * @param contextSwitches "ctxt": context switches since boot, all CPUs
 * @param procsRunning    threads runnable at this instant (vmstat's "r"), null if absent
 * @param procsBlocked    threads in uninterruptible sleep waiting for I/O (vmstat's "b")
 */
public record ProcStat(CpuTimes all, Map<Integer, CpuTimes> cpus, Long contextSwitches, Long procsRunning, Long procsBlocked) {

    public ProcStat {
        cpus = Map.copyOf(cpus);
    }

    public static ProcStat parse(String text) {
        CpuTimes all = null;
        Map<Integer, CpuTimes> cpus = new LinkedHashMap<>();
        Long ctxt = null, running = null, blocked = null;
        for (String line : text.split("\n")) {
            String[] f = line.strip().split("\\s+");
            if (f.length < 2) continue;
            String key = f[0];
            if (key.equals("cpu")) {
                all = times(f, text);
            } else if (key.startsWith("cpu") && key.length() > 3) {
                Long n = FactReads.parseNumber(key.substring(3));
                if (n == null || n > Integer.MAX_VALUE) throw garbage(text);
                cpus.put(n.intValue(), times(f, text));
            } else if (key.equals("ctxt")) {
                ctxt = number(f[1], text);
            } else if (key.equals("procs_running")) {
                running = number(f[1], text);
            } else if (key.equals("procs_blocked")) {
                blocked = number(f[1], text);
            }
        }
        if (all == null) throw garbage(text);
        return new ProcStat(all, cpus, ctxt, running, blocked);
    }

    private static CpuTimes times(String[] f, String text) {
        if (f.length < 5) throw garbage(text);
        long[] v = new long[10];
        for (int i = 0; i < 10 && i + 1 < f.length; i++) v[i] = number(f[i + 1], text);
        return new CpuTimes(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]);
    }

    private static long number(String s, String text) {
        Long n = FactReads.parseNumber(s);
        if (n == null) throw garbage(text);
        return n;
    }

    private static GarbageException garbage(String text) {
        return new GarbageException("not /proc/stat: \"" + FactReads.shown(text) + "\"");
    }
}
