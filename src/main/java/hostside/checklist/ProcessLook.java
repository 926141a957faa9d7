package hostside.checklist;

import java.util.Map;

import hostside.process.ProcStatus;
import hostside.process.TaskStat;

/**
 * The watched process at one tick: its own stat and status, its I/O counters (or why not), each
 * thread, and each process below it (DataLoader workers and what they start).
 *
 * @param ioNotRead why /proc/PID/io gave nothing (another user's process without CAP_SYS_PTRACE), or null
 * @param threads   by TID, the main thread included
 * @param children  by PID, every process below it that was found
 */
public record ProcessLook(TaskStat stat, ProcStatus status, ProcIo io, String ioNotRead, Map<Long, TaskLook> threads,
                          Map<Long, TaskLook> children) {

    public ProcessLook {
        // in TID and PID order, so that every view of them reads the same way
        threads = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(threads));
        children = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(children));
    }

    /** A thread or a process as one tick saw it; {@code status} is null where it could not be read. */
    public record TaskLook(TaskStat stat, ProcStatus status) {}
}
