package hostside.checklist;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Step 2, the kernel messages that matter: OOM kills and their victims, NVIDIA Xid errors with
 * their meaning, hung tasks, crashes of the watched process, machine-check and EDAC reports;
 * repeats of one event folded into one line with a count, most recent first.
 *
 * @param notRead      null when the log was read; else why not
 * @param records      records read from the log
 * @param otherCrashes segfaults of processes other than the watched one and those below it
 */
public record KernelSection(String notRead, int records, int garbled, List<EventUse> events, int otherCrashes) {
    /** What "recent" means for a verdict: a training step's failures of the last hour, not of last month's boot. */
    static final double RECENT_SECONDS = 3600;

    public KernelSection {
        events = List.copyOf(events);
    }

    /**
     * One event, or a run of the same one.
     *
     * @param kind          what happened
     * @param ageSeconds    since the most recent one; null when the time since boot is unknown
     * @param firstAgeSeconds since the first of the run
     * @param xid           the Xid code, for an Xid
     * @param meaning       NVIDIA's meaning, for an Xid
     * @param hardware      an Xid that means the GPU failed, not the program; MCE and EDAC too
     * @param thisProcess   it names the watched process, a thread of it, or a process below it
     * @param pci           the GPU of an Xid
     * @param cgroupLimit   an OOM kill by a memory cgroup's limit, not the machine running out
     */
    public record EventUse(KernelEvent.Kind kind, Double ageSeconds, Double firstAgeSeconds, int count, Long pid, String process, Integer xid,
                           String pci, String meaning, boolean hardware, boolean thisProcess, boolean cgroupLimit, String text) {}

    /** @param family the watched PID, its threads and the processes below it */
    static KernelSection of(KernelLog log, Set<Long> family) {
        if (!log.read()) return new KernelSection(log.notRead(), 0, 0, List.of(), 0);
        Map<RunKey, List<KernelEvent>> runs = new LinkedHashMap<>();
        int others = 0;
        for (KernelEvent e : KernelEvent.of(log.records())) {
            if (e.kind() == KernelEvent.Kind.SEGFAULT && !family.contains(e.pid())) {
                others++;
                continue;
            }
            runs.computeIfAbsent(RunKey.of(e), k -> new ArrayList<>()).add(e);
        }
        List<EventUse> events = new ArrayList<>();
        for (List<KernelEvent> run : runs.values()) {
            KernelEvent last = run.getLast();
            Double now = log.nowSeconds();
            Double age = now == null ? null : Rates.round(Math.max(0, now - last.atSeconds()), 1);
            Double firstAge = now == null ? null : Rates.round(Math.max(0, now - run.getFirst().atSeconds()), 1);
            Xid x = last.xid();
            boolean hardware = x != null ? x.hardware() : last.kind() == KernelEvent.Kind.MCE || last.kind() == KernelEvent.Kind.EDAC;
            events.add(new EventUse(last.kind(), age, firstAge, run.size(), last.pid(), last.process(), x == null ? null : x.code(),
                    x == null ? null : x.pci(), x == null ? null : x.meaning(), hardware, last.pid() != null && family.contains(last.pid()),
                    last.cgroupLimit(), last.text()));
        }
        events.sort(Comparator.comparing((EventUse e) -> e.ageSeconds() == null ? Double.MAX_VALUE : e.ageSeconds()));
        return new KernelSection(null, log.records().size(), log.garbled(), events, others);
    }

    /**
     * What folds events into one run, the parts left null not counting: every OOM kill stands
     * alone (each has its victim); the rest by what and where.
     */
    private record RunKey(KernelEvent.Kind kind, Double atSeconds, Long pid, Integer xid, String pci) {
        static RunKey of(KernelEvent e) {
            return switch (e.kind()) {
                case OOM_KILL -> new RunKey(e.kind(), e.atSeconds(), e.pid(), null, null);
                case XID -> new RunKey(e.kind(), null, null, e.xid().code(), e.xid().pci());
                case HUNG_TASK, SEGFAULT -> new RunKey(e.kind(), null, e.pid(), null, null);
                case MCE, EDAC -> new RunKey(e.kind(), null, null, null, null);
            };
        }
    }

    /**
     * How many times an event (or a folded run of it) happened in the last {@link #RECENT_SECONDS}:
     * a run that began before the hour counts once, since its repeats are not all recent.
     */
    static int recentCount(EventUse e) {
        if (e.ageSeconds() == null || e.ageSeconds() > RECENT_SECONDS) return 0;
        return e.firstAgeSeconds() != null && e.firstAgeSeconds() <= RECENT_SECONDS ? e.count() : 1;
    }
}
