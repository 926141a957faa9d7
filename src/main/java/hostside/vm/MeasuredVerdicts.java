package hostside.vm;

import java.util.Locale;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import hostside.harness.Result;
import hostside.core.Stats;
import hostside.core.Units;
import hostside.core.Sweep;
import hostside.core.Versus;
import hostside.vm.measure.AnonTouch;
import hostside.vm.measure.FileRead;
import hostside.vm.measure.TlbReach;

/**
 * What Module 2's measurements mean for training, one line each, from the figures of one run.
 * Comparisons are drawn only between figures measured together; a missing figure drops its line.
 * A line that compares two figures follows the noise rule ({@link Versus}): one is called faster
 * only when the medians differ by more than either figure's spread (max - min of its samples);
 * inside that the two are "even within noise", and the line says so with both ranges, since the
 * next run could order them the other way.
 */
public final class MeasuredVerdicts {
    /** Above this, a base-page fault is slow enough to name: bare metal pays well under 2 us. */
    static final double SLOW_FAULT_US = 3.0;
    /** read() and mmap closer than this (a share of the slower one) are "the same" even beyond the noise: no advice turns on 15%. */
    static final double SAME = 0.15;
    /** Prefetch must beat GPU faults by this share of the faults' figure for the advice to prefetch. */
    static final double PREFETCH_GAIN = 0.2;

    private MeasuredVerdicts() {}

