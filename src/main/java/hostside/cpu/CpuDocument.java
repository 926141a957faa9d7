package hostside.cpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import hostside.core.Units;
import hostside.cpu.facts.CpuFacts;
import hostside.doc.Block;
import hostside.doc.Block.Findings;
import hostside.doc.Block.KeyValues;
import hostside.doc.Block.Note;
import hostside.doc.Block.Paragraph;
import hostside.doc.Block.Section;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;
import hostside.doc.Document;
import hostside.doc.Text;
import hostside.machine.Host;

/**
 * What Module 3 shows, said once for the terminal, the report and HTML: the facts of the CPUs that
 * feed the GPU (scheduler, isolation, quota, frequency, idle, IRQs, feeder CPUs), the findings,
 * what the scheduler charges, launch jitter with a histogram per condition, the DataLoader
 * measurements and what it all means. It holds everything the text view and the report's
 * Markdown section showed, where the two had drifted apart (the idle row, rcu_nocbs and the
 * sample counts were the view's only; the section's sentences the report's only).
 */
public final class CpuDocument {
    private CpuDocument() {}

    public static Document of(CpuRun run) {
        List<Block> blocks = new ArrayList<>();
        if (run.facts() != null) blocks.add(facts(run.facts()));
        blocks.add(new Section("Findings", List.of(new Findings(run.findings(), "None."))));
        if (run.measured() != null) blocks.addAll(MeasuredBlocks.of(run.measured()));
        if (!run.dataloader().isEmpty()) blocks.add(DataLoaderBlocks.of(run.dataloader()));
        if (!run.verdicts().isEmpty()) blocks.add(new Section("What it means", List.of(new Findings(run.verdicts(), ""))));
        return new Document("The CPU that feeds the GPU", subtitle(run.machine()), blocks);
    }

    /** Which machine: its name, and whether it was measured live or read from a recording. */
    static String subtitle(Host h) {
        if (h == null) return "";
        String where = h.live() ? "live" : "recorded: " + h.source();
        return (h.name() == null || h.name().isEmpty() ? "" : h.name() + ", ") + "kernel " + h.kernel() + ", " + where;
    }

    static Section facts(CpuFacts f) {
        List<Block> b = new ArrayList<>();
        List<KeyValues.Entry> kv = new ArrayList<>();
        CpuFacts.Kernel k = f.kernel();
        kv.add(KeyValues.Entry.of("kernel", k == null ? "unknown"
                : Units.orUnknown(k.release()) + ": " + Units.orUnknown(k.scheduler()) + " scheduler, preemption " + Units.orUnknown(k.preemption())));
        kv.add(KeyValues.Entry.of("CPUs", Units.orUnknown(f.onlineCpus()) + " online, " + Units.orUnknown(f.cores()) + " cores"));
        if (f.isolation() != null) {
            CpuFacts.Isolation i = f.isolation();
            kv.add(KeyValues.Entry.of("isolation", "isolcpus " + cmd(i.isolcpus()) + ", nohz_full " + cmd(i.nohzFull()) + ", rcu_nocbs "
                    + cmd(i.rcuNocbs()) + "; isolated now: " + (i.isolated() == null || i.isolated().isEmpty() ? "none" : i.isolated().toList())));
        }
        if (f.process() != null) {
            CpuFacts.ProcessCpus p = f.process();
            String quota = p.cgroup() == null || p.cgroup().quotaCpus() == null ? "no CPU quota"
                    : String.format(Locale.ROOT, "CPU quota %.1f CPUs", p.cgroup().quotaCpus());
            kv.add(KeyValues.Entry.of("this process", "may run on " + Units.orUnknown(p.cpusAllowed()) + " (" + Units.orUnknown(p.cpusAllowedCount()) + " CPUs), " + quota));
        }
        if (f.frequency() != null) {
            List<String> gov = f.frequency().governors().stream().map(s -> s.value() + " on " + s.cpus()).toList();
            kv.add(KeyValues.Entry.of("frequency", Units.orUnknown(f.frequency().status()) + (gov.isEmpty() ? "" : ": " + String.join(", ", gov))));
        }
        if (f.idle() != null) kv.add(KeyValues.Entry.of("idle", "cpuidle " + Units.orUnknown(f.idle().driver()) + ", governor " + Units.orUnknown(f.idle().governor())));
        b.add(new KeyValues(kv));
        if (f.irqs() != null && !f.irqs().devices().isEmpty()) {
            Boolean balance = f.irqs().irqbalance();
            b.add(Paragraph.of("IRQs of GPUs, NICs and NVMe drives (irqbalance " + (balance == null ? "unknown" : balance ? "running" : "not running") + ")"));
            b.add(irqs(f.irqs()));
        }
        for (CpuFacts.Feeder fd : f.feeders()) {
            b.add(Paragraph.of(fd.gpu() + " is fed best from CPUs " + Units.orUnknown(fd.allowedFeederCpus()) + " (local: " + Units.orUnknown(fd.localCpus()) + ")"));
        }
        for (String u : f.unknowns()) b.add(Note.of("unknown: " + u));
        return new Section("Scheduler, isolation, IRQs", b);
    }

    static Block.Table irqs(CpuFacts.Irqs irqs) {
        List<Column> cols = List.of(new Column("device", Align.LEFT), new Column("kind", Align.LEFT), new Column("IRQs", Align.RIGHT),
                new Column("routed to", Align.LEFT), new Column("landed on", Align.LEFT), new Column("interrupts", Align.RIGHT));
        List<List<Text>> rows = new ArrayList<>();
        for (CpuFacts.DeviceIrqs d : irqs.devices()) {
            rows.add(cells(d.device(), d.kind().toString(), Integer.toString(d.irqs().size()), Units.orUnknown(d.routedTo()), Units.orUnknown(d.landedOn()), Long.toString(d.total())));
        }
        return new Block.Table(cols, rows);
    }

    static List<Text> cells(String... s) {
        List<Text> row = new ArrayList<>();
        for (String x : s) row.add(Text.of(x));
        return row;
    }

    private static String cmd(CpuFacts.CmdlineCpus c) {
        return c == null || c.cpus() == null ? "-" : c.cpus().toList();
    }
}
