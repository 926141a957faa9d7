package hostside.vm.explain;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import hostside.core.Table;

/** The COW state drawn as the reader should picture it: pages down, processes across, then each process's usage. */
final class CowText {
    private CowText() {}

    @SuppressWarnings("unchecked")
    static List<String> picture(Map<String, Object> state) {
        List<String> out = new ArrayList<>();
        if (state.get("comparison") instanceof List<?> comparison) {
            // The summary: the two outcomes side by side is the whole point; the final grid would only distract.
            StepText.table(comparison).lines().forEach(out::add);
            out.add("");
            out.add("measured by: " + state.get("measuredBy"));
            return out;
        }
        List<Map<String, Object>> procs = (List<Map<String, Object>>) state.get("processes");
        Set<String> changed = new HashSet<>();
        for (Map<String, Object> c : (List<Map<String, Object>>) state.getOrDefault("changed", List.of()))
            changed.add(c.get("pid") + "/" + c.get("page"));

        TreeSet<Integer> pages = new TreeSet<>();
        Map<Integer, Map<Integer, Map<String, Object>>> byPid = new HashMap<>();
        for (Map<String, Object> p : procs) {
            Map<Integer, Map<String, Object>> table = new HashMap<>();
            for (Map<String, Object> e : (List<Map<String, Object>>) p.get("pageTable")) {
                table.put((Integer) e.get("page"), e);
                pages.add((Integer) e.get("page"));
            }
            byPid.put((Integer) p.get("pid"), table);
        }
        List<String> header = new ArrayList<>(List.of("page"));
        for (Map<String, Object> p : procs) header.add(p.get("name") + " (" + p.get("pid") + ")");
        Table grid = new Table(header.toArray(String[]::new)).right(0);
        for (int page : pages) {
            List<Object> row = new ArrayList<>(List.of(page));
            for (Map<String, Object> p : procs) {
                Map<String, Object> e = byPid.get((Integer) p.get("pid")).get(page);
                row.add(e == null ? "-" : "f" + e.get("frame") + ((Boolean) e.get("writable") ? " rw" : " ro") + " (" + e.get("mapcount") + ")"
                        + (changed.contains(p.get("pid") + "/" + page) ? " *" : ""));
            }
            grid.row(row.toArray());
        }
        grid.render("").lines().forEach(out::add);
        out.add("fN = physical frame N, rw/ro = the entry's write bit, (n) = mapcount, * = changed in this step");
        out.add("");
        Table usage = new Table("process", "pid", "RSS", "PSS", "USS").right(1, 2, 3, 4);
        for (Map<String, Object> p : procs)
            usage.row(p.get("name"), p.get("pid"), StepText.size((Number) p.get("rssBytes")), StepText.size((Number) p.get("pssBytes")),
                    StepText.size((Number) p.get("ussBytes")));
        usage.render("").lines().forEach(out::add);
        out.add("");
        long pageSize = ((Number) state.get("pageSizeBytes")).longValue();
        int frames = ((Number) state.get("framesInUse")).intValue();
        int peak = ((Number) state.get("peakFrames")).intValue();
        out.add("memory in use: " + frames + " frames = " + StepText.size(frames * pageSize) + " (page size " + StepText.size(pageSize)
                + "; peak so far " + peak + " frames = " + StepText.size(peak * pageSize) + ")");
        return out;
    }
}
