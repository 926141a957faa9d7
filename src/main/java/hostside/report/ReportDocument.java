package hostside.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import hostside.core.Figure;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.cpu.CpuRun;
import hostside.cpu.dataloader.CowDetail;
import hostside.doc.Block.KeyValues.Entry;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;
import hostside.doc.Block;
import hostside.doc.Document;
import hostside.doc.Text;
import hostside.harness.Result;
import hostside.machine.Host;
import hostside.machine.MachineRun;
import hostside.memory.MemoryDetails;

/**
 * The one-page profile as a document: the title block, the four questions, the headline
 * numbers, the machine's class and the conditions of the run, each module's own document, and
 * every typed figure. The Markdown and the HTML page of {@code hostside report} are two renderings
 * of it, and {@code report --from} draws it again from the JSON read back into the same records.
 */
public final class ReportDocument {
    private ReportDocument() {}

    public static Document of(Report r) {
        Report.Title t = r.title();
        String host = t.host().isEmpty() ? "unnamed machine" : t.host();
        List<Block> blocks = new ArrayList<>();
        // page one (at most PAGE_ONE lines of Markdown): who, the four answers, placement, offload, what to fix, headlines
        String readFrom = Host.LIVE.equals(t.source()) ? "this machine, live" : "recording " + t.source();
        blocks.add(new Block.KeyValues(List.of(
                Entry.of("machine", orUnknown(t.cpu()) + "; GPUs: " + (t.gpus().isEmpty() ? "none found" : String.join("; ", t.gpus()))),
                Entry.of("software", "NVIDIA driver " + (t.driver() == null || t.driver().isEmpty() ? "not loaded" : t.driver()) + "; kernel " + orUnknown(t.kernel())
                        + (t.virtualization() == null || t.virtualization().isEmpty() ? "" : "; " + t.virtualization())),
                Entry.of("run", t.date() + "; hostside " + t.hostsideVersion() + "; read from " + readFrom
                        + (t.cost() == null ? "" : "; " + t.cost().text(streamArrays(r), pythonPeak(r)))))));
        blocks.add(questions(r.questions()));
        if (r.hardwareClass() != null) blocks.add(Offload.placement(r));
        Block offload = Offload.of(r);
        if (offload != null) blocks.add(offload);
        blocks.add(ToFix.block(r));
        blocks.add(headlines(r.headlines()));
        if (r.hardwareClass() != null) blocks.add(conditions(r));
        for (Report.Section s : r.modules()) blocks.add(module(s, r.confounders()));
        if (r.figures() != null && !r.figures().isEmpty()) blocks.add(figures(r.figures()));
        blocks.add(DayOne.block(r));
        boolean quick = r.confounders() != null && "quick".equals(r.confounders().mode());
        return new Document("hostside report: " + host, r.schema() + ", " + t.date() + (quick ? ", quick (--quick: the headline figures only)" : ""), blocks);
    }

    /** STREAM's three arrays as Module 1 ran them (the largest run's), which a report's peak memory is stated against; null when none ran. */
    static Long streamArrays(Report r) {
        MachineRun m = r.module(MachineRun.class);
        if (m == null || m.memory() == null) return null;
        return m.memory().results().stream().map(x -> x.result().detail()).filter(d -> d instanceof MemoryDetails.Stream)
                .mapToLong(d -> 3 * ((MemoryDetails.Stream) d).arrayBytes()).boxed().max(Long::compare).orElse(null);
    }

    /** The largest VmHWM of the DataLoader's Python processes (Module 3 reads each one's); null when none ran. */
    static Long pythonPeak(Report r) {
        CpuRun c = r.module(CpuRun.class);
        if (c == null || c.dataloader() == null) return null;
        return c.dataloader().stream().map(Result::detail).filter(d -> d instanceof CowDetail w && w.peakRssBytes() != null)
                .map(d -> ((CowDetail) d).peakRssBytes()).max(Long::compare).orElse(null);
    }

