package hostside.checklist;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import hostside.core.Finding;
import hostside.core.Style;
import hostside.core.Table;
import hostside.core.Units;

/** The checklist on one screen: the verdict, then the six steps, each a line or a short table. */
public final class ChecklistView {
    static final int CPU_ROWS = 16, THREAD_ROWS = 8, CHILD_ROWS = 6, KERNEL_ROWS = 8, UNKNOWN_ROWS = 3;
    private static final String IN = "          ";

    private final Checklist c;
    private final Style style;
    private final StringBuilder sb = new StringBuilder();

    private ChecklistView(Checklist c, Style style) {
        this.c = c;
        this.style = style;
    }

    public static String render(Checklist c, Style style) {
        return new ChecklistView(c, style).render();
    }

    private String render() {
        Checklist.Window w = c.window();
        sb.append(style.bold("hostside checklist: PID " + c.pid() + " " + c.comm())).append(w.mode() == Checklist.Mode.LIVE
                ? String.format(Locale.ROOT, ", %.1f s (%d samples, every %d ms)%n", w.seconds(), w.samples(), w.intervalMs())
                : ", one snapshot\n");
        verdicts();
        load();
        kernel();
        cpus();
        process();
        io();
        gpus();
        unknowns();
        return sb.toString();
    }

    private void verdicts() {
        Finding v = c.verdict();
        sb.append(style.bold("VERDICT   ")).append(mark(v)).append(color(v, v.text())).append('\n');
        for (Finding f : c.verdicts().subList(1, c.verdicts().size())) sb.append(IN).append(mark(f)).append(color(f, f.text())).append('\n');
        for (String n : c.notes()) sb.append(IN).append(style.dim("note: " + n)).append('\n');
    }

    private String mark(Finding f) {
        return switch (f.severity()) {
            case BAD -> style.bad("✗ ");
            case WARN -> style.warn("! ");
            default -> "· ";
        };
    }

    private String color(Finding f, String text) {
        return f.severity() == hostside.core.Severity.BAD ? style.bad(text) : text;
    }

    private void step(int n, String name) {
        sb.append('\n').append(style.bold(n + " " + name)).append(" ".repeat(Math.max(1, IN.length() - 2 - name.length())));
    }

    private void load() {
        LoadSection l = c.load();
        step(1, "Load");
        List<String> parts = new ArrayList<>();
        if (l.loadavg() != null) {
            parts.add(String.format(Locale.ROOT, "load %.2f %.2f %.2f (1, 5, 15 min)", l.loadavg().one(), l.loadavg().five(), l.loadavg().fifteen()));
        }
        if (l.cpus() != null) parts.add(l.cpus() + " CPUs");
        if (l.procsRunning() != null) {
            parts.add("runnable " + l.procsRunning().last() + (c.window().samples() > 1
                    ? " (mean " + num(l.procsRunning().mean()) + ", most " + l.procsRunning().max() + ")" : ""));
        }
        if (l.procsBlocked() != null) parts.add("blocked on I/O " + l.procsBlocked());
        sb.append(parts.isEmpty() ? "unknown (see unknowns)" : String.join("; ", parts)).append('\n');
        if (l.pressure().isEmpty()) {
            sb.append(IN).append("PSI: not available (no /proc/pressure: a kernel without PSI, or psi=0)\n");
            return;
        }
        boolean window = l.pressure().values().stream().anyMatch(p -> p.someWindowPercent() != null);
        sb.append(IN).append(window ? "PSI over the window (kernel avg10):" : "PSI avg10:");
        for (Pressure.Resource r : Pressure.Resource.values()) {
            LoadSection.PressureUse p = l.pressure().get(r);
            if (p == null) continue;
            sb.append("  ").append(r).append(" some ").append(psi(p.someWindowPercent(), p.someAvg10()));
            if (p.fullAvg10() != null) sb.append(" full ").append(psi(p.fullWindowPercent(), p.fullAvg10()));
        }
        sb.append('\n');
    }

