package hostside.vm.explain;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonValue;

import hostside.core.Units;
import hostside.vm.explain.CowMachine.Access;
import hostside.vm.explain.CowMachine.Outcome;

/** Stories told on a CowMachine, as steps. */
public final class CowScenarios {
    public static final int DEFAULT_PAGES = 8;
    public static final int DEFAULT_WORKERS = 2;
    /** Beyond these the page grid stops being readable; the lesson does not change with size. */
    public static final int MAX_PAGES = 64;
    /** The workers of every command (hostside.cli.Counts): the story draws one row per worker. */
    public static final int MAX_WORKERS = 64;

    /** How the dataset is held in memory. */
    public enum Data {
        /** A Python list of objects: every access updates a refcount in the object, a write. */
        LIST,
        /** One numpy array: the workers read its buffer and write nothing. */
        ARRAY;

        /** The data as --data and --json write it: "list", "array". */
        @JsonValue
        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Data parse(String s) {
            for (Data d : values()) if (d.key().equalsIgnoreCase(s.trim())) return d;
            throw new IllegalArgumentException("unknown --data '" + s + "': choose list or array");
        }
    }

    private CowScenarios() {}

    public static List<Step> dataloader(int pages, int workers, Data data) {
        return dataloader(pages, workers, data, CowMachine.DEFAULT_PAGE_SIZE);
    }

    /**
     * A PyTorch DataLoader with fork-started workers over an in-memory dataset: main builds it, forks the workers, each
     * worker goes over every page, main touches a page, the workers exit at the end of the epoch; then the peak memory
     * against what the other way of holding the data would have used.
     */
    public static List<Step> dataloader(int pages, int workers, Data data, long pageSize) {
        if (pages < 1 || pages > MAX_PAGES) throw new IllegalArgumentException("--pages " + pages + ": choose 1 to " + MAX_PAGES);
        if (workers < 1 || workers > MAX_WORKERS)
            throw new IllegalArgumentException("--workers " + workers + ": choose 1 to " + MAX_WORKERS);
        DataLoader run = new DataLoader(pages, workers, data, pageSize);
        run.epoch();
        DataLoader other = new DataLoader(pages, workers, data == Data.LIST ? Data.ARRAY : Data.LIST, pageSize);
        other.epoch();
        run.summary(other);
        return List.copyOf(run.steps);
    }

    /** One epoch of the story, on its own machine. */
    private static final class DataLoader {
        final int pages;
        final int workers;
        final Data data;
        final CowMachine m;
        final List<Step> steps = new ArrayList<>();
        final List<Integer> workerPids = new ArrayList<>();
        int main;

        DataLoader(int pages, int workers, Data data, long pageSize) {
            this.pages = pages;
            this.workers = workers;
            this.data = data;
            this.m = new CowMachine(pageSize);
        }

        void epoch() {
            load();
            for (int w = 0; w < workers; w++) fork(w);
            Access first = touch(workerPids.getFirst(), 0);
            firstTouch(first);
            if (pages > 1) {
                List<Access> rest = new ArrayList<>();
                for (int p = 1; p < pages; p++) rest.add(touch(workerPids.getFirst(), p));
                restOfFirstWorker(rest);
            }
            for (int w = 1; w < workers; w++) {
                List<Access> pass = new ArrayList<>();
                for (int p = 0; p < pages; p++) pass.add(touch(workerPids.get(w), p));
                laterWorker(w, pass);
            }
            // A list's objects get touched by main too; an array's buffer is only read, and reads change nothing.
            if (data == Data.LIST) mainTouches(m.incref(main, 0));
            for (int w = 0; w < workers; w++) exit(w);
        }

        Access touch(int pid, int page) {
            return data == Data.LIST ? m.incref(pid, page) : m.read(pid, page);
        }

        void load() {
            main = m.spawn("main", pages);
            String what = data == Data.LIST ? "a Python list of small objects" : "one numpy array";
            add("main builds the dataset: " + pages(pages),
                    "The training process (main) builds the dataset as " + what + " filling " + pages(pages) + " ("
                            + size(pages) + " here, gigabytes in a real job). Each page is its own frame, mapped only by main and writable, so RSS = PSS = USS = "
                            + size(pages) + ".",
                    List.of(), List.of());
        }

        void fork(int w) {
            int pid = m.fork(main, "worker " + w);
            workerPids.add(pid);
            int n = m.mapcount(m.pte(main, 0).frame());
            add("fork(): worker " + w + " starts",
                    "DataLoader starts worker " + w + " with fork(): the child gets a copy of main's page table, not of its memory. "
                            + (pages == 1 ? "The page" : "Each of the " + pages(pages)) + " is now mapped by " + n + " processes (mapcount " + n
                            + ") and read-only in all of them, so the first write by any of them will fault. "
                            + "RSS counts every shared page in full for each process, so the RSS column adds up to more than the machine uses; PSS splits each page "
                            + n + " ways and adds up exactly.",
                    List.of(), changedAll(List.of(pid, main)));
        }

