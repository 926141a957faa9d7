package hostside.checklist;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.core.Unit;
import hostside.core.Units;

/**
 * The checklist's classification: from the window's figures to what an on-call engineer should
 * look at first. Pure: {@link Signals} in, findings out, most urgent first; the first is the
 * verdict at the top of the screen: what costs throughput now (bad) before what may (warn), and
 * within each, the order of the rules below. Every rule has a threshold with its reason, and a
 * rule whose figures are unknown says nothing.
 */
final class Verdicts {
    /** Every task stalled on memory at once for this share of the time: throughput is already lost. */
    static final double MEMORY_FULL_PERCENT = 5;
    /** Some task waiting on reclaim or swap-in a fifth of the time: the next allocation burst may OOM. */
    static final double MEMORY_SOME_PERCENT = 20;
    /** A fifth of all CPU time idle with I/O outstanding: the CPUs wait on storage more than they work. */
    static final double IOWAIT_PERCENT = 20;
    /** A disk with a request in flight nearly all the time. */
    static final double DISK_UTIL_PERCENT = 90;
    /** Every non-idle task stalled on I/O at once this share of the time: named beside the cause. */
    static final double IO_FULL_PERCENT = 10;
    /** A thread that is almost never off its CPU: it cannot go faster by waiting less. */
    static final double THREAD_BUSY_PERCENT = 90;
    /** Below this the GPU idles a third of the time or more: a host that cannot keep up shows here. */
    static final double GPU_STARVED_PERCENT = 70;
    /** Busy enough that the GPU, not the host, sets the pace. */
    static final double GPU_BUSY_PERCENT = 90;
    /** Next to nothing running on the GPU. */
    static final double GPU_IDLE_PERCENT = 10;
    /** A clocks reason set in at least half the samples holds the GPU down, not a passing blip. */
    static final double THROTTLE_SHARE = 0.5;
    /** A tenth of the CPU time taken by the hypervisor for other guests. */
    static final double STEAL_PERCENT = 10;
    /** Half the time some runnable task waited for a CPU. */
    static final double CPU_SOME_PERCENT = 50;
    /** Below this the host counts as idle in the healthy verdict. */
    static final double HOST_IDLE_PERCENT = 50;
    /** A process that used less than this of one CPU is not working. */
    static final double PROCESS_IDLE_PERCENT = 10;

    private Verdicts() {}

    /**
     * What each rule concluded: its rule ({@link ChecklistRules#of}) is what a finding carries, the
     * stable ID a reader or a test compares, never the wording. A report of an earlier version
     * wrote the code ("memory-pressure", "healthy", ...) where the ID now is.
     */
    enum Code {
        MEMORY_PRESSURE, GPU_FAULT, GPU_APP_ERROR, HARDWARE_ERRORS, PROCESS_CRASHED, HUNG_TASKS, IO_BOUND, THROTTLED,
        CPU_BOUND_FEEDING, GIL_BOUND, CPU_OVERSUBSCRIBED, STEAL, SNAPSHOT, HEALTHY, WAITING, GPU_UNDERUSED, NO_BOTTLENECK;

        String code() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** The rule behind a finding of the checklist, by its rule's ID or, in a report of an earlier version, its code. */
        static Code of(Finding f) {
            for (Code c : values()) if (c.code().equals(f.id()) || ChecklistRules.of(c).id().equals(f.id())) return c;
            throw new IllegalArgumentException("\"" + f.id() + "\" is not a checklist verdict");
        }
    }

    static List<Finding> of(Signals s) {
        List<Finding> out = new ArrayList<>();
        memory(s, out);
        kernel(s, out);
        Finding io = io(s);
        if (io != null && io.severity() == Severity.BAD) out.add(io);
        throttled(s, out);
        cpu(s, out);
        // I/O the process does not wait on is the machine's trouble, told after the process's own
        if (io != null && io.severity() != Severity.BAD) out.add(io);
        if (out.isEmpty()) out.add(closing(s));
        out.sort(Comparator.comparing(Finding::severity)); // worst first: the enum's order
        return out;
    }

