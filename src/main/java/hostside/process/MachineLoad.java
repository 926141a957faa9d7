package hostside.process;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * How busy the machine was just before a drill measured, apart from hostside itself: what other
 * processes did over a short window (the drill's facts, at least {@link #WINDOW}: {@link LoadWindow}),
 * read from the kernel's counters. A busy machine's figures are slower and noisier than its own
 * best, so every drill records this beside its run, and says so when the machine was busy.
 *
 * <p>The rule for busy ({@link #busyCpus(int)}, {@link #BUSY_PSI}) weighs only what the window
 * itself measured. The load average and PSI's avg10 are kept, but not judged: they average over
 * a minute and ~10 s, so they lag, and they count hostside's own previous drill (the report runs
 * the drills back to back, and the CPU drill's hogs would make the next drill look busy).
 *
 * @param windowMs      the window's length, wall clock
 * @param cpus          CPUs online (/proc/stat's cpuN lines)
 * @param othersCpus    CPU time used by everything but this process over the window, in CPUs
 *                      (1.0: one CPU kept busy the whole window): /proc/stat's busy time less this
 *                      process's utime + stime; null when either could not be read. On a saturated
 *                      machine it is what the others got, not what they wanted: this process's own
 *                      start-up (the JIT) takes its share, and PSI says how much work waited
 * @param selfCpus      the same for this process (every thread of it), so that others + self is the
 *                      whole machine's busy time, what vmstat's us + sy show; null when not read
 * @param stealCpus     time the hypervisor ran something else while a vCPU wanted to run, in CPUs; null when not read
 * @param psiSomeWindow share of the window in which some runnable task waited for a CPU, in percent
 *                      (/proc/pressure/cpu's "some" total); null where the kernel has no PSI
 * @param psiSomeAvg10  /proc/pressure/cpu "some avg10", percent: the same over the last ~10 s, decaying; null without PSI
 * @param procsRunning  runnable tasks at the window's end (/proc/stat procs_running), this reading thread included
 * @param load1         the 1-minute load average (/proc/loadavg)
 * @param busyAboveCpus the rule's limit for others' and stolen CPU time on this machine ({@link #busyCpus(int)})
 * @param busy          others or the hypervisor took more than {@code busyAboveCpus}, or tasks other
 *                      than hostside's waited for a CPU more than {@link #BUSY_PSI}% of the window
 *                      ({@link #othersWaitPercent})
 * @param selfWaitPercent this process's threads' waits for a CPU over the window, summed, as a share of
 *                      it in percent (schedstat's run delay; several threads waiting at once count each:
 *                      it may pass 100); null where not read, and in a report written before it was kept
 */
public record MachineLoad(double windowMs, int cpus, Double othersCpus, Double selfCpus, Double stealCpus, Double psiSomeWindow, Double psiSomeAvg10,
                          Integer procsRunning, Double load1, double busyAboveCpus, boolean busy, Double selfWaitPercent) {

    /** The least a window lasts: a few USER_HZ ticks per CPU (10 ms each), short enough to read before each drill. */
    public static final Duration WINDOW = Duration.ofMillis(200);
    /**
     * Others' CPU time above this is busy on a machine of up to 8 CPUs: a quarter of one CPU is far
     * above an idle machine's background (kernel threads and daemons, a few hundredths) and above
     * the window's resolution (one tick over 200 ms is 0.05 CPU), and enough that a measuring
     * thread shares its CPU now and then, which moves latencies and jitter most.
     */
    public static final double BUSY_CPUS = 0.25;
    /**
     * Above 8 CPUs the limit grows with the machine, a 32nd of it: a GPU server's agents (kubelet,
     * DCGM, node exporters) use a few tenths of a CPU on 100 and more, leaving every drill's CPUs
     * free; flagging them would make "busy" a word no one reads.
     */
    public static final double BUSY_SHARE = 1.0 / 32;
    /**
     * Tasks other than hostside's waiting for a CPU for more than this share of the window is busy
     * whatever the CPU time: runnable work queues for CPUs, so the scheduler will make a measuring
     * thread wait too.
     */
    public static final double BUSY_PSI = 10.0;

    /**
     * The share of the window in which tasks other than this process's waited for a CPU, at least:
     * PSI's "some" less this process's own waits. PSI counts every task that waited, hostside's own
     * too, and at the JVM's start its compiler threads queue behind the main thread: on the 2-CPU dev
     * VM one quick report in four had the first drill's window at 20.6%, hostside at 0.91 CPUs and all others at 0.14
     * (docs/measurements/2026-12-08-fewer-loads-devvm.md). The system's "some" is each CPU's time
     * with a task waiting, averaged over the CPUs by their non-idle time (collect_percpu_times in the
     * kernel's kernel/sched/psi.c), so what this process's waits add to it is at most their sum:
     * taking all of it away leaves what others' waits made at the least. Work that made hostside's
     * threads wait is others' CPU time too, which the CPU rule judges. PSI as it is where this
     * process's waits are not known.
     */
    public static Double othersWaitPercent(Double psiSomeWindow, Double selfWaitPercent) {
        if (psiSomeWindow == null) return null;
        return selfWaitPercent == null ? psiSomeWindow : Math.max(0, psiSomeWindow - selfWaitPercent);
    }

    /** The limit on others' (and stolen) CPU time for a machine of {@code cpus} CPUs. */
    public static double busyCpus(int cpus) {
        return Math.max(BUSY_CPUS, cpus * BUSY_SHARE);
    }

    /** The figures between two readings of the counters {@code nanos} apart, judged by the rule. */
    static MachineLoad between(LoadCounters a, LoadCounters b, long nanos) {
        int cpus = b.cpus();
        Double perCpuTicks = a.totalTicks() == null || b.totalTicks() == null || cpus <= 0 ? null : (b.totalTicks() - a.totalTicks()) / (double) cpus;
        boolean window = perCpuTicks != null && perCpuTicks > 0;
        Double others = null, self = null, steal = null;
        if (window && a.selfTicks() != null && b.selfTicks() != null) self = Math.max(0, b.selfTicks() - a.selfTicks()) / perCpuTicks;
        if (self != null && a.busyTicks() != null && b.busyTicks() != null) {
            // per-task times are finer than /proc/stat's tick sampling: this process can show a tick more than the whole machine did
            others = Math.max(0, (b.busyTicks() - a.busyTicks()) - (b.selfTicks() - a.selfTicks())) / perCpuTicks;
        }
        if (window && a.stealTicks() != null && b.stealTicks() != null) steal = Math.max(0, b.stealTicks() - a.stealTicks()) / perCpuTicks;
        Double psi = null;
        if (a.psiSomeUs() != null && b.psiSomeUs() != null && nanos > 0) {
            psi = Math.min(100, Math.max(0, b.psiSomeUs() - a.psiSomeUs()) * 1e3 / nanos * 100);
        }
        Double selfWait = a.selfWaitNs() == null || b.selfWaitNs() == null || nanos <= 0 ? null
                : Math.max(0, b.selfWaitNs() - a.selfWaitNs()) / (double) nanos * 100;
        Double othersWait = othersWaitPercent(psi, selfWait);
        double limit = busyCpus(cpus);
        boolean busy = others != null && others > limit || steal != null && steal > limit || othersWait != null && othersWait > BUSY_PSI;
        return new MachineLoad(nanos / 1e6, cpus, others, self, steal, psi, b.psiSomeAvg10(), b.procsRunning(), b.load1(), limit, busy, selfWait);
    }


    /** {@code load}, said on {@code warn} first when it is busy. */
    public static MachineLoad said(String drill, MachineLoad load, java.util.function.Consumer<String> warn) {
        if (load != null && load.busy()) warn.accept(load.busyLine(drill));
        return load;
    }

    /** What made {@code load}'s window busy, a phrase each; empty where it was quiet or not read (null). */
    public static List<String> busyReasons(MachineLoad load) {
        return load == null || !load.busy() ? List.of() : load.reasons();
    }

    /** What made the window busy, a phrase each; empty when it was not. */
    @JsonIgnore
    public List<String> reasons() {
        List<String> r = new ArrayList<>();
        if (othersCpus != null && othersCpus > busyAboveCpus) {
            r.add(String.format(Locale.ROOT, "other processes used %.2f CPUs (more than %.2f)", othersCpus, busyAboveCpus));
        }
        if (stealCpus != null && stealCpus > busyAboveCpus) {
            r.add(String.format(Locale.ROOT, "the hypervisor took %.2f CPUs (steal, more than %.2f)", stealCpus, busyAboveCpus));
        }
        Double othersWait = othersWaitPercent(psiSomeWindow, selfWaitPercent);
        if (othersWait != null && othersWait > BUSY_PSI) {
            r.add(selfWaitPercent == null
                    ? String.format(Locale.ROOT, "tasks waited for a CPU %.0f%% of the time (PSI some, more than %.0f%%)", psiSomeWindow, BUSY_PSI)
                    : String.format(Locale.ROOT, "other tasks waited for a CPU %.0f%% of the time (PSI some %.0f%% less hostside's own waits, more than %.0f%%)",
                    othersWait, psiSomeWindow, BUSY_PSI));
        }
        return r;
    }

    /** The line said when {@code drill} starts on a busy machine (stderr), and in its document. */
    public String busyLine(String drill) {
        return String.format(Locale.ROOT, "the machine was busy as the %s drill began: %s over %.0f ms; its figures may be slower and noisier than this machine's best",
                drill, String.join(", ", reasons()), windowMs);
    }

    /** The figures in a phrase, busy, quiet or not judged (nothing of the window read): what the report's conditions list for each drill. */
    public String summary() {
        List<String> f = new ArrayList<>();
        f.add(othersCpus == null ? "others' CPU time not read" : String.format(Locale.ROOT, "others %.2f CPUs", othersCpus));
        if (selfCpus != null) f.add(String.format(Locale.ROOT, "hostside %.2f", selfCpus));
        if (stealCpus != null && stealCpus > 0) f.add(String.format(Locale.ROOT, "steal %.2f CPUs", stealCpus));
        if (psiSomeWindow != null) {
            f.add(String.format(Locale.ROOT, "CPU pressure %.0f%%", psiSomeWindow)
                    + (selfWaitPercent == null ? "" : String.format(Locale.ROOT, " (hostside's own waits %.0f%%)", selfWaitPercent)));
        }
        if (procsRunning != null) f.add(procsRunning + " runnable");
        if (load1 != null) f.add(String.format(Locale.ROOT, "load %.2f", load1));
        String state = busy ? "busy" : othersCpus == null && stealCpus == null && psiSomeWindow == null ? "not judged" : "quiet";
        return state + ": " + String.join(", ", f) + String.format(Locale.ROOT, " (%.0f ms, %d CPUs)", windowMs, cpus);
    }
}