    /** Each answer in a paragraph with its evidence at its end; an answer not measured says so. */
    static Block questions(List<Report.Answer> answers) {
        List<Block> b = new ArrayList<>();
        int i = 1;
        for (Report.Answer a : answers) {
            Text answer = Text.strong(i++ + ". " + a.axis() + ": ").plain(a.question() + " ").plain(a.answer());
            if (!"answered".equals(a.status())) answer = answer.plain(" (" + a.status() + ")");
            if (a.evidence() != null && !a.evidence().isEmpty()) answer = answer.plain(" (evidence: " + a.evidence() + ")");
            b.add(new Block.Paragraph(answer));
        }
        return new Block.Section("The four questions", b);
    }

    /** Headline rows on page one; the rest are in "Every figure". */
    static final int HEADLINES_SHOWN = 8;

    /** Page one, everything before the machine's class and conditions, fits this many lines of Markdown (issue 20). */
    static final int PAGE_ONE = 60;

    static Block headlines(List<Report.Headline> heads) {
        List<List<Text>> rows = heads.stream().limit(HEADLINES_SHOWN).map(h -> List.of(Text.of(h.name()), Text.of(h.value()), Text.of(h.source()))).toList();
        List<Block> b = new ArrayList<>(List.of(new Block.Table(
                List.of(new Column("figure", Align.LEFT), new Column("value", Align.LEFT), new Column("from", Align.LEFT)), rows)));
        if (heads.size() > HEADLINES_SHOWN) b.add(Block.Note.of((heads.size() - HEADLINES_SHOWN) + " more in the modules and under \"Every figure\"."));
        return new Block.Section("Headline numbers", b);
    }

    /** The class a fleet groups this machine in, its software, and what may make its figures unfair to compare. */
    static Block conditions(Report r) {
        Fleet.HardwareClass c = r.hardwareClass();
        List<Entry> e = new ArrayList<>(List.of(
                Entry.of("GPUs", c.gpuCount() + " x " + c.gpu()),
                Entry.of("CPU", c.cpuModel() + ", " + c.cores() + " cores"),
                new Entry("host link", Text.code(c.hostLink())),
                new Entry("fabric", Text.code(c.fabric())),
                new Entry("NICs", Text.code(String.valueOf(c.nics()))),
                Entry.of("base page", c.pageSize() == null ? "unknown" : Units.bytes(c.pageSize()))));
        Fleet.Software s = r.software();
        if (s != null) {
            e.add(Entry.of("driver, CUDA", (s.driver() == null || s.driver().isEmpty() ? "no NVIDIA driver" : s.driver())
                    + ", CUDA " + (s.cuda() == null ? "unknown" : s.cuda())));
            e.add(Entry.of("kernel", orUnknown(s.kernel())));
        }
        Fleet.Confounders f = r.confounders();
        if (f != null) {
            List<String> signs = r.modules().stream()
                    .filter(m -> m.data() instanceof MachineRun)
                    .flatMap(m -> Fleet.clockLock((MachineRun) m.data()).signs().stream())
                    .toList();
            e.add(Entry.of("GPU clocks locked", clocks(f.clocksLocked(), signs)));
            e.add(Entry.of("NUMA balancing", f.numaBalancing() == null ? "not read" : f.numaBalancing() == 0 ? "off" : "on (" + f.numaBalancing() + ")"));
            e.add(Entry.of("transparent huge pages", f.thp() == null ? "not read" : f.thp()));
            e.add(Entry.of("report mode", "quick".equals(f.mode()) ? "quick: the headline figures only, each measured as in a full report; the other cases say not run"
                    : "full"));
            e.add(Entry.of("load at start", f.loadAtStart() == null ? "not read" : String.format(Locale.ROOT, "%.2f (1-minute average)", f.loadAtStart())));
            e.addAll(drillLoads(f));
        }
        return new Block.Section("The machine's class and the run's conditions", List.of(
                Block.Paragraph.of("What a fleet compares this machine with (the same class), and what makes two runs' figures unfair to compare."),
                new Block.KeyValues(e)));
    }