    private static Finding finding(Severity severity, String subject, Code code, String text, List<Evidence> evidence) {
        return ChecklistRules.of(code).finding(severity, subject, text, evidence);
    }

    private static void percent(List<Evidence> ev, String key, Double v) {
        if (v != null) ev.add(Evidence.of(key, v, Unit.PERCENT));
    }

    private static void memory(Signals s, List<Finding> out) {
        List<String> why = new ArrayList<>();
        if (s.psiMemoryFull() != null && s.psiMemoryFull() >= MEMORY_FULL_PERCENT) why.add("PSI memory full " + Units.percent(s.psiMemoryFull()));
        else if (s.psiMemorySome() != null && s.psiMemorySome() >= MEMORY_SOME_PERCENT) why.add("PSI memory some " + Units.percent(s.psiMemorySome()));
        if (!s.oomVictims().isEmpty()) {
            why.add(Units.plural(s.oomVictims().size(), "OOM kill") + " in the last hour (" + String.join(", ", first(s.oomVictims(), 3)) + ")");
        }
        List<Evidence> ev = new ArrayList<>();
        percent(ev, "psi_memory_full", s.psiMemoryFull());
        percent(ev, "psi_memory_some", s.psiMemorySome());
        ev.add(Evidence.of("oom_kills", s.oomVictims().size(), Unit.COUNT));
        if (!why.isEmpty()) out.add(finding(Severity.BAD, "memory", Code.MEMORY_PRESSURE, "memory pressure: " + String.join(", ", why), ev));
    }

    private static void kernel(Signals s, List<Finding> out) {
        List<KernelSection.EventUse> hw = s.xids().stream().filter(KernelSection.EventUse::hardware).toList();
        if (!hw.isEmpty()) out.add(finding(Severity.BAD, "gpu", Code.GPU_FAULT, "GPU fault: " + xid(hw.getFirst()) + more(hw.size()), xids(hw)));
        List<KernelSection.EventUse> app = s.xids().stream().filter(x -> !x.hardware()).toList();
        if (!app.isEmpty()) {
            KernelSection.EventUse x = app.stream().filter(KernelSection.EventUse::thisProcess).findFirst().orElse(app.getFirst());
            out.add(finding(Severity.WARN, "gpu", Code.GPU_APP_ERROR, "GPU error in " + (x.thisProcess() ? "this process" : "an application")
                    + ": " + xid(x) + more(app.size()), xids(app)));
        }
        if (s.hardwareErrors() > 0) {
            out.add(finding(Severity.BAD, "hardware", Code.HARDWARE_ERRORS, "hardware errors: " + Units.plural(s.hardwareErrors(), "machine-check/EDAC report") + " in the last hour",
                    List.of(Evidence.of("hardware_errors", s.hardwareErrors(), Unit.COUNT))));
        }
        if (!s.crashes().isEmpty()) {
            KernelSection.EventUse c = s.crashes().getFirst();
            out.add(finding(Severity.BAD, "process", Code.PROCESS_CRASHED, "crashed: " + c.process() + " (" + c.pid() + ") segfaulted " + age(c.ageSeconds()),
                    List.of(Evidence.fact("/dev/kmsg", "segfault: " + c.process() + " (" + c.pid() + ")"), Evidence.of("crashes", s.crashes().size(), Unit.COUNT))));
        }
        if (s.hungTasks() > 0) {
            out.add(finding(Severity.WARN, "kernel", Code.HUNG_TASKS, "hung tasks: " + Units.plural(s.hungTasks(), "report") + " in the last hour, " + s.hungExample() + " among them",
                    List.of(Evidence.of("hung_tasks", s.hungTasks(), Unit.COUNT), Evidence.fact("/dev/kmsg", "blocked for more than: " + s.hungExample()))));
        }
    }

