package hostside.vm.measure;

import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import hostside.gpu.bench.GpuBench;
import hostside.gpu.bench.Target;
import hostside.gpu.cuda.DeviceBuffer;
import hostside.gpu.cuda.ManagedBuffer;
import hostside.harness.Result;
import hostside.core.Stats;
import hostside.harness.TestCase;
import hostside.libc.Libc;

/**
 * Managed (unified) memory moving between host and GPU: driven by page faults on either side,
 * or by an explicit prefetch. The buffer is never larger than a tenth of the GPU's free memory
 * (oversubscribing managed memory can hang a GPU) nor a quarter of the host's available memory.
 * GPU-side work is queued behind the spin kernel and timed with CUDA events, like the copies;
 * CPU faults are timed on the host clock and counted by getrusage.
 */
public record ManagedMigration(Kind kind) implements TestCase<Target> {
    static final long WANTED = 512L << 20;
    static final int SAMPLES = 5;
    /** concurrentManagedAccess (cuda.h): on-demand paging of managed memory by GPU faults. */
    static final int ATTR_CONCURRENT_MANAGED_ACCESS = 89;
    static final int THREADS = 512, BLOCKS_PER_SM = 4, ATTR_SM_COUNT = 16;

    public enum Kind {
        GPU_FAULTS_TO_DEVICE("managed_gpu_faults_h2d", "GPU kernel reads managed memory resident on the host: migration by GPU page faults"),
        CPU_FAULTS_TO_HOST("managed_cpu_faults_d2h", "CPU writes managed memory resident on the GPU: migration by CPU page faults"),
        PREFETCH_TO_DEVICE("managed_prefetch_h2d", "cuMemPrefetchAsync of host-resident managed memory to the GPU"),
        PREFETCH_TO_HOST("managed_prefetch_d2h", "cuMemPrefetchAsync of GPU-resident managed memory back to the host");

        final String key, description;

        Kind(String key, String description) {
            this.key = key;
            this.description = description;
        }
    }

    public static List<TestCase<Target>> all() {
        return java.util.Arrays.stream(Kind.values()).<TestCase<Target>>map(ManagedMigration::new).toList();
    }

    public String key() {
        return kind.key;
    }

    public String description() {
        return kind.description;
    }

    public Optional<String> notApplicable(Target t) {
        GpuBench b = t.bench();
        int cma = b.cuda.attribute(b.gpu.device(), ATTR_CONCURRENT_MANAGED_ACCESS).orElse(0);
        if (cma == 0) return Optional.of("concurrentManagedAccess is 0: this GPU or driver does not migrate managed memory on page faults");
        return Optional.empty();
    }

    static long bytes(Target t) {
        long b = Math.min(WANTED, Math.min(t.gpuFreeBytes() / 10, t.hostAvailableBytes() / 4));
        return Math.max(2L << 20, b & ~((2L << 20) - 1));
    }

    public Result run(Target t) {
        GpuBench b = t.bench();
        long bytes = bytes(t);
        long page = Libc.pageSize();
        int sms = b.cuda.attribute(b.gpu.device(), ATTR_SM_COUNT).orElse(1);
        double[] gbs = new double[SAMPLES];
        long[] faults = new long[SAMPLES];
        try (ManagedBuffer m = new ManagedBuffer(b.cuda, bytes); DeviceBuffer dev = b.gpu.alloc(bytes)) {
            MemorySegment host = m.segment();
            for (int i = -1; i < SAMPLES; i++) {
                double ms;
                long f = 0;
                switch (kind) {
                    case GPU_FAULTS_TO_DEVICE -> {
                        AnonTouch.touch(host, page); // every page back on the host
                        ms = b.blockedMs(b.stream, st -> b.copy.launch(st, sms * BLOCKS_PER_SM, THREADS, dev.address(), m.address(), bytes / 16));
                    }
                    case CPU_FAULTS_TO_HOST -> {
                        m.prefetchToDevice(b.gpu.device(), b.stream);
                        b.stream.synchronize();
                        Libc.Usage before = Libc.threadUsage();
                        long t0 = System.nanoTime();
                        AnonTouch.touch(host, page);
                        ms = (System.nanoTime() - t0) / 1e6;
                        f = Libc.threadUsage().minus(before).minorFaults();
                    }
                    case PREFETCH_TO_DEVICE -> {
                        AnonTouch.touch(host, page);
                        ms = b.blockedMs(b.stream, st -> m.prefetchToDevice(b.gpu.device(), st));
                    }
                    case PREFETCH_TO_HOST -> {
                        m.prefetchToDevice(b.gpu.device(), b.stream);
                        b.stream.synchronize();
                        ms = b.blockedMs(b.stream, st -> m.prefetchToHost(st));
                    }
                    default -> throw new IllegalStateException(kind.toString());
                }
                if (i < 0) continue;
                gbs[i] = bytes / (ms * 1e6);
                faults[i] = f;
            }
        }
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("gpu", b.name + " (" + b.pciAddress + ")");
        d.put("bufferBytes", bytes);
        if (kind == Kind.CPU_FAULTS_TO_HOST) {
            long f = FileRead.median(faults);
            // What getrusage counted while the CPU pulled the pages back. On the H200 (driver 580)
            // it is 0: nvidia-uvm resolves these faults without the kernel's per-task fault
            // accounting seeing them, so this is kept as a fact, not shown as faults per MiB.
            d.put("cpuFaultsCounted", f);
        }
        String method = kind == Kind.CPU_FAULTS_TO_HOST
                ? "one CPU write per base page, host clock; faults from getrusage(RUSAGE_THREAD)"
                : "queued behind a spin kernel, timed with CUDA events (nvbandwidth's way)";
        return Result.ok(this, hostside.core.Unit.GB_PER_S, Stats.of(gbs), method, d);
    }
}
