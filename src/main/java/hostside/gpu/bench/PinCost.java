package hostside.gpu.bench;

import java.util.LinkedHashMap;
import java.util.Map;

import hostside.gpu.cuda.HostBuffer;
import hostside.harness.Result;
import hostside.core.Stats;
import hostside.harness.TestCase;

/**
 * What pinning costs: page-locking memory means faulting in and locking every page (and, with
 * an IOMMU, mapping it), which is why a DataLoader pins its buffers once and reuses them.
 * Reported as milliseconds per GiB.
 */
public record PinCost(boolean register) implements TestCase<Target> {
    static final int SAMPLES = 3;

    public String key() {
        return register ? "pin_cost_host_register" : "pin_cost_host_alloc";
    }

    public String description() {
        return register ? "cuMemHostRegister of ordinary, already touched memory: ms per GiB"
                : "cuMemHostAlloc of new pinned memory (allocation, fault-in, locking): ms per GiB";
    }

    public Result run(Target t) {
        long bytes = Math.min(1L << 30, t.hostAvailableBytes() / 4) & ~((1L << 20) - 1);
        GpuBench b = t.bench();
        double gib = bytes / (double) (1L << 30);
        double[] s = new double[SAMPLES];
        for (int i = -1; i < SAMPLES; i++) {
            double ms;
            if (register) {
                try (HostBuffer plain = HostBuffer.pageable(b.cuda, bytes)) {
                    long t0 = System.nanoTime();
                    plain.register();
                    ms = (System.nanoTime() - t0) / 1e6;
                    plain.unregister();
                }
            } else {
                long t0 = System.nanoTime();
                try (HostBuffer p = HostBuffer.pinnedUntouched(b.cuda, bytes)) {
                    ms = (System.nanoTime() - t0) / 1e6;
                }
            }
            if (i >= 0) s[i] = ms / gib;
        }
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("gpu", b.name + " (" + b.pciAddress + ")");
        d.put("bufferBytes", bytes);
        return Result.ok(this, hostside.core.Unit.MS_PER_GIB, Stats.of(s), "host wall clock around the driver call", d);
    }
}