        void firstTouch(Access a) {
            if (data == Data.LIST) {
                add("worker 0 touches an item on page 0: " + outcome(a),
                        "Worker 0 fetches an item from page 0, and CPython's reference counting writes to the object's header (ob_refcnt += 1): to the kernel that is a write to page 0. "
                                + (a.outcome() == Outcome.COPIED
                                ? "The entry is read-only and the frame is mapped by " + a.mapcountBefore() + " processes, so the write faults and the kernel copies the "
                                        + size(1) + " page into a new frame f" + a.frameAfter() + ", writable for worker 0 alone; the original f" + a.frameBefore()
                                        + " drops to mapcount " + m.mapcount(a.frameBefore()) + ". Worker 0 only read an item, yet it now owns a private copy of the page."
                                : explain(a)),
                        List.of(a), changed(List.of(a)));
            } else {
                add("worker 0 reads page 0: " + outcome(a),
                        "Worker 0 reads samples from page 0 of the array: numpy hands back values from one buffer without touching a Python object per item, so nothing is written. "
                                + "A read of a present entry never faults, read-only or not: page 0 stays frame f" + a.frameAfter() + ", shared by " + a.mapcountBefore() + " processes.",
                        List.of(a), List.of());
            }
        }

        void restOfFirstWorker(List<Access> rest) {
            long copies = count(rest, Outcome.COPIED);
            String range = range(1, pages - 1);
            CowMachine.Usage me = m.usage(workerPids.getFirst());
            if (data == Data.LIST) {
                add("worker 0 goes over " + range + ": " + copies + " more " + (copies == 1 ? "copy" : "copies"),
                        "Worker 0 goes on through the list and touches an object on " + range + ": " + copies + " more write "
                                + (copies == 1 ? "fault, one more copy" : "faults, " + copies + " more copies") + ". "
                                + "Over an epoch a worker touches objects on every page (a page holds many small objects, and touching any one copies all of it), so worker 0's USS is now "
                                + Units.bytes(me.ussBytes()) + ": a full private copy of the dataset.",
                        rest, changed(rest));
            } else {
                add("worker 0 reads " + range + ": no copies",
                        "Worker 0 reads " + range + ": no faults, no copies. Its RSS shows " + Units.bytes(me.rssBytes())
                                + " because every page is mapped, but its USS is " + Units.bytes(me.ussBytes())
                                + ": nothing is private to it, and PSS charges it a share of each page.",
                        rest, List.of());
            }
        }

        void laterWorker(int w, List<Access> pass) {
            long copies = count(pass, Outcome.COPIED);
            if (data == Data.LIST) {
                add("worker " + w + " goes over every page: " + copies + " " + (copies == 1 ? "copy" : "copies"),
                        "Worker " + w + " does the same on every page: " + copies + " write faults, " + copies + " copies. "
                                + "The originals are still mapped by main, so each write copies again, though worker 0 already holds the same bytes: the kernel never merges copies. "
                                + "Memory now holds " + frames(m.framesInUse()) + " for a dataset of " + pages(pages) + ".",
                        pass, changed(pass));
            } else {
                add("worker " + w + " reads every page: no copies",
                        "Worker " + w + " reads every page too: still " + frames(m.framesInUse()) + " in all. "
                                + "PSS splits each page " + m.mapcount(m.pte(main, 0).frame()) + " ways, so the processes' PSS adds up to the dataset exactly.",
                        pass, List.of());
            }
        }

        void mainTouches(Access a) {
            add("main touches page 0: " + outcome(a),
                    "Back in main, the training loop touches an object on page 0 (another refcount update). "
                            + "Main's entry has been read-only since the first fork, so this write faults too" + (a.outcome() == Outcome.REUSED
                            ? ", but every worker now has its own copy and main is the last process mapping f" + a.frameBefore()
                                    + " (mapcount 1): the kernel just sets the write bit again, no copy. Copy-on-write copies only while someone else still shares the frame."
                            : ". " + explain(a)),
                    List.of(a), changed(List.of(a)));
        }

        void exit(int w) {
            int pid = workerPids.get(w);
            int mapped = m.pageTable(pid).size();
            int freed = m.exit(pid);
            add("worker " + w + " exits: " + (freed == 0 ? "no frame" : frames(freed)) + " freed",
                    "Worker " + w + " exits at the end of the epoch (persistent_workers=False), and the kernel drops its page table. "
                            + (freed == mapped
                            ? "All " + frames(freed) + " it mapped were its own copies, so they go back to the free list: memory falls to " + size(m.framesInUse()) + "."
                            : freed == 0
                            ? "Its pages were all shared, so no frame is freed: each just loses a mapper, and the others' PSS grows as the pages are split fewer ways."
                            : frames(freed) + " only it mapped go back to the free list; the shared ones just lose a mapper. Memory falls to " + size(m.framesInUse()) + "."),
                    List.of(), List.of());
        }

