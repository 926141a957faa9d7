package hostside.vm;

import java.util.Locale;
import java.util.List;

import hostside.harness.Result;
import hostside.core.Style;
import hostside.core.Table;
import hostside.core.Units;
import hostside.process.Limits;
import hostside.vm.facts.VmFacts;
import hostside.vm.measure.TlbReach;

/** The human view of one Module 2 run: settings, the GPU's view, findings, figures, verdicts. */
public final class VmView {
    private final VmRun run;
    private final Style style;

    public VmView(VmRun run, Style style) {
        this.run = run;
        this.style = style;
    }

    public String render() {
        StringBuilder sb = new StringBuilder();
        settings(sb);
        gpu(sb);
        hostside.core.FindingLines.render(sb, run.findings(), style);
        sb.append('\n');
        measurements(sb);
        if (!run.verdicts().isEmpty()) {
            sb.append("What it means\n");
            for (String v : run.verdicts()) sb.append("  ").append(v).append('\n');
        }
        return sb.toString();
    }

    private void settings(StringBuilder sb) {
        VmFacts f = run.facts();
        sb.append(style.bold("Virtual memory")).append('\n');
        Table t = new Table("", "");
        VmFacts.PageSize p = f.pageSize();
        t.row("base page", p == null || p.bytes() == null ? "unknown" : Units.bytes(p.bytes()) + " (" + p.source() + (p.assumed() ? ", assumed" : "") + ")");
        t.row("arch", f.arch() == null ? "unknown" : f.arch().name());
        t.row("THP", thp(f.thp()));
        if (f.thp() != null && f.thp().khugepaged() != null) {
            VmFacts.Khugepaged k = f.thp().khugepaged();
            t.row("khugepaged", "defrag " + n(k.defrag()) + ", " + n(k.pagesToScan()) + " pages per " + n(k.scanSleepMillisecs())
                    + " ms, max_ptes_none " + n(k.maxPtesNone()) + ", collapsed " + n(k.pagesCollapsed()));
        }
        t.row("hugetlb", hugetlb(f.hugetlb()));
        VmFacts.Meminfo m = f.memory();
        if (m != null) {
            t.row("memory", b(m.memTotalBytes()) + " total, " + b(m.memAvailableBytes()) + " available, AnonHugePages "
                    + b(m.anonHugePagesBytes()) + ", swap " + b(m.swapTotalBytes()) + ", Mlocked " + b(m.mlockedBytes()));
        }
        VmFacts.Sysctl s = f.sysctl();
        if (s != null) {
            t.row("sysctls", "overcommit_memory " + n(s.overcommitMemory()) + ", swappiness " + n(s.swappiness())
                    + ", numa_balancing " + n(s.numaBalancing()) + ", zone_reclaim_mode " + n(s.zoneReclaimMode())
                    + ", max_map_count " + n(s.maxMapCount()));
        }
        VmFacts.ProcessLimits pl = f.process();
        if (pl != null) t.row("memlock", limit(pl.memlock()) + (Boolean.TRUE.equals(pl.capIpcLock()) ? " (CAP_IPC_LOCK: not enforced)" : ""));
        sb.append(t.render("  "));
        for (String u : f.unknowns()) sb.append("  ").append(style.dim("unknown: " + u)).append('\n');
        sb.append('\n');
    }

    private static String thp(VmFacts.Thp t) {
        if (t == null || !t.available()) return t == null ? "unknown" : t.status();
        return "enabled " + sel(t.enabled()) + ", defrag " + sel(t.defrag()) + ", shmem " + sel(t.shmemEnabled())
                + (t.pmdSizeBytes() == null ? "" : ", huge page " + Units.bytes(t.pmdSizeBytes()))
                + (t.mthp().isEmpty() ? "" : ", " + t.mthp().size() + " mTHP sizes");
    }

    private static String sel(VmFacts.Setting s) {
        return s == null || s.selected() == null ? "unknown" : s.selected();
    }

    private static String hugetlb(List<VmFacts.HugetlbPool> pools) {
        if (pools.isEmpty()) return "no pools";
        StringBuilder s = new StringBuilder();
        for (VmFacts.HugetlbPool p : pools) {
            if (!s.isEmpty()) s.append("; ");
            s.append(b(p.pageBytes())).append(": ").append(n(p.total())).append(" pages, ").append(n(p.free())).append(" free");
        }
        return s.toString();
    }

    private static String limit(Limits.Limit l) {
        if (l == null) return "unknown";
        return (l.softUnlimited() ? "unlimited" : Units.bytes(l.soft())) + " soft, " + (l.hardUnlimited() ? "unlimited" : Units.bytes(l.hard())) + " hard";
    }

    private static String b(Long x) {
        return x == null ? "unknown" : Units.bytes(x);
    }

    private static String n(Object x) {
        return x == null ? "unknown" : x.toString();
    }

