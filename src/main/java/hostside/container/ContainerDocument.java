package hostside.container;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import hostside.container.ContainerFacts.Bound;
import hostside.container.ContainerFacts.Capabilities;
import hostside.container.ContainerFacts.Cpu;
import hostside.container.ContainerFacts.Devices;
import hostside.container.ContainerFacts.Namespaces;
import hostside.container.ContainerFacts.Ns;
import hostside.core.Units;
import hostside.doc.Block;
import hostside.doc.Block.Bullets;
import hostside.doc.Block.Findings;
import hostside.doc.Block.KeyValues;
import hostside.doc.Block.Note;
import hostside.doc.Block.Paragraph;
import hostside.doc.Block.Section;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;
import hostside.doc.Document;
import hostside.doc.Text;
import hostside.process.CgroupLayout.Place;
import hostside.process.Limits;

/**
 * What {@code hostside container} shows, said once for the terminal, the report and HTML: the
 * verdict line as the title, where this runs and on what evidence, the limits on this process, the
 * DataLoader they were weighed against, the findings (each with its symptom and the flag that fixes
 * it), and what could not be read.
 */
public final class ContainerDocument {
    private ContainerDocument() {}

    public static Document of(ContainerRun run) {
        ContainerFacts f = run.facts();
        List<Block> blocks = new ArrayList<>();
        blocks.add(new Section("Where this runs", where(f)));
        blocks.add(new Section("Limits on this process", List.of(limits(f))));
        blocks.add(new Section("Privileges, GPUs and namespaces", List.of(others(f),
                new Section("Namespaces against PID 1's", List.of(namespaces(f.namespaces()))))));
        blocks.add(new Section("DataLoader weighed against", List.of(plan(run.plan()))));
        blocks.add(new Section("Findings", List.of(new Findings(run.findings(), "none"))));
        if (!f.unknowns().isEmpty()) {
            blocks.add(new Section("Not known", f.unknowns().stream().<Block>map(u -> Note.of("unknown: " + u)).toList()));
        }
        return new Document("hostside container: " + run.verdict(), blocks);
    }

    private static List<Block> where(ContainerFacts f) {
        var d = f.runtime();
        List<Block> out = new ArrayList<>();
        out.add(new Paragraph(d.inContainer() ? Text.of("In a container: ").andStrong(d.runtime()
                + (d.kubernetes() && !d.runtime().contains("Kubernetes") && !d.runtime().equals("kubernetes") ? " (Kubernetes)" : ""))
                : Text.strong("Not in a container")));
        if (!d.evidence().isEmpty()) out.add(new Bullets(d.evidence().stream().map(Text::of).toList()));
        var c = f.cgroup();
        if (c.version() == null) {
            out.add(Paragraph.of("cgroup: none mounted"));
            return out;
        }
        out.add(Paragraph.of("cgroup " + c.version() + (c.version().equals("hybrid") ? " (v1 controllers beside a cgroup2 mount)" : "")));
        List<List<Text>> rows = new ArrayList<>();
        for (Map.Entry<String, Place> e : c.places().entrySet()) {
            Place p = e.getValue();
            rows.add(List.of(Text.of(e.getKey()), Text.of(p.version() == null ? "-" : p.version()), p.path() == null ? Text.of("-") : Text.code(p.path()),
                    p.dir() != null ? Text.code(p.dir()) : Text.of(p.why())));
        }
        out.add(new Block.Table(left("controller", "version", "path (/proc/self/cgroup)", "folder"), rows));
        return out;
    }

    private static List<Column> left(String... headers) {
        return java.util.Arrays.stream(headers).map(h -> new Column(h, Align.LEFT)).toList();
    }

    private static List<Text> row(String... cells) {
        return java.util.Arrays.stream(cells).map(Text::of).toList();
    }

