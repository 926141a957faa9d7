package hostside.container;

import java.util.Locale;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import hostside.container.ContainerFacts.Capabilities;
import hostside.container.ContainerFacts.Cpu;
import hostside.container.ContainerFacts.Devices;
import hostside.container.ContainerFacts.Memory;
import hostside.container.ContainerFacts.Namespaces;
import hostside.container.ContainerFacts.Pids;
import hostside.container.ContainerFacts.Shm;
import hostside.core.Finding;
import hostside.core.Units;
import hostside.process.Limits;

/**
 * The limits that break training, each with the symptom it causes and the flag that fixes it;
 * nothing for healthy ones, nothing for unknown ones (the facts' unknowns say why).
 */
public final class ContainerVerdicts {
    static final long MIB = 1L << 20, GIB = 1L << 30;
    /** Docker's /dev/shm when --shm-size is not given. */
    public static final long DOCKER_DEFAULT_SHM = 64 * MIB;
    /** Below this a memlock limit breaks RDMA registration of anything but toy buffers (as Module 2 judges it). */
    public static final long TINY_MEMLOCK = 64 * MIB;
    /** Login shells' 1024 and the 4096 some images set are the defaults that break fd passing. */
    static final long FEW_FILES = 4096;
    /** A cgroup this full reclaims page cache hard and is one burst from the OOM killer. */
    static final double NEAR_LIMIT = 0.9;
    /** One period in ten without CPU time: every thread of the job stalls that often. */
    static final double THROTTLED_SHARE = 0.1;

    private ContainerVerdicts() {}

    public static List<Finding> of(ContainerFacts f, DataLoaderPlan plan) {
        List<Finding> out = new ArrayList<>();
        shm(f, plan, out);
        memory(f, out);
        cpu(f.cpu(), plan, out);
        pids(f.pids(), plan, out);
        memlock(f, out);
        nofile(f.limits().nofile(), out);
        nproc(f, plan, out);
        gpus(f, out);
        pid1(f.namespaces(), out);
        rootFs(f, out);
        return List.copyOf(out);
    }

    /** One line for the top of the page: where this runs and what breaks. */
    public static String headline(ContainerFacts f, List<Finding> findings) {
        String where = (f.runtime().inContainer() ? "in a container, " + f.runtime().runtime() : "not in a container")
                + " (" + f.runtime().summary() + ")";
        Set<String> bad = new LinkedHashSet<>(), warn = new LinkedHashSet<>();
        for (Finding x : findings) {
            if (x.severity() == hostside.core.Severity.BAD) bad.add(x.subject());
            else if (x.severity() == hostside.core.Severity.WARN) warn.add(x.subject());
        }
        warn.removeAll(bad);
        StringBuilder s = new StringBuilder(where).append(": ");
        if (bad.isEmpty()) s.append("no limit here breaks training");
        else s.append(bad.size()).append(bad.size() == 1 ? " limit breaks" : " limits break").append(" training (").append(String.join(", ", bad)).append(")");
        if (!warn.isEmpty()) s.append("; ").append(warn.size()).append(" to check (").append(String.join(", ", warn)).append(")");
        return s.toString();
    }

    // ---- /dev/shm ----

