package hostside.machine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.gpu.bench.Sweep;
import hostside.harness.Result;

/**
 * What one GPU's copy figures mean for training and inference: a finding of one of {@link GpuRules}'
 * rules each, the copies from each NUMA node ({@link NodeVerdicts}) among them. Two figures whose
 * samples overlap are said to be even within noise, never ordered.
 */
public final class CopyVerdicts {
    /** Module 6's offload example: 10 GB of optimizer state or KV cache. */
    public static final double OFFLOAD_BYTES = 10e9;

    private CopyVerdicts() {}

    /** Every finding of one GPU's copies; {@code busy} names what made the machine busy as the drill began (empty: quiet or not read). */
    public static List<Finding> of(String gpu, List<Result> rs, PciLink link, List<String> busy) {
        return GpuRules.Judged.findings(judge(gpu, rs, link), busy);
    }

    static List<GpuRules.Judged> judge(String gpu, List<Result> rs, PciLink link) {
        List<GpuRules.Judged> v = new ArrayList<>();
        Optional<Result> h2d = ok(rs, "host_to_device_ce_pinned"), d2h = ok(rs, "device_to_host_ce_pinned");
        Optional<Result> h2dPage = ok(rs, "host_to_device_ce_pageable"), d2hPage = ok(rs, "device_to_host_ce_pageable");
        pageable(gpu, h2d, h2dPage, true).ifPresent(v::add);
        pageable(gpu, d2h, d2hPage, false).ifPresent(v::add);
        h2d.flatMap(p -> linkShare(gpu, p, link)).ifPresent(v::add);
        h2d.ifPresent(p -> v.add(offload(gpu, p, h2dPage)));
        Optional<Result> smIn = ok(rs, "host_to_device_sm"), smOut = ok(rs, "device_to_host_sm");
        if (smIn.isPresent() && h2d.isPresent()) v.add(sm(gpu, smIn.get(), smOut, h2d.get()));
        ok(rs, "host_device_latency_sm").ifPresent(r -> {
            String figures = String.format(Locale.ROOT, "one dependent load from host memory takes %.2f us", r.value().median() / 1000);
            v.add(new GpuRules.Judged(GpuRules.HOST_LATENCY, Severity.INFO, gpu, figures, figures
                    + ": fine-grained host access (pointer chasing, small reads) stalls a GPU thread that long; move data in bulk", List.of(evidence(r))));
        });
        rs.stream().filter(r -> r.isOk() && r.key().startsWith("host_to_device_sweep_")).forEach(r -> {
            if (r.detail() instanceof Sweep.SweepDetail d && d.halfPeakBytes() >= 0) {
                String figures = String.format(Locale.ROOT, "%s copies reach half their %.1f GB/s peak at %s",
                        r.key().endsWith("pinned") ? "pinned" : "pageable", r.value().median(), Units.bytes(d.halfPeakBytes()));
                v.add(new GpuRules.Judged(GpuRules.COPY_SIZE, Severity.INFO, gpu, figures, figures
                        + ": smaller transfers are mostly per-copy overhead; batch them",
                        List.of(evidence(r), Evidence.of(r.key() + "_half_peak_bytes", d.halfPeakBytes(), Unit.BYTES))));
            }
        });
        ok(rs, "pin_cost_host_alloc").ifPresent(alloc -> v.add(pinning(gpu, alloc, ok(rs, "pin_cost_host_register"))));
        v.addAll(NodeVerdicts.of(gpu, rs));
        return v;
    }

    static Optional<Result> ok(List<Result> rs, String key) {
        return rs.stream().filter(r -> r.isOk() && r.key().equals(key)).findFirst();
    }

    /** A result's median as a finding's evidence. */
    static Evidence evidence(Result r) {
        return Evidence.of(r.key(), r.value().median(), r.unit());
    }

    /** Pageable against pinned in one direction: a share only where their samples do not overlap. */
    static Optional<GpuRules.Judged> pageable(String gpu, Optional<Result> pinned, Optional<Result> pageable, boolean in) {
        if (pinned.isEmpty() || pageable.isEmpty()) return Optional.empty();
        Stats p = pinned.get().value(), g = pageable.get().value();
        String dir = in ? "host-to-device" : "device-to-host";
        String figures = String.format(Locale.ROOT, "pageable %s copies run at %.0f%% of pinned (%.1f vs %.1f GB/s)", dir, 100 * g.median() / p.median(),
                g.median(), p.median());
        String text;
        if (!g.differsFrom(p)) {
            text = String.format(Locale.ROOT, "pageable and pinned %s copies are even within noise (%.1f-%.1f vs %.1f-%.1f GB/s): pinning buys nothing"
                    + " measurable in this direction here", dir, g.min(), g.max(), p.min(), p.max());
            figures = text;
        } else if (g.median() > p.median()) {
            text = figures + ", faster beyond both spreads: pinning buys nothing in this direction here";
        } else {
            // the driver stages a pageable copy through its own pinned memory (CUDA's API synchronization behavior)
            text = figures + (in ? ": pin DataLoader memory (pin_memory=True) and copy with non_blocking=True"
                    : ": bring results and offloaded state back into pinned buffers");
        }
        return Optional.of(new GpuRules.Judged(GpuRules.PAGEABLE, Severity.INFO, gpu, figures, text, List.of(evidence(pageable.get()), evidence(pinned.get()))));
    }

