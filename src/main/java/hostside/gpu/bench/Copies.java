package hostside.gpu.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import hostside.gpu.cuda.DeviceBuffer;
import hostside.gpu.cuda.HostBuffer;
import hostside.harness.Result;
import hostside.core.Stats;
import hostside.harness.TestCase;

/**
 * Copies between host and GPU, as NVIDIA nvbandwidth measures them, plus the pageable copies it
 * leaves out (measured as PyTorch's {@code tensor.copy_} does them: synchronous, wall clock).
 * GB/s are 10^9 bytes per second, counting each byte copied once.
 */
public final class Copies {
    static final int WARMUPS = 1, SAMPLES = 5, COPIES = 8;

    private Copies() {}

    /** GB/s of each sample after the warm-ups, with {@code work} queued behind the spin kernel. */
    static double[] blockedGbs(GpuBench b, long bytesPerSample, java.util.function.Consumer<hostside.gpu.cuda.Stream> work) {
        double[] s = new double[SAMPLES];
        for (int i = -WARMUPS; i < SAMPLES; i++) {
            double ms = b.blockedMs(b.stream, work);
            if (i >= 0) s[i] = gbs(bytesPerSample, ms);
        }
        return s;
    }

    public static double gbs(long bytes, double ms) {
        return bytes / (ms / 1e3) / 1e9;
    }

    static Map<String, Object> detail(Target t, long bytes, int copies) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("gpu", t.bench().name + " (" + t.bench().pciAddress + ")");
        d.put("bufferBytes", bytes);
        d.put("copiesPerSample", copies);
        return d;
    }

    /** Host to device or back through a copy engine, from pinned memory. */
    public record CePinned(boolean toDevice) implements TestCase<Target> {
        public String key() {
            return toDevice ? "host_to_device_ce_pinned" : "device_to_host_ce_pinned";
        }

        public String description() {
            return (toDevice ? "host to device" : "device to host") + " through a copy engine, pinned host memory";
        }

        public Result run(Target t) {
            long bytes = t.buffer(Target.DEFAULT_BUFFER);
            GpuBench b = t.bench();
            try (HostBuffer host = HostBuffer.pinned(b.cuda, bytes); DeviceBuffer dev = b.gpu.alloc(bytes)) {
                dev.fill(0x5a5a5a5a);
                double[] s = blockedGbs(b, bytes * COPIES, st -> {
                    for (int c = 0; c < COPIES; c++) {
                        if (toDevice) st.copyHostToDevice(dev, host, bytes);
                        else st.copyDeviceToHost(host, dev, bytes);
                    }
                });
                return Result.ok(this, hostside.core.Unit.GB_PER_S, Stats.of(s), "nvbandwidth's: copies queued behind a spin kernel, timed with CUDA events",
                        detail(t, bytes, COPIES));
            }
        }
    }

    /** Both directions at once, each on its own stream and copy engine. */
    public record CeBidirectional() implements TestCase<Target> {
        public String key() {
            return "bidirectional_ce_pinned";
        }

        public String description() {
            return "host to device while device to host runs, copy engines, pinned (figure: the host-to-device direction)";
        }

        public Result run(Target t) {
            long bytes = t.buffer(Target.DEFAULT_BUFFER);
            GpuBench b = t.bench();
            try (HostBuffer hIn = HostBuffer.pinned(b.cuda, bytes); HostBuffer hOut = HostBuffer.pinned(b.cuda, bytes);
                 DeviceBuffer dIn = b.gpu.alloc(bytes); DeviceBuffer dOut = b.gpu.alloc(bytes)) {
                dOut.fill(0x5a5a5a5a);
                double[] h2d = new double[SAMPLES], d2h = new double[SAMPLES];
                for (int i = -WARMUPS; i < SAMPLES; i++) {
                    double[] ms = b.blockedMs2(st -> {
                        for (int c = 0; c < COPIES; c++) st.copyHostToDevice(dIn, hIn, bytes);
                    }, st -> {
                        for (int c = 0; c < COPIES; c++) st.copyDeviceToHost(hOut, dOut, bytes);
                    });
                    if (i >= 0) {
                        h2d[i] = gbs(bytes * COPIES, ms[0]);
                        d2h[i] = gbs(bytes * COPIES, ms[1]);
                    }
                }
                Map<String, Object> d = detail(t, bytes, COPIES);
                d.put("deviceToHostGBs", Stats.of(d2h));
                return Result.ok(this, hostside.core.Unit.GB_PER_S, Stats.of(h2d), "nvbandwidth's, two streams released together", d);
            }
        }
    }

    /**
     * From pageable memory the driver stages through its own pinned buffer and the call returns
     * only when the copy is done, so the stream cannot be blocked ahead: timed on the host's
     * clock around copies on the legacy default stream, each then synchronised, which is how
     * PyTorch's {@code copy_} issues them (its current stream is the legacy one unless set).
     */
    public record CePageable(boolean toDevice) implements TestCase<Target> {
        public String key() {
            return toDevice ? "host_to_device_ce_pageable" : "device_to_host_ce_pageable";
        }

        public String description() {
            return (toDevice ? "host to device" : "device to host") + ", pageable host memory (staged by the driver)";
        }

        public Result run(Target t) {
            long bytes = t.buffer(256L << 20);
            GpuBench b = t.bench();
            int copies = 4;
            try (HostBuffer host = HostBuffer.pageable(b.cuda, bytes); DeviceBuffer dev = b.gpu.alloc(bytes)) {
                dev.fill(0x5a5a5a5a);
                double[] s = new double[SAMPLES];
                for (int i = -WARMUPS; i < SAMPLES; i++) {
                    long t0 = System.nanoTime();
                    for (int c = 0; c < copies; c++) {
                        if (toDevice) b.legacy.copyHostToDevice(dev, host, bytes);
                        else b.legacy.copyDeviceToHost(host, dev, bytes);
                    }
                    b.legacy.synchronize();
                    double ms = (System.nanoTime() - t0) / 1e6;
                    if (i >= 0) s[i] = gbs(bytes * copies, ms);
                }
                return Result.ok(this, hostside.core.Unit.GB_PER_S, Stats.of(s), "copies on the legacy default stream, host wall clock (PyTorch's copy_)",
                        detail(t, bytes, copies));
            }
        }
    }

    /** A copy inside GPU memory: the HBM's copy bandwidth, each byte counted once. */
    public record DeviceLocal() implements TestCase<Target> {
        public String key() {
            return "device_local_copy";
        }

        public String description() {
            return "device to device inside one GPU's memory";
        }

        public Result run(Target t) {
            long bytes = Math.max(4096, Math.min(Target.DEFAULT_BUFFER, t.gpuFreeBytes() / 4) & ~4095L);
            GpuBench b = t.bench();
            try (DeviceBuffer src = b.gpu.alloc(bytes); DeviceBuffer dst = b.gpu.alloc(bytes)) {
                src.fill(0x5a5a5a5a);
                double[] s = blockedGbs(b, bytes * COPIES, st -> {
                    for (int c = 0; c < COPIES; c++) st.copyDeviceToDevice(dst, src, bytes);
                });
                return Result.ok(this, hostside.core.Unit.GB_PER_S, Stats.of(s), "nvbandwidth's, cuMemcpyDtoDAsync", detail(t, bytes, COPIES));
            }
        }
    }

    public static List<TestCase<Target>> all() {
        return List.of(new CePinned(true), new CePinned(false), new CeBidirectional(), new CePageable(true),
                new CePageable(false), new DeviceLocal(), new PinCost(false), new PinCost(true), new Sweep(true), new Sweep(false));
    }
}
