package hostside.cpu.trace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import hostside.fs.FsRoot;

/**
 * The syscall profile of one traced run, in Module 3's groups: what a {@code hostside cpu
 * --trace} report prints and what {@link ProfileVerdicts} reads.
 *
 * <p>Seconds are wall time inside system calls, summed over every traced thread (strace's
 * {@code -T} and {@code -c -w}); with many threads they add up to more than the wall duration,
 * and most of them are threads asleep in a wait. strace slows every call, so the times are
 * inflated and the counts are not.
 *
 * @param command      what was traced, as typed ("python3 train.py", "PID 1234")
 * @param source       which view: {@link #TIMED} or {@link #SUMMARY}
 * @param wallSeconds  how long the traced run lasted (for the marked steps: from the first mark to the second)
 * @param steps        the number of steps the profile covers, where the workload marked them (0: the whole run, steps unknown)
 * @param totalCalls   all calls
 * @param totalSeconds all time in calls, summed over threads
 * @param groups       per group, most time first; groups without calls are left out
 * @param syscalls     per syscall name (all groups together), most time first
 * @param threads      per thread, most time first (a timed trace only)
 * @param mainTid      the traced command's first thread, or the attached PID (0 when unknown)
 * @param fileReads    read-family calls on files, and their bytes (a timed trace only)
 * @param nvidiaIoctls ioctl calls per /dev/nvidia* path (a timed trace only)
 * @param processesStarted child processes the trace saw start (a timed trace only)
 * @param threadsStarted   threads the trace saw start (a timed trace only)
 * @param notes        where the figures stop short or what they cannot tell
 */