        void summary(DataLoader other) {
            int processes = workers + 1;
            String who = "main and " + workers + (workers == 1 ? " worker" : " workers");
            String narration = data == Data.LIST
                    ? "While the workers ran, " + who + " used " + pages(m.peakFrames()) + " (" + size(m.peakFrames()) + ") of real memory for a dataset of "
                            + pages(pages) + ": each worker's refcount updates copied every page, so memory grew by workers x dataset. "
                            + "With a numpy array the " + processes + " processes would use " + pages(other.m.peakFrames()) + " in all, not " + m.peakFrames() + ". "
                    : "While the workers ran, " + who + " used " + pages(m.peakFrames()) + " (" + size(m.peakFrames()) + ") in all: reads never copy, and PSS split the dataset between the "
                            + processes + " processes. With a Python list the " + processes + " processes would use " + pages(other.m.peakFrames()) + ", not "
                            + m.peakFrames() + ": every worker's refcount updates would copy every page. ";
            narration += "Later, hostside cpu reads the same RSS, PSS and USS per process from /proc/PID/smaps_rollup (USS = Private_Clean + Private_Dirty), where "
                    + (data == Data.LIST ? "this shows up as each worker's USS climbing towards the dataset size." : "a shared dataset shows up as a large RSS and a small USS in each worker.");
            add("Summary: " + data.key() + " " + pages(m.peakFrames()) + " at peak, " + other.data.key() + " " + pages(other.m.peakFrames()),
                    narration, state(List.of(), List.of(), List.of(peak(this), peak(other)), pages, processes, "hostside cpu: /proc/PID/smaps_rollup"));
        }

        // ---- helpers

        static CowState.Peak peak(DataLoader d) {
            return new CowState.Peak(d.data, d.m.peakFrames(), d.m.peakFrames() * d.m.pageSize());
        }

        void add(String title, String narration, List<Access> accesses, List<CowState.PageRef> changed) {
            add(title, narration, state(accesses, changed, List.of(), null, null, null));
        }

        void add(String title, String narration, CowState state) {
            steps.add(new Step(steps.size() + 1, title, narration, state));
        }

        /** The machine as it is now, with this step's accesses and changed entries (and the summary's comparison, in the summary). */
        CowState state(List<Access> accesses, List<CowState.PageRef> changed, List<CowState.Peak> comparison, Integer datasetPages, Integer processCount,
                       String measuredBy) {
            return new CowState(data, accesses, changed, m.pageSize(), m.processes(), m.frames(), m.framesInUse(), m.memoryBytes(), m.peakFrames(),
                    comparison, datasetPages, processCount, measuredBy);
        }

        static List<CowState.PageRef> changed(List<Access> accesses) {
            return accesses.stream().filter(Access::faulted).map(a -> new CowState.PageRef(a.pid(), a.page())).toList();
        }

        List<CowState.PageRef> changedAll(List<Integer> pids) {
            List<CowState.PageRef> out = new ArrayList<>();
            for (int pid : pids) for (int p = 0; p < pages; p++) out.add(new CowState.PageRef(pid, p));
            return out;
        }

        static long count(List<Access> accesses, Outcome o) {
            return accesses.stream().filter(a -> a.outcome() == o).count();
        }

        static String outcome(Access a) {
            return switch (a.outcome()) {
                case READ -> "no copy";
                case WROTE -> "no fault";
                case COPIED -> "copied";
                case REUSED -> "last mapper, no copy";
            };
        }

        /** For outcomes the story does not expect; keeps the narration true if the machine says otherwise. */
        static String explain(Access a) {
            return switch (a.outcome()) {
                case READ -> "A read changes nothing.";
                case WROTE -> "The entry was already writable, so the write went straight through.";
                case COPIED -> "The frame was shared (mapcount " + a.mapcountBefore() + "), so the kernel copied it into f" + a.frameAfter() + ".";
                case REUSED -> "No one else maps f" + a.frameBefore() + " any more, so the kernel made it writable again without copying.";
            };
        }

        /** A number of pages in bytes, in binary units. */
        String size(int pages) {
            return Units.bytes(pages * m.pageSize());
        }

        static String pages(int n) {
            return n + (n == 1 ? " page" : " pages");
        }

        static String frames(int n) {
            return n + (n == 1 ? " frame" : " frames");
        }

        static String range(int from, int to) {
            return from == to ? "page " + from : "pages " + from + "-" + to;
        }
    }
}