    private void gpu(StringBuilder sb) {
        VmGpu g = run.gpu();
        sb.append(style.bold("The GPU's view of host memory")).append('\n');
        if (!g.notRun().isEmpty()) {
            sb.append("  not run: ").append(g.notRun()).append("\n\n");
            return;
        }
        for (VmGpu.GpuView v : g.gpus()) {
            sb.append("  GPU").append(v.ordinal()).append(' ').append(v.name()).append(" (").append(v.pciAddress()).append("): coherence ")
                    .append(v.coherence()).append('\n');
            StringBuilder a = new StringBuilder();
            for (var x : v.unifiedMemory()) a.append(a.isEmpty() ? "" : ", ").append(x.name()).append(' ').append(x.value() == null ? "unknown" : x.value());
            sb.append("    ").append(a).append('\n');
            sb.append("    CUDA VMM granularity: ").append(v.vmmMinimumBytes() == null ? "unknown (" + v.vmmWhy() + ")"
                    : Units.bytes(v.vmmMinimumBytes()) + " minimum, " + Units.bytes(v.vmmRecommendedBytes()) + " recommended").append('\n');
        }
        sb.append('\n');
    }

    private void measurements(StringBuilder sb) {
        List<Result> all = new java.util.ArrayList<>(run.host());
        all.addAll(run.gpu().results());
        if (all.isEmpty()) return;
        java.util.Set<String> whys = new java.util.HashSet<>();
        all.forEach(x -> whys.add(x.isOk() ? "" : x.why()));
        if (whys.size() == 1 && !whys.contains("")) {
            sb.append(style.bold("Measurements")).append(": not run: ").append(whys.iterator().next()).append("\n\n");
            return;
        }
        sb.append(style.bold("Measurements")).append(", median of the samples with min and max\n");
        Table m = new Table("measurement", "median", "min", "max", "unit", "n", "faults").right(1, 2, 3, 5, 6);
        for (Result x : all) {
            if (x.isOk()) {
                m.row(x.key(), Units.figure(x.value().median()), Units.figure(x.value().min()), Units.figure(x.value().max()), x.unit(),
                        x.value().samples(), faults(x));
            } else {
                m.row(x.key(), x.status() + ": " + x.why(), "", "", "", "", "");
            }
        }
        sb.append(m.render("  "));
        // an option cut to fit the machine: the figure is over less than was asked
        for (Result x : all) hostside.harness.Cut.in(x).ifPresent(c -> sb.append("  ").append(style.dim("note: " + x.key() + ": " + c.text())).append('\n'));
        tlbTable(sb);
        sb.append('\n');
    }

    /** Faults per MiB where the measurement counts them: what the kernel did for the figure. */
    private static String faults(Result x) {
        Double per = x.detail() instanceof hostside.vm.measure.FileRead.FileDetail f ? Double.valueOf(f.faultsPerMiB())
                : x.detail() instanceof hostside.vm.measure.AnonTouch.TouchDetail a ? Double.valueOf(a.faultsPerMiB()) : null;
        return per != null ? String.format(Locale.ROOT, "%.1f/MiB", per) : "";
    }

    private void tlbTable(StringBuilder sb) {
        List<hostside.core.Sweep.Point> base = points("tlb_reach_base"), huge = points("tlb_reach_huge");
        if (base.isEmpty() && huge.isEmpty()) return;
        Table t = new Table("working set", "base pages ns", "min-max", "huge pages ns", "min-max", "ratio").right(0, 1, 2, 3, 4, 5);
        List<hostside.core.Sweep.Point> rows = base.isEmpty() ? huge : base;
        for (hostside.core.Sweep.Point p : rows) {
            hostside.core.Sweep.Point b = base.stream().filter(x -> x.bytes() == p.bytes()).findFirst().orElse(null);
            hostside.core.Sweep.Point h = huge.stream().filter(x -> x.bytes() == p.bytes()).findFirst().orElse(null);
            t.row(Units.bytes(p.bytes()), b == null ? "" : String.format(Locale.ROOT, "%.1f", b.value().median()),
                    b == null ? "" : String.format(Locale.ROOT, "%.1f-%.1f", b.value().min(), b.value().max()),
                    h == null ? "" : String.format(Locale.ROOT, "%.1f", h.value().median()),
                    h == null ? "" : String.format(Locale.ROOT, "%.1f-%.1f", h.value().min(), h.value().max()),
                    b == null || h == null ? "" : String.format(Locale.ROOT, "%.2fx", b.value().median() / h.value().median()));
        }
        sb.append("\n  TLB reach: random dependent loads, one per base page\n").append(t.render("  "));
    }

    private List<hostside.core.Sweep.Point> points(String key) {
        return run.host().stream().filter(r -> r.key().equals(key) && r.isOk()).findFirst().map(MeasuredVerdicts::points).orElse(List.of());
    }
}
