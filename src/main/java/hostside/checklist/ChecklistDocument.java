package hostside.checklist;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import hostside.core.Figure;
import hostside.core.Units;
import hostside.doc.Block;
import hostside.doc.Block.Bullets;
import hostside.doc.Block.Findings;
import hostside.doc.Block.KeyValues;
import hostside.doc.Block.Note;
import hostside.doc.Block.Paragraph;
import hostside.doc.Block.Section;
import hostside.doc.Block.Table;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;
import hostside.doc.Document;
import hostside.doc.Text;
import hostside.process.Pressure;
import hostside.process.TaskState;

/**
 * The checklist, said once for the terminal, Markdown and HTML: the verdict and the notes on top,
 * then the six steps in the order an on-call engineer reads them (load, kernel, CPUs, process,
 * I/O, GPUs), what could not be read, and the typed figures. Long lists are cut to what fits one
 * screen, since a checklist is read in a minute; the JSON has every row.
 */
public final class ChecklistDocument {
    /** Rows shown before a list is cut: a 64-CPU machine or a 200-thread JVM still fits one screen. */
    static final int CPU_ROWS = 16, THREAD_ROWS = 8, CHILD_ROWS = 6, KERNEL_ROWS = 8, UNKNOWN_ROWS = 3;

    private ChecklistDocument() {}

    public static Document of(Checklist c) {
        List<Block> blocks = new ArrayList<>();
        blocks.add(verdict(c));
        blocks.add(load(c));
        blocks.add(kernel(c));
        blocks.add(cpus(c));
        blocks.add(process(c));
        blocks.add(io(c));
        blocks.add(gpus(c));
        if (!c.unknowns().isEmpty()) blocks.add(unknowns(c));
        if (!c.figures().isEmpty()) blocks.add(figures(c.figures()));
        return new Document("hostside checklist: PID " + c.pid() + " " + c.comm(), window(c.window()), blocks);
    }

    /** "2.0 s from 2026-12-02T12:00:00Z (5 samples, every 500 ms)", or "one snapshot". */
    private static String window(Checklist.Window w) {
        if (w.mode() == Checklist.Mode.SNAPSHOT) return "one snapshot";
        return String.format(Locale.ROOT, "%.1f s%s (%d samples, every %d ms)", w.seconds(),
                w.startedAt() == null ? "" : " from " + w.startedAt(), w.samples(), w.intervalMs());
    }

    /** The verdicts, most urgent first (the first is the verdict), and what the reader must know to read the figures. */
    private static Section verdict(Checklist c) {
        List<Block> b = new ArrayList<>();
        b.add(new Findings(c.verdicts(), ""));
        for (String n : c.notes()) b.add(Note.of("note: " + n));
        return new Section("Verdict", b);
    }

    private static Section load(Checklist c) {
        LoadSection l = c.load();
        List<Block> b = new ArrayList<>();
        List<KeyValues.Entry> kv = new ArrayList<>();
        if (l.loadavg() != null) {
            kv.add(KeyValues.Entry.of("load", String.format(Locale.ROOT, "%.2f %.2f %.2f (1, 5, 15 min)", l.loadavg().one(), l.loadavg().five(),
                    l.loadavg().fifteen())));
        }
        if (l.cpus() != null) kv.add(KeyValues.Entry.of("CPUs", Integer.toString(l.cpus())));
        if (l.procsRunning() != null) {
            kv.add(KeyValues.Entry.of("runnable", l.procsRunning().last() + (c.window().samples() > 1
                    ? " (mean " + num(l.procsRunning().mean()) + ", most " + l.procsRunning().max() + ")" : "")));
        }
        if (l.procsBlocked() != null) kv.add(KeyValues.Entry.of("blocked on I/O", Long.toString(l.procsBlocked())));
        b.add(kv.isEmpty() ? Note.of("unknown (see unknowns)") : new KeyValues(kv));
        if (l.pressure().isEmpty()) {
            b.add(Note.of("PSI: not available (no /proc/pressure: a kernel without PSI, or psi=0)"));
            return new Section("1 Load", b);
        }
        // the window's own share where there are two samples; the kernel's 10-second average either way
        boolean window = l.pressure().values().stream().anyMatch(p -> p.someWindowPercent() != null);
        List<Column> cols = new ArrayList<>(List.of(new Column("PSI", Align.LEFT)));
        if (window) cols.add(new Column("some % of window", Align.RIGHT));
        cols.add(new Column("some avg10", Align.RIGHT));
        if (window) cols.add(new Column("full % of window", Align.RIGHT));
        cols.add(new Column("full avg10", Align.RIGHT));
        List<List<Text>> rows = new ArrayList<>();
        for (Map.Entry<Pressure.Resource, LoadSection.PressureUse> e : l.pressure().entrySet()) {
            LoadSection.PressureUse p = e.getValue();
            List<String> r = new ArrayList<>(List.of(e.getKey().json()));
            if (window) r.add(num(p.someWindowPercent()));
            r.add(num(p.someAvg10()));
            if (window) r.add(p.fullAvg10() == null ? "-" : num(p.fullWindowPercent()));
            r.add(p.fullAvg10() == null ? "-" : num(p.fullAvg10()));
            rows.add(cells(r));
        }
        b.add(new Table(cols, rows));
        return new Section("1 Load", b);
    }