    private static void shm(ContainerFacts f, DataLoaderPlan plan, List<Finding> out) {
        Shm s = f.shm();
        if (s == null || s.sizeBytes() == null) return;
        long free = s.sizeBytes() - (s.usedBytes() == null ? 0 : s.usedBytes());
        if (plan.workers() > 0 && plan.shmBytes() > free) {
            String dflt = s.sizeBytes() == DOCKER_DEFAULT_SHM ? " (what Docker gives without --shm-size)" : "";
            String used = s.usedBytes() != null && s.usedBytes() > 0 ? ", " + Units.bytes(s.usedBytes()) + " of it in use," : "";
            long suggest = Math.max(1, (plan.shmBytes() + GIB - 1) / GIB);
            out.add(Finding.bad("/dev/shm", "/dev/shm is " + Units.bytes(s.sizeBytes()) + dflt + used + " but " + plan.workers()
                    + " DataLoader workers keep " + plan.prefetchFactor() + " batches of " + Units.bytes(plan.batchBytes()) + " each there ("
                    + Units.bytes(plan.shmBytes()) + "): workers die with \"DataLoader worker (pid N) is killed by signal: Bus error\" "
                    + "once it fills; start the container with --shm-size=" + suggest + "g or --ipc=host (Kubernetes: an emptyDir "
                    + "with medium: Memory mounted at /dev/shm)"));
        }
        Memory m = f.memory();
        if (m != null && m.limit().limited() && s.sizeBytes() > m.limit().value()) {
            out.add(Finding.warn("/dev/shm", "/dev/shm (" + Units.bytes(s.sizeBytes()) + ") is larger than the memory limit ("
                    + Units.bytes(m.limit().value()) + "): its pages are charged to the cgroup of the worker that writes them, so "
                    + "workers filling shared memory are OOM-killed (\"killed by signal: Killed\") long before /dev/shm is full; "
                    + "raise --memory together with --shm-size"));
        }
    }

    // ---- memory ----

    private static void memory(ContainerFacts f, List<Finding> out) {
        Memory m = f.memory();
        if (m == null) return;
        if (m.oomKills() != null && m.oomKills() > 0) {
            out.add(Finding.bad("memory", m.oomKills() + (m.oomKills() == 1 ? " process" : " processes") + " of this cgroup "
                    + (m.oomKills() == 1 ? "was" : "were") + " killed by the OOM killer" + limitText(m) + ": a worker dies with "
                    + "\"DataLoader worker (pid N) is killed by signal: Killed\", or the whole job with exit code 137; raise the "
                    + "limit (--memory, Kubernetes resources.limits.memory) or lower num_workers and prefetch_factor"));
        }
        if (m.limit().limited() && m.currentBytes() != null && m.currentBytes() >= NEAR_LIMIT * m.limit().value()) {
            long pct = Math.round(100.0 * m.currentBytes() / m.limit().value());
            out.add(Finding.warn("memory", "the cgroup uses " + Units.bytes(m.currentBytes()) + " of its " + Units.bytes(m.limit().value())
                    + " limit (" + pct + "%, page cache included): the kernel reclaims page cache first, so dataset files are read from "
                    + "disk again, then the OOM killer ends the largest process; raise --memory"));
        }
        if (m.high() != null && m.high().limited() && (!m.limit().limited() || m.high().value() < m.limit().value())) {
            String hits = m.highHits() != null && m.highHits() > 0 ? " (" + m.highHits() + " times so far)" : "";
            out.add(Finding.warn("memory", "memory.high is " + Units.bytes(m.high().value()) + ": above it the kernel throttles the "
                    + "cgroup's allocations and reclaims" + hits + ", so steps slow down well before any OOM kill; raise or remove it "
                    + "(echo max > memory.high; Kubernetes sets it with the MemoryQoS feature)"));
        }
    }

    private static String limitText(Memory m) {
        return m.limit().limited() ? " (limit " + Units.bytes(m.limit().value()) + ")" : "";
    }

    // ---- CPU quota ----

