package hostside.learn.m2;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import hostside.core.Units;
import hostside.learn.Frame;
import hostside.learn.Frames;
import hostside.learn.Inputs;
import hostside.learn.Stepper;
import hostside.learn.Svg;
import hostside.vm.explain.CowMachine.Access;
import hostside.vm.explain.CowMachine.Outcome;
import hostside.vm.explain.CowScenarios;
import hostside.vm.explain.CowScenarios.Data;
import hostside.vm.explain.CowState;
import hostside.vm.explain.Step;

/**
 * The copy-on-write stepper of {@code hostside vm --explain cow}, as frames: a DataLoader's main
 * process forks its workers, the workers touch the dataset, and the pages they write get copied.
 * Each step keeps its title and narration; the drawing shows the processes with their page tables
 * (frame, write bit, mapcount), the frames in use, and the pages copied in this step "hot". The
 * questions are answered from the step's state and the one before it, never written in. Pages are
 * this machine's base page.
 */
public final class CowStepper implements Stepper {
    public static final String KEY = "cow";

    private final int pages;
    private final int workers;
    private final CowScenarios.Data data;

    /** The terminal's default story: 8 pages, 2 workers, a Python list. */
    public CowStepper() {
        this(CowScenarios.DEFAULT_PAGES, CowScenarios.DEFAULT_WORKERS, CowScenarios.Data.LIST);
    }

    public CowStepper(int pages, int workers, CowScenarios.Data data) {
        this.pages = pages;
        this.workers = workers;
        this.data = data;
    }

    @Override
    public String key() {
        return KEY;
    }

    @Override
    public int module() {
        return 2;
    }

    @Override
    public String title() {
        return "fork() and copy-on-write: a DataLoader's workers and its dataset's pages";
    }

    /** The story's steps with this machine's base page, as the terminal plays them. */
    public List<Step> steps(Inputs in) {
        return CowScenarios.dataloader(pages, workers, data, in.basePageBytes());
    }