    /** Each limit with its value, what is in use, and the file it comes from. */
    private static Block limits(ContainerFacts f) {
        List<List<Text>> rows = new ArrayList<>();
        var m = f.memory();
        rows.add(row("memory", bytes(m.limit()), m.currentBytes() == null ? "-" : Units.bytes(m.currentBytes()), from(m.limit())
                + (m.oomKills() != null ? "; OOM kills " + m.oomKills() : "") + (m.limitHits() != null && m.limitHits() > 0 ? "; limit hit " + m.limitHits() + " times" : "")));
        if (m.high() != null) rows.add(row("memory.high", bytes(m.high()), "", from(m.high()) + (m.highHits() != null && m.highHits() > 0 ? "; exceeded " + m.highHits() + " times" : "")));
        rows.add(row("swap", bytes(m.swap()), "", from(m.swap())));
        Cpu c = f.cpu();
        rows.add(row("CPU quota", c.quotaCpus() == null ? (c.quotaSource().startsWith("none") ? "none" : "unknown") : c.quotaCpus() + " CPUs",
                c.throttledPeriods() == null || c.periods() == null || c.periods() == 0 ? "" : c.throttledPeriods() + "/" + c.periods() + " throttled",
                c.quotaSource()));
        rows.add(row("CPUs visible", c.visibleCpus() == null ? "unknown" : String.valueOf(c.visibleCpus()), "",
                (c.visibleList() == null ? "" : c.visibleList().toList() + " ") + "(Cpus_allowed_list)"
                        + (c.cpusetCpus() != null ? "; cgroup cpuset " + c.cpusetCpus().toList() : "")));
        if (c.weight() != null) rows.add(row("CPU weight", String.valueOf(c.weight()), "", "cpu.weight (default 100)"));
        if (c.shares() != null) rows.add(row("CPU shares", String.valueOf(c.shares()), "", "cpu.shares (default 1024)"));
        var p = f.pids();
        rows.add(row("pids", count(p.max()), p.current() == null ? "-" : String.valueOf(p.current()), from(p.max())
                + (p.headroom() != null ? "; room for " + p.headroom() + " more" : "")));
        var s = f.shm();
        rows.add(row("/dev/shm", s.sizeBytes() == null ? "unknown" : Units.bytes(s.sizeBytes()), s.usedBytes() == null ? "-" : Units.bytes(s.usedBytes()), s.source()));
        var l = f.limits();
        rows.add(row("memlock", rlimit(l.memlock(), true), "", "/proc/self/limits"));
        rows.add(row("open files", rlimit(l.nofile(), false), "", "/proc/self/limits"));
        rows.add(row("stack", rlimit(l.stack(), true), "", "/proc/self/limits"));
        rows.add(row("processes", rlimit(l.nproc(), false), "", "/proc/self/limits (per uid, host-wide)"));
        return new Block.Table(List.of(new Column("limit", Align.LEFT), new Column("value", Align.RIGHT), new Column("in use", Align.RIGHT),
                new Column("from", Align.LEFT)), rows);
    }

    /** Privileges, GPUs, PID 1, namespaces and the root file system: one line each. */
    private static Block others(ContainerFacts f) {
        List<KeyValues.Entry> e = new ArrayList<>();
        e.add(KeyValues.Entry.of("privileges", privileges(f.capabilities())));
        e.add(KeyValues.Entry.of("GPUs", gpus(f.devices())));
        Namespaces n = f.namespaces();
        e.add(KeyValues.Entry.of("PID 1", n.pid1() == null ? "unknown" : shorten(n.pid1(), 70) + (n.pid1Kind() == null ? "" : " (" + n.pid1Kind() + ")")));
        e.add(KeyValues.Entry.of("PID namespace", n.ownPidWhy()));
        if (n.userNamespace() != null) e.add(KeyValues.Entry.of("user namespace", (n.userNamespace() ? "own (uid_map " : "the host's (uid_map ") + n.uidMap() + ")"));
        var r = f.rootFs();
        e.add(KeyValues.Entry.of("root fs", r.readOnly() == null ? "unknown" : r.type() + ", " + (r.readOnly() ? "read-only" : "read-write")
                + (r.readOnly() ? ", /tmp " + (Boolean.TRUE.equals(r.tmpWritable()) ? "writable" : "read-only") : "")));
        return new KeyValues(e);
    }

