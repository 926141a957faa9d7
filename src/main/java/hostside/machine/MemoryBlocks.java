package hostside.machine;

import static hostside.machine.MachineDocument.left;
import static hostside.machine.MachineDocument.right;
import static hostside.machine.MachineDocument.cell;
import static hostside.machine.MachineDocument.row;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Stats;
import hostside.core.Units;
import hostside.doc.Block.Table.Column;
import hostside.doc.Block;
import hostside.doc.Text;
import hostside.harness.Result;
import hostside.memory.ArraySizing;
import hostside.memory.MemoryCases;
import hostside.memory.MemoryDetails;
import hostside.memory.Placement;

/**
 * The CPU memory part of Module 1, said once: STREAM's kernels where they ran (every CPU, one
 * thread, each node, each kind of core), then the read bandwidth and latency matrices by (CPU
 * node, memory node), as MLC prints them, or one line each on a machine of one node.
 */
final class MemoryBlocks {
    private MemoryBlocks() {}

    static Block of(MemoryDrill.MemorySection m) {
        List<Block> b = new ArrayList<>();
        if (!m.notRun().isEmpty()) {
            b.add(Block.Note.of("Memory bandwidth and latency: not run: " + m.notRun()));
            notes(m, b);
            return new Block.Section("Memory bandwidth and latency", b);
        }
        stream(m).ifPresent(b::add);
        matrices(m, b);
        List<Text> failed = m.results().stream().filter(x -> !x.result().isOk())
                .map(x -> Text.of(x.result().key() + ", " + x.label() + ": " + x.result().status() + ": " + x.result().why())).toList();
        if (!failed.isEmpty()) b.add(new Block.Bullets(failed));
        notes(m, b);
        return new Block.Section("Memory bandwidth and latency", b);
    }

    private static void notes(MemoryDrill.MemorySection m, List<Block> b) {
        List<String> notes = new ArrayList<>(m.plan().notes());
        m.results().stream().map(x -> x.result().detail()).filter(d -> d instanceof MemoryDetails.Stream).map(d -> ((MemoryDetails.Stream) d).sizeNote())
                .filter(s -> !s.isEmpty()).findFirst().ifPresent(notes::add);
        if (!notes.isEmpty()) b.add(new Block.Note(Text.of(String.join("; ", notes))));
    }


    /** One row per place STREAM ran: the four kernels in GB/s, the threads and the memory. */
    static Optional<Block> stream(MemoryDrill.MemorySection m) {
        List<List<Text>> rows = new ArrayList<>();
        for (MemoryDrill.Measured x : m.results()) {
            if (!x.result().isOk() || !(x.result().detail() instanceof MemoryDetails.Stream s)) continue;
            String where = x.scope().kind() == Scope.Kind.CPU ? x.label() : x.label() + (x.result().key().equals(MemoryCases.TRIAD_ONE_THREAD) ? " (CPU " + s.cpus() + ")" : "");
            String memory = s.placement().node() != null ? "node " + s.placement().node() : "first touch" + spread(s.placement());
            rows.add(row(where, s.cpus().size(), kernel(s.copy()), kernel(s.scale()), kernel(s.add()), cell(x.result().value()), memory));
        }
        if (rows.isEmpty()) return Optional.empty();
        MemoryDetails.Stream first = m.results().stream().map(x -> x.result().detail()).filter(d -> d instanceof MemoryDetails.Stream)
                .map(d -> (MemoryDetails.Stream) d).findFirst().orElseThrow();
        boolean triadAlone = m.results().stream().anyMatch(x -> x.result().detail() instanceof MemoryDetails.Stream s && s.copy() == null);
        List<Block> b = new ArrayList<>();
        b.add(new Block.Paragraph(Text.of(String.format(Locale.ROOT,
                "STREAM's kernels, GB/s, median (min-max) of the samples; STREAM itself reports the max%s. Arrays of %s each (STREAM asks four times the last-level caches, %s).",
                triadAlone ? "; one thread runs Triad alone" : "", Units.bytes(first.arrayBytes()), caches(m.plan().llcBytes(), first.sizing())))));
        b.add(new Block.Table(List.of(left("where"), right("threads"), right("Copy"), right("Scale"), right("Add"), right("Triad"), left("memory")), rows));
        return Optional.of(new Block.Section("STREAM", b));
    }

    /** A kernel's cell: "-" where it did not run (one thread runs Triad alone). */
    static String kernel(Stats s) {
        return s == null ? "-" : cell(s);
    }