    private static String psi(Double window, double avg10) {
        return window == null ? num(avg10) + "%" : num(window) + "% (" + num(avg10) + ")";
    }

    private void kernel() {
        KernelSection k = c.kernel();
        step(2, "Kernel");
        if (k.notRead() != null) {
            sb.append("log not read: ").append(k.notRead()).append('\n');
            return;
        }
        if (k.events().isEmpty()) {
            sb.append(k.records()).append(" records: no OOM kill, Xid, hung task, crash of this process, MCE or EDAC report");
        } else {
            sb.append(k.records()).append(" records:");
        }
        if (k.otherCrashes() > 0) sb.append(" (").append(k.otherCrashes()).append(" crashes of other processes)");
        sb.append('\n');
        for (KernelSection.EventUse e : k.events().subList(0, Math.min(KERNEL_ROWS, k.events().size()))) {
            String m = e.hardware() || e.kind() == KernelEvent.Kind.OOM_KILL || e.thisProcess() ? style.bad("✗ ") : style.warn("! ");
            sb.append(IN).append(m).append(String.format(Locale.ROOT, "%-12s", Verdicts.age(e.ageSeconds()))).append(' ').append(event(e)).append('\n');
        }
        if (k.events().size() > KERNEL_ROWS) sb.append(IN).append("... ").append(k.events().size() - KERNEL_ROWS).append(" more in --json\n");
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

    private void cpus() {
        CpuSection s = c.cpus();
        step(3, "CPUs");
        if (s == null) {
            sb.append("not measured: ").append(c.window().ratesNotMeasured()).append('\n');
            return;
        }
        CpuSection.CpuUse a = s.all();
        sb.append(String.format(Locale.ROOT, "all: %s busy (usr %s, sys %s, iowait %s, irq %s, soft %s, steal %s)", pct(a.busy()),
                pct(a.user() + a.nice()), pct(a.system()), pct(a.iowait()), pct(a.irq()), pct(a.softirq()), pct(a.steal())));
        if (s.contextSwitchesPerSecond() != null) sb.append(String.format(Locale.ROOT, "; %,.0f context switches/s", s.contextSwitchesPerSecond()));
        sb.append('\n');
        if (!s.pegged().isEmpty()) {
            sb.append(IN).append(style.warn("pegged (≥" + (int) CpuSection.PEGGED_PERCENT + "% busy): CPU "
                    + s.pegged().stream().map(String::valueOf).collect(Collectors.joining(", ")))).append('\n');
        }
        List<CpuSection.CpuUse> rows = s.cpus();
        if (rows.size() > CPU_ROWS) {
            rows = rows.stream().sorted(Comparator.comparingDouble(CpuSection.CpuUse::busy).reversed()).limit(CPU_ROWS / 2).toList();
        }
        Table t = new Table("CPU", "usr", "nice", "sys", "iowait", "irq", "soft", "steal", "idle", "busy").right(1, 2, 3, 4, 5, 6, 7, 8, 9);
        for (CpuSection.CpuUse u : rows) {
            t.row(u.cpu(), num(u.user()), num(u.nice()), num(u.system()), num(u.iowait()), num(u.irq()), num(u.softirq()), num(u.steal()),
                    num(u.idle()), num(u.busy()));
        }
        sb.append(t.render(IN));
        if (rows.size() < s.cpus().size()) {
            sb.append(IN).append("the busiest ").append(rows.size()).append(" of ").append(s.cpus().size()).append(" CPUs (--json has all)\n");
        }
    }

    private void process() {
        ProcessSection p = c.process();
        step(4, "Process");
        List<String> head = new ArrayList<>();
        head.add(p.comm() + ", " + p.state());
        if (p.cpuPercent() != null) head.add(pct(p.cpuPercent()) + " CPU");
        head.add(p.threads() + (p.threads() == 1 ? " thread" : " threads"));
        head.add("RSS " + Units.bytes(p.rssBytes()) + ", PSS " + (p.pssBytes() == null ? "unknown (" + p.memoryNotRead() + ")" : Units.bytes(p.pssBytes())));
        sb.append(String.join(", ", head)).append('\n');
        List<String> more = new ArrayList<>();
        if (p.minorFaultsPerSecond() != null) more.add("faults " + num(p.minorFaultsPerSecond()) + "/s minor, " + num(p.majorFaultsPerSecond()) + "/s major");
        more.add(p.io() == null ? "I/O not read (" + p.ioNotRead() + ")"
                : "disk read " + mbps(p.io().readBytesPerSecond()) + ", write " + mbps(p.io().writeBytesPerSecond())
                        + " (all read/write calls: " + mbps(p.io().rcharPerSecond()) + " in, " + mbps(p.io().wcharPerSecond()) + " out)");
        sb.append(IN).append(String.join("; ", more)).append('\n');
        sb.append(IN).append("cgroup ").append(p.cgroup() == null ? "unknown" : p.cgroup()).append("; allowed CPUs ")
                .append(p.cpusAllowed() == null ? "unknown" : p.cpusAllowed()).append('\n');
        Table t = new Table("TID", "thread", "CPU%", "state", "core", "vol/s", "invol/s").right(0, 2, 4, 5, 6);
        for (ProcessSection.ThreadUse u : p.threadList().subList(0, Math.min(THREAD_ROWS, p.threadList().size()))) {
            t.row(u.tid(), u.name(), num(u.cpuPercent()), states(u.stateShares(), u.state()) + (u.ended() ? " (ended)" : ""),
                    u.lastCpu(), num(u.voluntarySwitchesPerSecond()), num(u.involuntarySwitchesPerSecond()));
        }
        sb.append(t.render(IN));
        if (p.threadList().size() > THREAD_ROWS) sb.append(IN).append("the busiest ").append(THREAD_ROWS).append(" of ").append(p.threadList().size()).append(" threads\n");
        ProcessSection.Children ch = p.children();
        if (ch.count() == 0) {
            sb.append(IN).append("no processes below it\n");
            return;
        }
        sb.append(IN).append("below it: ").append(ch.count()).append(ch.count() == 1 ? " process" : " processes")
                .append(ch.cpuPercent() == null ? "" : ", " + pct(ch.cpuPercent()) + " CPU")
                .append(", RSS ").append(Units.bytes(ch.rssBytes())).append(", PSS ").append(ch.pssBytes() == null ? "unknown" : Units.bytes(ch.pssBytes()))
                .append('\n');
        Table k = new Table("PID", "name", "CPU%", "state", "core", "RSS", "PSS").right(0, 2, 4);
        for (ProcessSection.ChildUse u : ch.list().subList(0, Math.min(CHILD_ROWS, ch.list().size()))) {
            k.row(u.pid(), u.comm(), num(u.cpuPercent()), u.state(), u.lastCpu(), Units.bytes(u.rssBytes()), u.pssBytes() == null ? "?" : Units.bytes(u.pssBytes()));
        }
        sb.append(k.render(IN + "  "));
    }

    /** "R" or, for a thread seen in several states, "R 60% D 40%". */
    private static String states(Map<TaskState, Double> shares, TaskState last) {
        if (shares.size() <= 1) return last.json();
        return shares.entrySet().stream().map(e -> e.getKey() + " " + Math.round(e.getValue() * 100) + "%").collect(Collectors.joining(" "));
    }

    private void io() {
        IoSection io = c.io();
        step(5, "I/O");
        if (io == null) {
            sb.append("not measured: ").append(c.window().ratesNotMeasured()).append('\n');
            return;
        }
        List<IoSection.DiskUse> disks = io.disks().stream().filter(d -> d.utilPercent() > 0 || d.readsPerSecond() + d.writesPerSecond() > 0).toList();
        List<IoSection.NetUse> nets = io.networks().stream().filter(n -> n.rxPacketsPerSecond() + n.txPacketsPerSecond() > 0
                || n.rxErrors() + n.rxDrops() + n.txErrors() + n.txDrops() > 0).toList();
        sb.append(disks.isEmpty() ? "no disk I/O in the window" : "disks").append("; ").append(nets.isEmpty() ? "no network traffic" : "network").append('\n');
        if (!disks.isEmpty()) {
            Table t = new Table("disk", "read MB/s", "write MB/s", "r/s", "w/s", "await ms", "util%").right(1, 2, 3, 4, 5, 6);
            for (IoSection.DiskUse d : disks) {
                t.row(d.name(), mb(d.readBytesPerSecond()), mb(d.writeBytesPerSecond()), num(d.readsPerSecond()), num(d.writesPerSecond()),
                        num(d.awaitMs()), num(d.utilPercent()));
            }
            sb.append(t.render(IN));
        }
        if (!nets.isEmpty()) {
            Table t = new Table("interface", "rx MB/s", "tx MB/s", "rx pkt/s", "tx pkt/s", "drops", "errors").right(1, 2, 3, 4, 5, 6);
            for (IoSection.NetUse n : nets) {
                t.row(n.name(), mb(n.rxBytesPerSecond()), mb(n.txBytesPerSecond()), num(n.rxPacketsPerSecond()), num(n.txPacketsPerSecond()),
                        n.rxDrops() + n.txDrops(), n.rxErrors() + n.txErrors());
            }
            sb.append(t.render(IN));
        }
    }

    private void gpus() {
        GpuSection g = c.gpus();
        step(6, "GPUs");
        if (g.notRead() != null) {
            sb.append("not read: ").append(g.notRead()).append('\n');
            return;
        }
        sb.append(g.gpus().size()).append(g.gpus().size() == 1 ? " GPU" : " GPUs").append(" (NVML)\n");
        Table t = new Table("GPU", "name", "util% (min-max)", "mem%", "memory", "power W", "SM MHz", "clocks held by", "PCIe TX/RX MB/s", "this process")
                .right(0, 3, 5, 6);
        for (GpuSection.GpuUse u : g.gpus()) {
            String held = u.clocksEventReasons().isEmpty() ? "-" : u.clocksEventReasons().entrySet().stream()
                    .map(e -> e.getKey() + " " + Math.round(e.getValue() * 100) + "%").collect(Collectors.joining(", "));
            t.row(u.index(), u.name(), num(u.utilPercent()) + (u.utilMin() == null ? "" : " (" + u.utilMin() + "-" + u.utilMax() + ")"),
                    num(u.memoryUtilPercent()), Units.bytes(u.memoryUsedBytes()) + " of " + Units.bytes(u.memoryTotalBytes()),
                    num(u.powerWatts()) + "/" + num(u.powerLimitWatts()), num(u.smClockMhz()) + "/" + (u.smClockMaxMhz() == null ? "?" : u.smClockMaxMhz()),
                    held, kb(u.pcieTxKBps()) + "/" + kb(u.pcieRxKBps()), u.usedByProcess() ? "yes" : u.processes().isEmpty() ? "-" : "no");
        }
        sb.append(t.render(IN));
    }

    private void unknowns() {
        List<String> u = c.unknowns();
        if (u.isEmpty()) return;
        sb.append('\n').append(style.dim("unknown: " + u.size() + (u.size() == 1 ? " figure" : " figures") + " could not be read"
                + (u.size() > UNKNOWN_ROWS ? " (--json lists all)" : ""))).append('\n');
        for (String s : u.subList(0, Math.min(UNKNOWN_ROWS, u.size()))) sb.append(IN).append(style.dim(s)).append('\n');
    }

    private static String num(Double v) {
        if (v == null) return "?";
        return v >= 100 || v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String pct(double v) {
        return num(v) + "%";
    }

    /** Bytes per second in MB/s (10^6 bytes), as iostat and the field write them. */
    private static String mb(double bytesPerSecond) {
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
