package hostside.container;

/**
 * The training job the limits are weighed against: a PyTorch DataLoader with some workers, the main
 * process with its intra-op pool, and the batches in flight in /dev/shm. The command line sets it;
 * unset parts follow PyTorch's defaults and this process's view of the machine.
 *
 * <p>Each worker process calls torch.set_num_threads(1) before it loads anything (pytorch/pytorch
 * torch/utils/data/_utils/worker.py at 00a7ccaa, _base_worker_loop), so a worker counts as one
 * thread, not as another intra-op pool; the main process's pool sizes itself from the visible CPUs
 * (one per physical core, c10/core/thread_pool.cpp) or OMP_NUM_THREADS. With pin_memory=True the
 * main process runs one pin-memory thread more (torch/utils/data/dataloader.py), and libraries a
 * dataset calls (OpenCV, a BLAS) may start pools of their own: the count is a floor.
 *
 * @param workers           num_workers
 * @param threadsPerProcess the main process's intra-op threads (the visible CPUs, OMP_NUM_THREADS or
 *                          --threads); null when unknown (the JSON keeps the field's name)
 * @param threadsSource     where that figure comes from
 * @param threads           the tasks the plan needs at least: the main process's intra-op threads and one thread per
 *                          worker, for pids.max and RLIMIT_NPROC; null when unknown
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
     * @param threads    the main process's intra-op threads, or null: OMP_NUM_THREADS when set, else the visible CPUs
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
        Long total = t == null ? null : tasks(t, w);
        // checked: --batch-bytes is at most Bounds.MEMORY_BYTES and the workers at most 64, so this never throws for the command line's values
        return new DataLoaderPlan(w, t, source, total, b, PREFETCH_FACTOR, Math.multiplyExact((long) w * PREFETCH_FACTOR, b));
    }

    /** The tasks a plan needs at least: the main process's intra-op threads and one per worker (each calls torch.set_num_threads(1)). */
    public static long tasks(long mainThreads, int workers) {
        return mainThreads + workers;
    }

    /** "the main process's 16 intra-op threads and 8 workers of one thread each": what {@link #threads} counts. */
    public String shape() {
        return "the main process's " + (threadsPerProcess == null ? "unknown number of" : String.valueOf(threadsPerProcess)) + " intra-op threads and "
                + workers + (workers == 1 ? " worker" : " workers") + " of one thread each (each calls torch.set_num_threads(1)), a pin-memory"
                + " thread more with pin_memory=True";
    }
}
