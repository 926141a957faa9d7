package hostside.learn.m4;

import static hostside.learn.Figs.f;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import hostside.container.ContainerRules;
import hostside.container.ContainerVerdicts;
import hostside.container.DataLoaderPlan;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.learn.Frame;
import hostside.learn.Frames;
import hostside.learn.Inputs.Fact;
import hostside.learn.Inputs.Value;
import hostside.learn.Inputs;
import hostside.learn.Judgement;
import hostside.learn.Stepper;
import hostside.learn.Svg;
import hostside.report.Report;

/**
 * Module 4's container limits: three limits a container sets and how each breaks training.
 * /dev/shm too small for the DataLoader's batches (workers die with a bus error); RLIMIT_MEMLOCK
 * too low without CAP_IPC_LOCK (RDMA registration fails with ENOMEM and NCCL's InfiniBand transport
 * fails to connect, nccl-tests#206, while pin_memory() is not charged to it); pids.max too low for the job's threads (EAGAIN, "can't
 * start new thread"). Each scene with this machine's fact, read here or typical, and the job of
 * hostside container's plan (its default workers, batches in flight and batch, and its count of tasks); thresholds,
 * messages and fixes are ContainerVerdicts'. Where the report drew a finding of
 * M4-SHM-SIZE, M4-MEMLOCK or M4-PIDS (its plan counts what is already in use, which this job does
 * not), the frames quote it and their questions answer as it does.
 */
public final class ContainerLimits implements Stepper {
    static final long MIB = 1L << 20, GIB = 1L << 30;
    /** Docker's /dev/shm without --shm-size, as the container drill knows it. */
    static final long DOCKER_DEFAULT_SHM = ContainerVerdicts.DOCKER_DEFAULT_SHM;
    /** Below this a memlock limit breaks RDMA registration of anything but toy buffers (the container drill's rule). */
    static final long TINY_MEMLOCK = ContainerVerdicts.TINY_MEMLOCK;
    /** The kernel's default RLIMIT_MEMLOCK since Linux 5.16, what a container without --ulimit memlock usually gets. */
    static final long DEFAULT_MEMLOCK = 8 * MIB;
    /** A pod PID limit some Kubernetes clusters set (podPidsLimit), the example where this machine has none. */
    static final long EXAMPLE_PIDS = 1024;
    /** What the typical facts stand for. */
    static final String TYPICAL = "a Docker container started with its defaults";

    static final int W = Svg.WIDTH, H = Svg.HEIGHT;

    @Override
    public String key() {
        return "container-limits";
    }

    @Override
    public int module() {
        return 4;
    }

    @Override
    public String title() {
        return "Container limits that break training: /dev/shm, memlock, pids.max";
    }

    /** The job the limits are weighed against: hostside container's defaults, threads from this machine's cores. */
    record Job(int workers, int prefetch, long batchBytes, long threadsPerProcess) {
        long shmBytes() {
            return (long) workers * prefetch * batchBytes;
        }

        /**
         * The main process's intra-op threads and one thread per worker, as DataLoaderPlan counts tasks:
         * each worker calls torch.set_num_threads(1) (worker.py's _base_worker_loop). A floor: a
         * pin-memory thread and a dataset's own pools come on top.
         */
        long tasks() {
            return DataLoaderPlan.tasks(threadsPerProcess, workers);
        }
    }

