package hostside.vm.explain;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Processes, their page tables and the physical frames behind them, with copy-on-write after fork. Only the moves the
 * course needs: no swapping, no page cache, and a frame number is never reused, so a number always names one copy.
 */
public final class CowMachine {
    public static final long DEFAULT_PAGE_SIZE = 4096;

    /** A page-table entry: which frame, and whether a write goes straight through. */
    public record Pte(int frame, boolean writable) {}

    /** What an access did. */
    public enum Outcome {
        /** A read: present entries never fault on a read, shared or not. */
        READ,
        /** A write to a writable entry: no fault. */
        WROTE,
        /** A write fault on a frame others still map: the writer gets a fresh copy. */
        COPIED,
        /** A write fault on a frame nobody else maps any more: the kernel only sets the write bit again. */
        REUSED;

        /** The outcome as --json writes it: "read", "wrote", "copied", "reused". */
        @JsonValue
        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One access and its effect.
     *
     * @param mapcountBefore how many processes mapped the frame when the access came
     */
    public record Access(String op, int pid, int page, Outcome outcome, int frameBefore, int frameAfter, int mapcountBefore) {
        public boolean faulted() {
            return outcome == Outcome.COPIED || outcome == Outcome.REUSED;
        }
    }

    /** What /proc/PID/smaps_rollup would say, in bytes. PSS is fractional: a page shared three ways counts a third. */
    public record Usage(int pid, String name, int pages, long rssBytes, double pssBytes, long ussBytes) {}

    private record Process(String name, TreeMap<Integer, Pte> table) {}

    private final long pageSize;
    private final TreeMap<Integer, Process> processes = new TreeMap<>();
    private final TreeMap<Integer, Integer> mapcount = new TreeMap<>();
    private int nextPid = 100;
    private int nextFrame = 1;
    private int peakFrames;

    public CowMachine() {
        this(DEFAULT_PAGE_SIZE);
    }

    public CowMachine(long pageSize) {
        if (pageSize <= 0 || Long.bitCount(pageSize) != 1)
            throw new IllegalArgumentException("page size " + pageSize + " is not a power of two");
        this.pageSize = pageSize;
    }

    public long pageSize() {
        return pageSize;
    }

    /** A new process whose pages 0..pages-1 it has already written: each its own frame, writable. */
    public int spawn(String name, int pages) {
        if (pages < 0) throw new IllegalArgumentException("pages must be 0 or more, got " + pages);
        TreeMap<Integer, Pte> table = new TreeMap<>();
        for (int p = 0; p < pages; p++) table.put(p, new Pte(allocate(), true));
        int pid = nextPid++;
        processes.put(pid, new Process(name, table));
        return pid;
    }

    public int fork(int parent) {
        return fork(parent, "child of " + parent);
    }

    /**
     * The child gets a copy of the parent's page table, not of its memory: every frame gains a mapper, and both sides
     * lose the write bit so that the first write by either one faults (that fault is the copy-on-write).
     */
    public int fork(int parent, String name) {
        Process p = process(parent);
        TreeMap<Integer, Pte> child = new TreeMap<>();
        for (var e : p.table().entrySet()) {
            Pte readOnly = new Pte(e.getValue().frame(), false);
            e.setValue(readOnly);
            child.put(e.getKey(), readOnly);
            mapcount.merge(readOnly.frame(), 1, Integer::sum);
        }
        int pid = nextPid++;
        processes.put(pid, new Process(name, child));
        return pid;
    }

    public Access read(int pid, int page) {
        Pte pte = pte(pid, page);
        return new Access("read", pid, page, Outcome.READ, pte.frame(), pte.frame(), mapcount(pte.frame()));
    }

    public Access write(int pid, int page) {
        return store("write", pid, page);
    }

    /**
     * CPython's reference counting: reading an object writes its header (ob_refcnt += 1), so to the kernel a Python
     * "read" is a write to the page the object lives on.
     */
    public Access incref(int pid, int page) {
        return store("incref", pid, page);
    }

    /** The process's mappings go; frames nobody maps any more are freed. Returns how many were freed. */
    public int exit(int pid) {
        Process p = process(pid);
        int freed = 0;
        for (Pte pte : p.table().values()) if (unmap(pte.frame())) freed++;
        processes.remove(pid);
        return freed;
    }

