package hostside.vm;

import java.util.Locale;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.core.Stats;
import hostside.core.Sweep;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.core.Versus;
import hostside.harness.Detail;
import hostside.harness.Result;
import hostside.machine.Host;
import hostside.process.MachineLoad;
import hostside.vm.measure.AnonTouch;
import hostside.vm.measure.FileRead;
import hostside.vm.measure.TlbReach;

/**
 * What Module 2's measurements mean for training: a finding of one of {@link VmRules}' rules each,
 * from the figures of one run. Comparisons are drawn only between figures measured together; a
 * missing figure drops its finding. A finding that compares two figures follows the noise rule
 * ({@link Versus}): one is called faster only when the medians differ by more than either figure's
 * spread (max - min of its samples); inside that the two are "even within noise", and the finding
 * says so with both ranges, since the next run could order them the other way. On a machine that
 * was busy as the drill began, each finding is unknown: its figures are said, never a fix.
 */
public final class MeasuredVerdicts {
    /** Above this, a base-page first touch is slow enough to name: the H200 VM paid 1.55 us, the dev VM 12.2 us (docs/measurements/2026-12-02-vm.md). */
    static final double SLOW_FAULT_US = 3.0;
    /** read() and mmap closer than this (a share of the slower one) are "the same" even beyond the noise: no advice turns on 15%. */
    static final double SAME = 0.15;
    /** Prefetch must beat GPU faults by this share of the faults' figure for the advice to prefetch. */
    static final double PREFETCH_GAIN = 0.2;
    /** Under this share of a region that asked for huge pages in huge pages, they are not forming. */
    static final double FEW_HUGE_PERCENT = 50;

    private MeasuredVerdicts() {}

    /** What one rule concluded, before the machine's load is weighed. */
    record Judged(Rule rule, Severity severity, String subject, String text, List<Evidence> evidence) {
        /** As a finding: an unknown one, its figures said and no fix, where {@code load} was busy. */
        Finding finding(MachineLoad load) {
            // busy, it says the figures it read and nothing drawn from them: no verdict, no advice
            return rule.measured(severity, subject, text, Evidence.said(evidence), evidence, MachineLoad.busyReasons(load));
        }
    }

    /** A result's median as a finding's evidence. */
    static Evidence evidence(Result r) {
        return Evidence.of(r.key(), r.value().median(), r.unit());
    }

    /** Every rule's finding, on a machine whose load as the drill began was {@code load} (null: not read, a recording's). */
    public static List<Finding> of(Host machine, List<Result> host, List<Result> gpu, MachineLoad load) {
        return judge(machine, host, gpu).stream().map(j -> j.finding(load)).toList();
    }

    static List<Judged> judge(Host machine, List<Result> host, List<Result> gpu) {
        List<Judged> v = new ArrayList<>();
        files(host, true).ifPresent(v::add);
        files(host, false).ifPresent(v::add);
        faults(host, machine.isVm()).ifPresent(v::add);
        thp(host).ifPresent(v::add);
        tlb(host, machine.isVm()).ifPresent(v::add);
        managed(gpu).ifPresent(v::add);
        pinning(gpu).ifPresent(v::add);
        return v;
    }

    static Optional<Result> ok(List<Result> rs, String key) {
        return rs.stream().filter(r -> r.key().equals(key) && r.isOk()).findFirst();
    }

    /** The result's detail as the record its case keeps; empty for a result without one (or of another case). */
    static <D extends Detail> Optional<D> detail(Result r, Class<D> type) {
        return type.isInstance(r.detail()) ? Optional.of(type.cast(r.detail())) : Optional.empty();
    }

    /** A figure that may be missing, as NaN: the lines below drop or shorten themselves on NaN. */
    static double orNaN(Number n) {
        return n == null ? Double.NaN : n.doubleValue();
    }

