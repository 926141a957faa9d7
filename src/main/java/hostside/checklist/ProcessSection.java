package hostside.checklist;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import hostside.core.CpuSet;
import hostside.core.GarbageException;
import hostside.cpu.dataloader.ProcMemory;
import hostside.process.ProcStatus;
import hostside.process.TaskStat;
import hostside.process.TaskState;

/**
 * Step 4, the process: its CPU, memory, faults and I/O over the window, each thread (name, CPU,
 * state, the CPU it last ran on, context switches), its cgroup and allowed CPUs, and the
 * processes below it (DataLoader workers) summed and listed.
 *
 * @param cpuPercent   the process's CPU over the window, percent of one CPU (its threads that
 *                     ended in the window included: the kernel keeps their time)
 * @param rssBytes     resident memory at the end (smaps_rollup, else status VmRSS)
 * @param pssBytes     proportional set size at the end: shared pages divided among their mappers,
 *                     so it adds up over the workers; null with {@code memoryNotRead} saying why
 * @param io           bytes through the block layer and through read/write calls, per second
 * @param cpusAllowed  the CPUs it may run on (status's Cpus_allowed_list; a cpulist in JSON), null when unknown
 * @param threadList   every thread seen, busiest first
 */
public record ProcessSection(long pid, String comm, String state, Long threads, Double cpuPercent, Long rssBytes, Long pssBytes,
                             String memoryNotRead, Double minorFaultsPerSecond, Double majorFaultsPerSecond, IoUse io, String ioNotRead,
                             String cgroup, CpuSet cpusAllowed, List<ThreadUse> threadList, Children children) {

    public ProcessSection {
        threadList = List.copyOf(threadList);
    }

    /** Per second over the window. */
    public record IoUse(double readBytesPerSecond, double writeBytesPerSecond, double rcharPerSecond, double wcharPerSecond) {}

    /**
     * @param state       the last state seen (R running, S sleeping, D uninterruptible, ...)
     * @param stateShares the share of the samples in each state
     * @param lastCpu     the CPU it last ran on (stat field 39)
     * @param ended       it was gone before the last sample
     */
    public record ThreadUse(long tid, String name, Double cpuPercent, TaskState state, Map<TaskState, Double> stateShares, Integer lastCpu,
                            Double voluntarySwitchesPerSecond, Double involuntarySwitchesPerSecond, boolean ended) {}

    /** The processes below the watched one, summed, and each. */
    public record Children(int count, Double cpuPercent, Long rssBytes, Long pssBytes, List<ChildUse> list) {
        public Children {
            list = List.copyOf(list);
        }
    }

    public record ChildUse(long pid, long ppid, String comm, Double cpuPercent, TaskState state, Integer lastCpu, Long rssBytes,
                           Long pssBytes, Double majorFaultsPerSecond) {}

    /**
     * @param memory the memory look taken after the window (smaps_rollup walks every mapping under
     *               the process's mmap lock, so it is read once, not every tick), by PID
     * @param cgroup the cgroup path from /proc/PID/cgroup, or null
     */
    static ProcessSection of(List<Sample> samples, Map<Long, ProcMemory.Look> memory, String cgroup) {
        Sample first = samples.getFirst(), last = samples.getLast();
        ProcessLook a = first.process(), b = last.process();
        double seconds = Rates.seconds(first, last);
        boolean rates = seconds > 0;
        TaskStat sa = a.stat(), sb = b.stat();

        IoUse io = null;
        String ioWhy = b.ioNotRead();
        if (rates && a.io() != null && b.io() != null) {
            io = new IoUse(r(a.io().readBytes(), b.io().readBytes(), seconds), r(a.io().writeBytes(), b.io().writeBytes(), seconds),
                    r(a.io().rchar(), b.io().rchar(), seconds), r(a.io().wchar(), b.io().wchar(), seconds));
        } else if (ioWhy == null && !rates) {
            ioWhy = "one sample: no rates";
        }

        Long rss = null, pss = null;
        String memWhy = null;
        switch (memory.get(b.stat().pid())) {
            case ProcMemory.Look.Seen seen -> {
                rss = seen.sample().rss();
                pss = seen.sample().pss();
            }
            case ProcMemory.Look.Vanished v -> memWhy = "exited before its memory was read";
            case ProcMemory.Look.Unreadable u -> memWhy = u.why();
            case null -> memWhy = "not read";
        }
        if (rss == null && b.status() != null) rss = b.status().bytes("VmRSS");

        List<ThreadUse> threads = new ArrayList<>();
        for (var e : Span.of(samples, ProcessLook::threads).entrySet()) {
            Span s = e.getValue();
            threads.add(new ThreadUse(e.getKey(), s.last().stat().comm(), s.cpuPercent(), s.last().stat().state(),
                    s.stateShares(), s.last().stat().processor(),
                    s.perSecond(t -> t.status() == null ? null : t.status().voluntarySwitches()),
                    s.perSecond(t -> t.status() == null ? null : t.status().involuntarySwitches()), s.lastAt() != last.atNanos()));
        }
        threads.sort(Comparator.comparing((ThreadUse t) -> t.cpuPercent() == null ? -1 : t.cpuPercent()).reversed()
                .thenComparingLong(ThreadUse::tid));

        return new ProcessSection(sb.pid(), sb.comm(), b.status() == null ? sb.state().json() : b.status().state().orElse(sb.state().json()),
                sb.threads(), rates ? Rates.round(Rates.cpuPercent(sa.cpuTicks(), sb.cpuTicks(), seconds), 1) : null, rss, pss, memWhy,
                rates ? Rates.round(Rates.perSecond(sa.minflt(), sb.minflt(), seconds), 1) : null,
                rates ? Rates.round(Rates.perSecond(sa.majflt(), sb.majflt(), seconds), 1) : null,
                io, ioWhy, cgroup, cpusAllowed(b.status()), threads,
                children(samples, memory, last.atNanos()));
    }

    /** Null without a status or its line; a garbled list says as little as a missing one, and is shown as unknown. */
    private static CpuSet cpusAllowed(ProcStatus status) {
        if (status == null) return null;
        try {
            return status.cpusAllowed().map(CpuSet::parseList).orElse(null);
        } catch (GarbageException e) {
            return null;
        }
    }

    private static double r(long before, long after, double seconds) {
        return Rates.round(Rates.perSecond(before, after, seconds), 0);
    }

    private static Children children(List<Sample> samples, Map<Long, ProcMemory.Look> memory, long end) {
        List<ChildUse> list = new ArrayList<>();
        double cpu = 0;
        long rss = 0, pss = 0;
        boolean anyCpu = false, allPss = true;
        for (var e : Span.of(samples, ProcessLook::children).entrySet()) {
            Span s = e.getValue();
            if (s.lastAt() != end) continue; // ended in the window: its memory is gone
            Long cRss = null, cPss = null;
            if (memory.get(e.getKey()) instanceof ProcMemory.Look.Seen seen) {
                cRss = seen.sample().rss();
                cPss = seen.sample().pss();
            } else if (s.last().status() != null) {
                cRss = s.last().status().bytes("VmRSS");
            }
            if (cPss == null) allPss = false;
            Double c = s.cpuPercent();
            if (c != null) {
                cpu += c;
                anyCpu = true;
            }
            rss += cRss == null ? 0 : cRss;
            pss += cPss == null ? 0 : cPss;
            TaskStat st = s.last().stat();
            list.add(new ChildUse(e.getKey(), st.ppid(), st.comm(), c, st.state(), st.processor(), cRss, cPss,
                    s.perSecond(t -> t.stat().majflt())));
        }
        list.sort(Comparator.comparing((ChildUse c) -> c.cpuPercent() == null ? -1 : c.cpuPercent()).reversed()
                .thenComparingLong(ChildUse::pid));
        return new Children(list.size(), anyCpu ? Rates.round(cpu, 1) : null, list.isEmpty() ? null : rss,
                list.isEmpty() || !allPss ? null : pss, list);
    }
}