    /** The caches STREAM's rule was applied to, and where their size came from. */
    static String caches(long sysfsBytes, ArraySizing sizing) {
        if (sysfsBytes > 0) return Units.bytes(sysfsBytes);
        if (sizing != null && sizing.knee() != null) return Units.bytes(sizing.cacheBytes()) + " as a pointer chase measured them: sysfs names no size";
        return "whose size this machine does not report";
    }

    /** Where first touch put the pages, when more than one node holds them. */
    private static String spread(Placement p) {
        if (p.sampled() == 0 || p.byNode().size() < 2) return p.byNode().size() == 1 ? " (node " + p.byNode().keySet().iterator().next() + ")" : "";
        List<String> parts = new ArrayList<>();
        p.byNode().forEach((node, n) -> parts.add(String.format(Locale.ROOT, "%d: %.0f%%", node, 100.0 * n / p.sampled())));
        return " (nodes " + String.join(", ", parts) + ")";
    }

    /** Read bandwidth and latency per (CPU node, memory node): a line each on one node, else two matrices. */
    static void matrices(MemoryDrill.MemorySection m, List<Block> b) {
        List<Figure> figures = m.figures();
        MemoryPlan plan = m.plan();
        if (plan.pairs().size() == 1) {
            MemoryPlan.Pair p = plan.pairs().get(0);
            List<Block.KeyValues.Entry> e = new ArrayList<>();
            MemoryVerdicts.find(figures, MemoryCases.READ, Scope.nodes(p.cpuNode(), p.memoryNode()))
                    .ifPresent(f -> e.add(Block.KeyValues.Entry.of("read bandwidth, " + p.cpus().size() + " threads", Units.withRange(f.value(), f.min(), f.max()) + " GB/s")));
            for (MemoryDrill.Measured x : m.results()) {
                if (x.result().isOk() && x.result().key().equals(MemoryCases.LATENCY) && x.result().detail() instanceof MemoryDetails.Chase c) {
                    e.add(Block.KeyValues.Entry.of("idle latency" + (x.scope().kind() == Scope.Kind.CPU ? ", " + x.label() : ", CPU " + c.cpu()),
                            cellNs(x.result()) + " a load, " + chaseConditions(c)));
                }
            }
            if (!e.isEmpty()) b.add(new Block.KeyValues(e));
            return;
        }
        matrix(plan, figures, MemoryCases.READ, "Read bandwidth, GB/s (every CPU of the row's node reading memory of the column's node)").ifPresent(b::add);
        matrix(plan, figures, MemoryCases.LATENCY, "Idle latency, ns a load (one thread of the row's node, memory of the column's node)").ifPresent(b::add);
    }

    private static String cellNs(Result r) {
        return String.format(Locale.ROOT, "%.1f ns (%.1f-%.1f)", r.value().median(), r.value().min(), r.value().max());
    }

    static String chaseConditions(MemoryDetails.Chase c) {
        String huge = !c.hugeAsked() ? "base pages" : c.hugeBytes() == null ? "huge pages asked for"
                : String.format(Locale.ROOT, "%.0f%% in huge pages", 100.0 * c.hugeBytes() / c.bytes());
        return Units.bytes(c.bytes()) + " set, " + huge;
    }

    /** Rows: the nodes with CPUs; columns: every node with memory, labelled with what it is. */
    static Optional<Block> matrix(MemoryPlan plan, List<Figure> figures, String key, String title) {
        Map<Integer, String> columns = new LinkedHashMap<>();
        for (MemoryPlan.Pair p : plan.pairs()) columns.putIfAbsent(p.memoryNode(), p.memoryRole());
        Map<Integer, List<Text>> rows = new LinkedHashMap<>();
        boolean any = false;
        for (MemoryPlan.Pair p : plan.pairs()) {
            List<Text> r = rows.computeIfAbsent(p.cpuNode(), n -> new ArrayList<>(List.of(Text.of("node " + n))));
            Optional<Figure> f = MemoryVerdicts.find(figures, key, Scope.nodes(p.cpuNode(), p.memoryNode()));
            any |= f.isPresent();
            r.add(Text.of(f.map(x -> Units.figure(x.value())).orElse("-")));
        }
        if (!any) return Optional.empty();
        List<Column> cols = new ArrayList<>(List.of(left("CPUs of")));
        columns.forEach((node, role) -> cols.add(right("node " + node + (role.equals(MemoryPlan.CPUS_AND_MEMORY) ? "" : " (" + role + ")"))));
        return Optional.of(new Block.Section(title, List.of(new Block.Table(cols, new ArrayList<>(rows.values())))));
    }
}
