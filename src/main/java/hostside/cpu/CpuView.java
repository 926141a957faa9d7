package hostside.cpu;

import java.util.Locale;
import hostside.core.Distribution;

import hostside.cpu.facts.CpuFacts;
import hostside.harness.Result;
import hostside.core.Style;
import hostside.core.Table;
import hostside.core.Units;

/** The human view of one Module 3 run. */
public final class CpuView {
    private final CpuRun run;
    private final Style style;

    public CpuView(CpuRun run, Style style) {
        this.run = run;
        this.style = style;
    }

    public String render() {
        StringBuilder sb = new StringBuilder();
        facts(sb);
        hostside.core.FindingLines.render(sb, run.findings(), style);
        sb.append('\n');
        measurements(sb);
        dataloader(sb);
        if (!run.verdicts().isEmpty()) {
            sb.append("\nWhat it means\n");
            for (String v : run.verdicts()) sb.append("  ").append(v).append('\n');
        }
        return sb.toString();
    }

    private void facts(StringBuilder sb) {
        CpuFacts f = run.facts();
        sb.append(style.bold("The CPU that feeds the GPU")).append('\n');
        Table t = new Table("", "");
        if (f.kernel() != null) {
            t.row("kernel", n(f.kernel().release()) + ": " + n(f.kernel().scheduler()) + " scheduler, preemption " + n(f.kernel().preemption()));
        }
        t.row("CPUs", n(f.onlineCpus()) + " online, " + n(f.cores()) + " cores");
        if (f.isolation() != null) {
            CpuFacts.Isolation i = f.isolation();
            t.row("isolation", "isolcpus " + cmd(i.isolcpus()) + ", nohz_full " + cmd(i.nohzFull()) + ", rcu_nocbs " + cmd(i.rcuNocbs())
                    + "; isolated now: " + (i.isolated() == null || i.isolated().isEmpty() ? "none" : i.isolated()));
        }
        if (f.process() != null) {
            CpuFacts.ProcessCpus p = f.process();
            String quota = p.cgroup() == null || p.cgroup().quotaCpus() == null ? "no CPU quota" : String.format(Locale.ROOT, "quota %.1f CPUs", p.cgroup().quotaCpus());
            t.row("this process", "may run on " + n(p.cpusAllowed()) + " (" + n(p.cpusAllowedCount()) + " CPUs), " + quota);
        }
        if (f.frequency() != null) {
            StringBuilder g = new StringBuilder(n(f.frequency().status()));
            for (CpuFacts.Share s : f.frequency().governors()) g.append(g.isEmpty() ? "" : ", ").append(s.value()).append(" on ").append(s.cpus());
            t.row("frequency", g.toString());
        }
        if (f.idle() != null) t.row("idle", "cpuidle " + n(f.idle().driver()) + ", governor " + n(f.idle().governor()));
        sb.append(t.render("  "));
        if (f.irqs() != null && !f.irqs().devices().isEmpty()) {
            Table irq = new Table("device", "kind", "IRQs", "routed to", "landed on", "interrupts").right(2, 5);
            for (CpuFacts.DeviceIrqs d : f.irqs().devices()) {
                irq.row(d.device(), d.kind(), d.irqs().size(), n(d.routedTo()), n(d.landedOn()), d.total());
            }
            sb.append("\n  IRQs of GPUs, NICs and NVMe drives (irqbalance ").append(f.irqs().irqbalance() == null ? "unknown"
                    : f.irqs().irqbalance() ? "running" : "not running").append(")\n").append(irq.render("  "));
        }
        for (CpuFacts.Feeder fd : f.feeders()) {
            sb.append("  ").append(fd.gpu()).append(" is fed best from CPUs ").append(n(fd.allowedFeederCpus())).append(" (local: ").append(n(fd.localCpus()))
                    .append(")\n");
        }
        for (String u : f.unknowns()) sb.append("  ").append(style.dim("unknown: " + u)).append('\n');
        sb.append('\n');
    }

    private static String n(Object o) {
        return o == null ? "unknown" : o.toString();
    }

    private static String cmd(CpuFacts.CmdlineCpus c) {
        return c == null || c.cpus() == null ? "-" : c.cpus();
    }