    @Override
    public List<Frame> frames(Inputs in) {
        List<Step> steps = steps(in);
        List<CowState> states = steps.stream().map(s -> (CowState) s.state()).toList();
        Frames f = new Frames();
        boolean forkAsked = false, touchAsked = false;
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            CowState st = states.get(i), prev = i == 0 ? null : states.get(i - 1);
            Frame.Predict p = null;
            if (!forkAsked && st.forkedSince(prev)) {
                p = forkQuestion(st, prev);
                forkAsked = true;
            } else if (!touchAsked && !st.accesses().isEmpty()) {
                p = touchQuestion(st, prev);
                touchAsked = true;
            } else if (isMainTouch(st)) {
                p = mainQuestion(st);
            } else if (st.summary()) {
                p = peakQuestion(st);
            }
            List<Inputs.Value> figures = new ArrayList<>();
            if (i == 0) figures.add(Pages.pageValue(in));
            f.add(s.title(), s.narration(), p, draw(s.title(), st, prev), figures.toArray(Inputs.Value[]::new));
        }
        return f.list();
    }

    // ---- the questions

    static Frame.Predict forkQuestion(CowState st, CowState prev) {
        long page = st.pageSizeBytes();
        long before = prev.memoryBytes(), after = st.memoryBytes();
        long dataset = prev.pageCount() * page;
        long grew = after - before;
        int answer = grew == 0 ? 0 : grew == page ? 1 : 2;
        CowState.Process child = st.processes().getLast();
        return new Frame.Predict("main calls fork() to start " + child.name() + ". How much more physical memory does the machine use right after?",
                List.of("None: the child shares main's frames", "One page", "A full copy of the dataset (" + Units.bytes(dataset) + ")"),
                answer,
                "Frames in use: " + prev.framesInUse() + " before, " + st.framesInUse() + " after (" + Units.bytes(after)
                        + "): fork() copies the page table, not the memory, and marks every entry read-only.");
    }

    static Frame.Predict touchQuestion(CowState st, CowState prev) {
        Access a = st.accesses().getFirst();
        int pid = a.pid();
        long page = st.pageSizeBytes();
        long before = prev == null ? 0 : prev.uss(pid), after = st.uss(pid);
        long grew = after - before;
        long dataset = st.pageCount() * page;
        int answer = grew <= 0 ? 0 : grew == page ? 1 : 2;
        String what = st.data() == Data.LIST ? "a Python list" : "a numpy array";
        String who = st.name(pid);
        return new Frame.Predict(Character.toUpperCase(who.charAt(0)) + who.substring(1) + " only reads one item of the dataset (" + what + ") on page " + a.page()
                + ". Afterwards, does its USS (memory private to it) grow?",
                List.of("No: it only read", "Yes, by one page (" + Units.bytes(page) + ")", "Yes, by the whole dataset (" + Units.bytes(dataset) + ")"),
                answer,
                "Its USS went from " + Units.bytes(before) + " to " + Units.bytes(after) + ": the access was " + ("incref".equals(a.op()) ? "a refcount update, which writes" : "a " + a.op())
                        + ", outcome " + a.outcome().key() + (grew > 0 ? " (a write fault on a shared page copies it)" : " (a read of a present page never faults)") + ".");
    }

    static boolean isMainTouch(CowState st) {
        return st.accesses().size() == 1 && "main".equals(st.name(st.accesses().getFirst().pid()));
    }

    static Frame.Predict mainQuestion(CowState st) {
        Access a = st.accesses().getFirst();
        boolean copied = a.outcome() == Outcome.COPIED;
        return new Frame.Predict("main now updates a refcount on page " + a.page() + ", whose entry has been read-only since the first fork."
                + " Does the write copy the page?",
                List.of("Yes: a write to a read-only shared entry faults and copies", "No: the fault only sets the write bit again"),
                copied ? 0 : 1,
                "When main wrote, frame f" + a.frameBefore() + " had mapcount " + a.mapcountBefore()
                        + (copied ? ": still shared, so the kernel copied it." : ": main was its last mapper, so there was no one to copy it for."));
    }

    static Frame.Predict peakQuestion(CowState st) {
        List<CowState.Peak> cmp = st.comparison();
        CowState.Peak mine = cmp.getFirst();
        long dataset = st.datasetPages();
        long processes = st.processCount();
        long peak = mine.peakFrames();
        long ratio = dataset == 0 ? 0 : peak / dataset;
        TreeSet<Long> options = new TreeSet<>(List.of(1L, Math.max(1, processes - 1), processes));
        options.add(ratio);
        List<Long> list = new ArrayList<>(options);
        List<String> choices = list.stream().map(x -> x + "x the dataset (" + x * dataset + " pages)").toList();
        return new Frame.Predict("At its peak, how much memory did " + processes + " processes use for a dataset of " + dataset + " pages held as "
                + article(mine.data().key()) + "?",
                choices, list.indexOf(ratio),
                "Peak " + peak + " frames for " + dataset + " pages of data: " + ratio + "x, against " + cmp.getLast().peakFrames()
                        + " frames as " + article(cmp.getLast().data().key()) + ".");
    }

    /** "a list", "an array". */
    static String article(String d) {
        return ("aeiou".indexOf(d.isEmpty() ? 'x' : d.charAt(0)) >= 0 ? "an " : "a ") + d;
    }

    // ---- the drawing

    static final int MAX_ROWS = 4, MAX_COLUMNS = 8, FRAMES_PER_ROW = 12, FRAME_ROWS = 3;

    static String draw(String title, CowState st, CowState prev) {
        Svg svg = new Svg(Pages.W, Pages.H);
        long page = st.pageSizeBytes();
        if (st.summary()) return summary(title, st.comparison(), page, st.datasetPages());

        long inUse = st.framesInUse(), peak = st.peakFrames();
        int widest = st.processes().stream().mapToInt(p -> p.pageTable().size()).max().orElse(0);
        svg.text(8, 16, "memory: " + inUse + " frames = " + Units.bytes(inUse * page) + " of " + Units.bytes(page) + " pages, peak " + peak
                + " | fN frame, rw/ro, (n) mapcount", "start", "");

        Set<CowState.PageRef> changed = new HashSet<>(st.changed());
        Set<CowState.PageRef> touched = new HashSet<>();
        Set<Integer> fresh = new HashSet<>();
        for (Access a : st.accesses()) {
            touched.add(new CowState.PageRef(a.pid(), a.page()));
            if (a.outcome() == Outcome.COPIED) fresh.add(a.frameAfter());
        }
        boolean forked = st.forkedSince(prev);

        List<CowState.Process> procs = st.processes();
        int rows = Math.min(procs.size(), MAX_ROWS);
        double y = 26;
        for (int r = 0; r < rows; r++) {
            CowState.Process p = procs.get(r);
            boolean last = r == MAX_ROWS - 1 && procs.size() > MAX_ROWS;
            if (last) {
                svg.text(8, y + 20, "+ " + (procs.size() - MAX_ROWS + 1) + " more processes, drawn alike", "start", "dim");
                break;
            }
            int pid = p.pid();
            boolean rowActive = forked && r == procs.size() - 1 || st.accesses().stream().anyMatch(a -> a.pid() == pid);
            svg.box(8, y, 150, 30, p.name() + " (pid " + pid + ")\nUSS " + Units.bytes(p.ussBytes()), rowActive ? "on" : "");
            List<CowState.Entry> table = p.pageTable();
            int cols = Math.min(table.size(), MAX_COLUMNS);
            double cw = (632 - 166 - 6 * (MAX_COLUMNS - 1)) / (double) MAX_COLUMNS;
            for (int c = 0; c < cols; c++) {
                CowState.Entry e = table.get(c);
                CowState.PageRef at = new CowState.PageRef(pid, e.page());
                String cls = changed.contains(at) && !forked ? "hot" : touched.contains(at) ? "on" : forked && changed.contains(at) ? "on" : "";
                svg.box(166 + c * (cw + 6), y, cw, 30, "f" + e.frame() + (e.writable() ? " rw" : " ro") + "\n(" + e.mapcount() + ")", cls);
            }
            y += 36;
        }

        // the physical frames in use, a copy made in this step hot
        List<CowState.FrameUse> frames = st.frames();
        double fy = Math.max(y + 8, 176);
        svg.text(8, fy, "physical frames in use (a copy made in this step is hot)"
                + (widest > MAX_COLUMNS ? "; pages 0-" + (MAX_COLUMNS - 1) + " of " + widest + " drawn" : ""), "start", "");
        double fw = (624 - 4 * (FRAMES_PER_ROW - 1)) / (double) FRAMES_PER_ROW;
        int shown = Math.min(frames.size(), FRAMES_PER_ROW * FRAME_ROWS);
        for (int i = 0; i < shown; i++) {
            CowState.FrameUse fr = frames.get(i);
            double x = 8 + (i % FRAMES_PER_ROW) * (fw + 4), fy2 = fy + 6 + (i / FRAMES_PER_ROW) * 22;
            svg.box(x, fy2, fw, 18, "f" + fr.frame() + " (" + fr.mapcount() + ")", fresh.contains(fr.frame()) ? "hot" : fr.mapcount() > 1 ? "on" : "");
        }
        if (frames.size() > shown) svg.text(632, Pages.H - 4, "+" + (frames.size() - shown) + " frames", "end", "dim");
        return svg.render(title);
    }

    /** The summary: peak memory of the two ways of holding the data, against the dataset. */
    static String summary(String title, List<CowState.Peak> cmp, long page, long dataset) {
        Svg svg = new Svg(Pages.W, Pages.H);
        svg.text(8, 16, "peak memory while the workers ran, against the dataset (" + dataset + " pages = " + Units.bytes(dataset * page) + ")", "start", "");
        long max = cmp.stream().mapToLong(CowState.Peak::peakFrames).max().orElse(1);
        double y = 40;
        CowState.Peak first = cmp.getFirst();
        for (CowState.Peak c : cmp) {
            long frames = c.peakFrames();
            double w = 330.0 * frames / Math.max(1, max);
            svg.text(8, y + 22, c.data().key(), "start", "");
            svg.bar(80, y, w, 34, c == first ? (frames > dataset ? "hot" : "ok") : "dim");
            svg.text(88 + w, y + 22, frames + " pages = " + Units.bytes(frames * page) + (c == first ? " (this story)" : " (the other way)"), "start", "");
            y += 56;
        }
        double dx = 80 + 330.0 * dataset / Math.max(1, max);
        svg.line(dx, 32, dx, y, "on");
        svg.text(dx, y + 14, "the dataset", "middle", "on");
        svg.text(8, Pages.H - 10, "measured later by hostside cpu: /proc/PID/smaps_rollup (RSS, PSS, USS per process)", "start", "dim");
        return svg.render(title);
    }
}