    static Optional<Judged> files(List<Result> host, boolean cold) {
        String t = cold ? "cold" : "warm";
        Optional<Result> read = ok(host, "file_read_" + t), mmap = ok(host, "file_mmap_" + t);
        if (read.isEmpty() || mmap.isEmpty()) return Optional.empty();
        Stats r = read.get().value(), m = mmap.get().value();
        String figures = String.format(Locale.ROOT, "%s file: read() %s, mmap %s (mmap took %.1f faults per MiB)", cold ? "Cold" : "Warm",
                Units.gbps(r.median()), Units.gbps(m.median()),
                detail(mmap.get(), FileRead.FileDetail.class).map(FileRead.FileDetail::faultsPerMiB).orElse(Double.NaN));
        List<Evidence> compared = List.of(evidence(read.get()), evidence(mmap.get()));
        Versus v = Versus.of(r, m, SAME);
        if (v == Versus.EVEN) {
            String why = Versus.of(r, m) == Versus.EVEN
                    ? "even within noise " + noise("read()", r, "mmap", m, "GB/s")
                    : String.format(Locale.ROOT, "within %.0f%% of each other", 100 * SAME);
            return Optional.of(new Judged(VmRules.READ_VS_MMAP, Severity.INFO, "files", figures + ": the two ways are " + why
                    + "; choose by convenience (np.memmap vs np.fromfile)", compared));
        }
        boolean readWins = v == Versus.ABOVE;
        // what each outcome means, without a mechanism the run did not measure
        String advice = cold
                ? (readWins ? "a dataset read once streams faster with read() (np.fromfile, torch.load) than through faults on a mapping"
                            : "mapping the file beats 1 MiB read() calls here; np.memmap suits a cold dataset")
                : (readWins ? "copying out of the page cache by read() beats faulting the mapping in; mmap pays off only when pages are reused"
                            : "a cached file is cheaper to map than to copy: np.memmap and safetensors' mapped loading avoid the read() copy");
        return Optional.of(new Judged(VmRules.READ_VS_MMAP, Severity.INFO, "files", String.format(Locale.ROOT, "%s: %s %.1fx faster: %s", figures,
                readWins ? "read()" : "mmap", Math.max(r.median(), m.median()) / Math.min(r.median(), m.median()), advice), compared));
    }

    /**
     * Why two figures are even within noise, by the rule's own numbers: how far apart the medians
     * are, the wider spread they fall inside, and both ranges. Ranges that do not overlap can still
     * be even: one figure's samples spread wider than the gap, so its next run may land anywhere there.
     */
    static String noise(String aName, Stats a, String bName, Stats b, String unit) {
        boolean aWider = a.spread() >= b.spread();
        String wider = aWider ? aName : bName;
        return String.format(Locale.ROOT, "(medians %s %s apart, inside the %s %s spread of %s samples: %s %s, %s %s)",
                Units.figure(Math.abs(a.median() - b.median())), unit, Units.figure(aWider ? a.spread() : b.spread()), unit,
                wider + (wider.endsWith("s") ? "'" : "'s"), aName, range(a, unit), bName, range(b, unit));
    }

    /** A figure's samples as "min-max unit": what a reader needs to see why two figures are even within noise. */
    static String range(Stats s, String unit) {
        return Units.figure(s.min()) + "-" + Units.figure(s.max()) + " " + unit;
    }

    /** The first touch's cost per fault, in us, as a finding's evidence: the figure VmRun#touchFigures gives it. */
    static Evidence perFault(Result r, double us) {
        return Evidence.of(r.key() + "_us_per_fault", us, Unit.US);
    }