    private static void cpu(Cpu c, DataLoaderPlan plan, List<Finding> out) {
        if (c == null || c.quotaCpus() == null || c.visibleCpus() == null || c.quotaCpus() >= c.visibleCpus()) return;
        String q = number(c.quotaCpus());
        long floor = Math.max(1, (long) Math.floor(c.quotaCpus())), ceil = Math.max(1, (long) Math.ceil(c.quotaCpus()));
        String file = c.quotaSource().endsWith("cpu.max") ? "cpu.max " + c.quotaUs() + " " + c.periodUs()
                : "cpu.cfs_quota_us " + c.quotaUs() + " per " + c.periodUs() + " us";
        String threads = plan.threads() == null ? "" : ", so " + plan.workers() + " workers and the main process start up to "
                + plan.threads() + " threads";
        boolean throttled = c.periods() != null && c.periods() > 0 && c.throttledPeriods() != null
                && c.throttledPeriods() >= THROTTLED_SHARE * c.periods();
        String seen = c.periods() != null && c.throttledPeriods() != null && c.periods() > 0
                ? " (throttled in " + c.throttledPeriods() + " of " + c.periods() + " periods so far"
                    + (c.throttledSeconds() != null ? ", " + String.format(Locale.ROOT, "%.1f", c.throttledSeconds()) + " s" : "") + ")"
                : "";
        String text = "the cgroup grants " + q + " CPUs' worth of time (" + file + ") but this process sees " + c.visibleCpus()
                + " CPUs: PyTorch's intra-op pool, OpenMP and BLAS size themselves from the " + c.visibleCpus() + " CPUs, not the quota"
                + threads + "; the quota runs out early in each " + (c.periodUs() / 1000) + " ms period and every thread waits for the next"
                + seen + ", which shows as slow, jittery steps and a starved GPU; make what the job sees match what it gets "
                + "(--cpus=" + ceil + " --cpuset-cpus=" + (ceil == 1 ? "0" : "0-" + (ceil - 1)) + ", or --cpus=" + c.visibleCpus() + "), or set OMP_NUM_THREADS="
                + floor + " / torch.set_num_threads(" + floor + ") and num_workers to at most " + floor;
        out.add(throttled ? Finding.bad("CPU quota", text) : Finding.warn("CPU quota", text));
    }

    private static String number(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }

    // ---- pids ----

    private static void pids(Pids p, DataLoaderPlan plan, List<Finding> out) {
        if (p == null || !p.max().limited() || plan.threads() == null) return;
        long room = p.headroom() != null ? p.headroom() : p.max().value() - (p.current() == null ? 0 : p.current());
        if (plan.threads() <= room) return;
        long inUse = p.current() == null ? 0 : p.current();
        long suggest = ((inUse + plan.threads()) / 1024 + 1) * 1024;
        out.add(Finding.bad("pids", "pids.max is " + p.max().value() + (p.current() != null ? " with " + p.current() + " tasks in use" : "")
                + ", room for " + room + " more, but " + plan.workers() + " DataLoader workers and the main process with up to "
                + plan.threadsPerProcess() + " threads each need " + plan.threads() + " (threads count as tasks): creating them fails "
                + "with EAGAIN, seen as \"RuntimeError: can't start new thread\", \"BlockingIOError: [Errno 11] Resource temporarily "
                + "unavailable\" or OpenBLAS \"pthread_create failed\"; raise it (--pids-limit=" + suggest
                + ", Kubernetes podPidsLimit) or cap the pools (OMP_NUM_THREADS)"));
    }

    // ---- rlimits ----

    private static void memlock(ContainerFacts f, List<Finding> out) {
        Limits.Limit l = f.limits().memlock();
        Capabilities c = f.capabilities();
        if (l == null || l.softUnlimited() || l.soft() >= TINY_MEMLOCK || c == null) return;
        if (Boolean.TRUE.equals(c.ipcLock())) return; // CAP_IPC_LOCK ignores RLIMIT_MEMLOCK
        if (c.ipcLock() == null && Integer.valueOf(0).equals(c.uid())) return; // root with unknown capabilities: most likely exempt
        List<String> rdma = f.devices() == null || f.devices().rdmaDevices() == null ? List.of() : f.devices().rdmaDevices();
        String hard = l.hardUnlimited() ? "hard unlimited" : "hard " + Units.bytes(l.hard());
        String text = "memlock soft limit " + Units.bytes(l.soft()) + " (" + hard + ") and no CAP_IPC_LOCK"
                + (Integer.valueOf(0).equals(c.uid()) ? " (uid 0, but Docker's default capabilities leave IPC_LOCK out)" : "")
                + ": RDMA memory registration (NCCL over InfiniBand/RoCE, GPUDirect RDMA) fails with \"Cannot allocate memory\" and "
                + "NCCL silently falls back to sockets" + (rdma.isEmpty() ? "" : " (RDMA devices here: " + String.join(", ", rdma) + ")")
                + "; run with --ulimit memlock=-1 and --cap-add IPC_LOCK. pin_memory() pins through the NVIDIA driver and is not "
                + "charged to this limit; mlock() and RDMA registrations are";
        out.add(rdma.isEmpty() ? Finding.warn("memlock", text + "; no RDMA device is visible here, so it bites once jobs use RDMA or mlock")
                : Finding.bad("memlock", text));
    }

