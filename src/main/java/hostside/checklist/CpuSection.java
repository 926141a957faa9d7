package hostside.checklist;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import hostside.process.ProcStat;
import hostside.process.CpuTimes;

/**
 * Step 3, per-CPU utilisation and the run queue: /proc/stat's growth over the window per CPU
 * (mpstat -P ALL's columns; user and nice include guest time, as the kernel counts it), context
 * switches per second (vmstat's "cs"), and the CPUs that were busy all the time.
 *
 * @param all     the machine, every CPU together
 * @param cpus    one row per CPU online at both ends of the window
 * @param pegged  CPUs at least {@link #PEGGED_PERCENT} busy
 */
public record CpuSection(CpuUse all, List<CpuUse> cpus, Double contextSwitchesPerSecond, List<Integer> pegged) {
    /**
     * Busy enough to count as a CPU running flat out: a thread that never sleeps still loses a
     * few percent to interrupts and the tick, so 100 is never seen.
     */
    static final double PEGGED_PERCENT = 95;

    public CpuSection {
        cpus = List.copyOf(cpus);
        pegged = List.copyOf(pegged);
    }

    /**
     * Shares of one CPU's (or all CPUs') time over the window, percent.
     *
     * @param busy time doing work: everything but idle and iowait (iowait is idle time with I/O outstanding)
     */
    public record CpuUse(String cpu, double user, double nice, double system, double iowait, double irq, double softirq,
                         double steal, double idle, double busy) {

        static CpuUse of(String name, CpuTimes d) {
            long t = d.total();
            double idle = p(d.idle(), t), iowait = p(d.iowait(), t);
            return new CpuUse(name, p(d.user(), t), p(d.nice(), t), p(d.system(), t), iowait, p(d.irq(), t),
                    p(d.softirq(), t), p(d.steal(), t), idle, t == 0 ? 0 : Rates.round(100 - idle - iowait, 1));
        }

        private static double p(long part, long whole) {
            return Rates.round(Rates.share(part, whole), 1);
        }
    }

    /** Null without two readings of /proc/stat. */
    static CpuSection of(Sample first, Sample last) {
        ProcStat a = first.stat(), b = last.stat();
        double seconds = Rates.seconds(first, last);
        if (a == null || b == null || seconds <= 0) return null;
        List<CpuUse> rows = new ArrayList<>();
        List<Integer> pegged = new ArrayList<>();
        for (Map.Entry<Integer, CpuTimes> e : b.cpus().entrySet().stream().sorted(Map.Entry.comparingByKey()).toList()) {
            CpuTimes before = a.cpus().get(e.getKey());
            if (before == null) continue; // came online during the window
            CpuUse u = CpuUse.of(Integer.toString(e.getKey()), e.getValue().minus(before));
            rows.add(u);
            if (u.busy() >= PEGGED_PERCENT) pegged.add(e.getKey());
        }
        Double cs = a.contextSwitches() == null || b.contextSwitches() == null ? null
                : Rates.round(Rates.perSecond(a.contextSwitches(), b.contextSwitches(), seconds), 0);
        return new CpuSection(CpuUse.of("all", b.all().minus(a.all())), rows, cs, pegged);
    }
}
