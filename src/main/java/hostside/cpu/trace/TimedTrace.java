package hostside.cpu.trace;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What one timed trace ({@code strace -f -tt -T}) held, summed: per syscall and group, per
 * thread, and what the arguments told (descriptors, bytes read, threads started).
 *
 * @param syscalls         per syscall name and group (an ioctl can fall in several), most time first
 * @param threads          per thread (TID), most time first
 * @param firstPid         the first thread seen: the traced command's process, or the attached PID
 * @param wallSeconds      from the first time stamp to the last
 * @param lines            lines read
 * @param garbageLines     lines that could not be read (a trace cut mid-line has one)
 * @param garbageSamples   up to three of them, for a note
 * @param unmatchedResumes second halves ("<... x resumed>") whose first half was not in the trace
 * @param inProgressAtEnd  calls still in progress when the trace ended (timed up to its end)
 * @param signals          signals delivered ("--- SIGCHLD ...")
 * @param fileReadCalls    read-family calls in {@link SyscallGroup#FILE} that succeeded
 * @param fileReadBytes    the bytes they returned
 * @param nvidiaIoctls     ioctl calls per /dev/nvidia* path
 * @param processesStarted clone/fork calls without CLONE_THREAD that made a child
 * @param threadsStarted   clone calls with CLONE_THREAD
 */
public record TimedTrace(List<SyscallCount> syscalls, List<ThreadCount> threads, int firstPid, double wallSeconds, long lines,
                         long garbageLines, List<String> garbageSamples, long unmatchedResumes, long inProgressAtEnd, long signals,
                         long fileReadCalls, long fileReadBytes, Map<String, Long> nvidiaIoctls, long processesStarted,
                         long threadsStarted, int steps, boolean windowUnclosed, TimedTrace window) {
    public TimedTrace {
        syscalls = List.copyOf(syscalls);
        threads = List.copyOf(threads);
        garbageSamples = List.copyOf(garbageSamples);
        nvidiaIoctls = Map.copyOf(nvidiaIoctls);
    }

    /** One syscall within one group. */
    public record SyscallCount(String name, SyscallGroup group, long calls, long errors, double seconds) {}

    /**
     * One thread.
     *
     * @param process      its process (thread group) where the trace showed the clone, else itself
     * @param name         its name where known (execve, prctl(PR_SET_NAME), /proc/PID/task/TID/comm), else ""
     * @param lifeSeconds  from its first line to its last
     * @param groupSeconds seconds in each group
     * @param groupCalls   calls in each group
     */
    public record ThreadCount(int tid, int process, String name, long calls, double seconds, double lifeSeconds,
                              Map<SyscallGroup, Double> groupSeconds, Map<SyscallGroup, Long> groupCalls) {
        public ThreadCount {
            groupSeconds = Map.copyOf(groupSeconds);
            groupCalls = Map.copyOf(groupCalls);
        }

        public double seconds(SyscallGroup g) {
            return groupSeconds.getOrDefault(g, 0.0);
        }

        public long calls(SyscallGroup g) {
            return groupCalls.getOrDefault(g, 0L);
        }
    }

    /** The marked steps, where the workload marked them. */
    public Optional<TimedTrace> stepWindow() {
        return Optional.ofNullable(window);
    }

    public long totalCalls() {
        return syscalls.stream().mapToLong(SyscallCount::calls).sum();
    }

    public double totalSeconds() {
        return syscalls.stream().mapToDouble(SyscallCount::seconds).sum();
    }

    /** Calls per syscall name, all groups together (what {@code strace -c} would count). */
    public Map<String, Long> callsByName() {
        Map<String, Long> m = new TreeMap<>();
        for (SyscallCount s : syscalls) m.merge(s.name(), s.calls(), Long::sum);
        return m;
    }
}