    /**
     * Machine-wide iowait is I/O-bound whoever waits; a busy disk is only when this process
     * waits on it (threads in D state): PSI's io stalls and a disk's util belong to the whole
     * machine, and a checkpoint writer next door does not slow a job that reads nothing.
     */
    private static Finding io(Signals s) {
        Signals.Disk busiest = s.disks().stream().max((a, b) -> Double.compare(a.utilPercent(), b.utilPercent())).orElse(null);
        boolean iowait = s.iowait() != null && s.iowait() >= IOWAIT_PERCENT;
        boolean diskBusy = busiest != null && busiest.utilPercent() >= DISK_UTIL_PERCENT;
        boolean waits = s.blockedThreads() > 0;
        if (!iowait && !(diskBusy && waits)) return null;
        List<String> why = new ArrayList<>();
        if (s.iowait() != null) why.add(Units.percent(s.iowait()) + " iowait");
        if (diskBusy) why.add(busiest.name() + " at " + Units.percent(busiest.utilPercent()) + " util");
        if (s.psiIoFull() != null && s.psiIoFull() >= IO_FULL_PERCENT) why.add("PSI io full " + Units.percent(s.psiIoFull()));
        String text = "I/O-bound: " + String.join(", ", why);
        if (waits) text += ", " + Units.plural(s.blockedThreads(), "thread") + " of the process mostly in D state";
        else text += " (no thread of this process waits on it)";
        List<Evidence> ev = new ArrayList<>();
        percent(ev, "iowait", s.iowait());
        if (busiest != null) ev.add(Evidence.of("disk_util_" + busiest.name(), busiest.utilPercent(), Unit.PERCENT));
        percent(ev, "psi_io_full", s.psiIoFull());
        ev.add(Evidence.of("threads_in_d_state", s.blockedThreads(), Unit.COUNT));
        return finding(waits ? Severity.BAD : Severity.WARN, "io", Code.IO_BOUND, text, ev);
    }

    private static void throttled(Signals s, List<Finding> out) {
        for (Signals.Gpu g : s.gpus()) {
            List<Signals.Reason> held = g.reasons().stream().filter(r -> r.share() >= THROTTLE_SHARE).toList();
            if (held.isEmpty()) continue;
            String reasons = held.stream().map(Signals.Reason::name).collect(Collectors.joining(", "));
            List<String> detail = new ArrayList<>();
            if (g.powerWatts() != null && g.powerLimitWatts() != null) detail.add(fmt(g.powerWatts()) + " of " + fmt(g.powerLimitWatts()) + " W");
            if (g.smClockMhz() != null && g.smClockMaxMhz() != null) detail.add("SM " + fmt(g.smClockMhz()) + " of " + g.smClockMaxMhz() + " MHz");
            List<Evidence> ev = new ArrayList<>();
            for (Signals.Reason r : held) ev.add(Evidence.of("gpu" + g.index() + "_clocks_event_" + r.name().replace(' ', '_'), 100 * r.share(), Unit.PERCENT));
            out.add(finding(Severity.WARN, "gpu", Code.THROTTLED, "throttled: " + reasons + " on GPU" + g.index()
                    + (detail.isEmpty() ? "" : " (" + String.join(", ", detail) + ")"), ev));
        }
    }