    static Optional<Judged> faults(List<Result> host, boolean vm) {
        Optional<Result> base = ok(host, "anon_first_touch_base");
        if (base.isEmpty()) return Optional.empty();
        Optional<AnonTouch.TouchDetail> d = detail(base.get(), AnonTouch.TouchDetail.class);
        if (d.isEmpty() || d.get().usPerFault() == null) return Optional.empty();
        double us = d.get().usPerFault();
        long page = d.get().pageSize();
        String s = String.format(Locale.ROOT, "First touch costs %.2f us per %s page (%.0f ms per GiB)", us, Units.bytes(page), base.get().value().median());
        boolean slow = us > SLOW_FAULT_US;
        if (slow) {
            s += String.format(Locale.ROOT, ": %.1f us is slow (the H200 VM paid 1.55 us)", us)
                    + (vm ? "; this is a VM, where the first touch of guest memory the hypervisor has not backed yet exits to it (a likely cause, which the guest cannot see)"
                          : "; check memory cgroup pressure and compaction (compact_stall in /proc/vmstat)")
                    + "; allocate pinned and staging buffers once and reuse them";
        } else {
            s += ": a buffer allocated once and reused pays it once, one allocated every step pays it every step";
        }
        return Optional.of(new Judged(VmRules.FIRST_TOUCH, slow ? Severity.WARN : Severity.OK, "first touch", s,
                List.of(perFault(base.get(), us), evidence(base.get()))));
    }

    static Optional<Judged> thp(List<Result> host) {
        Optional<Result> huge = ok(host, "anon_first_touch_thp");
        if (huge.isEmpty()) return Optional.empty();
        Result h = huge.get();
        Optional<AnonTouch.TouchDetail> d = detail(h, AnonTouch.TouchDetail.class);
        double pct = orNaN(d.map(AnonTouch.TouchDetail::hugePercent).orElse(null));
        double fallback = orNaN(d.map(AnonTouch.TouchDetail::thpFaultFallback).orElse(null));
        Optional<Result> base = ok(host, "anon_first_touch_base");
        // without the share of huge pages, the fallbacks or the base run to compare, the finding would say nothing
        if (Double.isNaN(pct) && !(fallback > 0) && base.isEmpty()) return Optional.empty();
        List<Evidence> read = new ArrayList<>(List.of(evidence(h)));
        StringBuilder s = new StringBuilder();
        if (!Double.isNaN(pct)) {
            s.append(String.format(Locale.ROOT, "With MADV_HUGEPAGE %.0f%% of the region got huge pages", pct));
            read.add(Evidence.of(h.key() + "_huge_percent", pct, Unit.PERCENT));
        } else {
            s.append("With MADV_HUGEPAGE");
        }
        // thp_fault_fallback counts a huge page the kernel could not allocate or could not charge to the memory cgroup
        if (fallback > 0) s.append(String.format(Locale.ROOT, " (%.0f huge-page faults fell back to base pages: no free huge page could be allocated"
                + " or charged to the memory cgroup)", fallback));
        if (base.isPresent()) {
            Stats b = base.get().value(), t = h.value();
            double ratio = b.median() / t.median();
            Versus v = Versus.of(b, t);
            // ms per GiB: lower is better, so the base run ABOVE the THP run means huge pages were faster
            String how = switch (v) {
                case ABOVE -> String.format(Locale.ROOT, "%.1fx faster", ratio);
                case BELOW -> String.format(Locale.ROOT, "%.1fx slower", 1 / ratio);
                case EVEN -> "even within noise";
            };
            s.append(String.format(Locale.ROOT, "; first touch %s: %.0f vs %.0f ms per GiB", how, t.median(), b.median()));
            if (v == Versus.EVEN) s.append(' ').append(noise("huge pages", t, "base pages", b, "ms per GiB"));
            read.add(evidence(base.get()));
        }
        boolean few = !Double.isNaN(pct) && pct < FEW_HUGE_PERCENT;
        if (few) s.append(": huge pages are not forming; check THP's defrag mode and free memory's fragmentation");
        // the share is what the rule checks: without it the finding only compares
        Severity sev = few ? Severity.WARN : Double.isNaN(pct) ? Severity.INFO : Severity.OK;
        return Optional.of(new Judged(VmRules.HUGE_PAGES, sev, "huge pages", s.toString(), read));
    }