    private static void nofile(Limits.Limit l, List<Finding> out) {
        if (l == null || l.softUnlimited() || l.soft() > FEW_FILES) return;
        String raise = !l.hardUnlimited() && l.hard() > l.soft() ? " or raise the soft limit to the hard " + l.hard() + " in the entrypoint (ulimit -n " + l.hard() + ")" : "";
        out.add(Finding.warn("nofile", "open files soft limit " + l.soft() + ": DataLoader workers hand each tensor to the main process "
                + "as a file descriptor (torch.multiprocessing's file_descriptor strategy), so many workers or tensors per batch end in "
                + "\"RuntimeError: received 0 items of ancdata\" or \"Too many open files\"; --ulimit nofile=1048576:1048576" + raise
                + ", or torch.multiprocessing.set_sharing_strategy('file_system')"));
    }

    /** RLIMIT_NPROC counts every task of the real uid on the host; root (in the initial user namespace) and CAP_SYS_RESOURCE are exempt. */
    private static void nproc(ContainerFacts f, DataLoaderPlan plan, List<Finding> out) {
        Limits.Limit l = f.limits().nproc();
        Capabilities c = f.capabilities();
        if (l == null || l.softUnlimited() || plan.threads() == null || c == null || c.uid() == null) return;
        boolean rootOutside = c.uid() == 0 && !Boolean.TRUE.equals(f.namespaces().userNamespace());
        if (rootOutside || Boolean.TRUE.equals(c.sysResource()) || plan.threads() <= l.soft()) return;
        out.add(Finding.bad("nproc", "max user processes (RLIMIT_NPROC) is " + l.soft() + " for uid " + c.uid() + ", but the DataLoader "
                + "plan needs " + plan.threads() + " threads, and the limit counts every process and thread of that uid on the host, "
                + "other containers of the same uid included: thread creation fails with EAGAIN (\"can't start new thread\"); "
                + "--ulimit nproc=-1 (or at least " + plan.threads() + " more than the uid already runs) or cap the pools (OMP_NUM_THREADS)"));
    }

    // ---- GPUs ----