    private static void cpu(Signals s, List<Finding> out) {
        List<Signals.Busy> hot = s.busy().stream().filter(b -> b.cpuPercent() >= THREAD_BUSY_PERCENT).toList();
        Double gpu = gpuUtil(s);
        boolean gpuLow = gpu == null || gpu < GPU_STARVED_PERCENT;
        if (!hot.isEmpty() && gpuLow) {
            String cores = hot.stream().map(b -> b.lastCpu() == null ? "?" : b.lastCpu().toString()).distinct().collect(Collectors.joining(", "));
            String low = Units.percent(hot.getLast().cpuPercent()), high = Units.percent(hot.getFirst().cpuPercent());
            String range = low.equals(high) ? high : low.replace("%", "") + "-" + high;
            long workers = hot.stream().filter(Signals.Busy::worker).count(), threads = hot.size() - workers;
            String who = threads == 0 ? Units.plural((int) workers, "worker process", "worker processes")
                    : workers == 0 ? Units.plural((int) threads, "thread")
                    : Units.plural((int) threads, "thread") + " and " + Units.plural((int) workers, "worker process", "worker processes");
            List<Evidence> ev = new ArrayList<>();
            ev.add(Evidence.of("busiest_thread_cpu", hot.getFirst().cpuPercent(), Unit.PERCENT));
            percent(ev, "gpu_util", gpu);
            out.add(finding(gpu == null ? Severity.WARN : Severity.BAD, "cpu", Code.CPU_BOUND_FEEDING, (gpu == null ? "CPU-bound: " : "CPU-bound feeding: ")
                    + who + " at " + range + " on core" + (cores.contains(",") ? "s " : " ") + cores + gpuText(s, gpu), ev));
        } else if (s.gilShare() >= 2 && gpuLow) {
            List<Evidence> ev = new ArrayList<>();
            ev.add(Evidence.of("threads_sharing_one_cpu", s.gilShare(), Unit.COUNT));
            percent(ev, "gpu_util", gpu);
            out.add(finding(gpu == null ? Severity.WARN : Severity.BAD, "cpu", Code.GIL_BOUND, (gpu == null ? "CPU-bound: " : "CPU-bound feeding: ")
                    + s.gilShare() + " threads share one CPU between them (the GIL?)" + gpuText(s, gpu), ev));
        }
        if (s.cpus() != null && s.runnable() != null && s.runnable() - 1 > s.cpus()
                || s.psiCpuSome() != null && s.psiCpuSome() >= CPU_SOME_PERCENT) {
            List<String> why = new ArrayList<>();
            // procs_running counts the thread that reads it: one less is what competes for the CPUs
            if (s.runnable() != null && s.cpus() != null) why.add(fmt(Math.max(0, s.runnable() - 1)) + " runnable on " + s.cpus() + " CPUs");
            if (s.psiCpuSome() != null) why.add("PSI cpu some " + Units.percent(s.psiCpuSome()));
            List<Evidence> ev = new ArrayList<>();
            if (s.runnable() != null) ev.add(Evidence.of("runnable", Math.max(0, s.runnable() - 1), Unit.COUNT));
            if (s.cpus() != null) ev.add(Evidence.of("cpus", s.cpus(), Unit.COUNT));
            percent(ev, "psi_cpu_some", s.psiCpuSome());
            out.add(finding(Severity.WARN, "cpu", Code.CPU_OVERSUBSCRIBED, "CPU oversubscribed: " + String.join(", ", why), ev));
        }
        if (s.steal() != null && s.steal() >= STEAL_PERCENT) {
            out.add(finding(Severity.WARN, "cpu", Code.STEAL, "CPU stolen by the hypervisor: " + Units.percent(s.steal()) + " steal",
                    List.of(Evidence.of("steal", s.steal(), Unit.PERCENT))));
        }
    }