    // ---- what the state is

    public List<Integer> pids() {
        return List.copyOf(processes.keySet());
    }

    public String name(int pid) {
        return process(pid).name();
    }

    public Pte pte(int pid, int page) {
        Pte pte = process(pid).table().get(page);
        if (pte == null) throw new IllegalArgumentException("process " + pid + " has no page " + page + " mapped");
        return pte;
    }

    /** Page number to entry, in page order. */
    public SortedMap<Integer, Pte> pageTable(int pid) {
        return Collections.unmodifiableSortedMap(new TreeMap<>(process(pid).table()));
    }

    /** How many processes map the frame; 0 once it is free. */
    public int mapcount(int frame) {
        return mapcount.getOrDefault(frame, 0);
    }

    public int framesInUse() {
        return mapcount.size();
    }

    /** The machine's real memory in use: frames, not the sum of RSS. */
    public long memoryBytes() {
        return framesInUse() * pageSize;
    }

    /** The most frames in use at any moment so far. */
    public int peakFrames() {
        return peakFrames;
    }

    public Usage usage(int pid) {
        Process p = process(pid);
        double pss = 0;
        int unique = 0;
        for (Pte pte : p.table().values()) {
            int n = mapcount(pte.frame());
            pss += (double) pageSize / n;
            if (n == 1) unique++;
        }
        return new Usage(pid, p.name(), p.table().size(), p.table().size() * pageSize, pss, unique * pageSize);
    }

    /** Every process with its usage and page table, in pid order: a step's picture of the machine. */
    public List<CowState.Process> processes() {
        List<CowState.Process> procs = new ArrayList<>();
        for (int pid : processes.keySet()) {
            Usage u = usage(pid);
            List<CowState.Entry> table = new ArrayList<>();
            for (var e : processes.get(pid).table().entrySet())
                table.add(new CowState.Entry(e.getKey(), e.getValue().frame(), e.getValue().writable(), mapcount(e.getValue().frame())));
            // PSS to a tenth of a byte: enough to add up, short enough to read
            procs.add(new CowState.Process(pid, u.name(), u.pages(), u.rssBytes(), Math.round(u.pssBytes() * 10) / 10.0, u.ussBytes(), table));
        }
        return procs;
    }

    /** The frames in use with their mappers, in frame order. */
    public List<CowState.FrameUse> frames() {
        List<CowState.FrameUse> frames = new ArrayList<>();
        for (var e : mapcount.entrySet()) frames.add(new CowState.FrameUse(e.getKey(), e.getValue()));
        return frames;
    }

    // ---- the mechanics

    private Access store(String op, int pid, int page) {
        TreeMap<Integer, Pte> table = process(pid).table();
        Pte pte = pte(pid, page);
        int before = mapcount(pte.frame());
        if (pte.writable()) return new Access(op, pid, page, Outcome.WROTE, pte.frame(), pte.frame(), before);
        if (before == 1) {
            // Everyone else has copied or exited: copying would only waste a frame (Linux: wp_can_reuse_anon_folio).
            table.put(page, new Pte(pte.frame(), true));
            return new Access(op, pid, page, Outcome.REUSED, pte.frame(), pte.frame(), before);
        }
        int copy = allocate();
        unmap(pte.frame());
        table.put(page, new Pte(copy, true));
        return new Access(op, pid, page, Outcome.COPIED, pte.frame(), copy, before);
    }

    private int allocate() {
        int f = nextFrame++;
        mapcount.put(f, 1);
        peakFrames = Math.max(peakFrames, mapcount.size());
        return f;
    }

    /** True when that was the last mapping and the frame is free again. */
    private boolean unmap(int frame) {
        int n = mapcount.merge(frame, -1, Integer::sum);
        if (n > 0) return false;
        mapcount.remove(frame);
        return true;
    }

    private Process process(int pid) {
        Process p = processes.get(pid);
        if (p == null) throw new IllegalArgumentException("no process " + pid + " (running: " + processes.keySet() + ")");
        return p;
    }
}