    @Override
    public List<Frame> frames(Inputs in) {
        Fact container = in.fact("container", "docker");
        Value shm = in.value(Inputs.SHM_BYTES, DOCKER_DEFAULT_SHM, Unit.BYTES, TYPICAL);
        Value memlock = in.value(Inputs.MEMLOCK_BYTES, DEFAULT_MEMLOCK, Unit.BYTES, TYPICAL);
        Fact ipcLock = in.fact("cap_ipc_lock", "false");
        Value pids = in.value(Inputs.PIDS_MAX, Double.POSITIVE_INFINITY, Unit.COUNT, TYPICAL);
        Value cores = in.value(Inputs.CORES, 64, Unit.COUNT, TYPICAL);
        long shmBytes = shm.value() >= 0 ? (long) shm.value() : DOCKER_DEFAULT_SHM;
        Long memlockBytes = memlock.unlimited() ? null : memlock.value() >= 0 ? (long) memlock.value() : DEFAULT_MEMLOCK;
        boolean capIpcLock = ipcLock.value().equals("true");
        Long pidsMax = pids.unlimited() ? null : (long) pids.value();
        long threads = cores.value() > 0 ? (long) cores.value() : 64;
        Job job = new Job(DataLoaderPlan.DEFAULT_WORKERS, DataLoaderPlan.PREFETCH_FACTOR, DataLoaderPlan.DEFAULT_BATCH_BYTES, threads);

        // each fact with its source; where none is this machine's, the source is said once, not after each
        boolean noneMine = !container.mine() && !shm.mine() && !memlock.mine() && !ipcLock.mine() && !pids.mine();
        Function<Inputs.Source, String> src = source -> noneMine ? "" : " (" + source.words + ")";
        String shmWords = Units.bytes(shmBytes) + src.apply(shm.source());
        String memlockWords = (memlockBytes == null ? "unlimited" : Units.bytes(memlockBytes)) + src.apply(memlock.source());
        String ipcWords = (capIpcLock ? "held" : "not held") + src.apply(ipcLock.source());
        String pidsWords = (pidsMax == null ? "max, no limit" : String.valueOf(pidsMax)) + src.apply(pids.source());
        String where = (container.value().equals("none") ? "not in a container" : "in a container (" + container.value() + ")") + src.apply(container.source());
        String typicalNote = noneMine ? " All these facts are typical ones, those of " + TYPICAL + ", not this machine's."
                : container.mine() && shm.mine() && memlock.mine() && ipcLock.mine() && pids.mine() ? ""
                : " Facts said to be typical are those of " + TYPICAL + ", not this machine.";

        Frames fr = new Frames();
        fr.add("The limits a container sets",
                f("A container is a process with its own namespaces and cgroup: the same kernel, other limits. Three of them break training "
                        + "jobs that ran fine on the host. %s, %s: /dev/shm %s, memlock %s with CAP_IPC_LOCK %s, pids.max %s.",
                        noneMine ? "With nothing read from this machine" : "On " + in.machine(), where, shmWords, memlockWords, ipcWords, pidsWords) + typicalNote,
                null, limits(shmBytes, shm, memlockBytes, memlock, capIpcLock, pidsMax, pids));

        // the report's container findings judge the facts read here; typical facts have none
        Optional<Report.Concluded> shmFinding = shm.mine() ? in.finding(ContainerRules.SHM_SIZE) : Optional.empty();
        Optional<Report.Concluded> memlockFinding = memlock.mine() ? in.finding(ContainerRules.MEMLOCK) : Optional.empty();
        Optional<Report.Concluded> pidsFinding = pids.mine() ? in.finding(ContainerRules.PIDS) : Optional.empty();
        boolean fits = shmFinding.isEmpty() && job.shmBytes() <= shmBytes;
        fr.add("/dev/shm: where DataLoader batches wait",
                f("Each DataLoader worker puts its finished batches in shared memory, files in /dev/shm (a tmpfs), for the main process to map. "
                                + "%d workers keeping %d batches of %s each hold %s there at once; this /dev/shm is %s. %s",
                        job.workers(), job.prefetch(), Units.bytes(job.batchBytes()), Units.bytes(job.shmBytes()), shmWords,
                        Judgement.quoteOr(shmFinding, fits ? "They fit." : "They do not fit: the workers die once it fills (next frame).")),
                shmPredict(job, shmBytes, shmWords, shmFinding), shm(job, shmBytes, shm.mine(), false));

        long suggest = Math.max(1, (job.shmBytes() + GIB - 1) / GIB);
        fr.add("Past the end of /dev/shm: a bus error",
                f("Docker gives /dev/shm %s unless told otherwise: not even one batch of %s fits. A worker maps its shared file and writes; when "
                                + "tmpfs has no page left for a write the kernel cannot fill the fault and sends SIGBUS: \"DataLoader worker (pid N) is "
                                + "killed by signal: Bus error\" (or \"unable to write to file </torch_...>: No space left on device\" when the file "
                                + "is made). Start the container with --shm-size=%dg or --ipc=host; in Kubernetes, an emptyDir with medium: Memory "
                                + "mounted at /dev/shm.", Units.bytes(DOCKER_DEFAULT_SHM), Units.bytes(job.batchBytes()), suggest),
                null, shm(job, DOCKER_DEFAULT_SHM, false, true));

        boolean rdmaFails = memlockFinding.isPresent() || memlockBytes != null && memlockBytes < TINY_MEMLOCK && !capIpcLock;
        fr.add("memlock: what locked memory is charged to",
                f("RLIMIT_MEMLOCK caps the memory a process may lock; here it is %s, and CAP_IPC_LOCK, which lifts it, is %s. RDMA memory "
                                + "registration (NCCL over InfiniBand or RoCE, GPUDirect RDMA) and mlock() are charged to it, pin_memory() is not (it pins "
                                + "through the NVIDIA driver). Below %s registration fails with \"Cannot allocate memory\" (NCCL WARN Call to "
                                + "ibv_reg_mr failed, NVIDIA/nccl-tests#206) and the job stops at its first collective over the network, rather than run "
                                + "slower: run with --ulimit memlock=-1 and --cap-add IPC_LOCK.",
                        memlockWords, ipcWords, Units.bytes(TINY_MEMLOCK)) + memlockFinding.map(c -> " " + Judgement.quote(c)).orElse(""),
                memlockPredict(memlockBytes, capIpcLock, memlockWords, ipcWords, memlockFinding), memlock(memlockBytes, capIpcLock, rdmaFails, memlock.mine()));

        long limit = pidsMax == null ? EXAMPLE_PIDS : pidsMax;
        boolean taskFit = pidsFinding.isEmpty() && job.tasks() <= limit;
        fr.add("pids.max: every thread is a task",
                f("The pids controller counts threads, not only processes. The main process starts an intra-op pool of one thread per "
                                + "visible CPU (%s CPUs%s) and each of %d DataLoader workers runs one (it calls torch.set_num_threads(1)): at least %d "
                                + "tasks, a pin-memory thread and a dataset's own pools on top. pids.max is %s%s.%s",
                        (long) cores.value(), noneMine ? "" : ", " + cores.source().words, job.workers(), job.tasks(), pidsWords,
                        pidsMax == null ? f(", so they fit; under a pod limit of %d they would %s", EXAMPLE_PIDS, taskFit ? "fit too" : "not") : "",
                        pidsMax == null ? "" : " " + Judgement.quoteOr(pidsFinding, taskFit ? "They fit." : "They do not fit.")),
                pidsPredict(job, pidsMax, pidsWords, pidsFinding), pids(job, limit, pidsMax == null, pids.mine()));

        long suggestPids = (job.tasks() / 1024 + 1) * 1024;
        fr.add("Past pids.max: EAGAIN",
                f("When the cgroup is full, clone() fails with EAGAIN, and the job sees it as \"RuntimeError: can't start new thread\", "
                                + "\"BlockingIOError: [Errno 11] Resource temporarily unavailable\" or OpenBLAS's \"pthread_create failed\", often in a "
                                + "worker, long after start. Raise it (--pids-limit=%d, Kubernetes podPidsLimit) or cap the pools (OMP_NUM_THREADS).",
                        suggestPids),
                symptomPredict(), eagain());

        fr.add("This machine's three limits",
                f("/dev/shm %s: %s. memlock %s with CAP_IPC_LOCK %s: %s. pids.max %s: %s.", shmWords,
                        shmFinding.map(ContainerLimits::said).orElse(fits ? "the default job's batches fit" : "too small for the default job's batches, start with --shm-size=" + suggest + "g"),
                        memlockWords, ipcWords, memlockFinding.map(ContainerLimits::said)
                                .orElse(rdmaFails ? "RDMA registration fails, add --ulimit memlock=-1 --cap-add IPC_LOCK" : "RDMA registration is not limited"),
                        pidsWords, pidsFinding.map(ContainerLimits::said)
                                .orElse(pidsMax == null ? "no limit" : taskFit ? "room for the default job's threads" : "too few for its threads, --pids-limit=" + suggestPids))
                        + typicalNote,
                null, summary(fits, !rdmaFails, pidsMax == null || taskFit, shmWords, memlockWords, pidsWords));
        return fr.list();
    }