    /** The verdict when no rule above found anything: healthy, under-used, waiting, or nothing to name. */
    private static Finding closing(Signals s) {
        Double gpu = gpuUtil(s);
        if (s.snapshot()) {
            return finding(Severity.INFO, "window", Code.SNAPSHOT, "one moment of a recorded machine: no rates, so no bottleneck is named", List.of());
        }
        if (gpu != null && gpu >= GPU_BUSY_PERCENT) {
            String host = s.hostBusy() == null ? "the host keeps up"
                    : s.hostBusy() < HOST_IDLE_PERCENT ? "the host is idle" : "the host keeps up (CPUs " + Units.percent(s.hostBusy()) + " busy)";
            List<Evidence> ev = new ArrayList<>();
            percent(ev, "gpu_util", gpu);
            percent(ev, "host_busy", s.hostBusy());
            return finding(Severity.INFO, "gpu", Code.HEALTHY, "the GPU is busy (" + Units.percent(gpu) + ") and " + host + ": healthy", ev);
        }
        boolean processIdle = s.processCpu() != null && s.processCpu() < PROCESS_IDLE_PERCENT;
        if (processIdle && (gpu == null || gpu < GPU_IDLE_PERCENT)) {
            List<Evidence> ev = new ArrayList<>();
            percent(ev, "process_cpu", s.processCpu());
            percent(ev, "gpu_util", gpu);
            return finding(Severity.WARN, "process", Code.WAITING, "waiting: the process used " + Units.percent(s.processCpu()) + " of a CPU"
                    + (gpu == null ? "" : " and the GPU " + Units.percent(gpu)) + ": blocked on something outside (the network, a peer, a lock, a read)", ev);
        }
        if (gpu != null) {
            List<Evidence> ev = new ArrayList<>();
            percent(ev, "gpu_util", gpu);
            percent(ev, "process_cpu", s.processCpu());
            return finding(Severity.WARN, "gpu", Code.GPU_UNDERUSED, "GPU at " + Units.percent(gpu) + " and no host bottleneck seen: look at the input pipeline and the gaps between kernels", ev);
        }
        List<Evidence> ev = new ArrayList<>();
        percent(ev, "process_cpu", s.processCpu());
        return finding(Severity.INFO, "window", Code.NO_BOTTLENECK, "no host bottleneck seen"
                + (s.processCpu() == null ? "" : ": the process used " + Units.percent(s.processCpu()) + " of a CPU")
                + (s.gpusNotRead() == null ? "" : "; GPUs not read (" + s.gpusNotRead() + ")"), ev);
    }

    /** The mean utilisation of the process's GPUs; null when none was read. */
    static Double gpuUtil(Signals s) {
        List<Double> u = s.gpus().stream().map(Signals.Gpu::utilPercent).filter(java.util.Objects::nonNull).toList();
        return u.isEmpty() ? null : u.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    private static String gpuText(Signals s, Double gpu) {
        if (gpu != null) return ", GPU" + (s.gpus().size() > 1 ? "s" : "") + " at " + Units.percent(gpu);
        return s.gpusNotRead() == null ? "" : "; GPUs not read: " + s.gpusNotRead();
    }

    private static String xid(KernelSection.EventUse x) {
        return "Xid " + x.xid() + " on " + x.pci() + " " + age(x.ageSeconds()) + (x.count() > 1 ? " (" + x.count() + " times)" : "")
                + ": " + x.meaning();
    }

    /** Each Xid as the fact the kernel log gave: "Xid 79 on 0000:3b:00, 2 times". */
    private static List<Evidence> xids(List<KernelSection.EventUse> xs) {
        return xs.stream().map(x -> (Evidence) Evidence.fact("/dev/kmsg", "Xid " + x.xid() + " on " + x.pci() + (x.count() > 1 ? ", " + x.count() + " times" : ""))).toList();
    }

    private static String more(int n) {
        return n > 1 ? "; " + (n - 1) + " more kind" + (n > 2 ? "s" : "") + " of Xid" : "";
    }

    /** "just now", "40 s ago", "12 min ago", "3 h ago", "2 days ago". */
    static String age(Double seconds) {
        if (seconds == null) return "at an unknown time";
        double s = seconds;
        if (s < 1) return "just now";
        if (s < 120) return Math.round(s) + " s ago";
        if (s < 2 * 3600) return Math.round(s / 60) + " min ago";
        if (s < 2 * 86400) return Math.round(s / 3600) + " h ago";
        return Math.round(s / 86400) + " days ago";
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }

    private static List<String> first(List<String> l, int n) {
        return l.size() <= n ? l : List.of(String.join(", ", l.subList(0, n)), "+" + (l.size() - n) + " more");
    }
}
