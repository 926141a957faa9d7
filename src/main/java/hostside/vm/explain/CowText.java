package hostside.vm.explain;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import hostside.core.Table;

/** The COW state drawn as the reader should picture it: pages down, processes across, then each process's usage. */
final class CowText {
    private CowText() {}

    static List<String> picture(CowState state) {
        List<String> out = new ArrayList<>();
        if (state.summary()) {
            // The summary: the two outcomes side by side is the whole point; the final grid would only distract.
            Table t = new Table("data", "peak frames", "peak memory").right(1, 2);
            for (CowState.Peak p : state.comparison()) t.row(p.data().key(), p.peakFrames(), StepText.size(p.peakMemoryBytes()));
            t.render("").lines().forEach(out::add);
            out.add("");
            out.add("measured by: " + state.measuredBy());
            return out;
        }
        List<CowState.Process> procs = state.processes();
        Set<CowState.PageRef> changed = new HashSet<>(state.changed());

        TreeSet<Integer> pages = new TreeSet<>();
        for (CowState.Process p : procs) for (CowState.Entry e : p.pageTable()) pages.add(e.page());
        List<String> header = new ArrayList<>(List.of("page"));
        for (CowState.Process p : procs) header.add(p.name() + " (" + p.pid() + ")");
        Table grid = new Table(header.toArray(String[]::new)).right(0);
        for (int page : pages) {
            List<Object> row = new ArrayList<>(List.of(page));
            for (CowState.Process p : procs) {
                CowState.Entry e = p.pageTable().stream().filter(x -> x.page() == page).findFirst().orElse(null);
                row.add(e == null ? "-" : "f" + e.frame() + (e.writable() ? " rw" : " ro") + " (" + e.mapcount() + ")"
                        + (changed.contains(new CowState.PageRef(p.pid(), page)) ? " *" : ""));
            }
            grid.row(row.toArray());
        }
        grid.render("").lines().forEach(out::add);
        out.add("fN = physical frame N, rw/ro = the entry's write bit, (n) = mapcount, * = changed in this step");
        out.add("");
        Table usage = new Table("process", "pid", "RSS", "PSS", "USS").right(1, 2, 3, 4);
        for (CowState.Process p : procs)
            usage.row(p.name(), p.pid(), StepText.size(p.rssBytes()), StepText.size(p.pssBytes()), StepText.size(p.ussBytes()));
        usage.render("").lines().forEach(out::add);
        out.add("");
        long pageSize = state.pageSizeBytes();
        int frames = state.framesInUse();
        int peak = state.peakFrames();
        out.add("memory in use: " + frames + " frames = " + StepText.size(frames * pageSize) + " (page size " + StepText.size(pageSize)
                + "; peak so far " + peak + " frames = " + StepText.size(peak * pageSize) + ")");
        return out;
    }
}
