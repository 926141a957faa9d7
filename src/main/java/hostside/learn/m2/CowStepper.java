package hostside.learn.m2;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import hostside.core.Units;
import hostside.learn.Frame;
import hostside.learn.Frames;
import hostside.learn.Inputs;
import hostside.learn.Stepper;
import hostside.learn.Svg;
import hostside.vm.explain.CowScenarios;
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
        return CowScenarios.dataloader(pages, workers, data, Pages.pageBytes(in));
    }

    @Override
    public List<Frame> frames(Inputs in) {
        List<Step> steps = steps(in);
        Frames f = new Frames();
        boolean forkAsked = false, touchAsked = false;
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            Map<String, Object> st = s.state(), prev = i == 0 ? null : steps.get(i - 1).state();
            Frame.Predict p = null;
            if (!forkAsked && prev != null && processes(st).size() > processes(prev).size()) {
                p = forkQuestion(st, prev);
                forkAsked = true;
            } else if (!touchAsked && !accesses(st).isEmpty()) {
                p = touchQuestion(st, prev);
                touchAsked = true;
            } else if (isMainTouch(st)) {
                p = mainQuestion(st);
            } else if (st.containsKey("comparison")) {
                p = peakQuestion(st);
            }
            List<Inputs.Value> figures = new ArrayList<>();
            if (i == 0) figures.add(Pages.pageValue(in));
            f.add(s.title(), s.narration(), p, draw(s, prev), figures.toArray(Inputs.Value[]::new));
        }
        return f.list();
    }

    // ---- the questions

    static Frame.Predict forkQuestion(Map<String, Object> st, Map<String, Object> prev) {
        long page = num(st, "pageSizeBytes");
        long before = num(prev, "memoryBytes"), after = num(st, "memoryBytes");
        long dataset = pageCount(prev) * page;
        long grew = after - before;
        int answer = grew == 0 ? 0 : grew == page ? 1 : 2;
        Map<String, Object> child = processes(st).getLast();
        return new Frame.Predict("main calls fork() to start " + child.get("name") + ". How much more physical memory does the machine use right after?",
                List.of("None: the child shares main's frames", "One page", "A full copy of the dataset (" + Units.bytes(dataset) + ")"),
                answer,
                "Frames in use: " + num(prev, "framesInUse") + " before, " + num(st, "framesInUse") + " after (" + Units.bytes(after)
                        + "): fork() copies the page table, not the memory, and marks every entry read-only.");
    }

    static Frame.Predict touchQuestion(Map<String, Object> st, Map<String, Object> prev) {
        Map<String, Object> a = accesses(st).getFirst();
        int pid = ((Number) a.get("pid")).intValue();
        long page = num(st, "pageSizeBytes");
        long before = uss(prev, pid), after = uss(st, pid);
        long grew = after - before;
        long dataset = pageCount(st) * page;
        int answer = grew <= 0 ? 0 : grew == page ? 1 : 2;
        String what = "list".equals(st.get("data")) ? "a Python list" : "a numpy array";
        String who = name(st, pid);
        return new Frame.Predict(Character.toUpperCase(who.charAt(0)) + who.substring(1) + " only reads one item of the dataset (" + what + ") on page " + a.get("page")
                + ". Afterwards, does its USS (memory private to it) grow?",
                List.of("No: it only read", "Yes, by one page (" + Units.bytes(page) + ")", "Yes, by the whole dataset (" + Units.bytes(dataset) + ")"),
                answer,
                "Its USS went from " + Units.bytes(before) + " to " + Units.bytes(after) + ": the access was " + ("incref".equals(a.get("op")) ? "a refcount update, which writes" : "a " + a.get("op"))
                        + ", outcome " + a.get("outcome") + (grew > 0 ? " (a write fault on a shared page copies it)" : " (a read of a present page never faults)") + ".");
    }

    static boolean isMainTouch(Map<String, Object> st) {
        List<Map<String, Object>> acc = accesses(st);
        if (acc.size() != 1) return false;
        int pid = ((Number) acc.getFirst().get("pid")).intValue();
        return "main".equals(name(st, pid));
    }

    static Frame.Predict mainQuestion(Map<String, Object> st) {
        Map<String, Object> a = accesses(st).getFirst();
        boolean copied = "copied".equals(a.get("outcome"));
        return new Frame.Predict("main now updates a refcount on page " + a.get("page") + ", whose entry has been read-only since the first fork."
                + " Does the write copy the page?",
                List.of("Yes: a write to a read-only shared entry faults and copies", "No: the fault only sets the write bit again"),
                copied ? 0 : 1,
                "When main wrote, frame f" + a.get("frameBefore") + " had mapcount " + a.get("mapcountBefore")
                        + (copied ? ": still shared, so the kernel copied it." : ": main was its last mapper, so there was no one to copy it for."));
    }

    @SuppressWarnings("unchecked")
    static Frame.Predict peakQuestion(Map<String, Object> st) {
        List<Map<String, Object>> cmp = (List<Map<String, Object>>) st.get("comparison");
        Map<String, Object> mine = cmp.getFirst();
        long dataset = num(st, "datasetPages");
        long processes = num(st, "processCount");
        long peak = num(mine, "peakFrames");
        long ratio = dataset == 0 ? 0 : peak / dataset;
        TreeSet<Long> options = new TreeSet<>(List.of(1L, Math.max(1, processes - 1), processes));
        options.add(ratio);
        List<Long> list = new ArrayList<>(options);
        List<String> choices = list.stream().map(x -> x + "x the dataset (" + x * dataset + " pages)").toList();
        return new Frame.Predict("At its peak, how much memory did " + processes + " processes use for a dataset of " + dataset + " pages held as "
                + article(mine.get("data")) + "?",
                choices, list.indexOf(ratio),
                "Peak " + peak + " frames for " + dataset + " pages of data: " + ratio + "x, against " + cmp.getLast().get("peakFrames")
                        + " frames as " + article(cmp.getLast().get("data")) + ".");
    }

    /** "a list", "an array". */
    static String article(Object data) {
        String d = String.valueOf(data);
        return ("aeiou".indexOf(d.isEmpty() ? 'x' : d.charAt(0)) >= 0 ? "an " : "a ") + d;
    }

    // ---- reading the state

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> processes(Map<String, Object> st) {
        Object p = st.get("processes");
        return p instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> accesses(Map<String, Object> st) {
        Object p = st.get("accesses");
        return p instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
    }

    static long num(Map<String, Object> st, String key) {
        return st != null && st.get(key) instanceof Number n ? n.longValue() : 0;
    }

    static long uss(Map<String, Object> st, int pid) {
        if (st == null) return 0;
        for (Map<String, Object> p : processes(st)) if (((Number) p.get("pid")).intValue() == pid) return num(p, "ussBytes");
        return 0;
    }

    static String name(Map<String, Object> st, int pid) {
        for (Map<String, Object> p : processes(st)) if (((Number) p.get("pid")).intValue() == pid) return String.valueOf(p.get("name"));
        return "process " + pid;
    }

    /** The dataset's pages: main's page table (main is the first process). */
    static long pageCount(Map<String, Object> st) {
        List<Map<String, Object>> procs = processes(st);
        return procs.isEmpty() ? 0 : num(procs.getFirst(), "pages");
    }

    // ---- the drawing

    static final int MAX_ROWS = 4, MAX_COLUMNS = 8, FRAMES_PER_ROW = 12, FRAME_ROWS = 3;

    @SuppressWarnings("unchecked")
    static String draw(Step s, Map<String, Object> prev) {
        Map<String, Object> st = s.state();
        Svg svg = new Svg(Pages.W, Pages.H);
        long page = num(st, "pageSizeBytes");
        if (st.get("comparison") instanceof List<?> cmp) return summary(s, (List<Map<String, Object>>) cmp, page, num(st, "datasetPages"));

        long inUse = num(st, "framesInUse"), peak = num(st, "peakFrames");
        int widest = processes(st).stream().mapToInt(p -> ((List<Object>) p.get("pageTable")).size()).max().orElse(0);
        svg.text(8, 16, "memory: " + inUse + " frames = " + Units.bytes(inUse * page) + " of " + Units.bytes(page) + " pages, peak " + peak
                + " | fN frame, rw/ro, (n) mapcount", "start", "");

        Set<String> changed = new HashSet<>();
        for (Map<String, Object> c : (List<Map<String, Object>>) st.getOrDefault("changed", List.of())) changed.add(c.get("pid") + "/" + c.get("page"));
        Set<String> touched = new HashSet<>();
        Set<Long> fresh = new HashSet<>();
        for (Map<String, Object> a : accesses(st)) {
            touched.add(a.get("pid") + "/" + a.get("page"));
            if ("copied".equals(a.get("outcome"))) fresh.add(num(a, "frameAfter"));
        }
        boolean forked = prev != null && processes(st).size() > processes(prev).size();

        List<Map<String, Object>> procs = processes(st);
        int rows = Math.min(procs.size(), MAX_ROWS);
        double y = 26;
        for (int r = 0; r < rows; r++) {
            Map<String, Object> p = procs.get(r);
            boolean last = r == MAX_ROWS - 1 && procs.size() > MAX_ROWS;
            if (last) {
                svg.text(8, y + 20, "+ " + (procs.size() - MAX_ROWS + 1) + " more processes, drawn alike", "start", "dim");
                break;
            }
            int pid = ((Number) p.get("pid")).intValue();
            boolean rowActive = forked && r == procs.size() - 1 || accesses(st).stream().anyMatch(a -> ((Number) a.get("pid")).intValue() == pid);
            svg.box(8, y, 150, 30, p.get("name") + " (pid " + pid + ")\nUSS " + Units.bytes(num(p, "ussBytes")), rowActive ? "on" : "");
            List<Map<String, Object>> table = (List<Map<String, Object>>) p.get("pageTable");
            int cols = Math.min(table.size(), MAX_COLUMNS);
            double cw = (632 - 166 - 6 * (MAX_COLUMNS - 1)) / (double) MAX_COLUMNS;
            for (int c = 0; c < cols; c++) {
                Map<String, Object> e = table.get(c);
                String at = pid + "/" + e.get("page");
                String cls = changed.contains(at) && !forked ? "hot" : touched.contains(at) ? "on" : forked && changed.contains(at) ? "on" : "";
                svg.box(166 + c * (cw + 6), y, cw, 30, "f" + e.get("frame") + (Boolean.TRUE.equals(e.get("writable")) ? " rw" : " ro")
                        + "\n(" + e.get("mapcount") + ")", cls);
            }
            y += 36;
        }

        // the physical frames in use, a copy made in this step hot
        List<Map<String, Object>> frames = (List<Map<String, Object>>) st.getOrDefault("frames", List.of());
        double fy = Math.max(y + 8, 176);
        svg.text(8, fy, "physical frames in use (a copy made in this step is hot)"
                + (widest > MAX_COLUMNS ? "; pages 0-" + (MAX_COLUMNS - 1) + " of " + widest + " drawn" : ""), "start", "");
        double fw = (624 - 4 * (FRAMES_PER_ROW - 1)) / (double) FRAMES_PER_ROW;
        int shown = Math.min(frames.size(), FRAMES_PER_ROW * FRAME_ROWS);
        for (int i = 0; i < shown; i++) {
            Map<String, Object> fr = frames.get(i);
            long id = num(fr, "frame");
            double x = 8 + (i % FRAMES_PER_ROW) * (fw + 4), fy2 = fy + 6 + (i / FRAMES_PER_ROW) * 22;
            svg.box(x, fy2, fw, 18, "f" + id + " (" + fr.get("mapcount") + ")", fresh.contains(id) ? "hot" : num(fr, "mapcount") > 1 ? "on" : "");
        }
        if (frames.size() > shown) svg.text(632, Pages.H - 4, "+" + (frames.size() - shown) + " frames", "end", "dim");
        return svg.render(s.title());
    }

    /** The summary: peak memory of the two ways of holding the data, against the dataset. */
    static String summary(Step s, List<Map<String, Object>> cmp, long page, long dataset) {
        Svg svg = new Svg(Pages.W, Pages.H);
        svg.text(8, 16, "peak memory while the workers ran, against the dataset (" + dataset + " pages = " + Units.bytes(dataset * page) + ")", "start", "");
        long max = cmp.stream().mapToLong(c -> num(c, "peakFrames")).max().orElse(1);
        double y = 40;
        Map<String, Object> first = cmp.getFirst();
        for (Map<String, Object> c : cmp) {
            long frames = num(c, "peakFrames");
            double w = 330.0 * frames / Math.max(1, max);
            svg.text(8, y + 22, String.valueOf(c.get("data")), "start", "");
            svg.bar(80, y, w, 34, c == first ? (frames > dataset ? "hot" : "ok") : "dim");
            svg.text(88 + w, y + 22, frames + " pages = " + Units.bytes(frames * page) + (c == first ? " (this story)" : " (the other way)"), "start", "");
            y += 56;
        }
        double dx = 80 + 330.0 * dataset / Math.max(1, max);
        svg.line(dx, 32, dx, y, "on");
        svg.text(dx, y + 14, "the dataset", "middle", "on");
        svg.text(8, Pages.H - 10, "measured later by hostside cpu: /proc/PID/smaps_rollup (RSS, PSS, USS per process)", "start", "dim");
        return svg.render(s.title());
    }
}