    // ---- predictions ----

    /** "the report's finding M4-SHM-SIZE (bad), its text": a summary's clause. */
    static String said(Report.Concluded c) {
        return "the report's finding " + c.id() + " (" + c.severity() + "): " + c.text();
    }

    /** Whether the job's batches fit; "no" where the report's M4-SHM-SIZE says /dev/shm is too small (it counts what is in use). */
    static Frame.Predict shmPredict(Job job, long shmBytes, String shmWords, Optional<Report.Concluded> judged) {
        boolean fits = judged.isEmpty() && job.shmBytes() <= shmBytes;
        return new Frame.Predict(f("%d workers each keep %d batches of %s in /dev/shm: will they fit in this machine's /dev/shm?", job.workers(),
                job.prefetch(), Units.bytes(job.batchBytes())), List.of("yes", "no: the workers die with a bus error"), fits ? 0 : 1,
                f("They need %d x %d x %s = %s; /dev/shm is %s.", job.workers(), job.prefetch(), Units.bytes(job.batchBytes()), Units.bytes(job.shmBytes()), shmWords)
                        + judged.map(c -> " " + Judgement.quote(c)).orElse(""));
    }

    /** What fails under the memlock limit; RDMA registration where the report's M4-MEMLOCK found the limit too small. */
    static Frame.Predict memlockPredict(Long memlockBytes, boolean capIpcLock, String memlockWords, String ipcWords, Optional<Report.Concluded> judged) {
        boolean low = memlockBytes != null && memlockBytes < TINY_MEMLOCK;
        int answer = judged.isPresent() || low && !capIpcLock ? 1 : 2;
        String why = f("memlock is %s and CAP_IPC_LOCK %s. ", memlockWords, ipcWords)
                + (answer == 1 ? "RDMA registrations are charged to the limit and fail; pin_memory() goes through the NVIDIA driver, which does not charge it."
                : low ? "The limit is low, but CAP_IPC_LOCK lets this process lock past it."
                : "The limit leaves room for RDMA registration; pin_memory() is never charged to it.");
        return new Frame.Predict("With this machine's memlock limit, what fails?",
                List.of("pin_memory() / cudaHostAlloc", "RDMA registration: NCCL fails to connect", "nothing"), answer,
                why + judged.map(c -> " " + Judgement.quote(c)).orElse(""));
    }