    private static Section kernel(Checklist c) {
        KernelSection k = c.kernel();
        if (k.notRead() != null) return new Section("2 Kernel", List.of(Note.of("log not read: " + k.notRead())));
        List<Block> b = new ArrayList<>();
        String head = k.records() + " records" + (k.events().isEmpty() ? ": no OOM kill, Xid, hung task, crash of this process, MCE or EDAC report" : "")
                + (k.otherCrashes() > 0 ? " (" + k.otherCrashes() + " crashes of other processes)" : "");
        b.add(Paragraph.of(head));
        if (k.events().isEmpty()) return new Section("2 Kernel", b);
        List<List<Text>> rows = new ArrayList<>();
        for (KernelSection.EventUse e : k.events().subList(0, Math.min(KERNEL_ROWS, k.events().size()))) {
            // ✗ costs the job now (a GPU or machine fault, a kill, this process's own trouble); ! is worth a look
            boolean bad = e.hardware() || e.kind() == KernelEvent.Kind.OOM_KILL || e.thisProcess();
            rows.add(List.of(bad ? Text.strong("✗") : Text.of("!"), Text.of(Verdicts.age(e.ageSeconds())), Text.of(event(e))));
        }
        b.add(new Table(List.of(new Column("", Align.LEFT), new Column("when", Align.LEFT), new Column("event", Align.LEFT)), rows));
        if (k.events().size() > KERNEL_ROWS) b.add(Note.of("... " + (k.events().size() - KERNEL_ROWS) + " more in --json"));
        return new Section("2 Kernel", b);
    }

    private static String event(KernelSection.EventUse e) {
        String times = e.count() > 1 ? " (" + e.count() + " times)" : "";
        return switch (e.kind()) {
            case OOM_KILL -> "OOM kill of " + e.process() + " (" + e.pid() + ")" + (e.thisProcess() ? ", this process" : "")
                    + (e.cgroupLimit() ? ", by its cgroup's limit" : "");
            case XID -> "Xid " + e.xid() + " on " + e.pci() + times + ": " + e.meaning() + (e.thisProcess() ? " (this process)" : "");
            case HUNG_TASK -> "hung task " + e.process() + " (" + e.pid() + ")" + times;
            case SEGFAULT -> "crash of " + e.process() + " (" + e.pid() + ")" + times + ": " + e.text();
            case MCE, EDAC -> e.kind().json().toUpperCase(Locale.ROOT) + times + ": " + e.text();
        };
    }

