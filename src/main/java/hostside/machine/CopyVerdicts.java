package hostside.machine;

import java.util.Locale;
import java.util.ArrayList;
import java.util.List;

import java.util.Optional;

import hostside.harness.Result;
import hostside.core.Units;

/** What the copy figures mean for training and inference, one line each. */
public final class CopyVerdicts {
    /** Module 6's offload example: 10 GB of optimizer state or KV cache. */
    public static final double OFFLOAD_BYTES = 10e9;

    private CopyVerdicts() {}

    public static List<String> of(String gpu, List<Result> rs, PciLink link) {
        List<String> v = new ArrayList<>();
        Optional<Double> h2d = Result.median(rs, "host_to_device_ce_pinned"), d2h = Result.median(rs, "device_to_host_ce_pinned");
        Optional<Double> h2dPage = Result.median(rs, "host_to_device_ce_pageable"), d2hPage = Result.median(rs, "device_to_host_ce_pageable");
        if (h2d.isPresent() && h2dPage.isPresent()) {
            v.add(String.format(Locale.ROOT, "pageable host-to-device copies run at %.0f%% of pinned (%.1f vs %.1f GB/s): pin DataLoader memory (pin_memory=True) and copy with non_blocking=True",
                    100 * h2dPage.get() / h2d.get(), h2dPage.get(), h2d.get()));
        }
        if (d2h.isPresent() && d2hPage.isPresent()) {
            v.add(String.format(Locale.ROOT, "pageable device-to-host copies run at %.0f%% of pinned (%.1f vs %.1f GB/s): bring results and offloaded state back into pinned buffers",
                    100 * d2hPage.get() / d2h.get(), d2hPage.get(), d2h.get()));
        }
        if (h2d.isPresent() && link != null && link.maxGBs() > 0) {
            double gbs = link.belowMaxWidth() ? link.currentGBs() : link.maxGBs();
            double share = h2d.get() / gbs;
            String limit = (link.belowMaxWidth() ? link.current() : link.max());
            v.add(String.format(Locale.ROOT, "pinned copies reach %.0f%% of the link's %.1f GB/s (PCIe %s)%s", 100 * share, gbs, limit,
                    share >= 0.8 ? "; 87-90% is the usual ceiling after packet overhead"
                            : ": well below the usual 87-90%; check the link speed under load, the buffer's NUMA node and the IOMMU"));
        }
        if (h2d.isPresent()) {
            String pageable = h2dPage.map(p -> String.format(Locale.ROOT, ", %.2f s from pageable memory", OFFLOAD_BYTES / (p * 1e9))).orElse("");
            v.add(String.format(Locale.ROOT, "10 GB of optimizer state or KV cache moves to %s in %.2f s from pinned memory%s", gpu,
                    OFFLOAD_BYTES / (h2d.get() * 1e9), pageable));
        }
        Optional<Double> smIn = Result.median(rs, "host_to_device_sm"), smOut = Result.median(rs, "device_to_host_sm");
        if (smIn.isPresent() && h2d.isPresent()) {
            v.add(String.format(Locale.ROOT, "SMs reading host memory reach %.0f%% of the copy engine (%.1f vs %.1f GB/s)%s", 100 * smIn.get() / h2d.get(),
                    smIn.get(), h2d.get(), smOut.map(o -> String.format(Locale.ROOT, ", writing it %.1f GB/s", o)).orElse("")
                            + ": a kernel can stream host memory in place, but it holds SMs that the copy engine leaves free"));
        }
        Result.median(rs, "host_device_latency_sm").ifPresent(ns -> v.add(String.format(
                "one dependent load from host memory takes %.2f us: fine-grained host access (pointer chasing, small reads) stalls a GPU thread that long; move data in bulk",
                ns / 1000)));
        rs.stream().filter(r -> r.isOk() && r.key().startsWith("host_to_device_sweep_")).forEach(r -> {
            if (r.detail() instanceof hostside.gpu.bench.Sweep.SweepDetail d && d.halfPeakBytes() >= 0) {
                v.add(String.format(Locale.ROOT, "%s copies reach half their %.1f GB/s peak at %s: smaller transfers are mostly per-copy overhead; batch them",
                        r.key().endsWith("pinned") ? "pinned" : "pageable", r.value().median(), Units.bytes(d.halfPeakBytes())));
            }
        });
        Result.median(rs, "pin_cost_host_alloc").ifPresent(ms -> v.add(String.format(
                "pinning costs %.0f ms per GiB (cuMemHostAlloc)%s: pin once at start-up and reuse the buffers, as PyTorch's pinned allocator does",
                ms, Result.median(rs, "pin_cost_host_register").map(r -> String.format(Locale.ROOT, ", %.0f ms to register memory already in use", r)).orElse(""))));
        v.addAll(NodeVerdicts.of(gpu, rs));
        return v;
    }

}