    /** Whether the job's tasks fit under pids.max; "no" where the report's M4-PIDS found no room (it counts the tasks in use). */
    static Frame.Predict pidsPredict(Job job, Long pidsMax, String pidsWords, Optional<Report.Concluded> judged) {
        long limit = pidsMax == null ? EXAMPLE_PIDS : pidsMax;
        boolean fit = judged.isEmpty() && job.tasks() <= limit;
        String against = pidsMax == null ? "a pod limit of " + EXAMPLE_PIDS + " (this machine has none)" : "this machine's pids.max";
        return new Frame.Predict(f("A main process of %d threads and %d workers of one thread each: will they fit under %s?", job.threadsPerProcess(),
                job.workers(), against),
                List.of("yes", "no: thread creation fails"), fit ? 0 : 1,
                f("They need %d + %d = %d tasks at least against %s; pids.max here: %s.", job.threadsPerProcess(), job.workers(), job.tasks(), n(limit),
                        pidsWords) + judged.map(c -> " " + Judgement.quote(c)).orElse(""));
    }

    static Frame.Predict symptomPredict() {
        return new Frame.Predict("What does a too-low pids.max show up as?",
                List.of("workers killed by signal: Killed (the OOM killer)", "a bus error", "EAGAIN: \"can't start new thread\"", "slower steps, nothing fails"), 2,
                "Creating a thread or process past pids.max fails with EAGAIN; nothing is killed and memory is not involved.");
    }

    static String n(long v) {
        return String.valueOf(v);
    }

    // ---- drawings ----