    /** The curve of a TLB walk: ns per load at each working set; empty when the result keeps none. */
    static List<Sweep.Point> points(Result r) {
        return detail(r, TlbReach.TlbDetail.class).map(d -> d.sweep().points()).orElse(List.of());
    }

    /**
     * In a VM, what a guest huge page can and cannot do: widen the TLB's reach only where the
     * hypervisor backs the same memory with a large page too. Said as the condition it is, never
     * as the measured cause: the guest cannot read how its memory is backed.
     */
    static final String NESTED = "in a VM a guest huge page widens the TLB's reach only where the hypervisor backs the same memory with a large page too,"
            + " which the guest cannot see";

    static Optional<Judged> tlb(List<Result> host, boolean vm) {
        Optional<Result> base = ok(host, "tlb_reach_base"), huge = ok(host, "tlb_reach_huge");
        if (base.isEmpty()) return Optional.empty();
        List<Sweep.Point> b = points(base.get());
        if (huge.isEmpty() || b.isEmpty()) {
            return Optional.of(new Judged(VmRules.TLB_REACH, Severity.INFO, "TLB", String.format(Locale.ROOT,
                    "Random access over %s in base pages: %.1f ns per access (no huge-page run to compare)",
                    Units.bytes(b.isEmpty() ? 0 : b.getLast().bytes()), base.get().value().median()), List.of(evidence(base.get()))));
        }
        List<Evidence> read = List.of(evidence(base.get()), evidence(huge.get()));
        List<Sweep.Point> h = points(huge.get());
        long knee = TlbReach.knee(b, h, 1.25, 1.1);
        Sweep.Point lb = b.getLast();
        Sweep.Point lh = h.stream().filter(p -> p.bytes() == lb.bytes()).findFirst().orElse(h.getLast());
        double ratio = lb.value().median() / lh.value().median();
        String s = String.format(Locale.ROOT, "Random access over %s: %.1f ns per access in base pages vs %.1f ns in huge pages (%.1fx%s)",
                Units.bytes(lb.bytes()), lb.value().median(), lh.value().median(), ratio,
                Versus.of(lb.value(), lh.value()) == Versus.EVEN ? ", even within noise" : "");
        if (knee > 0) {
            // the two walks differ only in page size, and the gap is beyond both spreads: translation is what base pages pay more for
            s += String.format(Locale.ROOT, "; base pages fall behind from %s on, where the TLB runs out: large host-side tables (embeddings, KV-cache offload, pinned pools) want huge pages",
                    Units.bytes(knee));
            return Optional.of(new Judged(VmRules.TLB_REACH, Severity.INFO, "TLB", s, read));
        }
        // where the largest set's samples spread wider than a 25% gap, no gap there says nothing: no mechanism is offered for it
        boolean told = TlbReach.resolves(lb, lh, 1.25);
        String noise = String.format(Locale.ROOT, " (at %s: base pages %s, huge pages %s)", Units.bytes(lb.bytes()), range(lb.value(), "ns"), range(lh.value(), "ns"));
        List<Sweep.Point> parted = b.stream().filter(p -> h.stream().anyMatch(x -> x.bytes() == p.bytes()
                && TlbReach.apart(p, x, 1.25))).toList();
        if (!parted.isEmpty()) {
            double best = parted.stream().mapToDouble(p -> p.value().median() / h.stream().filter(x -> x.bytes() == p.bytes())
                    .findFirst().orElseThrow().value().median()).max().orElse(1);
            s += parted.size() == 1 ? String.format(Locale.ROOT, "; huge pages help at %s (%.1fx)", Units.bytes(parted.getFirst().bytes()), best)
                    : String.format(Locale.ROOT, "; huge pages help from %s to %s (up to %.1fx)", Units.bytes(parted.getFirst().bytes()),
                    Units.bytes(parted.getLast().bytes()), best);
            if (!told) return Optional.of(new Judged(VmRules.TLB_REACH, Severity.INFO, "TLB", s + "; at the largest sets the two walks are even within noise" + noise, read));
            // apart beyond the noise at smaller sets, together at the largest: what made them meet, this run does not measure
            s += " but not at the largest sets" + (vm ? ": " + NESTED : ": past them the two walks cost about the same per load, for a reason this run does not measure");
        } else if (!told) {
            return Optional.of(new Judged(VmRules.TLB_REACH, Severity.UNKNOWN, "TLB", s + "; the curves do not part by 25% beyond the noise at any size,"
                    + " but the walks' samples spread too wide to tell" + noise + ": measure again on a quiet machine", read));
        } else {
            s += "; the curves do not part by 25% beyond the noise at any size: huge pages bought less than that at every size here"
                    + (vm ? " (" + NESTED + ")" : "");
        }
        return Optional.of(new Judged(VmRules.TLB_REACH, Severity.INFO, "TLB", s, read));
    }

