package hostside.gpu.bench;

import java.util.ArrayList;
import java.util.List;

import hostside.harness.DetailFigures;
import hostside.core.Better;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.cuda.DeviceBuffer;
import hostside.gpu.cuda.HostBuffer;
import hostside.harness.Result;
import hostside.harness.Sampling;
import hostside.harness.TestCase;

/**
 * Host-to-device bandwidth against copy size, 4 KiB to 1 GiB: small copies pay a fixed cost per
 * copy, so bandwidth climbs with size. The size at which a copy reaches half its peak says how
 * large a batch (or a KV-cache block) must be before the link, not the overhead, sets the pace.
 */
public record Sweep(boolean pinned) implements TestCase<Target> {
    static final int SAMPLES = 3;
    static final long MIN = 4L << 10, MAX = 1L << 30;
    static final Sampling SAMPLING = new Sampling(1, SAMPLES);

    public String key() {
        return pinned ? "host_to_device_sweep_pinned" : "host_to_device_sweep_pageable";
    }

    public String description() {
        return "host to device from " + (pinned ? "pinned" : "pageable") + " memory, 4 KiB to 1 GiB: where it reaches half its peak";
    }

    @Override
    public String anchor() {
        return "CUDA samples bandwidthTest --mode=shmoo --htod --memory=" + (pinned ? "pinned" : "pageable");
    }

    @Override
    public Class<SweepDetail> detailType() {
        return SweepDetail.class;
    }

    /** One size's figure, as a run builds its sweep (and as hostside/1 kept it in the detail's "points"). */
    public record Point(long bytes, int copies, Stats gbs) {}

    /**
     * The sweep: GB/s at each size, the copies each sample timed there, where the peak is and
     * where half of it is first reached (both figures of their own).
     *
     * @param gpu           the GPU's name and PCI address
     * @param peakAtBytes   the size with the highest median
     * @param halfPeakBytes the smallest size at half the peak or more
     * @param sweep         GB/s by size
     * @param copies        copies per sample at each size of {@code sweep}, in the same order
     */
    public record SweepDetail(String gpu, long peakAtBytes, long halfPeakBytes, hostside.core.Sweep sweep, List<Integer> copies)
            implements DetailFigures {
        public SweepDetail {
            copies = List.copyOf(copies);
            if (copies.size() != sweep.points().size()) throw new IllegalArgumentException(copies.size() + " copy counts for " + sweep.points().size() + " sizes");
        }

        /** The sweep of {@code points}, in increasing size, with its peak and half-peak sizes found. */
        public static SweepDetail of(String gpu, List<Point> points) {
            double[] medians = points.stream().mapToDouble(p -> p.gbs().median()).toArray();
            long[] sizes = points.stream().mapToLong(Point::bytes).toArray();
            long peak = sizes.length == 0 ? -1 : sizes[argmax(medians)];
            return new SweepDetail(gpu, peak, halfPeak(sizes, medians),
                    new hostside.core.Sweep(Unit.GB_PER_S, points.stream().map(p -> new hostside.core.Sweep.Point(p.bytes(), p.gbs())).toList()),
                    points.stream().map(Point::copies).toList());
        }

        /** Where the peak is and where half of it is reached: smaller is better for both (the link, not the overhead, sets the pace sooner). */
        @Override
        public List<Figure> figures(Result r, Scope scope) {
            if (peakAtBytes < 0) return List.of();
            String how = "read off the sweep's medians";
            return List.of(DetailFigures.exact(r, r.key() + "_peak_bytes", scope, peakAtBytes, Unit.BYTES, Better.LOWER, "the size with the highest median: " + how, r.anchor()),
                    DetailFigures.exact(r, r.key() + "_half_peak_bytes", scope, halfPeakBytes, Unit.BYTES, Better.LOWER,
                            "the smallest size at half the peak or more: " + how, r.anchor()));
        }
    }

    public Result run(Target t) {
        long largest = t.hostBuffer(MAX);
        GpuBench b = t.bench();
        List<Point> points = new ArrayList<>();
        try (HostBuffer host = pinned ? HostBuffer.pinned(b.cuda, largest) : HostBuffer.pageable(b.cuda, largest);
             DeviceBuffer dev = b.gpu.alloc(largest)) {
            for (long size = MIN; size <= largest; size *= 4) {
                // Enough copies to fill tens of milliseconds, but few enough to stay well inside
                // the driver's queue while the stream is blocked.
                int copies = (int) Math.max(2, Math.min(pinned ? 256 : 64, (64L << 20) / size));
                final long n = size;
                Stats s = SAMPLING.stats(i -> {
                    double ms;
                    if (pinned) {
                        ms = b.blockedMs(b.stream, st -> {
                            for (int c = 0; c < copies; c++) st.copyHostToDevice(dev, host, n);
                        });
                    } else {
                        long t0 = System.nanoTime();
                        for (int c = 0; c < copies; c++) b.legacy.copyHostToDevice(dev, host, n);
                        b.legacy.synchronize();
                        ms = (System.nanoTime() - t0) / 1e6;
                    }
                    return Copies.gbs(n * copies, ms);
                });
                points.add(new Point(size, copies, s));
            }
        }
        int peak = argmax(points.stream().mapToDouble(p -> p.gbs().median()).toArray());
        return Result.ok(this, Unit.GB_PER_S, points.get(peak).gbs(), pinned
                ? "at each size, copies queued behind a spin kernel and timed with CUDA events"
                : "at each size, synchronous copies timed on the host clock", SweepDetail.of(Copies.gpuName(b), points));
    }

    static int argmax(double[] v) {
        int best = 0;
        for (int i = 1; i < v.length; i++) if (v[i] > v[best]) best = i;
        return best;
    }

    /** The smallest size whose bandwidth is at least half the peak; -1 for no points. */
    public static long halfPeak(long[] sizes, double[] gbs) {
        if (sizes.length == 0) return -1;
        double half = gbs[argmax(gbs)] / 2;
        for (int i = 0; i < sizes.length; i++) if (gbs[i] >= half) return sizes[i];
        return sizes[sizes.length - 1];
    }
}