    public static List<String> of(hostside.machine.Host machine, List<Result> host, List<Result> gpu) {
        List<String> v = new ArrayList<>();
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
    static <D extends hostside.harness.Detail> Optional<D> detail(Result r, Class<D> type) {
        return type.isInstance(r.detail()) ? Optional.of(type.cast(r.detail())) : Optional.empty();
    }

    /** A figure that may be missing, as NaN: the lines below drop or shorten themselves on NaN. */
    static double orNaN(Number n) {
        return n == null ? Double.NaN : n.doubleValue();
    }

    static Optional<String> files(List<Result> host, boolean cold) {
        String t = cold ? "cold" : "warm";
        Optional<Result> read = ok(host, "file_read_" + t), mmap = ok(host, "file_mmap_" + t);
        if (read.isEmpty() || mmap.isEmpty()) return Optional.empty();
        Stats r = read.get().value(), m = mmap.get().value();
        String figures = String.format(Locale.ROOT, "%s file: read() %s, mmap %s (mmap took %.1f faults per MiB)", cold ? "Cold" : "Warm",
                Units.gbps(r.median()), Units.gbps(m.median()),
                detail(mmap.get(), FileRead.FileDetail.class).map(FileRead.FileDetail::faultsPerMiB).orElse(Double.NaN));
        Versus v = Versus.of(r, m, SAME);
        if (v == Versus.EVEN) {
            String why = Versus.of(r, m) == Versus.EVEN
                    ? "even within noise (read() " + range(r, "GB/s") + ", mmap " + range(m, "GB/s") + ")"
                    : String.format(Locale.ROOT, "within %.0f%% of each other", 100 * SAME);
            return Optional.of(figures + ": the two ways are " + why + "; choose by convenience (np.memmap vs np.fromfile)");
        }
        boolean readWins = v == Versus.ABOVE;
        String advice = cold
                ? (readWins ? "a dataset read once streams faster with read() (np.fromfile, torch.load) than through faults on a mapping"
                            : "mmap's readahead on faults beats 1 MiB read() calls here; np.memmap suits a cold dataset")
                : (readWins ? "copying out of the page cache by read() beats faulting the mapping in; mmap pays off only when pages are reused"
                            : "a cached file is cheaper to map than to copy: np.memmap / safetensors' mmap avoid the read() copy");
        return Optional.of(String.format(Locale.ROOT, "%s: %s %.1fx faster: %s", figures, readWins ? "read()" : "mmap",
                Math.max(r.median(), m.median()) / Math.min(r.median(), m.median()), advice));
    }

    /** A figure's samples as "min-max unit": what a reader needs to see why two figures are even within noise. */
    static String range(Stats s, String unit) {
        return Units.figure(s.min()) + "-" + Units.figure(s.max()) + " " + unit;
    }

    static Optional<String> faults(List<Result> host, boolean vm) {
        Optional<Result> base = ok(host, "anon_first_touch_base");
        if (base.isEmpty()) return Optional.empty();
        Optional<AnonTouch.TouchDetail> d = detail(base.get(), AnonTouch.TouchDetail.class);
        if (d.isEmpty() || d.get().usPerFault() == null) return Optional.empty();
        double us = d.get().usPerFault();
        long page = d.get().pageSize();
        String s = String.format(Locale.ROOT, "First touch costs %.2f us per %s page (%.0f ms per GiB): allocate pinned and staging buffers once and reuse them",
                us, Units.bytes(page), base.get().value().median());
        if (us > SLOW_FAULT_US) {
            s += String.format(Locale.ROOT, "; %.1f us is slow (bare metal pays well under 2 us)", us)
                    + (vm ? ": this is a VM, where the first touch of guest memory can exit to the hypervisor to back it" : ": check memory cgroup pressure and compaction (compact_stall in /proc/vmstat)");
        }
        return Optional.of(s);
    }

    static Optional<String> thp(List<Result> host) {
        Optional<Result> huge = ok(host, "anon_first_touch_thp");
        if (huge.isEmpty()) return Optional.empty();
        Result h = huge.get();
        Optional<AnonTouch.TouchDetail> d = detail(h, AnonTouch.TouchDetail.class);
        double pct = orNaN(d.map(AnonTouch.TouchDetail::hugePercent).orElse(null));
        double fallback = orNaN(d.map(AnonTouch.TouchDetail::thpFaultFallback).orElse(null));
        Optional<Result> base = ok(host, "anon_first_touch_base");
        // without the share of huge pages, the fallbacks or the base run to compare, the line would say nothing
        if (Double.isNaN(pct) && !(fallback > 0) && base.isEmpty()) return Optional.empty();
        StringBuilder s = new StringBuilder();
        if (!Double.isNaN(pct)) s.append(String.format(Locale.ROOT, "With MADV_HUGEPAGE %.0f%% of the region got huge pages", pct));
        else s.append("With MADV_HUGEPAGE");
        if (fallback > 0) s.append(String.format(Locale.ROOT, " (%.0f huge-page faults fell back to base pages: memory is fragmented)", fallback));
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
            if (v == Versus.EVEN) s.append(" (huge pages ").append(range(t, "ms per GiB")).append(", base pages ").append(range(b, "ms per GiB")).append(")");
        }
        if (!Double.isNaN(pct) && pct < 50) s.append(": huge pages are not forming; check defrag and khugepaged");
        return Optional.of(s.toString());
    }

    /** The curve of a TLB walk: ns per load at each working set; empty when the result keeps none. */
    static List<Sweep.Point> points(Result r) {
        return detail(r, TlbReach.TlbDetail.class).map(d -> d.sweep().points()).orElse(List.of());
    }

