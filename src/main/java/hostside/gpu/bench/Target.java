package hostside.gpu.bench;

/**
 * What a GPU test case runs against: the GPU, and the memory it may use. Buffers are bounded
 * by a quarter of the host's available memory and half the GPU's free memory.
 */
public record Target(GpuBench bench, long hostAvailableBytes, long gpuFreeBytes) {
    /** NVIDIA nvbandwidth's default buffer. */
    public static final long DEFAULT_BUFFER = 512L << 20;

    /** The largest buffer of at most {@code wanted} bytes that the bounds allow, a multiple of 1 MiB. */
    public long buffer(long wanted) {
        long cap = Math.min(hostAvailableBytes / 4, gpuFreeBytes / 2);
        long b = Math.min(wanted, cap) & ~((1L << 20) - 1);
        return Math.max(b, Math.min(wanted, 1L << 20));
    }
}