    private static String bytes(Bound b) {
        if (b == null) return "-";
        return b.limited() ? Units.bytes(b.value()) : b.unlimited() ? "none" : "unknown";
    }

    private static String count(Bound b) {
        return b.limited() ? String.valueOf(b.value()) : b.unlimited() ? "none" : "unknown";
    }

    private static String from(Bound b) {
        return b == null ? "" : b.source();
    }

    static String rlimit(Limits.Limit l, boolean bytes) {
        if (l == null) return "unknown";
        String soft = l.softUnlimited() ? "unlimited" : bytes ? Units.bytes(l.soft()) : String.valueOf(l.soft());
        String hard = l.hardUnlimited() ? "unlimited" : bytes ? Units.bytes(l.hard()) : String.valueOf(l.hard());
        return soft.equals(hard) ? soft : soft + " (hard " + hard + ")";
    }

    private static String privileges(Capabilities c) {
        if (c == null || c.effective() == null) return "unknown";
        return "uid " + (c.uid() == null ? "unknown" : c.uid()) + "; CAP_IPC_LOCK " + yes(c.ipcLock()) + ", CAP_SYS_NICE " + yes(c.sysNice())
                + ", CAP_SYS_RESOURCE " + yes(c.sysResource()) + " (CapEff " + c.effective() + ")";
    }

    private static String gpus(Devices d) {
        List<String> parts = new ArrayList<>();
        if (d.deviceNodes() == null) parts.add("device nodes unknown (/dev not in this recording)");
        else {
            parts.add(d.deviceNodes().isEmpty() ? "no /dev/nvidiaN" : String.join(" ", d.deviceNodes()));
            parts.add("/dev/nvidiactl " + yes(d.ctl()));
            parts.add("/dev/nvidia-uvm " + yes(d.uvm()));
        }
        if (d.pciGpus() != null) parts.add(d.pciGpus() + " NVIDIA GPU" + (d.pciGpus() == 1 ? "" : "s") + " on the PCI bus");
        if (!d.envKnown()) parts.add("environment unknown: " + LiveProcess.RECORDED);
        else {
            parts.add("CUDA_VISIBLE_DEVICES " + (d.cudaVisibleDevices() == null ? "unset" : "\"" + d.cudaVisibleDevices() + "\""));
            parts.add("NVIDIA_VISIBLE_DEVICES " + (d.nvidiaVisibleDevices() == null ? "unset" : "\"" + d.nvidiaVisibleDevices() + "\""));
        }
        if (d.rdmaDevices() != null && !d.rdmaDevices().isEmpty()) parts.add("RDMA: " + String.join(", ", d.rdmaDevices()));
        return String.join("; ", parts);
    }

    private static Block namespaces(Namespaces n) {
        List<List<Text>> rows = new ArrayList<>();
        for (Ns x : n.list()) rows.add(row(x.name(), x.self() == null ? "unknown" : x.self(), x.pid1() == null ? "unknown" : x.pid1(), x.relation()));
        return new Block.Table(left("ns", "this process", "PID 1", "so"), rows);
    }

    private static Block plan(DataLoaderPlan p) {
        return new Paragraph(Text.of(p.shape() + " (intra-op threads: " + p.threadsSource() + ")"
                + (p.threads() == null ? "" : " = at least " + p.threads() + " threads") + "; " + p.prefetchFactor() + " batches of " + Units.bytes(p.batchBytes())
                + " per worker = " + Units.bytes(p.shmBytes()) + " in /dev/shm (change with ").andCode("--workers").plain(", ").andCode("--threads")
                .plain(", ").andCode("--batch-bytes").plain(")"));
    }

    private static String yes(Boolean b) {
        return b == null ? "unknown" : b ? "yes" : "no";
    }

    private static String shorten(String s, int n) {
        return s.length() > n ? s.substring(0, n) + "..." : s;
    }
}
