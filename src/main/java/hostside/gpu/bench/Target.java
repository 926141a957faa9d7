package hostside.gpu.bench;

import hostside.harness.MemoryCap;

/**
 * What a GPU test case runs against: the GPU, and the memory it may use. Each buffer is bounded
 * by a quarter of the host's available memory and half the GPU's free memory; where the caller
 * caps what one case may hold (the report: {@link MemoryCap}), the host buffers a case holds at
 * once share that cap.
 *
 * @param cap the most host memory one case may hold at once, its buffers together; null: no cap
 */
public record Target(GpuBench bench, long hostAvailableBytes, long gpuFreeBytes, MemoryCap cap) {
    /** NVIDIA nvbandwidth's default buffer. */
    public static final long DEFAULT_BUFFER = 512L << 20;

    public Target(GpuBench bench, long hostAvailableBytes, long gpuFreeBytes) {
        this(bench, hostAvailableBytes, gpuFreeBytes, null);
    }

    /**
     * The largest buffer of at most {@code wanted} bytes that the bounds allow: a multiple of
     * 1 MiB, or of 4 KiB when the bounds leave less than 1 MiB (never less than one page).
     * The cap is not applied: for a buffer in GPU memory only (a peer copy's).
     */
    public long buffer(long wanted) {
        return rounded(Math.min(wanted, Math.min(hostAvailableBytes / 4, gpuFreeBytes / 2)));
    }

    /** {@link #buffer}, for a case that holds a host buffer of that size: within the cap too. */
    public long hostBuffer(long wanted) {
        return hostBuffers(wanted, 1);
    }

    /** The same for each of {@code count} host buffers a case holds at once (a bidirectional copy's two): all of them within the cap. */
    public long hostBuffers(long wanted, int count) {
        long b = Math.min(wanted, Math.min(hostAvailableBytes / 4, gpuFreeBytes / 2));
        if (cap != null) b = Math.min(b, cap.bytes() / count);
        return rounded(b);
    }

    private static long rounded(long b) {
        if (b >= 1L << 20) return b & ~((1L << 20) - 1);
        return Math.max(4096, b & ~4095L);
    }

    /** The most host memory one case may hold at once: a quarter of available memory, or the cap where lower. */
    public long hostBudgetBytes() {
        return MemoryCap.min(cap, hostAvailableBytes / 4);
    }

    /** This target with every GPU of {@code gpus} sharing the host: a share of the available memory and of the cap each. */
    public static Target sharing(GpuBench bench, long hostAvailableBytes, long gpuFreeBytes, MemoryCap cap, int gpus) {
        int n = Math.max(1, gpus);
        MemoryCap share = cap == null ? null : new MemoryCap(Math.max(4096, cap.bytes() / n), cap.why() + ", shared by " + n + " GPUs");
        return new Target(bench, hostAvailableBytes / n, gpuFreeBytes, share);
    }
}