    private static void gpus(ContainerFacts f, List<Finding> out) {
        Devices d = f.devices();
        if (d == null) return;
        boolean inContainer = f.runtime().inContainer();
        String nvd = d.nvidiaVisibleDevices();
        boolean asked = nvd != null && !nvd.isBlank() && !nvd.equals("void") && !nvd.equals("none");
        int onBus = d.pciGpus() == null ? 0 : d.pciGpus();
        if (d.deviceNodes() != null && d.deviceNodes().isEmpty() && (onBus > 0 || asked)) {
            String why = onBus > 0 ? onBus + " NVIDIA GPU" + (onBus == 1 ? " is" : "s are") + " on the PCI bus" : "NVIDIA_VISIBLE_DEVICES=" + nvd + " asks for GPUs";
            String fix = inContainer
                    ? "the container was started without them: --gpus all (the NVIDIA Container Toolkit; --runtime=nvidia when NVIDIA_VISIBLE_DEVICES "
                      + "is set but runc ran the container; Kubernetes: resources.limits nvidia.com/gpu)"
                    : "the NVIDIA driver has not created them: load it (modprobe nvidia, nvidia-persistenced) and check nvidia-smi";
            out.add(Finding.bad("GPUs", why + " but no /dev/nvidiaN device node is here: CUDA reports \"no CUDA-capable device is "
                    + "detected\" and torch.cuda.is_available() is False; " + fix));
            return;
        }
        if (d.deviceNodes() == null || d.deviceNodes().isEmpty()) return;
        if (Boolean.FALSE.equals(d.uvm())) {
            out.add(Finding.bad("GPUs", d.deviceNodes().size() + " GPU device node(s) but no /dev/nvidia-uvm: nvidia-smi works yet CUDA "
                    + "fails to start (\"CUDA unknown error\", error 999, torch.cuda.is_available() False); the nvidia_uvm module is not "
                    + "loaded on the host or its node was not passed in: run nvidia-modprobe -u -c=0 on the host, then start the "
                    + "container again with --gpus"));
        }
        Integer named = GpuNodes.named(d.cudaVisibleDevices());
        if (named != null && named == 0) {
            out.add(Finding.warn("GPUs", "CUDA_VISIBLE_DEVICES=\"" + d.cudaVisibleDevices() + "\" hides every GPU from CUDA although "
                    + d.deviceNodes().size() + " device node(s) are here: torch.cuda.device_count() is 0; unset it or name the GPUs"));
        } else if (named != null && named > d.deviceNodes().size()) {
            out.add(Finding.warn("GPUs", "CUDA_VISIBLE_DEVICES=" + d.cudaVisibleDevices() + " names " + named + " GPUs but only "
                    + d.deviceNodes().size() + " device node(s) are here: CUDA keeps the valid indices up to the first invalid one, "
                    + "so ranks that expect " + named + " GPUs fail with \"invalid device ordinal\"; start the container with the GPUs "
                    + "it names (--gpus '\"device=...\"') or renumber from 0"));
        }
    }

    // ---- PID 1 ----

    private static void pid1(Namespaces n, List<Finding> out) {
        if (n == null || !Boolean.TRUE.equals(n.ownPid()) || n.pid1Kind() == null) return;
        String cmd = n.pid1() == null ? "?" : n.pid1().length() > 60 ? n.pid1().substring(0, 60) + "..." : n.pid1();
        switch (n.pid1Kind()) {
            case "program", "this process" -> out.add(Finding.warn("PID 1", "PID 1 is " + (n.pid1Kind().equals("this process")
                    ? "this process (" + cmd + "), as a training script started the same way would be" : cmd + ", the program itself")
                    + ", not an init: the kernel gives PID 1 no default signal actions, so SIGTERM (docker stop, a Kubernetes "
                    + "eviction) does nothing unless the program handles it and the container is SIGKILLed after the grace period, "
                    + "without a checkpoint; orphans (workers of a crashed DataLoader, compile workers) are re-parented to it and stay "
                    + "zombies unless it reaps them; run with --init (docker) or tini/dumb-init as the entrypoint"));
            case "shell" -> out.add(Finding.warn("PID 1", "PID 1 is a shell (" + cmd + "): it reaps zombies but does not pass SIGTERM "
                    + "on to the training process it waits for, so docker stop ends in SIGKILL after the grace period, without a "
                    + "checkpoint; exec the trainer (exec python train.py) or run with --init"));
            default -> { }
        }
    }

    // ---- root file system ----

    private static void rootFs(ContainerFacts f, List<Finding> out) {
        var r = f.rootFs();
        if (r == null || !Boolean.TRUE.equals(r.readOnly())) return;
        out.add(Finding.warn("root fs", "the root file system is read-only (" + r.type() + "): caches written under it fail with "
                + "\"Read-only file system\" (torch.compile/Inductor, Triton's ~/.triton, Hugging Face's ~/.cache)"
                + (Boolean.TRUE.equals(r.tmpWritable()) ? "; /tmp is writable" : "; /tmp is not writable either")
                + "; point TRITON_CACHE_DIR, TORCHINDUCTOR_CACHE_DIR and HF_HOME at a mounted volume (-v, --tmpfs /tmp)"));
    }
}