    static Optional<String> tlb(List<Result> host, boolean vm) {
        Optional<Result> base = ok(host, "tlb_reach_base"), huge = ok(host, "tlb_reach_huge");
        if (base.isEmpty()) return Optional.empty();
        List<Sweep.Point> b = points(base.get());
        if (huge.isEmpty() || b.isEmpty()) {
            return Optional.of(String.format(Locale.ROOT, "Random access over %s in base pages: %.1f ns per access (no huge-page run to compare)",
                    Units.bytes(b.isEmpty() ? 0 : b.getLast().bytes()), base.get().value().median()));
        }
        List<Sweep.Point> h = points(huge.get());
        long knee = TlbReach.knee(b, h, 1.25, 1.1);
        Sweep.Point lb = b.getLast();
        Sweep.Point lh = h.stream().filter(p -> p.bytes() == lb.bytes()).findFirst().orElse(h.getLast());
        double ratio = lb.value().median() / lh.value().median();
        String s = String.format(Locale.ROOT, "Random access over %s: %.1f ns per access in base pages vs %.1f ns in huge pages (%.1fx%s)",
                Units.bytes(lb.bytes()), lb.value().median(), lh.value().median(), ratio,
                Versus.of(lb.value(), lh.value()) == Versus.EVEN ? ", even within noise" : "");
        if (knee > 0) {
            s += String.format(Locale.ROOT, "; base pages fall behind from %s on, where the TLB runs out: large host-side tables (embeddings, KV-cache offload, pinned pools) want huge pages",
                    Units.bytes(knee));
            return Optional.of(s);
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
            if (!told) return Optional.of(s + "; at the largest sets the two walks are even within noise" + noise);
            s += " but not at the largest sets"
                    + (vm ? ": in a VM the TLB caches the guest and host translation together at the smaller of the two page sizes, so past"
                    + " what the hypervisor backs with huge pages, guest huge pages widen nothing" : ": past them, page-walk cache misses cost both alike");
        } else if (!told) {
            s += "; the curves do not part by 25% beyond the noise at any size, but the walks' samples spread too wide to tell" + noise
                    + ": measure again on a quiet machine";
        } else {
            s += vm ? "; the curves do not part by 25% beyond the noise at any size: in a VM the TLB caches the guest and host translation together at the"
                    + " smaller of the two page sizes, so guest huge pages widen nothing when the hypervisor backs guest memory with small pages"
                    : "; the curves do not part by 25% beyond the noise at any size: the TLB and its page-walk caches keep up here";
        }
        return Optional.of(s);
    }

    static Optional<String> managed(List<Result> gpu) {
        Optional<Result> faults = ok(gpu, "managed_gpu_faults_h2d"), prefetch = ok(gpu, "managed_prefetch_h2d");
        if (faults.isEmpty() || prefetch.isEmpty()) return Optional.empty();
        Stats fs = faults.get().value(), ps = prefetch.get().value();
        double f = fs.median(), p = ps.median();
        String s = String.format(Locale.ROOT, "Managed memory reaches the GPU at %s by GPU page faults and %s by prefetch", Units.gbps(f), Units.gbps(p));
        Optional<Result> back = ok(gpu, "managed_cpu_faults_d2h");
        if (back.isPresent()) s += String.format(Locale.ROOT, ", and comes back at %s when the CPU touches it", Units.gbps(back.get().value().median()));
        if (Versus.of(ps, fs, PREFETCH_GAIN) == Versus.ABOVE) {
            s += String.format(Locale.ROOT, ": faults run at %.0f%% of prefetch; call cudaMemPrefetchAsync (or use explicit copies) before kernels touch managed tensors", 100 * f / p);
        } else if (Versus.of(ps, fs) == Versus.EVEN) {
            s += ": faults and prefetch are even within noise (faults " + range(fs, "GB/s") + ", prefetch " + range(ps, "GB/s") + ")";
        }
        return Optional.of(s);
    }

    static Optional<String> pinning(List<Result> gpu) {
        Optional<Result> alloc = ok(gpu, "pin_cost_host_alloc"), reg = ok(gpu, "pin_cost_host_register");
        if (alloc.isEmpty()) return Optional.empty();
        String s = String.format(Locale.ROOT, "Pinning costs %.0f ms per GiB by cudaHostAlloc", alloc.get().value().median());
        if (reg.isPresent()) s += String.format(Locale.ROOT, " and %.0f ms per GiB by cudaHostRegister of touched memory", reg.get().value().median());
        return Optional.of(s + ": pin once and reuse (PyTorch's caching host allocator does); pinning a fresh tensor every step pays this each time");
    }

}