    static Optional<Judged> managed(List<Result> gpu) {
        Optional<Result> faults = ok(gpu, "managed_gpu_faults_h2d"), prefetch = ok(gpu, "managed_prefetch_h2d");
        if (faults.isEmpty() || prefetch.isEmpty()) return Optional.empty();
        Stats fs = faults.get().value(), ps = prefetch.get().value();
        double f = fs.median(), p = ps.median();
        List<Evidence> read = new ArrayList<>(List.of(evidence(faults.get()), evidence(prefetch.get())));
        String s = String.format(Locale.ROOT, "Managed memory reaches the GPU at %s by GPU page faults and %s by prefetch", Units.gbps(f), Units.gbps(p));
        Optional<Result> back = ok(gpu, "managed_cpu_faults_d2h");
        if (back.isPresent()) {
            s += String.format(Locale.ROOT, ", and comes back at %s when the CPU touches it", Units.gbps(back.get().value().median()));
            read.add(evidence(back.get()));
        }
        if (Versus.of(ps, fs, PREFETCH_GAIN) == Versus.ABOVE) {
            s += String.format(Locale.ROOT, ": faults run at %.0f%% of prefetch; call cudaMemPrefetchAsync (or use explicit copies) before kernels touch managed tensors", 100 * f / p);
        } else if (Versus.of(ps, fs) == Versus.EVEN) {
            s += ": faults and prefetch are even within noise " + noise("faults", fs, "prefetch", ps, "GB/s");
        }
        return Optional.of(new Judged(VmRules.MANAGED_PREFETCH, Severity.INFO, "managed memory", s, read));
    }

    static Optional<Judged> pinning(List<Result> gpu) {
        Optional<Result> alloc = ok(gpu, "pin_cost_host_alloc"), reg = ok(gpu, "pin_cost_host_register");
        if (alloc.isEmpty()) return Optional.empty();
        List<Evidence> read = new ArrayList<>(List.of(evidence(alloc.get())));
        String s = String.format(Locale.ROOT, "Pinning costs %.0f ms per GiB by cudaHostAlloc", alloc.get().value().median());
        if (reg.isPresent()) {
            s += String.format(Locale.ROOT, " and %.0f ms per GiB by cudaHostRegister of touched memory", reg.get().value().median());
            read.add(evidence(reg.get()));
        }
        // PyTorch's pin_memory() draws on its caching host allocator: the cost is per new block, not per call
        return Optional.of(new Judged(VmRules.PIN_COST, Severity.INFO, "pinning", s + ": paid once per pinned buffer; PyTorch's pin_memory() reuses"
                + " the pinned blocks of its caching host allocator, while a buffer pinned anew every step (cudaHostRegister of a fresh tensor)"
                + " pays it every step", read));
    }
}