    private static Section cpus(Checklist c) {
        CpuSection s = c.cpus();
        if (s == null) return new Section("3 CPUs", List.of(Note.of("not measured: " + c.window().ratesNotMeasured())));
        List<Block> b = new ArrayList<>();
        CpuSection.CpuUse a = s.all();
        List<KeyValues.Entry> kv = new ArrayList<>();
        kv.add(KeyValues.Entry.of("all", pct(a.busy()) + " busy (usr " + pct(a.user() + a.nice()) + ", sys " + pct(a.system()) + ", iowait "
                + pct(a.iowait()) + ", irq " + pct(a.irq()) + ", soft " + pct(a.softirq()) + ", steal " + pct(a.steal()) + ")"));
        if (s.contextSwitchesPerSecond() != null) {
            kv.add(KeyValues.Entry.of("context switches", String.format(Locale.ROOT, "%,.0f/s", s.contextSwitchesPerSecond())));
        }
        if (!s.pegged().isEmpty()) {
            kv.add(KeyValues.Entry.of("pegged (≥" + (int) CpuSection.PEGGED_PERCENT + "% busy)",
                    "CPU " + s.pegged().stream().map(String::valueOf).collect(Collectors.joining(", "))));
        }
        b.add(new KeyValues(kv));
        List<CpuSection.CpuUse> rows = s.cpus();
        if (rows.size() > CPU_ROWS) {
            rows = rows.stream().sorted(Comparator.comparingDouble(CpuSection.CpuUse::busy).reversed()).limit(CPU_ROWS / 2).toList();
        }
        List<List<Text>> t = new ArrayList<>();
        for (CpuSection.CpuUse u : rows) {
            t.add(cells(List.of(u.cpu(), num(u.user()), num(u.nice()), num(u.system()), num(u.iowait()), num(u.irq()), num(u.softirq()),
                    num(u.steal()), num(u.idle()), num(u.busy()))));
        }
        b.add(new Table(columns("CPU", "usr", "nice", "sys", "iowait", "irq", "soft", "steal", "idle", "busy"), t));
        if (rows.size() < s.cpus().size()) b.add(Note.of("the busiest " + rows.size() + " of " + s.cpus().size() + " CPUs (--json has all)"));
        return new Section("3 CPUs", b);
    }

    private static Section process(Checklist c) {
        ProcessSection p = c.process();
        List<Block> b = new ArrayList<>();
        List<KeyValues.Entry> kv = new ArrayList<>();
        // one line as the field reads a process: what it is, how busy, how many threads
        kv.add(KeyValues.Entry.of("process", p.comm() + ", " + p.state() + (p.cpuPercent() == null ? "" : ", " + pct(p.cpuPercent()) + " CPU")
                + ", " + p.threads() + (p.threads() != null && p.threads() == 1 ? " thread" : " threads")));
        kv.add(KeyValues.Entry.of("memory", "RSS " + Units.bytes(p.rssBytes()) + ", PSS "
                + (p.pssBytes() == null ? "unknown (" + p.memoryNotRead() + ")" : Units.bytes(p.pssBytes()))));
        if (p.minorFaultsPerSecond() != null) {
            kv.add(KeyValues.Entry.of("faults", num(p.minorFaultsPerSecond()) + "/s minor, " + num(p.majorFaultsPerSecond()) + "/s major"));
        }
        kv.add(KeyValues.Entry.of("I/O", p.io() == null ? "not read (" + p.ioNotRead() + ")"
                : "disk read " + mbps(p.io().readBytesPerSecond()) + ", write " + mbps(p.io().writeBytesPerSecond())
                        + " (all read/write calls: " + mbps(p.io().rcharPerSecond()) + " in, " + mbps(p.io().wcharPerSecond()) + " out)"));
        kv.add(new KeyValues.Entry("cgroup", p.cgroup() == null ? Text.of("unknown") : Text.code(p.cgroup())));
        kv.add(KeyValues.Entry.of("allowed CPUs", p.cpusAllowed() == null ? "unknown" : p.cpusAllowed().toList()));
        b.add(new KeyValues(kv));
        b.add(threads(p));
        b.add(children(p.children()));
        return new Section("4 Process", b);
    }

    private static Section threads(ProcessSection p) {
        List<List<Text>> rows = new ArrayList<>();
        for (ProcessSection.ThreadUse u : p.threadList().subList(0, Math.min(THREAD_ROWS, p.threadList().size()))) {
            rows.add(cells(List.of(Long.toString(u.tid()), u.name(), num(u.cpuPercent()), states(u.stateShares(), u.state()) + (u.ended() ? " (ended)" : ""),
                    u.lastCpu() == null ? "?" : u.lastCpu().toString(), num(u.voluntarySwitchesPerSecond()), num(u.involuntarySwitchesPerSecond()))));
        }
        List<Column> cols = List.of(new Column("TID", Align.RIGHT), new Column("thread", Align.LEFT), new Column("CPU%", Align.RIGHT),
                new Column("state", Align.LEFT), new Column("core", Align.RIGHT), new Column("vol/s", Align.RIGHT), new Column("invol/s", Align.RIGHT));
        List<Block> b = new ArrayList<>(List.of(new Table(cols, rows)));
        if (p.threadList().size() > THREAD_ROWS) b.add(Note.of("the busiest " + THREAD_ROWS + " of " + p.threadList().size() + " threads"));
        return new Section("threads", b);
    }

