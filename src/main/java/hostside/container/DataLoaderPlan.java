package hostside.container;

/**
 * The training job the limits are weighed against: a PyTorch DataLoader with some workers, each
 * process with its thread pools, and the batches in flight in /dev/shm. The command line sets
 * it; unset parts follow PyTorch's defaults and this process's view of the machine.
 *
 * @param workers           num_workers
 * @param threadsPerProcess threads each process may start: PyTorch's intra-op pool and the OpenMP
 *                          and BLAS pools of the libraries a worker uses size themselves from the
 *                          visible CPUs (or OMP_NUM_THREADS), not from a cgroup quota; null when unknown
 * @param threadsSource     where that figure comes from
 * @param threads           (workers + the main process) x threadsPerProcess: tasks for pids.max and RLIMIT_NPROC; null when unknown
 * @param batchBytes        one collated batch
 * @param prefetchFactor    batches each worker keeps ready (DataLoader's prefetch_factor)
 * @param shmBytes          workers x prefetchFactor x batchBytes: what sits in /dev/shm at once
 */
public record DataLoaderPlan(int workers, Integer threadsPerProcess, String threadsSource, Long threads, long batchBytes,
                             int prefetchFactor, long shmBytes) {
    /** A common num_workers for one GPU; --workers gives the job's own. */
    public static final int DEFAULT_WORKERS = 8;
    /** DataLoader's default prefetch_factor. */
    public static final int PREFETCH_FACTOR = 2;
    /** An ImageNet training batch: 256 images of 3x224x224 float32, collated. */
    public static final long DEFAULT_BATCH_BYTES = 256L * 3 * 224 * 224 * Float.BYTES;

    /**
     * @param workers    num_workers, or null for the default
     * @param threads    threads per process, or null: OMP_NUM_THREADS when set, else the visible CPUs
     * @param batchBytes bytes per batch, or null for the default
     */
    public static DataLoaderPlan of(ContainerFacts f, LiveProcess live, Integer workers, Integer threads, Long batchBytes) {
        int w = workers == null ? DEFAULT_WORKERS : workers;
        long b = batchBytes == null ? DEFAULT_BATCH_BYTES : batchBytes;
        Integer t = threads;
        String source = "--threads";
        String omp = live.env().get("OMP_NUM_THREADS");
        if (t == null && omp != null && omp.strip().matches("[1-9]\\d{0,5}")) {
            t = Integer.parseInt(omp.strip());
            source = "OMP_NUM_THREADS=" + t;
        } else if (t == null && f.cpu() != null && f.cpu().visibleCpus() != null) {
            t = f.cpu().visibleCpus();
            source = "the " + t + " visible CPUs" + (live.live() ? ", OMP_NUM_THREADS unset" : "");
        } else if (t == null) {
            source = "unknown: the visible CPUs are unknown";
        }
        Long total = t == null ? null : (long) (w + 1) * t;
        // checked: --batch-bytes is at most Bounds.MEMORY_BYTES and the workers at most 64, so this never throws for the command line's values
        return new DataLoaderPlan(w, t, source, total, b, PREFETCH_FACTOR, Math.multiplyExact((long) w * PREFETCH_FACTOR, b));
    }
}
