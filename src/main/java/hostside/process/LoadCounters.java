package hostside.process;

import hostside.core.GarbageException;
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
 * @param selfWaitNs   this process's threads' time runnable but waiting for a CPU, summed
 *                     (/proc/self/task/TID/schedstat's second field, run_delay, ns); null where the
 *                     kernel keeps no schedstat. A thread that ended since the last reading takes its
 *                     share with it
 * @param psiSomeUs    /proc/pressure/cpu "some" total: microseconds in which some task waited for a CPU
 * @param psiSomeAvg10 the same line's avg10, in percent
 * @param load1        the 1-minute load average, /proc/loadavg's first field
 */
record LoadCounters(Long busyTicks, Long stealTicks, Long totalTicks, int cpus, Integer procsRunning, Long selfTicks,
                    Long selfWaitNs, Long psiSomeUs, Double psiSomeAvg10, Double load1) {

    static LoadCounters read(FsRoot fs) {
        // the files' one readers, ProcStat, Pressure and LoadAvg, as the checklist reads them
        ProcStat stat = parsed(fs, "/proc/stat", ProcStat::parse);
        Pressure psi = parsed(fs, Pressure.Resource.CPU.path(), Pressure::parse);
        CpuTimes all = stat == null ? null : stat.all();
        Long running = stat == null ? null : stat.procsRunning();
        return new LoadCounters(all == null ? null : all.user() + all.nice() + all.system() + all.irq() + all.softirq(),
                all == null ? null : all.steal(), all == null ? null : all.total(), stat == null ? 0 : stat.cpus().size(),
                running == null || running > Integer.MAX_VALUE ? null : running.intValue(), selfTicks(fs), selfWaitNs(fs),
                psi == null ? null : psi.some().totalUs(), psi == null ? null : psi.some().avg10(), LoadAvg.read(fs).map(LoadAvg::one).orElse(null));
    }

    /** utime + stime of this process (every thread of it), from /proc/self/stat; null where unreadable. */
    static Long selfTicks(FsRoot fs) {
        return parsed(fs, "/proc/self/stat", TaskStat::parse) instanceof TaskStat t ? t.cpuTicks() : null;
    }

    /**
     * The run delay of this process's threads, summed (schedstat's "cpu_time run_delay timeslices");
     * null where no thread's schedstat reads (a kernel without CONFIG_SCHED_INFO).
     */
    static Long selfWaitNs(FsRoot fs) {
        long sum = 0;
        boolean any = false;
        for (String tid : fs.list("/proc/self/task")) {
            String[] f = fs.text("/proc/self/task/" + tid + "/schedstat").map(t -> t.split("\\s+")).orElse(new String[0]);
            if (f.length < 2) continue;
            try {
                sum += Long.parseLong(f[1]);
                any = true;
            } catch (NumberFormatException e) {
                // a garbled line counts nothing rather than a guess
            }
        }
        return any ? sum : null;
    }

    /** The file parsed, or null where it is missing or garbled: a count that cannot be read is not a zero. */
    private static <T> T parsed(FsRoot fs, String path, java.util.function.Function<String, T> parse) {
        return fs.text(path).map(t -> {
            try {
                return parse.apply(t);
            } catch (GarbageException e) {
                return null;
            }
        }).orElse(null);
    }
}