    /** "R" or, for a thread seen in several states, "R 60% D 40%". */
    private static String states(Map<TaskState, Double> shares, TaskState last) {
        if (shares.size() <= 1) return last.json();
        return shares.entrySet().stream().map(e -> e.getKey().json() + " " + Math.round(e.getValue() * 100) + "%").collect(Collectors.joining(" "));
    }

    /** The processes below it (DataLoader workers), summed and each. */
    private static Section children(ProcessSection.Children ch) {
        if (ch.count() == 0) return new Section("below it", List.of(Paragraph.of("no processes below it")));
        List<Block> b = new ArrayList<>();
        b.add(Paragraph.of(ch.count() + (ch.count() == 1 ? " process" : " processes") + (ch.cpuPercent() == null ? "" : ", " + pct(ch.cpuPercent()) + " CPU")
                + ", RSS " + Units.bytes(ch.rssBytes()) + ", PSS " + Units.bytes(ch.pssBytes())));
        List<List<Text>> rows = new ArrayList<>();
        for (ProcessSection.ChildUse u : ch.list().subList(0, Math.min(CHILD_ROWS, ch.list().size()))) {
            rows.add(cells(List.of(Long.toString(u.pid()), u.comm(), num(u.cpuPercent()), u.state().json(), u.lastCpu() == null ? "?" : u.lastCpu().toString(),
                    Units.bytes(u.rssBytes()), u.pssBytes() == null ? "?" : Units.bytes(u.pssBytes()))));
        }
        b.add(new Table(List.of(new Column("PID", Align.RIGHT), new Column("name", Align.LEFT), new Column("CPU%", Align.RIGHT),
                new Column("state", Align.LEFT), new Column("core", Align.RIGHT), new Column("RSS", Align.RIGHT), new Column("PSS", Align.RIGHT)), rows));
        if (ch.list().size() > CHILD_ROWS) b.add(Note.of("the busiest " + CHILD_ROWS + " of " + ch.list().size() + " processes"));
        return new Section("below it", b);
    }

    /** Disks and interfaces that moved anything in the window (or dropped or failed a packet). */
    private static Section io(Checklist c) {
        IoSection io = c.io();
        if (io == null) return new Section("5 I/O", List.of(Note.of("not measured: " + c.window().ratesNotMeasured())));
        List<IoSection.DiskUse> disks = io.disks().stream().filter(d -> d.utilPercent() > 0 || d.readsPerSecond() + d.writesPerSecond() > 0).toList();
        List<IoSection.NetUse> nets = io.networks().stream().filter(n -> n.rxPacketsPerSecond() + n.txPacketsPerSecond() > 0
                || n.rxErrors() + n.rxDrops() + n.txErrors() + n.txDrops() > 0).toList();
        List<Block> b = new ArrayList<>();
        if (disks.isEmpty()) {
            b.add(Paragraph.of("no disk I/O in the window"));
        } else {
            List<List<Text>> rows = new ArrayList<>();
            for (IoSection.DiskUse d : disks) {
                rows.add(cells(List.of(d.name(), mb(d.readBytesPerSecond()), mb(d.writeBytesPerSecond()), num(d.readsPerSecond()), num(d.writesPerSecond()),
                        num(d.awaitMs()), num(d.utilPercent()))));
            }
            b.add(new Table(columns("disk", "read MB/s", "write MB/s", "r/s", "w/s", "await ms", "util%"), rows));
        }
        if (nets.isEmpty()) {
            b.add(Paragraph.of("no network traffic"));
        } else {
            List<List<Text>> rows = new ArrayList<>();
            for (IoSection.NetUse n : nets) {
                rows.add(cells(List.of(n.name(), mb(n.rxBytesPerSecond()), mb(n.txBytesPerSecond()), num(n.rxPacketsPerSecond()), num(n.txPacketsPerSecond()),
                        Long.toString(n.rxDrops() + n.txDrops()), Long.toString(n.rxErrors() + n.txErrors()))));
            }
            b.add(new Table(columns("interface", "rx MB/s", "tx MB/s", "rx pkt/s", "tx pkt/s", "drops", "errors"), rows));
        }
        return new Section("5 I/O", b);
    }

