package hostside.gpu.bench;

import hostside.gpu.cuda.Cuda;
import hostside.gpu.cuda.DeviceBuffer;
import hostside.gpu.cuda.HostBuffer;
import hostside.gpu.cuda.Stream;

/** Pageable copies three ways, alternated: which path of the driver a pageable copy takes matters. */
public final class PageableVariants {
    public static void main(String[] args) {
        Cuda cuda = ((Cuda.Open.Ready) Cuda.open()).cuda();
        long bytes = 256L << 20;
        try (GpuBench b = new GpuBench(cuda, 0); HostBuffer host = HostBuffer.pageable(cuda, bytes); DeviceBuffer dev = b.gpu.alloc(bytes)) {
            Stream legacy = Stream.legacyDefault(cuda);
            for (int round = 0; round < 3; round++) {
                for (String how : new String[] {"own-stream", "legacy-stream", "sync-call"}) {
                    for (boolean in : new boolean[] {true, false}) {
                        double best = 0, sum = 0;
                        int n = 10;
                        for (int w = 0; w < 3; w++) copy(b, how, legacy, in, dev, host, bytes);
                        long t0 = System.nanoTime();
                        for (int c = 0; c < n; c++) copy(b, how, legacy, in, dev, host, bytes);
                        sync(b, how, legacy);
                        double gbs = bytes * (double) n / ((System.nanoTime() - t0) / 1e9) / 1e9;
                        System.out.printf("round %d %-14s %s %.2f GB/s%n", round, how, in ? "h2d" : "d2h", gbs);
                    }
                }
            }
        }
    }

    static void copy(GpuBench b, String how, Stream legacy, boolean in, DeviceBuffer dev, HostBuffer host, long bytes) {
        switch (how) {
            case "own-stream" -> { if (in) b.stream.copyHostToDevice(dev, host, bytes); else b.stream.copyDeviceToHost(host, dev, bytes); b.stream.synchronize(); }
            case "legacy-stream" -> { if (in) legacy.copyHostToDevice(dev, host, bytes); else legacy.copyDeviceToHost(host, dev, bytes); legacy.synchronize(); }
            default -> { if (in) b.cuda.copyHostToDeviceSync(dev, host, bytes); else b.cuda.copyDeviceToHostSync(host, dev, bytes); }
        }
    }

    static void sync(GpuBench b, String how, Stream legacy) {
        b.gpu.synchronize();
    }
}