public record SyscallProfile(String command, String source, double wallSeconds, int steps, long totalCalls, double totalSeconds,
                             List<GroupStats> groups, List<SyscallStats> syscalls, List<ThreadStats> threads, int mainTid, Reads fileReads,
                             Map<String, Long> nvidiaIoctls, long processesStarted, long threadsStarted, List<String> notes) {
    public static final String TIMED = "strace -f -tt -T (timed trace)";
    public static final String SUMMARY = "strace -f -c -w (summary)";
    /** How many syscalls each group lists. */
    public static final int TOP = 5;

    public SyscallProfile {
        groups = List.copyOf(groups);
        syscalls = List.copyOf(syscalls);
        threads = List.copyOf(threads);
        nvidiaIoctls = Map.copyOf(nvidiaIoctls);
        notes = List.copyOf(notes);
    }

    /**
     * One group.
     *
     * @param share its part of all syscall time (0..1)
     * @param top   its syscalls, most time first, at most {@link #TOP}
     */
    public record GroupStats(SyscallGroup group, long calls, long errors, double seconds, double share, List<SyscallStats> top) {
        public GroupStats {
            top = List.copyOf(top);
        }
    }

    public record SyscallStats(String name, long calls, long errors, double seconds) {}

    /**
     * One thread.
     *
     * @param main        true for the traced command's first thread (or the attached PID)
     * @param lifeSeconds from its first traced call to its last
     * @param topGroup    the group it spent most time in
     * @param topShare    that group's part of its syscall time
     */
    public record ThreadStats(int tid, int process, String name, boolean main, long calls, double seconds, double lifeSeconds,
                              SyscallGroup topGroup, double topShare, Map<SyscallGroup, Double> groupSeconds) {
        public ThreadStats {
            groupSeconds = Map.copyOf(groupSeconds);
        }

        public double seconds(SyscallGroup g) {
            return groupSeconds.getOrDefault(g, 0.0);
        }
    }

    /** Reads of files: successful read, pread64, readv, preadv calls and the bytes they returned. */
    public record Reads(long calls, long bytes) {
        public static final Reads NONE = new Reads(0, 0);
    }

    /** True for a profile of a timed trace, which splits futex and ioctl calls and knows threads. */
    public boolean timed() {
        return TIMED.equals(source);
    }

    /** The group's figures; zeros where it had no calls. */
    public GroupStats group(SyscallGroup g) {
        return groups.stream().filter(s -> s.group() == g).findFirst().orElse(new GroupStats(g, 0, 0, 0, 0, List.of()));
    }

    /** Calls of one syscall, over every group it fell in. */
    public long calls(String syscall) {
        return syscalls.stream().filter(s -> s.name().equals(syscall)).mapToLong(SyscallStats::calls).sum();
    }

    public Optional<ThreadStats> mainThread() {
        return threads.stream().filter(ThreadStats::main).findFirst();
    }

    /** A profile of a whole timed trace run, start-up and all. */
    public static SyscallProfile of(Tracer.TimedRun run) {
        SyscallProfile p = of(run.trace(), run.run().target().describe());
        List<String> notes = new ArrayList<>();
        QuietWindow.timed(run.run(), run.trace(), FsRoot.live()).ifPresent(notes::add);
        notes.addAll(run.run().notes());
        notes.addAll(p.notes());
        return p.withNotes(notes);
    }

    /**
     * A profile of the steps alone, where the workload marked them ({@link TraceParser#MARK};
     * the built-in step does): the training step without the start-up around it.
     */
    public static Optional<SyscallProfile> stepsOf(Tracer.TimedRun run) {
        return run.trace().stepWindow().map(w -> {
            SyscallProfile p = of(w, run.run().target().describe());
            List<String> notes = new ArrayList<>(run.run().notes());
            notes.addAll(p.notes());
            return p.withNotes(notes);
        });
    }

    /** Calls per step, where the steps are known; NaN otherwise. */
    public double perStep(long calls) {
        return steps > 0 ? (double) calls / steps : Double.NaN;
    }

    /** A profile of a strace -c run. */
    public static SyscallProfile of(Tracer.SummaryRun run) {
        SyscallProfile p = of(run.summary(), run.run().target().describe(), run.run().wallSeconds());
        List<String> notes = new ArrayList<>();
        QuietWindow.summary(run.run(), run.summary()).ifPresent(notes::add);
        notes.addAll(run.run().notes());
        notes.addAll(p.notes());
        return p.withNotes(notes);
    }

    SyscallProfile withNotes(List<String> n) {
        return new SyscallProfile(command, source, wallSeconds, steps, totalCalls, totalSeconds, groups, syscalls, threads, mainTid, fileReads, nvidiaIoctls,
                processesStarted, threadsStarted, n);
    }

    /** From a timed trace read by {@link TraceParser}. */
    public static SyscallProfile of(TimedTrace t, String command) {
        Map<SyscallGroup, List<SyscallStats>> by = new EnumMap<>(SyscallGroup.class);
        for (TimedTrace.SyscallCount c : t.syscalls()) {
            by.computeIfAbsent(c.group(), g -> new ArrayList<>()).add(new SyscallStats(c.name(), c.calls(), c.errors(), c.seconds()));
        }
        double total = t.totalSeconds();
        List<ThreadStats> threads = new ArrayList<>();
        for (TimedTrace.ThreadCount tc : t.threads()) {
            Map.Entry<SyscallGroup, Double> top = tc.groupSeconds().entrySet().stream().max(Map.Entry.comparingByValue())
                    .orElse(Map.entry(SyscallGroup.OTHER, 0.0));
            threads.add(new ThreadStats(tc.tid(), tc.process(), tc.name(), tc.tid() == t.firstPid(), tc.calls(), tc.seconds(), tc.lifeSeconds(),
                    top.getKey(), tc.seconds() > 0 ? top.getValue() / tc.seconds() : 0, tc.groupSeconds()));
        }
        List<String> notes = new ArrayList<>();
        if (t.windowUnclosed()) notes.add("the workload's end-of-steps mark never came (the run was cut short): the steps run to the trace's end");
        if (t.garbageLines() > 0) {
            notes.add(t.garbageLines() + " line" + (t.garbageLines() == 1 ? "" : "s") + " of the trace could not be read and were skipped"
                    + (t.garbageSamples().isEmpty() ? "" : " (first: \"" + t.garbageSamples().getFirst() + "\")"));
        }
        if (t.inProgressAtEnd() > 0) {
            notes.add(t.inProgressAtEnd() + " call" + (t.inProgressAtEnd() == 1 ? " was" : "s were")
                    + " still in progress when a thread or the trace ended; each is timed up to that end");
        }
        long unknownIoctl = t.syscalls().stream().filter(c -> c.group() == SyscallGroup.IOCTL_UNKNOWN).mapToLong(TimedTrace.SyscallCount::calls).sum();
        if (unknownIoctl > 0) {
            notes.add(unknownIoctl + " ioctl call" + (unknownIoctl == 1 ? " was" : "s were")
                    + " on descriptors opened before the trace began: their device is unknown");
        }
        return new SyscallProfile(command, TIMED, t.wallSeconds(), t.steps(), t.totalCalls(), total, groups(by, total), names(by), threads, t.firstPid(),
                new Reads(t.fileReadCalls(), t.fileReadBytes()), t.nvidiaIoctls(), t.processesStarted(), t.threadsStarted(), notes);
    }

    /** From {@code strace -c} output: names only, so futex and ioctl calls stay unsplit. */
    public static SyscallProfile of(StraceSummary s, String command, double wallSeconds) {
        Map<SyscallGroup, List<SyscallStats>> by = new EnumMap<>(SyscallGroup.class);
        for (StraceSummary.Row r : s.rows()) {
            by.computeIfAbsent(SyscallGroup.ofName(r.syscall()), g -> new ArrayList<>())
                    .add(new SyscallStats(r.syscall(), r.calls(), r.errors(), r.seconds()));
        }
        double total = s.rows().stream().mapToDouble(StraceSummary.Row::seconds).sum();
        long calls = s.rows().stream().mapToLong(StraceSummary.Row::calls).sum();
        List<String> notes = new ArrayList<>();
        notes.add("strace -c counts by name only: futex waits and wakes, and ioctls on /dev/nvidia* and on other devices, are not told apart");
        return new SyscallProfile(command, SUMMARY, wallSeconds, 0, calls, total, groups(by, total), names(by), List.of(), 0, Reads.NONE, Map.of(), 0, 0, notes);
    }

    private static List<SyscallStats> names(Map<SyscallGroup, List<SyscallStats>> by) {
        Map<String, SyscallStats> merged = new LinkedHashMap<>();
        by.values().forEach(list -> list.forEach(s -> merged.merge(s.name(), s, SyscallProfile::sum)));
        List<SyscallStats> out = new ArrayList<>(merged.values());
        out.sort(BY_TIME);
        return out;
    }

    private static SyscallStats sum(SyscallStats a, SyscallStats b) {
        return new SyscallStats(a.name(), a.calls() + b.calls(), a.errors() + b.errors(), a.seconds() + b.seconds());
    }

    private static final Comparator<SyscallStats> BY_TIME = Comparator.comparingDouble(SyscallStats::seconds).reversed()
            .thenComparing(Comparator.comparingLong(SyscallStats::calls).reversed()).thenComparing(SyscallStats::name);

    private static List<GroupStats> groups(Map<SyscallGroup, List<SyscallStats>> by, double total) {
        List<GroupStats> out = new ArrayList<>();
        by.forEach((g, list) -> {
            Map<String, SyscallStats> merged = new LinkedHashMap<>();
            for (SyscallStats s : list) merged.merge(s.name(), s, SyscallProfile::sum);
            List<SyscallStats> sorted = new ArrayList<>(merged.values());
            sorted.sort(BY_TIME);
            long calls = sorted.stream().mapToLong(SyscallStats::calls).sum();
            long errors = sorted.stream().mapToLong(SyscallStats::errors).sum();
            double secs = sorted.stream().mapToDouble(SyscallStats::seconds).sum();
            out.add(new GroupStats(g, calls, errors, secs, total > 0 ? secs / total : 0, sorted.subList(0, Math.min(TOP, sorted.size()))));
        });
        out.sort(Comparator.comparingDouble(GroupStats::seconds).reversed().thenComparing(Comparator.comparingLong(GroupStats::calls).reversed()));
        return out;
    }
}