    private void measurements(StringBuilder sb) {
        var m = run.measured();
        if (m.results().isEmpty()) return;
        java.util.Set<String> whys = new java.util.HashSet<>();
        m.results().forEach(x -> whys.add(x.isOk() ? "" : x.why()));
        if (whys.size() == 1 && !whys.contains("")) {
            sb.append(style.bold("Measurements")).append(": not run: ").append(whys.iterator().next()).append('\n');
            return;
        }
        Table t = new Table("measurement", "median", "min", "max", "unit", "n").right(1, 2, 3, 5);
        for (Result x : m.results()) {
            if (x.key().startsWith("launch_jitter")) continue;
            if (x.isOk()) t.row(x.key(), Units.figure(x.value().median()), Units.figure(x.value().min()), Units.figure(x.value().max()), x.unit(), x.value().samples());
            else t.row(x.key(), x.status() + ": " + x.why(), "", "", "", "");
        }
        if (!t.isEmpty()) {
            sb.append(style.bold("What the scheduler charges")).append(", median of the samples with min and max\n");
            sb.append(t.render("  ")).append('\n');
        }
        if (m.results().stream().noneMatch(x -> x.key().startsWith("launch_jitter"))) return;
        sb.append(style.bold("Launch jitter")).append(!m.gpu().isEmpty() ? " on " + m.gpu()
                        : " (no GPU" + (m.noGpu().isEmpty() ? "" : ": " + m.noGpu()) + "; a timer-driven feeder, cyclictest's method)")
                .append(", us\n");
        Table j = new Table("condition", "late p50", "p99", "p99.9", "max", "missed", "launch p50", "p99", "p99.9", "max", "gap p99", "max")
                .right(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
        for (Result x : m.results()) {
            if (!x.key().startsWith("launch_jitter")) continue;
            String cond = x.key().substring("launch_jitter_".length());
            if (!x.isOk()) {
                j.row(cond, x.status() + ": " + x.why(), "", "", "", "", "", "", "", "", "", "");
                continue;
            }
            if (!(x.detail() instanceof hostside.cpu.measure.LaunchJitter.Detail d)) continue;
            Distribution late = d.lateNs(), launch = d.launchNs(), gap = d.gapNs();
            j.row(cond, us(late, Distribution::p50), us(late, Distribution::p99), us(late, Distribution::p999), us(late, Distribution::max), missed(x),
                    us(launch, Distribution::p50), us(launch, Distribution::p99), us(launch, Distribution::p999), us(launch, Distribution::max),
                    us(gap, Distribution::p99), us(gap, Distribution::max));
        }
        sb.append(j.render("  "));
        sb.append("  missed: ticks that had passed by the time the feeder woke, skipped as cyclictest skips them\n");
    }

    private void dataloader(StringBuilder sb) {
        if (run.dataloader().isEmpty()) return;
        sb.append('\n').append(style.bold("DataLoader workers")).append(", forked Python processes reading a dataset\n");
        Table t = new Table("measurement", "median", "min", "max", "unit", "dataset", "workers").right(1, 2, 3, 6);
        for (Result x : run.dataloader()) {
            if (!x.isOk()) {
                t.row(x.key(), x.status() + ": " + x.why(), "", "", "", "", "");
                continue;
            }
            boolean cow = x.detail() instanceof hostside.cpu.dataloader.CowDetail;
            var d = cow ? (hostside.cpu.dataloader.CowDetail) x.detail() : null;
            t.row(x.key(), Units.figure(x.value().median()), Units.figure(x.value().min()), Units.figure(x.value().max()), x.unit(),
                    cow ? Units.bytes(d.datasetBytes()) : "", cow ? d.workers() : "");
        }
        sb.append(t.render("  "));
        // --dataset-size cut to fit the machine: the dataset column is what ran, this says why
        run.dataloader().stream().flatMap(x -> hostside.harness.Cut.in(x).stream()).distinct().findFirst()
                .ifPresent(c -> sb.append("  ").append(style.dim("note: " + c.text())).append('\n'));
    }

    /** Ticks skipped, with their share of all ticks, and a mark where the time bound cut the run. */
    static String missed(Result x) {
        if (!(x.detail() instanceof hostside.cpu.measure.LaunchJitter.Detail d)) return "-";
        long n = d.missedTicks();
        String share = n == 0 ? "0" : String.format(java.util.Locale.ROOT, "%d (%.1f%%)", n, 100 * d.missedShare(x.value().samples()));
        return d.stoppedAtTimeBound() ? share + ", cut at time bound" : share;
    }

    private static String us(Distribution m, java.util.function.ToDoubleFunction<Distribution> q) {
        if (m == null) return "-";
        return String.format(java.util.Locale.ROOT, "%.1f", q.applyAsDouble(m) / 1e3);
    }
}