    private static Section gpus(Checklist c) {
        GpuSection g = c.gpus();
        if (g.notRead() != null) return new Section("6 GPUs", List.of(Note.of("not read: " + g.notRead())));
        List<Block> b = new ArrayList<>();
        b.add(Paragraph.of(g.gpus().size() + (g.gpus().size() == 1 ? " GPU" : " GPUs") + " (NVML)"));
        if (g.gpus().isEmpty()) return new Section("6 GPUs", b);
        List<List<Text>> rows = new ArrayList<>();
        for (GpuSection.GpuUse u : g.gpus()) {
            String held = u.clocksEventReasons().isEmpty() ? "-" : u.clocksEventReasons().entrySet().stream()
                    .map(e -> e.getKey() + " " + Math.round(e.getValue() * 100) + "%").collect(Collectors.joining(", "));
            rows.add(cells(List.of(Integer.toString(u.index()), u.name() == null ? "?" : u.name(),
                    num(u.utilPercent()) + (u.utilMin() == null ? "" : " (" + u.utilMin() + "-" + u.utilMax() + ")"),
                    num(u.memoryUtilPercent()), Units.bytes(u.memoryUsedBytes()) + " of " + Units.bytes(u.memoryTotalBytes()),
                    num(u.powerWatts()) + "/" + num(u.powerLimitWatts()), num(u.smClockMhz()) + "/" + (u.smClockMaxMhz() == null ? "?" : u.smClockMaxMhz()),
                    held, kb(u.pcieTxKBps()) + "/" + kb(u.pcieRxKBps()), u.usedByProcess() ? "yes" : u.processes().isEmpty() ? "-" : "no")));
        }
        List<Column> cols = List.of(new Column("GPU", Align.RIGHT), new Column("name", Align.LEFT), new Column("util% mean (min-max)", Align.LEFT),
                new Column("mem%", Align.RIGHT), new Column("memory", Align.LEFT), new Column("power W", Align.RIGHT), new Column("SM MHz", Align.RIGHT),
                new Column("clocks held by", Align.LEFT), new Column("PCIe TX/RX MB/s", Align.LEFT), new Column("this process", Align.LEFT));
        b.add(new Table(cols, rows));
        return new Section("6 GPUs", b);
    }

    private static Section unknowns(Checklist c) {
        List<String> u = c.unknowns();
        List<Block> b = new ArrayList<>();
        b.add(Note.of(u.size() + (u.size() == 1 ? " figure" : " figures") + " could not be read" + (u.size() > UNKNOWN_ROWS ? " (--json lists all)" : "")));
        b.add(new Bullets(u.subList(0, Math.min(UNKNOWN_ROWS, u.size())).stream().map(Text::of).toList()));
        return new Section("Unknown", b);
    }

    /** The typed figures of the JSON: the median of the window's samples with the least and the most. */
    private static Section figures(List<Figure> figures) {
        List<List<Text>> rows = new ArrayList<>();
        for (Figure f : figures) {
            rows.add(List.of(Text.code(f.key()), Text.of(f.scope().toString()), Text.of(Units.figure(f.value())), Text.of(Units.figure(f.min())),
                    Text.of(Units.figure(f.max())), Text.of(f.unit().symbol()), Text.of(Integer.toString(f.samples()))));
        }
        return new Section("Figures", List.of(new Table(List.of(new Column("figure", Align.LEFT), new Column("scope", Align.LEFT),
                new Column("median", Align.RIGHT), new Column("min", Align.RIGHT), new Column("max", Align.RIGHT), new Column("unit", Align.LEFT),
                new Column("samples", Align.RIGHT)), rows)));
    }

    /** The first column left-aligned (a name), the rest right (figures). */
    private static List<Column> columns(String first, String... figures) {
        List<Column> out = new ArrayList<>(List.of(new Column(first, Align.LEFT)));
        for (String f : figures) out.add(new Column(f, Align.RIGHT));
        return out;
    }

    private static List<Text> cells(List<String> plain) {
        return plain.stream().map(Text::of).toList();
    }

    /** Whole from 100 up and for whole values, one decimal below: the precision a window's figure deserves. */
    static String num(Double v) {
        if (v == null) return "?";
        return v >= 100 || v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }

    static String pct(double v) {
        return num(v) + "%";
    }

    /** Bytes per second in MB/s (10^6 bytes), as iostat and the field write them. */
    static String mb(double bytesPerSecond) {
        return String.format(Locale.ROOT, "%.1f", bytesPerSecond / 1e6);
    }

    private static String mbps(double bytesPerSecond) {
        return mb(bytesPerSecond) + " MB/s";
    }

    /** NVML's KB/s as MB/s. */
    private static String kb(Double kbps) {
        return kbps == null ? "?" : String.format(Locale.ROOT, "%.0f", kbps / 1e3);
    }
}