    static String limits(long shmBytes, Value shm, Long memlockBytes, Value memlock, boolean capIpcLock, Long pidsMax, Value pids) {
        Svg s = new Svg(W, H);
        s.box(20, 20, 600, 220, "", "dim");
        s.text(40, 44, "a container: same kernel, its own namespaces and cgroup", "start", "on");
        s.box(40, 70, 180, 80, "/dev/shm\n" + Units.bytes(shmBytes) + (shm.mine() ? "" : " (typical)"), shmBytes < DataLoaderPlan.DEFAULT_BATCH_BYTES ? "bad" : "on");
        s.box(230, 70, 180, 80, "memlock\n" + (memlockBytes == null ? "unlimited" : Units.bytes(memlockBytes)) + (memlock.mine() ? "" : " (typical)")
                + "\nCAP_IPC_LOCK " + (capIpcLock ? "yes" : "no"), memlockBytes != null && memlockBytes < TINY_MEMLOCK && !capIpcLock ? "bad" : "on");
        s.box(420, 70, 180, 80, "pids.max\n" + (pidsMax == null ? "max (no limit)" : String.valueOf(pidsMax)) + (pids.mine() ? "" : " (typical)"), "on");
        s.text(130, 180, "DataLoader batches", "middle", "dim");
        s.text(320, 180, "RDMA, mlock()", "middle", "dim");
        s.text(510, 180, "threads, processes", "middle", "dim");
        s.text(320, 222, "what each one limits", "middle", "dim");
        return s.render("This machine's /dev/shm, memlock and pids.max, what a container limits");
    }

    /** /dev/shm as a bar, the job's batches filling it; past its end the batches that do not fit are drawn bad. */
    static String shm(Job job, long shmBytes, boolean mine, boolean docker) {
        Svg s = new Svg(W, H);
        double x0 = 40, w = 560;
        // a /dev/shm far larger than the batches is drawn cut, so that the batches stay visible
        double total = Math.max(job.shmBytes(), Math.min(shmBytes, 4.0 * job.shmBytes()));
        double k = w / total;
        s.text(x0, 24, (docker ? "Docker's default /dev/shm: " : "this /dev/shm: ") + Units.bytes(shmBytes) + (docker || mine ? "" : " (typical)"), "start", "on");
        s.bar(x0, 40, Math.min(w, shmBytes * k), 40, "dim");
        if (shmBytes > total) {
            s.text(x0 + w, 98, "continues to " + Units.bytes(shmBytes) + " ...", "end", "dim");
        } else {
            double ex = x0 + shmBytes * k;
            s.line(ex, 34, ex, 146, "on");
            s.text(ex > w - 80 ? ex - 6 : ex + 6, 66, "end of /dev/shm", ex > w - 80 ? "end" : "start", "on");
        }
        int batches = job.workers() * job.prefetch();
        double bw = job.batchBytes() * k;
        for (int i = 0; i < batches; i++) {
            double bx = x0 + i * bw;
            boolean in = (i + 1) * (double) job.batchBytes() <= shmBytes;
            s.bar(bx, 100, Math.max(1, bw - 2), 40, in ? "ok" : "bad");
        }
        s.text(x0, 170, f("%d workers x %d batches x %s = %s", job.workers(), job.prefetch(), Units.bytes(job.batchBytes()), Units.bytes(job.shmBytes())),
                "start", "on");
        boolean fits = job.shmBytes() <= shmBytes;
        s.text(x0, 236, fits ? "all batches fit" : "past the end: SIGBUS, \"killed by signal: Bus error\"", "start", fits ? "ok" : "bad");
        return s.render(f("/dev/shm of %s against %s of DataLoader batches: %s", Units.bytes(shmBytes), Units.bytes(job.shmBytes()),
                fits ? "they fit" : "they do not fit"));
    }

    static String memlock(Long memlockBytes, boolean capIpcLock, boolean rdmaFails, boolean mine) {
        Svg s = new Svg(W, H);
        s.box(20, 100, 150, 60, "the training job", "on");
        s.box(250, 30, 170, 50, "NVIDIA driver\n(pin_memory, cudaHostAlloc)", "ok");
        s.box(250, 170, 170, 50, "RLIMIT_MEMLOCK check\n" + (memlockBytes == null ? "unlimited" : Units.bytes(memlockBytes)) + (mine ? "" : " (typical)"),
                rdmaFails ? "bad" : "on");
        s.box(490, 170, 130, 50, rdmaFails ? "fails: ENOMEM\nNCCL stops" : "registered", rdmaFails ? "bad" : "ok");
        s.box(490, 30, 130, 50, "pinned", "ok");
        s.arrow(170, 115, 250, 55, "pin_memory()", "on");
        s.arrow(420, 55, 490, 55, "", "ok");
        s.arrow(170, 145, 250, 195, "ibv_reg_mr, mlock()", rdmaFails ? "hot" : "on");
        s.arrow(420, 195, 490, 195, "", rdmaFails ? "bad" : "ok");
        s.text(335, 245, "CAP_IPC_LOCK " + (capIpcLock ? "held: the limit is skipped" : "not held: the limit applies"), "middle", capIpcLock ? "ok" : "hot");
        return s.render("pin_memory goes through the NVIDIA driver, uncharged; RDMA registration and mlock are checked against RLIMIT_MEMLOCK"
                + (rdmaFails ? ", which fails here" : ", which passes here"));
    }