    /**
     * The load before each drill, a line each, and whether any drill began on a busy machine: what
     * a reader weighs the figures by. Nothing for a report written before the loads were read.
     */
    static List<Entry> drillLoads(Fleet.Confounders f) {
        if (f.drillLoads() == null) return List.of();
        if (f.drillLoads().isEmpty()) return List.of(Entry.of("load before each drill", "not read: a recording, nothing measured"));
        List<Entry> e = new ArrayList<>();
        List<String> busy = f.busyDrills();
        e.add(Entry.of("busy while measuring", busy.isEmpty() ? "no: every drill began on a quiet machine"
                : "yes, as the " + String.join(", ", busy) + " drill" + (busy.size() > 1 ? "s" : "") + " began: "
                + (busy.size() > 1 ? "their" : "its") + " figures may be slower and noisier than this machine's best"));
        for (Fleet.DrillLoad d : f.drillLoads()) e.add(Entry.of("load before " + d.drill(), d.load() == null ? "not read" : d.load().summary()));
        return e;
    }

    /** The confounder with its signs (from Module 1's NVML facts, where the report carries them). */
    static String clocks(Boolean locked, List<String> signs) {
        if (locked == null) return "not read";
        if (!locked) return "no (no applications clocks, power cap or clock-setting limit seen; NVML cannot read a lock at the maximum clock)";
        return signs.isEmpty() ? "yes" : "yes: " + String.join("; ", signs);
    }

    static Block module(Report.Section s, Fleet.Confounders f) {
        String title = "Module " + s.module() + ": " + s.title() + " (" + s.command() + ")";
        List<Block> b = new ArrayList<>();
        if (s.status() != Report.SectionStatus.RUN) {
            b.add(Block.Note.of(s.status() + ": " + s.why() + "."));
        } else {
            b.add(Block.Note.of(s.why() + "."));
            busyBefore(s, f).ifPresent(b::add);
            b.addAll(ModuleBlocks.of(s.data()));
        }
        return new Block.Section(title, b);
    }

    /** The module's drill began on a busy machine: said at the top of its section. The drill is the section's first command ("hostside io, hostside container": io). */
    static java.util.Optional<Block> busyBefore(Report.Section s, Fleet.Confounders f) {
        if (f == null || f.drillLoads() == null || s.command() == null) return java.util.Optional.empty();
        String command = s.command().split(",")[0].strip();
        return f.drillLoads().stream().filter(d -> command.equals("hostside " + d.drill()) && d.load() != null && d.load().busy()).findFirst()
                .map(d -> Block.Note.of("busy: " + d.load().busyLine(d.drill()) + "."));
    }

    /** Every typed figure, as docs/contract.md's Typed figures lists them: what compare and scripts read. */
    static Block figures(List<Figure> figures) {
        List<List<Text>> rows = new ArrayList<>();
        for (Figure f : figures) {
            boolean size = f.unit().dimension == Unit.Dimension.SIZE;
            rows.add(List.of(Text.code(f.key()), Text.of(f.scope().toString()), Text.of(value(f, f.value())), Text.of(value(f, f.min())),
                    Text.of(value(f, f.max())), Text.of(size ? "" : f.unit().symbol()), Text.of(Integer.toString(f.samples())),
                    Text.of(f.anchor() == null ? "" : f.anchor())));
        }
        return new Block.Section("Every figure", List.of(
                Block.Paragraph.of("Each measured figure, typed: the median of its samples with the smallest and largest, and the established tool's test it mirrors."),
                new Block.Table(List.of(new Column("key", Align.LEFT), new Column("scope", Align.LEFT), new Column("median", Align.RIGHT),
                        new Column("min", Align.RIGHT), new Column("max", Align.RIGHT), new Column("unit", Align.LEFT),
                        new Column("samples", Align.RIGHT), new Column("peer", Align.LEFT)), rows)));
    }

    /**
     * One of a figure's values as its row shows it: a size in binary units with its unit ("256 KiB",
     * "1 GiB"), as {@link Units#bytes} writes sizes everywhere else, where the figure as a number
     * of bytes was ten digits to count ("1073741824") and the widest cell of its column; its unit
     * cell is then left empty, each value carrying its own. Any other value as {@link Units#figure}.
     */
    static String value(Figure f, double v) {
        if (f.unit().dimension != Unit.Dimension.SIZE) return Units.figure(v);
        return Units.bytes(Math.round(f.unit().convert(v, Unit.BYTES)));
    }

    private static String orUnknown(String s) {
        return s == null || s.isEmpty() ? "unknown" : s;
    }
}
