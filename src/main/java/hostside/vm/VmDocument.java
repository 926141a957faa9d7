package hostside.vm;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import hostside.core.Figure;
import hostside.core.Sweep;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.core.Versus;
import hostside.doc.Block.Axis;
import hostside.doc.Block.Bullets;
import hostside.doc.Block.Findings;
import hostside.doc.Block.KeyValues;
import hostside.doc.Block.LinePlot;
import hostside.doc.Block.Note;
import hostside.doc.Block.Paragraph;
import hostside.doc.Block.Section;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;
import hostside.doc.Block.Table;
import hostside.doc.Block;
import hostside.doc.Document;
import hostside.doc.FiguresTable;
import hostside.doc.Text;
import hostside.harness.Cut;
import hostside.harness.Result;
import hostside.machine.Host;
import hostside.vm.measure.AnonTouch;
import hostside.vm.measure.FileRead;
import hostside.vm.measure.ManagedMigration;
import hostside.vm.measure.TlbReach;

/**
 * What Module 2 shows, said once for the terminal, the report and the web page: the settings, the
 * GPU's view of host memory, the findings, the measurements (a row per figure, with the faults each
 * cost, how each was measured and its peer tool), the TLB curve, and what it all means. It holds
 * the union of what the text view and the report's Markdown used to show apart.
 */
public final class VmDocument {
    private VmDocument() {}

    public static Document of(VmRun run) {
        List<Block> blocks = new ArrayList<>();
        blocks.add(new Section("Settings", VmSettings.blocks(run.facts())));
        blocks.add(new Section("The GPU's view of host memory", gpu(run.gpu())));
        blocks.add(new Section("Findings", List.of(new Findings(run.findings(), "None."))));
        blocks.add(new Section("Measurements", measurements(run)));
        if (!run.verdicts().isEmpty()) blocks.add(new Section("What it means", List.of(new Findings(run.verdicts(), ""))));
        return new Document("Virtual memory", subtitle(run.machine()), blocks);
    }

    /** Which machine: its name and kernel, and where the facts came from (this machine, or a recording). */
    private static String subtitle(Host m) {
        if (m == null) return "";
        String name = m.name().isEmpty() ? "unnamed host" : m.name();
        return name + ", kernel " + (m.kernel().isEmpty() ? "unknown" : m.kernel()) + ", " + m.virtualization()
                + (m.live() ? "" : ", read from " + m.source());
    }

    /** One part per GPU: coherence, CUDA VMM granularity and the unified-memory attributes, each a line. */
    private static List<Block> gpu(VmGpu g) {
        if (!g.notRun().isEmpty()) return List.of(Note.of("not run: " + g.notRun()));
        if (g.gpus().isEmpty()) return List.of(Note.of("no GPU"));
        List<Block> out = new ArrayList<>();
        for (VmGpu.GpuView v : g.gpus()) {
            List<KeyValues.Entry> e = new ArrayList<>();
            e.add(KeyValues.Entry.of("coherence", v.coherence()));
            e.add(KeyValues.Entry.of("CUDA VMM granularity", v.vmmMinimumBytes() == null ? "unknown (" + v.vmmWhy() + ")"
                    : Units.bytes(v.vmmMinimumBytes()) + " minimum, " + Units.bytes(v.vmmRecommendedBytes()) + " recommended"));
            for (var a : v.unifiedMemory()) {
                e.add(new KeyValues.Entry(a.name(), Text.of(Units.orUnknown(a.value()) + ": " + a.meaning())));
            }
            out.add(new Section("GPU" + v.ordinal() + " " + v.name() + " (" + v.pciAddress() + ")", List.of(new KeyValues(e))));
        }
        return out;
    }

    private static List<Block> measurements(VmRun run) {
        List<Result> all = new ArrayList<>(run.host());
        all.addAll(run.gpu().results());
        if (all.isEmpty()) return List.of(Note.of("none asked for"));
        Set<String> whys = new LinkedHashSet<>();
        all.forEach(x -> whys.add(x.isOk() ? "" : x.why()));
        if (whys.size() == 1 && !whys.contains("")) return List.of(Note.of("not run: " + whys.iterator().next()));
        List<Block> out = new ArrayList<>();
        out.add(Paragraph.of("Median of the samples, with min and max."));
        out.add(figureTable(all));
        for (Result x : all) Cut.in(x).ifPresent(c -> out.add(Note.of("note: " + x.key() + ": " + c.text())));
        fileNote(run.host()).ifPresent(out::add);
        if (!run.gpu().measuredOn().isEmpty()) out.add(Note.of("GPU cases ran on " + run.gpu().measuredOn()));
        List<Text> how = new ArrayList<>();
        for (Result x : all) {
            if (!x.isOk()) continue;
            Text line = Text.code(x.key()).plain(": " + method(x));
            how.add(x.anchor() == null ? line : line.plain("; peer: ").andCode(x.anchor()));
        }
        out.add(new Section("How each was measured", List.of(new Bullets(how))));
        out.addAll(tlb(run.host()));
        return out;
    }

