package hostside.vm.measure;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Optional;

import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.bench.GpuBench;
import hostside.gpu.bench.Target;
import hostside.gpu.cuda.DeviceBuffer;
import hostside.gpu.cuda.ManagedBuffer;
import hostside.harness.Detail;
import hostside.harness.Result;
import hostside.harness.Sampling;
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
        long b = Math.min(WANTED, Math.min(t.gpuFreeBytes() / 10, t.hostBudgetBytes()));
        return Math.max(2L << 20, b & ~((2L << 20) - 1));
    }

    /**
     * What a migration measured beside its figure (JSON names as hostside/1 wrote them).
     *
     * @param gpu              the GPU measured on, as "name (PCI address)"
     * @param bufferBytes      the managed buffer moved each sample
     * @param cpuFaultsCounted the CPU-fault case only (null for the others): what getrusage counted while the
     *                         CPU pulled the pages back, median of the samples. On the H200 (driver 580) it is 0:
     *                         nvidia-uvm resolves these faults without the kernel's per-task fault accounting
     *                         seeing them, so 0 means "not seen", never "no faults": it is kept as a fact, and the
     *                         output says the faults went uncounted ({@link #uncounted()}).
     */
    public record MigrationDetail(String gpu, long bufferBytes, Long cpuFaultsCounted) implements Detail {}

    @Override
    public Class<MigrationDetail> detailType() {
        return MigrationDetail.class;
    }

    /** What the CPU-fault case's figure is, by what getrusage counted in a lap: the count is only named where it saw the faults. */
    public static String cpuMethod(long counted) {
        String timed = "one CPU write per base page, host clock; ";
        if (counted > 0) return timed + "getrusage(RUSAGE_THREAD) counted " + counted + " faults a lap";
        return timed + uncounted();
    }

    /**
     * Why the CPU-fault case has no count of faults where getrusage saw none: the pages came back
     * (the time says so), but nvidia-uvm resolved the faults without the kernel's per-task fault
     * accounting seeing them (the H200, driver 580). So nothing says how many faults the figure
     * took, nor whether it took them at 4 KiB or in larger blocks.
     */
    public static String uncounted() {
        return "getrusage(RUSAGE_THREAD) saw none of its faults (0 counted): nvidia-uvm resolves them outside the kernel's per-task fault"
                + " accounting, so the figure is the migration's time alone and how many faults it took is unknown";
    }

    /** One lap: the time it took, and the faults the CPU case counted (0 for the others). */
    record Lap(double ms, long faults) {}

    public Result run(Target t) {
        GpuBench b = t.bench();
        long bytes = bytes(t);
        long page = Libc.pageSize();
        int sms = b.cuda.attribute(b.gpu.device(), ATTR_SM_COUNT).orElse(1);
        List<Lap> laps;
        try (ManagedBuffer m = new ManagedBuffer(b.cuda, bytes); DeviceBuffer dev = b.gpu.alloc(bytes)) {
            MemorySegment host = m.segment();
            // one warm-up lap: the first migration also pays for setting up the driver's structures
            laps = new Sampling(1, SAMPLES).each(i -> switch (kind) {
                case GPU_FAULTS_TO_DEVICE -> {
                    AnonTouch.touch(host, page); // every page back on the host
                    yield new Lap(b.blockedMs(b.stream, st -> b.copy.launch(st, sms * BLOCKS_PER_SM, THREADS, dev.address(), m.address(), bytes / 16)), 0);
                }
                case CPU_FAULTS_TO_HOST -> {
                    m.prefetchToDevice(b.gpu.device(), b.stream);
                    b.stream.synchronize();
                    Libc.Usage before = Libc.threadUsage();
                    long t0 = System.nanoTime();
                    AnonTouch.touch(host, page);
                    double ms = (System.nanoTime() - t0) / 1e6;
                    yield new Lap(ms, Libc.threadUsage().minus(before).minorFaults());
                }
                case PREFETCH_TO_DEVICE -> {
                    AnonTouch.touch(host, page);
                    yield new Lap(b.blockedMs(b.stream, st -> m.prefetchToDevice(b.gpu.device(), st)), 0);
                }
                case PREFETCH_TO_HOST -> {
                    m.prefetchToDevice(b.gpu.device(), b.stream);
                    b.stream.synchronize();
                    yield new Lap(b.blockedMs(b.stream, st -> m.prefetchToHost(st)), 0);
                }
            });
        }
        double[] gbs = laps.stream().mapToDouble(l -> bytes / (l.ms() * 1e6)).toArray();
        Long counted = kind == Kind.CPU_FAULTS_TO_HOST ? FileRead.median(laps.stream().mapToLong(Lap::faults).toArray()) : null;
        MigrationDetail d = new MigrationDetail(b.name + " (" + b.pciAddress + ")", bytes, counted);
        String method = kind == Kind.CPU_FAULTS_TO_HOST ? cpuMethod(counted) : "queued behind a spin kernel, timed with CUDA events (nvbandwidth's way)";
        return Result.ok(this, Unit.GB_PER_S, Stats.of(gbs), method, d);
    }
}
