package hostside.gpu.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import hostside.gpu.cuda.DeviceBuffer;
import hostside.gpu.cuda.HostBuffer;
import hostside.harness.Result;
import hostside.core.Stats;
import hostside.harness.TestCase;

/**
 * Host-to-device bandwidth against copy size, 4 KiB to 1 GiB: small copies pay a fixed cost per
 * copy, so bandwidth climbs with size. The size at which a copy reaches half its peak says how
 * large a batch (or a KV-cache block) must be before the link, not the overhead, sets the pace.
 */
public record Sweep(boolean pinned) implements TestCase<Target> {
    static final int SAMPLES = 3;
    static final long MIN = 4L << 10, MAX = 1L << 30;

    public String key() {
        return pinned ? "host_to_device_sweep_pinned" : "host_to_device_sweep_pageable";
    }

    public String description() {
        return "host to device from " + (pinned ? "pinned" : "pageable") + " memory, 4 KiB to 1 GiB: where it reaches half its peak";
    }

    /** One size's figure. */
    public record Point(long bytes, int copies, Stats gbs) {}

    public Result run(Target t) {
        long largest = t.buffer(MAX);
        GpuBench b = t.bench();
        List<Point> points = new ArrayList<>();
        try (HostBuffer host = pinned ? HostBuffer.pinned(b.cuda, largest) : HostBuffer.pageable(b.cuda, largest);
             DeviceBuffer dev = b.gpu.alloc(largest)) {
            for (long size = MIN; size <= largest; size *= 4) {
                // Enough copies to fill tens of milliseconds, but few enough to stay well inside
                // the driver's queue while the stream is blocked.
                int copies = (int) Math.max(2, Math.min(pinned ? 256 : 64, (64L << 20) / size));
                double[] s = new double[SAMPLES];
                final long n = size;
                for (int i = -1; i < SAMPLES; i++) {
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
                    if (i >= 0) s[i] = Copies.gbs(n * copies, ms);
                }
                points.add(new Point(size, copies, Stats.of(s)));
            }
        }
        double[] medians = points.stream().mapToDouble(p -> p.gbs().median()).toArray();
        long[] sizes = points.stream().mapToLong(Point::bytes).toArray();
        int peak = argmax(medians);
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("gpu", b.name + " (" + b.pciAddress + ")");
        d.put("peakAtBytes", sizes[peak]);
        d.put("halfPeakBytes", halfPeak(sizes, medians));
        d.put("points", points);
        return Result.ok(this, hostside.core.Unit.GB_PER_S, points.get(peak).gbs(), pinned
                ? "at each size, copies queued behind a spin kernel and timed with CUDA events"
                : "at each size, synchronous copies timed on the host clock", d);
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
