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
import hostside.container.ContainerFacts.Place;
import hostside.core.Style;
import hostside.core.Table;
import hostside.core.Units;
import hostside.process.Limits;

/** The human view of one {@code hostside container} run: the verdict, the limits, the findings. */
public final class ContainerView {
    private final ContainerRun run;
    private final Style style;

    public ContainerView(ContainerRun run, Style style) {
        this.run = run;
        this.style = style;
    }

    public String render() {
        ContainerFacts f = run.facts();
        StringBuilder sb = new StringBuilder();
        sb.append(style.bold("hostside container: " + run.verdict())).append("\n\n");
        where(sb, f);
        sb.append('\n').append(style.bold("Limits on this process")).append('\n').append(limits(f).render("  "));
        sb.append('\n');
        Table t = new Table("", "");
        t.row("privileges", privileges(f.capabilities()));
        t.row("GPUs", gpus(f.devices()));
        Namespaces n = f.namespaces();
        t.row("PID 1", n.pid1() == null ? "unknown" : shorten(n.pid1(), 70) + (n.pid1Kind() == null ? "" : " (" + n.pid1Kind() + ")"));
        t.row("PID namespace", n.ownPidWhy());
        if (n.userNamespace() != null) t.row("user namespace", (n.userNamespace() ? "own (uid_map " : "the host's (uid_map ") + n.uidMap() + ")");
        var r = f.rootFs();
        t.row("root fs", r.readOnly() == null ? "unknown" : r.type() + ", " + (r.readOnly() ? "read-only" : "read-write")
                + (r.readOnly() ? ", /tmp " + (Boolean.TRUE.equals(r.tmpWritable()) ? "writable" : "read-only") : ""));
        sb.append(t.render("").replaceFirst("^\\s*\n", ""));
        sb.append("\n  namespaces against PID 1's\n").append(namespaces(n).render("  "));
        sb.append('\n').append(plan(run.plan())).append("\n\n");
        hostside.core.FindingLines.render(sb, run.findings(), style);
        for (String u : f.unknowns()) sb.append("  ").append(style.dim("unknown: " + u)).append('\n');
        return sb.toString();
    }

    private void where(StringBuilder sb, ContainerFacts f) {
        var d = f.runtime();
        sb.append(d.inContainer() ? "In a container: " + d.runtime() + (d.kubernetes() && !d.runtime().contains("Kubernetes")
                && !d.runtime().equals("kubernetes") ? " (Kubernetes)" : "") : "Not in a container").append('\n');
        for (String e : d.evidence()) sb.append("  · ").append(e).append('\n');
        var c = f.cgroup();
        if (c.version() == null) {
            sb.append("cgroup: none mounted\n");
            return;
        }
        sb.append("cgroup ").append(c.version()).append(c.version().equals("hybrid") ? " (v1 controllers beside a cgroup2 mount)" : "").append('\n');
        Table t = new Table("controller", "version", "path (/proc/self/cgroup)", "folder");
        for (Map.Entry<String, Place> e : c.places().entrySet()) {
            Place p = e.getValue();
            t.row(e.getKey(), p.version() == null ? "-" : p.version(), p.path() == null ? "-" : p.path(), p.dir() != null ? p.dir() : p.why());
        }
        sb.append(t.render("  "));
    }

    private static Table limits(ContainerFacts f) {
        Table t = new Table("limit", "value", "in use", "from").right(1, 2);
        var m = f.memory();
        t.row("memory", bytes(m.limit()), m.currentBytes() == null ? "-" : Units.bytes(m.currentBytes()), from(m.limit())
                + (m.oomKills() != null ? "; OOM kills " + m.oomKills() : "") + (m.limitHits() != null && m.limitHits() > 0 ? "; limit hit " + m.limitHits() + " times" : ""));
        if (m.high() != null) t.row("memory.high", bytes(m.high()), "", from(m.high()) + (m.highHits() != null && m.highHits() > 0 ? "; exceeded " + m.highHits() + " times" : ""));
        t.row("swap", bytes(m.swap()), "", from(m.swap()));
        Cpu c = f.cpu();
        t.row("CPU quota", c.quotaCpus() == null ? (c.quotaSource().startsWith("none") ? "none" : "unknown") : c.quotaCpus() + " CPUs",
                c.throttledPeriods() == null || c.periods() == null || c.periods() == 0 ? "" : c.throttledPeriods() + "/" + c.periods() + " throttled",
                c.quotaSource());
        t.row("CPUs visible", c.visibleCpus() == null ? "unknown" : String.valueOf(c.visibleCpus()), "",
                (c.visibleList() == null ? "" : c.visibleList() + " ") + "(Cpus_allowed_list)" + (c.cpusetCpus() != null ? "; cgroup cpuset " + c.cpusetCpus() : ""));
        if (c.weight() != null) t.row("CPU weight", String.valueOf(c.weight()), "", "cpu.weight (default 100)");
        if (c.shares() != null) t.row("CPU shares", String.valueOf(c.shares()), "", "cpu.shares (default 1024)");
        var p = f.pids();
        t.row("pids", count(p.max()), p.current() == null ? "-" : String.valueOf(p.current()), from(p.max())
                + (p.headroom() != null ? "; room for " + p.headroom() + " more" : ""));
        var s = f.shm();
        t.row("/dev/shm", s.sizeBytes() == null ? "unknown" : Units.bytes(s.sizeBytes()), s.usedBytes() == null ? "-" : Units.bytes(s.usedBytes()),
                s.source());
        var l = f.limits();
        t.row("memlock", rlimit(l.memlock(), true), "", "/proc/self/limits");
        t.row("open files", rlimit(l.nofile(), false), "", "/proc/self/limits");
        t.row("stack", rlimit(l.stack(), true), "", "/proc/self/limits");
        t.row("processes", rlimit(l.nproc(), false), "", "/proc/self/limits (per uid, host-wide)");
        return t;
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

    private static Table namespaces(Namespaces n) {
        Table t = new Table("ns", "this process", "PID 1", "so");
        for (Ns x : n.list()) t.row(x.name(), x.self() == null ? "unknown" : x.self(), x.pid1() == null ? "unknown" : x.pid1(), x.relation());
        return t;
    }

    private static String plan(DataLoaderPlan p) {
        return "DataLoader weighed against: " + p.workers() + " workers + the main process, up to "
                + (p.threadsPerProcess() == null ? "unknown" : String.valueOf(p.threadsPerProcess())) + " threads each (" + p.threadsSource() + ")"
                + (p.threads() == null ? "" : " = " + p.threads() + " threads") + "; " + p.prefetchFactor() + " batches of " + Units.bytes(p.batchBytes())
                + " per worker = " + Units.bytes(p.shmBytes()) + " in /dev/shm (change with --workers, --threads, --batch-bytes)";
    }

    private static String yes(Boolean b) {
        return b == null ? "unknown" : b ? "yes" : "no";
    }

    private static String shorten(String s, int n) {
        return s.length() > n ? s.substring(0, n) + "..." : s;
    }
}
