package hostside.gpu.bench;

import hostside.gpu.cuda.Cuda;
import hostside.gpu.cuda.DeviceBuffer;
import hostside.gpu.cuda.HostBuffer;
import hostside.gpu.cuda.Stream;

/**
 * A bench tool, not a drill: pageable copies of 256 MiB issued three ways, alternated for three
 * rounds, to see whether the way a copy is issued matters (once bench/device-pageable.sh, now in `bench/run copies`, and
 * docs/measurements/2026-12-02-h200-gpu.md; on the H200 it did not, beyond run-to-run noise).
 * Run with: java --enable-native-access=ALL-UNNAMED -cp target/hostside.jar PageableVariants
 */
public final class PageableVariants {
    enum Way { OWN_STREAM, LEGACY_STREAM, SYNC_CALL }

    static final long BYTES = 256L << 20;
    static final int WARMUPS = 3, COPIES = 10, ROUNDS = 3;

    public static void main(String[] args) {
        if (!(Cuda.open() instanceof Cuda.Open.Ready ready)) {
            System.out.println("not run: no usable CUDA driver");
            return;
        }
        Cuda cuda = ready.cuda();
        try (GpuBench b = new GpuBench(cuda, 0); HostBuffer host = HostBuffer.pageable(cuda, BYTES); DeviceBuffer dev = b.gpu.alloc(BYTES)) {
            for (int round = 0; round < ROUNDS; round++) {
                for (Way way : Way.values()) {
                    for (boolean toDevice : new boolean[] {true, false}) {
                        for (int w = 0; w < WARMUPS; w++) copy(b, way, toDevice, dev, host);
                        long t0 = System.nanoTime();
                        for (int c = 0; c < COPIES; c++) copy(b, way, toDevice, dev, host);
                        double gbs = BYTES * (double) COPIES / ((System.nanoTime() - t0) / 1e9) / 1e9;
                        System.out.printf(java.util.Locale.ROOT, "round %d %-14s %s %.2f GB/s%n", round, way, toDevice ? "h2d" : "d2h", gbs);
                    }
                }
            }
        }
    }

    /** One copy, finished before it returns, whichever way it is issued. */
    static void copy(GpuBench b, Way way, boolean toDevice, DeviceBuffer dev, HostBuffer host) {
        if (way == Way.SYNC_CALL) {
            if (toDevice) b.cuda.copyHostToDeviceSync(dev, host, BYTES);
            else b.cuda.copyDeviceToHostSync(host, dev, BYTES);
            return;
        }
        Stream s = way == Way.OWN_STREAM ? b.stream : b.legacy;
        if (toDevice) s.copyHostToDevice(dev, host, BYTES);
        else s.copyDeviceToHost(host, dev, BYTES);
        s.synchronize();
    }
}
