package hostside.gpu.bench;

import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.cuda.HostBuffer;
import hostside.harness.Detail;
import hostside.harness.Result;
import hostside.harness.Sampling;
import hostside.harness.TestCase;

/**
 * What pinning costs: page-locking memory means faulting in and locking every page (and, with
 * an IOMMU, mapping it), which is why a DataLoader pins its buffers once and reuses them.
 * Reported as milliseconds per GiB.
 */
public record PinCost(boolean register) implements TestCase<Target> {
    static final int SAMPLES = 3;
    static final Sampling SAMPLING = new Sampling(1, SAMPLES);

    /** The GPU whose driver pinned, and how much each sample pinned. */
    public record PinDetail(String gpu, long bufferBytes) implements Detail {}

    public String key() {
        return register ? "pin_cost_host_register" : "pin_cost_host_alloc";
    }

    public String description() {
        return register ? "cuMemHostRegister of ordinary, already touched memory: ms per GiB"
                : "cuMemHostAlloc of new pinned memory (allocation, fault-in, locking): ms per GiB";
    }

    @Override
    public Class<PinDetail> detailType() {
        return PinDetail.class;
    }

    public Result run(Target t) {
        long bytes = Math.min(1L << 30, t.hostBudgetBytes()) & ~((1L << 20) - 1);
        GpuBench b = t.bench();
        double gib = bytes / (double) (1L << 30);
        Stats s = SAMPLING.stats(i -> {
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
            return ms / gib;
        });
        return Result.ok(this, Unit.MS_PER_GIB, s, "host wall clock around the driver call", new PinDetail(Copies.gpuName(b), bytes));
    }
}