    /**
     * A row per figure: each measured case, and after it the figures its detail holds (a first
     * touch's cost per fault and share of huge pages); a case that did not run says why instead.
     */
    private static Table figureTable(List<Result> all) {
        FiguresTable t = new FiguresTable("measurement", true, new Column("faults per MiB", Align.RIGHT));
        for (Result x : all) {
            if (!x.isOk()) {
                t.notRun(x.key(), x.status() + ": " + x.why());
                continue;
            }
            t.add(Text.code(x.key()), x.value(), x.unit(), Text.of(faults(x)));
            if (x.detail() instanceof AnonTouch.TouchDetail d) {
                for (Figure f : VmRun.touchFigures(x, d)) t.add(f, Text.of(""));
            }
        }
        return t.table();
    }

    /** Faults per MiB where the case counts them: what the kernel did for the figure; "uncounted" where getrusage saw none of the CPU's managed-memory faults. */
    private static String faults(Result x) {
        if (x.detail() instanceof FileRead.FileDetail f) return String.format(Locale.ROOT, "%.1f", f.faultsPerMiB());
        if (x.detail() instanceof AnonTouch.TouchDetail a) return String.format(Locale.ROOT, "%.1f", a.faultsPerMiB());
        if (x.detail() instanceof ManagedMigration.MigrationDetail m && m.cpuFaultsCounted() != null && m.cpuFaultsCounted() == 0) return "uncounted";
        return "";
    }

    /**
     * How a case measured: its own line, except the CPU-fault migration's, which is said again from
     * its count, so that a run recorded before the count was weighed (whose line said its faults came
     * from getrusage while getrusage saw none) reads right too.
     */
    static String method(Result x) {
        if (x.detail() instanceof ManagedMigration.MigrationDetail m && m.cpuFaultsCounted() != null) return ManagedMigration.cpuMethod(m.cpuFaultsCounted());
        return x.method();
    }

    /** Where the file reads read: the test file's size and folder (the scope of their figures). */
    private static java.util.Optional<Block> fileNote(List<Result> host) {
        return host.stream().filter(r -> r.isOk() && r.detail() instanceof FileRead.FileDetail).findFirst().map(r -> {
            FileRead.FileDetail f = (FileRead.FileDetail) r.detail();
            // only a cold sample reads less than the file
            Long part = host.stream().filter(x -> x.isOk() && x.detail() instanceof FileRead.FileDetail d && d.readBytes() != null && d.readBytes() < d.fileBytes())
                    .map(x -> ((FileRead.FileDetail) x.detail()).readBytes()).findFirst().orElse(null);
            return Note.of("file reads: a " + Units.bytes(f.fileBytes()) + " test file in " + f.dir() + " (removed afterwards)"
                    + (part == null ? "" : "; a cold sample reads its first " + Units.bytes(part)));
        });
    }

    /**
     * The TLB curve: ns per load against the working set, base pages and huge pages, each point with
     * its spread; then where the two part, as the ratio at each size both walked, marked where the
     * two walks' samples overlap (a ratio the noise could make, {@link Versus}).
     */
    private static List<Block> tlb(List<Result> host) {
        List<Sweep.Point> base = points(host, "tlb_reach_base"), huge = points(host, "tlb_reach_huge");
        if (base.isEmpty() && huge.isEmpty()) return List.of();
        List<LinePlot.Series> series = new ArrayList<>();
        if (!base.isEmpty()) series.add(series("base pages", base));
        if (!huge.isEmpty()) series.add(series("huge pages", huge));
        List<Block> out = new ArrayList<>();
        out.add(new LinePlot("TLB reach: random dependent loads, one per base page", new Axis("working set", Unit.BYTES, true),
                new Axis("ns per load", Unit.NS, false), series));
        List<List<Text>> rows = new ArrayList<>();
        for (var b : base) {
            huge.stream().filter(h -> h.bytes() == b.bytes()).findFirst().ifPresent(h -> rows.add(List.of(Text.of(Units.bytes(b.bytes())),
                    Text.of(String.format(Locale.ROOT, "%.2fx", b.value().median() / h.value().median())
                            + (Versus.of(b.value(), h.value()) == Versus.EVEN ? " (even within noise)" : "")))));
        }
        if (!rows.isEmpty()) out.add(new Table(List.of(new Column("working set", Align.RIGHT), new Column("base / huge", Align.RIGHT)), rows));
        for (Result r : host) {
            if (r.isOk() && r.detail() instanceof TlbReach.TlbDetail d && !d.endsEarly().isEmpty()) {
                out.add(Note.of("note: " + d.endsEarly()));
                break;
            }
        }
        return out;
    }

    private static LinePlot.Series series(String name, List<Sweep.Point> points) {
        return new LinePlot.Series(name, points.stream()
                .map(p -> new LinePlot.Point(p.bytes(), p.value().median(), p.value().min(), p.value().max())).toList());
    }

    /** The curve of the walk with this key; empty when it did not run. */
    private static List<Sweep.Point> points(List<Result> host, String key) {
        return MeasuredVerdicts.ok(host, key).map(MeasuredVerdicts::points).orElse(List.of());
    }
}
