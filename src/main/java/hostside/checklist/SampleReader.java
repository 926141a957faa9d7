package hostside.checklist;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.core.GarbageException;
import hostside.fs.Read;
import hostside.process.LoadAvg;
import hostside.process.ProcStat;
import hostside.process.Pressure;
import hostside.process.ProcStatus;
import hostside.process.TaskStat;

/**
 * Reads one tick from /proc through {@link FsRoot}: the machine's counters and the watched
 * process with its threads and the processes below it. Whatever cannot be read or parsed becomes
 * one line in {@code unknowns} (a set: twenty ticks of the same failure are one line).
 */
final class SampleReader {
    /** How many processes below the watched one are followed: DataLoader pools are tens, not thousands. */
    static final int MAX_CHILDREN = 256;
    /** Workers of workers of workers: deeper trees are not a training job's. */
    static final int MAX_DEPTH = 4;

    private final FsRoot fs;
    private final long pid;
    private final Set<String> unknowns;

    SampleReader(FsRoot fs, long pid, Set<String> unknowns) {
        this.fs = fs;
        this.pid = pid;
        this.unknowns = unknowns;
    }

    Sample read(long atNanos) {
        Map<Pressure.Resource, Pressure> psi = new LinkedHashMap<>();
        for (Pressure.Resource r : Pressure.Resource.values()) {
            Pressure p = parsed(r.path(), Pressure::parse);
            if (p != null) psi.put(r, p);
        }
        return new Sample(atNanos, parsed("/proc/loadavg", LoadAvg::parse), psi, parsed("/proc/stat", ProcStat::parse),
                parsed("/proc/diskstats", DiskStats::parse), parsed("/proc/net/dev", NetDev::parse), process(), List.of());
    }

    /** The watched process, or null when it has exited (gone, or a zombie). */
    ProcessLook process() {
        String dir = "/proc/" + pid;
        Read r = fs.read(dir + "/stat");
        if (!(r instanceof Read.Ok ok)) return null;
        TaskStat stat;
        try {
            stat = TaskStat.parse(ok.text());
        } catch (GarbageException e) {
            unknowns.add(dir + "/stat: " + e.getMessage());
            return null;
        }
        if (stat.exited()) return null;
        ProcStatus status = parsed(dir + "/status", ProcStatus::parse);
        Read io = fs.read(dir + "/io");
        ProcIo procIo = null;
        String ioWhy = null;
        if (io instanceof Read.Ok o) {
            try {
                procIo = ProcIo.parse(o.text());
            } catch (GarbageException e) {
                ioWhy = dir + "/io: " + e.getMessage();
            }
        } else {
            ioWhy = io.why();
        }
        Map<Long, ProcessLook.TaskLook> threads = new HashMap<>();
        for (String t : fs.list(dir + "/task")) {
            Long tid = FactReads.parseNumber(t);
            if (tid == null) continue;
            ProcessLook.TaskLook look = task(dir + "/task/" + t);
            if (look != null) threads.put(tid, look);
        }
        return new ProcessLook(stat, status, procIo, ioWhy, threads, children(threads.keySet()));
    }

    /** A thread or process; null when it ended between the listing and the read (normal, not an unknown). */
    private ProcessLook.TaskLook task(String dir) {
        Read r = fs.read(dir + "/stat");
        if (!(r instanceof Read.Ok ok)) return null;
        try {
            TaskStat s = TaskStat.parse(ok.text());
            Read st = fs.read(dir + "/status");
            ProcStatus status = null;
            if (st instanceof Read.Ok o) {
                try {
                    status = ProcStatus.parse(o.text());
                } catch (GarbageException e) {
                    unknowns.add(dir + "/status: " + e.getMessage());
                }
            }
            return new ProcessLook.TaskLook(s, status);
        } catch (GarbageException e) {
            unknowns.add(dir + "/stat: " + e.getMessage());
            return null;
        }
    }

