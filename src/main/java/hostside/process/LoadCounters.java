package hostside.process;

import hostside.fs.FsRoot;

/**
 * The kernel's running counters that {@link MachineLoad} takes its figures from, read at one
 * instant: two of these, a short window apart, give how busy the machine was in between. Each is
 * null where its file is missing or garbled (a kernel without PSI has no /proc/pressure/cpu).
 *
 * @param busyTicks    /proc/stat's "cpu" line: user + nice + system + irq + softirq, in USER_HZ
 *                     ticks summed over every CPU (guest time is already inside user and nice;
 *                     idle, iowait and steal are not work done here)
 * @param stealTicks   the same line's steal: a vCPU wanted to run and the hypervisor ran something else
 * @param totalTicks   the same line's user to steal: every CPU's wall time, so that the window's
 *                     length in ticks per CPU is its change over {@code cpus}, whatever USER_HZ is
 * @param cpus         the cpuN lines of /proc/stat: the CPUs online
 * @param procsRunning /proc/stat procs_running: tasks runnable now, the reading thread included
 * @param selfTicks    this process's utime + stime (/proc/self/stat), every thread of it
 * @param psiSomeUs    /proc/pressure/cpu "some" total: microseconds in which some task waited for a CPU
 * @param psiSomeAvg10 the same line's avg10, in percent
 * @param load1        the 1-minute load average, /proc/loadavg's first field
 */
record LoadCounters(Long busyTicks, Long stealTicks, Long totalTicks, int cpus, Integer procsRunning, Long selfTicks,
                    Long psiSomeUs, Double psiSomeAvg10, Double load1) {

    static LoadCounters read(FsRoot fs) {
        String stat = fs.read("/proc/stat") instanceof hostside.fs.Read.Ok ok ? ok.text() : "";
        long[] cpu = cpuLine(stat);
        String[] psi = psiSome(fs.text("/proc/pressure/cpu").orElse(""));
        return new LoadCounters(cpu == null ? null : cpu[0] + cpu[1] + cpu[2] + cpu[5] + cpu[6], cpu == null ? null : cpu[7],
                cpu == null ? null : cpu[0] + cpu[1] + cpu[2] + cpu[3] + cpu[4] + cpu[5] + cpu[6] + cpu[7], cpus(stat),
                procsRunning(stat), selfTicks(fs.text("/proc/self/stat").orElse("")),
                psi == null ? null : longOrNull(psi[1]), psi == null ? null : doubleOrNull(psi[0]), LoadAvg.read(fs).map(LoadAvg::one).orElse(null));
    }

    /**
     * The aggregate "cpu" line's first eight fields (user nice system idle iowait irq softirq
     * steal); a kernel older than 2.6.11 printed fewer, and the missing ones read as 0. Null when
     * the line is missing or garbled.
     */
    static long[] cpuLine(String stat) {
        for (String line : stat.lines().toList()) {
            String[] f = line.strip().split("\\s+");
            if (!f[0].equals("cpu")) continue;
            if (f.length < 5) return null;
            long[] v = new long[8];
            for (int i = 0; i < 8 && i + 1 < f.length; i++) {
                Long n = longOrNull(f[i + 1]);
                if (n == null) return null;
                v[i] = n;
            }
            return v;
        }
        return null;
    }

    static int cpus(String stat) {
        return (int) stat.lines().filter(l -> l.matches("cpu\\d+\\s.*")).count();
    }

    static Integer procsRunning(String stat) {
        for (String line : stat.lines().toList()) {
            if (!line.startsWith("procs_running ")) continue;
            Long n = longOrNull(line.substring("procs_running ".length()).strip());
            return n == null || n > Integer.MAX_VALUE ? null : n.intValue();
        }
        return null;
    }

    /**
     * utime + stime of /proc/PID/stat (fields 14 and 15). The command name, field 2, is in
     * parentheses and may hold spaces and parentheses itself: the fields are counted after the
     * last ')'.
     */
    static Long selfTicks(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) return null;
        String[] f = stat.substring(close + 1).strip().split("\\s+");
        // f[0] is field 3 (state): utime is field 14, f[11]
        if (f.length < 13) return null;
        Long u = longOrNull(f[11]), s = longOrNull(f[12]);
        return u == null || s == null ? null : u + s;
    }

    /** "some avg10=1.23 avg60=... total=N": {avg10, total} as text; null when the line is missing or garbled. */
    static String[] psiSome(String pressure) {
        for (String line : pressure.lines().toList()) {
            if (!line.startsWith("some ")) continue;
            String avg10 = null, total = null;
            for (String kv : line.substring(5).strip().split("\\s+")) {
                if (kv.startsWith("avg10=")) avg10 = kv.substring(6);
                if (kv.startsWith("total=")) total = kv.substring(6);
            }
            return avg10 == null || total == null || longOrNull(total) == null || doubleOrNull(avg10) == null ? null : new String[] {avg10, total};
        }
        return null;
    }


    private static Long longOrNull(String s) {
        try {
            long v = Long.parseLong(s);
            return v >= 0 ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Double doubleOrNull(String s) {
        try {
            double v = Double.parseDouble(s);
            return Double.isFinite(v) && v >= 0 ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