    /** The job's tasks as bars of threads per process against the limit. */
    static String pids(Job job, long limit, boolean example, boolean mine) {
        Svg s = new Svg(W, H);
        double x0 = 40, w = 560;
        double total = Math.max(job.tasks(), Math.min(limit, 4.0 * job.tasks()));
        double k = w / total;
        s.text(x0, 24, (example ? "an example pod limit: " : "pids.max: ") + limit + (example || mine ? "" : " (typical)"), "start", "on");
        s.bar(x0, 40, Math.min(w, limit * k), 40, "dim");
        if (limit > total) {
            s.text(x0 + w, 98, "continues to " + limit + " ...", "end", "dim");
        } else {
            double ex = x0 + limit * k;
            s.line(ex, 34, ex, 146, "on");
            s.text(ex > w - 80 ? ex - 6 : ex + 6, 66, "pids.max", ex > w - 80 ? "end" : "start", "on");
        }
        // the main process's pool, then each worker's one thread
        s.bar(x0, 100, Math.max(1, job.threadsPerProcess() * k - 2), 40, job.threadsPerProcess() <= limit ? "ok" : "bad");
        for (int i = 0; i < job.workers(); i++) {
            long upTo = job.threadsPerProcess() + i + 1L;
            s.bar(x0 + (upTo - 1) * k, 100, Math.max(1, k - 1), 40, upTo <= limit ? "ok" : "bad");
        }
        s.text(x0, 170, f("main's %d threads + %d workers of 1 = %d tasks", job.threadsPerProcess(), job.workers(), job.tasks()), "start", "on");
        boolean fit = job.tasks() <= limit;
        s.text(x0, 236, fit ? "all threads fit" : "past the limit: clone() fails with EAGAIN", "start", fit ? "ok" : "bad");
        return s.render(f("%d tasks against a pids.max of %d: %s", job.tasks(), limit, fit ? "they fit" : "they do not fit"));
    }

    static String eagain() {
        Svg s = new Svg(W, H);
        s.box(20, 40, 170, 60, "a worker starts\na thread", "on");
        s.box(250, 40, 150, 60, "clone()\npids cgroup full", "hot");
        s.box(460, 40, 160, 60, "EAGAIN", "bad");
        s.arrow(190, 70, 250, 70, "", "on");
        s.arrow(400, 70, 460, 70, "", "bad");
        s.text(320, 140, "what the job prints:", "middle", "on");
        s.text(320, 170, "RuntimeError: can't start new thread", "middle", "bad");
        s.text(320, 195, "BlockingIOError: [Errno 11] Resource temporarily unavailable", "middle", "bad");
        s.text(320, 220, "OpenBLAS: pthread_create failed", "middle", "bad");
        return s.render("A thread created past pids.max: clone fails with EAGAIN, seen as can't start new thread");
    }

    static String summary(boolean shmOk, boolean memlockOk, boolean pidsOk, String shm, String memlock, String pids) {
        Svg s = new Svg(W, H);
        String[] names = {"/dev/shm", "memlock", "pids.max"}, values = {shm, memlock, pids};
        boolean[] ok = {shmOk, memlockOk, pidsOk};
        String[] verdict = {shmOk ? "batches fit" : "bus errors\n--shm-size", memlockOk ? "RDMA can register" : "RDMA fails\n--ulimit memlock=-1",
                pidsOk ? "threads fit" : "EAGAIN\n--pids-limit"};
        for (int i = 0; i < 3; i++) {
            double y = 30 + i * 70;
            s.box(20, y, 120, 50, names[i], "on");
            s.text(155, y + 30, values[i], "start", "on");
            s.box(450, y, 170, 50, verdict[i], ok[i] ? "ok" : "bad");
        }
        return s.render("This machine's three limits: /dev/shm " + (shmOk ? "fits" : "too small") + ", memlock " + (memlockOk ? "fine" : "too low")
                + ", pids.max " + (pidsOk ? "fits" : "too low"));
    }
}