    /**
     * Every process below the watched one. The kernel lists a thread's children in
     * /proc/PID/task/TID/children (a child belongs to the thread that forked it); without
     * CONFIG_PROC_CHILDREN that file is missing and every /proc/N/stat is read for its parent.
     */
    private Map<Long, ProcessLook.TaskLook> children(Set<Long> tids) {
        Map<Long, ProcessLook.TaskLook> found = new LinkedHashMap<>();
        Deque<long[]> todo = new ArrayDeque<>(); // {pid, depth}
        boolean childrenFiles = true;
        for (long tid : tids) {
            Optional<List<Long>> kids = childrenOf(pid, tid);
            if (kids.isEmpty()) {
                childrenFiles = false;
                break;
            }
            for (long k : kids.get()) todo.add(new long[] {k, 1});
        }
        if (!childrenFiles) return scanForChildren();
        while (!todo.isEmpty() && found.size() < MAX_CHILDREN) {
            long[] next = todo.removeFirst();
            long child = next[0];
            if (found.containsKey(child) || child == pid) continue;
            ProcessLook.TaskLook look = task("/proc/" + child);
            if (look == null || look.stat().exited()) continue;
            found.put(child, look);
            if (next[1] < MAX_DEPTH) childrenOf(child, child).orElse(List.of()).forEach(k -> todo.add(new long[] {k, next[1] + 1}));
        }
        return found;
    }

    /** The PIDs in /proc/P/task/T/children; empty Optional when the file is missing. */
    private Optional<List<Long>> childrenOf(long p, long tid) {
        Read r = fs.read("/proc/" + p + "/task/" + tid + "/children");
        if (r instanceof Read.Failed f) {
            // a thread that ended between the listing and this read has no file either; only a
            // file missing for the process's main thread means the kernel lacks it
            return f.reason().equals("missing") && tid == p ? Optional.empty() : Optional.of(List.of());
        }
        return Optional.of(java.util.Arrays.stream(((Read.Ok) r).text().strip().split("\\s+"))
                .map(FactReads::parseNumber).filter(java.util.Objects::nonNull).toList());
    }

    /** Every process whose parent chain leads to the watched one, from each /proc/N/stat's ppid. */
    private Map<Long, ProcessLook.TaskLook> scanForChildren() {
        Map<Long, ProcessLook.TaskLook> all = new HashMap<>();
        for (String name : fs.list("/proc")) {
            Long p = FactReads.parseNumber(name);
            if (p == null || p == pid) continue;
            Read r = fs.read("/proc/" + p + "/stat");
            if (!(r instanceof Read.Ok ok)) continue;
            try {
                TaskStat s = TaskStat.parse(ok.text());
                if (!s.exited()) all.put(p, new ProcessLook.TaskLook(s, null));
            } catch (GarbageException e) {
                // a stranger's garbled stat says nothing about our children
            }
        }
        Map<Long, ProcessLook.TaskLook> found = new LinkedHashMap<>();
        boolean grew = true;
        for (int depth = 0; grew && depth < MAX_DEPTH; depth++) {
            grew = false;
            for (var e : all.entrySet()) {
                long parent = e.getValue().stat().ppid();
                if (!found.containsKey(e.getKey()) && (parent == pid || found.containsKey(parent)) && found.size() < MAX_CHILDREN) {
                    found.put(e.getKey(), task("/proc/" + e.getKey()));
                    grew = true;
                }
            }
        }
        found.values().removeIf(java.util.Objects::isNull);
        return found;
    }

    /** The file parsed, or null with a line in the unknowns. */
    private <T> T parsed(String path, Function<String, T> parser) {
        Read r = fs.read(path);
        if (r instanceof Read.Failed) {
            unknowns.add(r.why());
            return null;
        }
        try {
            return parser.apply(((Read.Ok) r).text());
        } catch (GarbageException e) {
            unknowns.add(path + ": " + e.getMessage());
            return null;
        }
    }
}