    /**
     * Pinned host-to-device copies against the link's rate after line encoding: the current width
     * where it is narrower than the maximum (a narrow link is its own finding), else the maximum
     * (an idle GPU lowers its speed; the reading under load settles that).
     */
    static Optional<GpuRules.Judged> linkShare(String gpu, Result h2d, PciLink link) {
        if (link == null || link.maxGBs() <= 0) return Optional.empty();
        double gbs = link.belowMaxWidth() ? link.currentGBs() : link.maxGBs();
        if (!(gbs > 0)) return Optional.empty();
        double share = h2d.value().median() / gbs;
        String limit = link.belowMaxWidth() ? link.current() : link.max();
        String figures = String.format(Locale.ROOT, "pinned copies reach %.0f%% of the link's %.1f GB/s (PCIe %s)", 100 * share, gbs, limit);
        boolean low = share < GpuRules.LINK_SHARE_FLOOR;
        String text = figures + (low ? String.format(Locale.ROOT, ": below %.0f%%, under every healthy link hostside knows of (%s); check the link's"
                        + " speed under load, the buffer's NUMA node and the IOMMU", 100 * GpuRules.LINK_SHARE_FLOOR, GpuRules.HEALTHY_SHARES)
                : "; packet headers and flow control take the rest (" + GpuRules.HEALTHY_SHARES + ")");
        return Optional.of(new GpuRules.Judged(GpuRules.LINK_SHARE, low ? Severity.WARN : Severity.OK, gpu, figures, text,
                List.of(evidence(h2d), Evidence.fact("link", "PCIe " + limit))));
    }

    static GpuRules.Judged offload(String gpu, Result h2d, Optional<Result> h2dPage) {
        String pageable = h2dPage.map(p -> String.format(Locale.ROOT, ", %.2f s from pageable memory", OFFLOAD_BYTES / (p.value().median() * 1e9))).orElse("");
        String text = String.format(Locale.ROOT, "10 GB of optimizer state or KV cache moves to %s in %.2f s from pinned memory%s", gpu,
                OFFLOAD_BYTES / (h2d.value().median() * 1e9), pageable);
        List<Evidence> read = new ArrayList<>(List.of(evidence(h2d)));
        h2dPage.ifPresent(p -> read.add(evidence(p)));
        return new GpuRules.Judged(GpuRules.OFFLOAD_TIME, Severity.INFO, gpu, text, text, read);
    }

    static GpuRules.Judged sm(String gpu, Result in, Optional<Result> out, Result ce) {
        Stats s = in.value(), c = ce.value();
        String writing = out.map(o -> String.format(Locale.ROOT, ", writing it %.1f GB/s", o.value().median())).orElse("");
        String figures = !s.differsFrom(c)
                ? String.format(Locale.ROOT, "SMs reading host memory move as much as the copy engine within noise (%.1f vs %.1f GB/s)%s", s.median(), c.median(), writing)
                : String.format(Locale.ROOT, "SMs reading host memory reach %.0f%% of the copy engine (%.1f vs %.1f GB/s)%s", 100 * s.median() / c.median(),
                s.median(), c.median(), writing);
        List<Evidence> read = new ArrayList<>(List.of(evidence(in), evidence(ce)));
        out.ifPresent(o -> read.add(evidence(o)));
        return new GpuRules.Judged(GpuRules.SM_COPY, Severity.INFO, gpu, figures, figures
                + ": a kernel can stream host memory in place, but it holds SMs that the copy engine leaves free", read);
    }

    static GpuRules.Judged pinning(String gpu, Result alloc, Optional<Result> register) {
        String figures = String.format(Locale.ROOT, "pinning costs %.0f ms per GiB (cuMemHostAlloc)%s", alloc.value().median(),
                register.map(r -> String.format(Locale.ROOT, ", %.0f ms to register memory already in use", r.value().median())).orElse(""));
        List<Evidence> read = new ArrayList<>(List.of(evidence(alloc)));
        register.ifPresent(r -> read.add(evidence(r)));
        // PyTorch's pin_memory() draws on its caching host allocator: the cost is per new block, not per copy
        return new GpuRules.Judged(GpuRules.PIN_COST, Severity.INFO, gpu, figures, figures + ": paid once per pinned buffer, not per copy; pin once and"
                + " reuse the buffers, as PyTorch's caching host allocator does for pin_memory()", read);
    }
}
