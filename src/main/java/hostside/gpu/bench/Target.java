package hostside.gpu.bench;

/**
 * What a GPU test case runs against: the GPU, and the memory it may use. Buffers are bounded
 * by a quarter of the host's available memory and half the GPU's free memory.
 */
public record Target(GpuBench bench, long hostAvailableBytes, long gpuFreeBytes) {
    /** NVIDIA nvbandwidth's default buffer. */
    public static final long DEFAULT_BUFFER = 512L << 20;

    /**
     * The largest buffer of at most {@code wanted} bytes that the bounds allow: a multiple of
     * 1 MiB, or of 4 KiB when the bounds leave less than 1 MiB (never less than one page).
     */
    public long buffer(long wanted) {
        long b = Math.min(wanted, Math.min(hostAvailableBytes / 4, gpuFreeBytes / 2));
        if (b >= 1L << 20) return b & ~((1L << 20) - 1);
        return Math.max(4096, b & ~4095L);
    }
}
