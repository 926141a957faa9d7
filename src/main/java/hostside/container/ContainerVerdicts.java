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
import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.core.Units;
import hostside.process.Limits;

/**
 * The limits that break training, each a finding of a {@link ContainerRules} rule (the CPU quota's
 * is {@link ContainerRules#CPU_QUOTA}) with the symptom it causes; the rule says the flag that fixes
 * it. Nothing for healthy ones, nothing for unknown ones (the facts' unknowns say why).
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
            if (x.severity() == Severity.BAD) bad.add(x.subject());
            else if (x.severity() == Severity.WARN) warn.add(x.subject());
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
            out.add(ContainerRules.SHM_SIZE.finding(Severity.BAD, "/dev/shm", "/dev/shm is " + Units.bytes(s.sizeBytes()) + dflt + used + " but "
                    + plan.workers() + " DataLoader workers keep " + plan.prefetchFactor() + " batches of " + Units.bytes(plan.batchBytes())
                    + " each there (" + Units.bytes(plan.shmBytes()) + "): workers die with \"DataLoader worker (pid N) is killed by signal: "
                    + "Bus error\" once it fills; --shm-size=" + suggest + "g holds them",
                    Evidence.fact(s.source() == null ? "/dev/shm" : s.source(), String.valueOf(s.sizeBytes())),
                    Evidence.fact("plan.shm_bytes", String.valueOf(plan.shmBytes()))));
        }
        Memory m = f.memory();
        if (m != null && m.limit().limited() && s.sizeBytes() > m.limit().value()) {
            out.add(ContainerRules.SHM_OVER_MEMORY.finding(Severity.WARN, "/dev/shm", "/dev/shm (" + Units.bytes(s.sizeBytes()) + ") is larger than "
                    + "the memory limit (" + Units.bytes(m.limit().value()) + "): its pages are charged to the cgroup of the worker that writes "
                    + "them, so workers filling shared memory are OOM-killed (\"killed by signal: Killed\") long before /dev/shm is full",
                    Evidence.fact("/dev/shm", String.valueOf(s.sizeBytes())), Evidence.fact("memory.max", String.valueOf(m.limit().value()))));
        }
    }

    // ---- memory ----

    private static void memory(ContainerFacts f, List<Finding> out) {
        Memory m = f.memory();
        if (m == null) return;
        if (m.oomKills() != null && m.oomKills() > 0) {
            out.add(ContainerRules.OOM_KILLS.finding(Severity.BAD, "memory", m.oomKills() + (m.oomKills() == 1 ? " process" : " processes")
                    + " of this cgroup " + (m.oomKills() == 1 ? "was" : "were") + " killed by the OOM killer" + limitText(m) + ": a worker dies "
                    + "with \"DataLoader worker (pid N) is killed by signal: Killed\", or the whole job with exit code 137",
                    Evidence.fact("memory.events oom_kill", String.valueOf(m.oomKills()))));
        }
        if (m.limit().limited() && m.currentBytes() != null && m.currentBytes() >= NEAR_LIMIT * m.limit().value()) {
            long pct = Math.round(100.0 * m.currentBytes() / m.limit().value());
            out.add(ContainerRules.MEMORY_NEAR_LIMIT.finding(Severity.WARN, "memory", "the cgroup uses " + Units.bytes(m.currentBytes()) + " of its "
                    + Units.bytes(m.limit().value()) + " limit (" + pct + "%, page cache included): the kernel reclaims page cache first, so "
                    + "dataset files are read from disk again, then the OOM killer ends the largest process",
                    Evidence.fact("memory.current", String.valueOf(m.currentBytes())), Evidence.fact("memory.max", String.valueOf(m.limit().value()))));
        }
        if (m.high() != null && m.high().limited() && (!m.limit().limited() || m.high().value() < m.limit().value())) {
            String hits = m.highHits() != null && m.highHits() > 0 ? " (" + m.highHits() + " times so far)" : "";
            out.add(ContainerRules.MEMORY_HIGH.finding(Severity.WARN, "memory", "memory.high is " + Units.bytes(m.high().value()) + ": above it the "
                    + "kernel throttles the cgroup's allocations and reclaims" + hits + ", so steps slow down well before any OOM kill",
                    Evidence.fact("memory.high", String.valueOf(m.high().value()))));
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
        String threads = plan.threadsPerProcess() == null ? "" : ", so the main process alone starts " + plan.threadsPerProcess() + " intra-op threads";
        boolean throttled = c.periods() != null && c.periods() > 0 && c.throttledPeriods() != null
                && c.throttledPeriods() >= THROTTLED_SHARE * c.periods();
        String seen = c.periods() != null && c.throttledPeriods() != null && c.periods() > 0
                ? " (throttled in " + c.throttledPeriods() + " of " + c.periods() + " periods so far"
                    + (c.throttledSeconds() != null ? ", " + String.format(Locale.ROOT, "%.1f", c.throttledSeconds()) + " s" : "") + ")"
                : "";
        String text = "the cgroup grants " + q + " CPUs' worth of time (" + file + ") but this process sees " + c.visibleCpus()
                + " CPUs: PyTorch's intra-op pool, OpenMP and BLAS size themselves from the " + c.visibleCpus() + " CPUs, not the quota"
                + threads + "; the quota runs out early in each " + (c.periodUs() / 1000) + " ms period and every thread waits for the next"
                + seen + ", which shows as slow, jittery steps and a starved GPU; " + floor + " threads fit the quota (--cpus=" + ceil
                + " --cpuset-cpus=" + (ceil == 1 ? "0" : "0-" + (ceil - 1)) + " makes the job see it)";
        List<Evidence> e = new ArrayList<>(List.of(Evidence.fact(c.quotaSource(), file), Evidence.fact("visible CPUs", String.valueOf(c.visibleCpus()))));
        if (c.periods() != null && c.throttledPeriods() != null) {
            e.add(Evidence.fact("cpu.stat nr_throttled of nr_periods", c.throttledPeriods() + " of " + c.periods()));
        }
        out.add(ContainerRules.CPU_QUOTA.finding(throttled ? Severity.BAD : Severity.WARN, ContainerRules.QUOTA_SUBJECT, text, e));
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
        out.add(ContainerRules.PIDS.finding(Severity.BAD, "pids", "pids.max is " + p.max().value() + (p.current() != null ? " with " + p.current()
                + " tasks in use" : "") + ", room for " + room + " more, but the DataLoader plan needs at least " + plan.threads() + " tasks ("
                + plan.shape() + "; threads count as tasks): creating them fails with EAGAIN, seen as \"RuntimeError: can't start new "
                + "thread\" or OpenBLAS \"pthread_create failed\"; --pids-limit=" + suggest + " holds them",
                Evidence.fact("pids.max", String.valueOf(p.max().value())), Evidence.fact("plan.threads", String.valueOf(plan.threads()))));
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
                + ": RDMA memory registration (NCCL over InfiniBand/RoCE, GPUDirect RDMA) is charged to it and fails with \"Cannot allocate "
                + "memory\" (NCCL WARN Call to ibv_reg_mr failed), so NCCL's InfiniBand transport fails to start"
                + (rdma.isEmpty() ? "" : " (RDMA devices here: " + String.join(", ", rdma) + ")");
        List<Evidence> e = List.of(Evidence.fact("RLIMIT_MEMLOCK soft", String.valueOf(l.soft())), Evidence.fact("CAP_IPC_LOCK", String.valueOf(c.ipcLock())),
                Evidence.fact("RDMA devices", String.join(",", rdma)));
        out.add(rdma.isEmpty() ? ContainerRules.MEMLOCK.finding(Severity.WARN, "memlock", text + "; no RDMA device is visible here, so it bites once jobs use RDMA or mlock", e)
                : ContainerRules.MEMLOCK.finding(Severity.BAD, "memlock", text, e));
    }

    private static void nofile(Limits.Limit l, List<Finding> out) {
        if (l == null || l.softUnlimited() || l.soft() > FEW_FILES) return;
        String raise = !l.hardUnlimited() && l.hard() > l.soft() ? " (the hard limit, " + l.hard() + ", allows more: ulimit -n " + l.hard() + ")"
                : l.hardUnlimited() ? " (the hard limit is unlimited)" : "";
        out.add(ContainerRules.NOFILE.finding(Severity.WARN, "nofile", "open files soft limit " + l.soft() + raise + ": DataLoader workers hand "
                + "each tensor to the main process as a file descriptor (torch.multiprocessing's file_descriptor strategy), so many workers "
                + "or tensors per batch end in \"RuntimeError: received 0 items of ancdata\" or \"Too many open files\"",
                Evidence.fact("RLIMIT_NOFILE soft", String.valueOf(l.soft()))));
    }

    /** RLIMIT_NPROC counts every task of the real uid on the host; root (in the initial user namespace) and CAP_SYS_RESOURCE are exempt. */
    private static void nproc(ContainerFacts f, DataLoaderPlan plan, List<Finding> out) {
        Limits.Limit l = f.limits().nproc();
        Capabilities c = f.capabilities();
        if (l == null || l.softUnlimited() || plan.threads() == null || c == null || c.uid() == null) return;
        boolean rootOutside = c.uid() == 0 && !Boolean.TRUE.equals(f.namespaces().userNamespace());
        if (rootOutside || Boolean.TRUE.equals(c.sysResource()) || plan.threads() <= l.soft()) return;
        out.add(ContainerRules.NPROC.finding(Severity.BAD, "nproc", "max user processes (RLIMIT_NPROC) is " + l.soft() + " for uid " + c.uid()
                + ", but the DataLoader plan needs at least " + plan.threads() + " threads, and the limit counts every process and thread of "
                + "that uid on the host, other containers of the same uid included: thread creation fails with EAGAIN (\"can't start new thread\")",
                Evidence.fact("RLIMIT_NPROC soft", String.valueOf(l.soft())), Evidence.fact("plan.threads", String.valueOf(plan.threads()))));
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
            String cause = inContainer ? "the container was started without them" : "the NVIDIA driver has not created them";
            out.add(ContainerRules.GPU_NODES.finding(Severity.BAD, "GPUs", why + " but no /dev/nvidiaN device node is here (" + cause + "): CUDA "
                    + "reports \"no CUDA-capable device is detected\" and torch.cuda.is_available() is False",
                    Evidence.fact("/dev/nvidia*", "none"), Evidence.fact("NVIDIA GPUs on the PCI bus", String.valueOf(onBus))));
            return;
        }
        if (d.deviceNodes() == null || d.deviceNodes().isEmpty()) return;
        if (Boolean.FALSE.equals(d.uvm())) {
            out.add(ContainerRules.GPU_UVM.finding(Severity.BAD, "GPUs", d.deviceNodes().size() + " GPU device node(s) but no /dev/nvidia-uvm (the "
                    + "nvidia_uvm module is not loaded on the host, or its node was not passed in): nvidia-smi works yet CUDA fails to start "
                    + "(\"CUDA unknown error\", error 999, torch.cuda.is_available() False)", Evidence.fact("/dev/nvidia-uvm", "missing")));
        }
        Integer named = GpuNodes.named(d.cudaVisibleDevices());
        if (named != null && named == 0) {
            out.add(ContainerRules.CUDA_VISIBLE.finding(Severity.WARN, "GPUs", "CUDA_VISIBLE_DEVICES=\"" + d.cudaVisibleDevices() + "\" hides every "
                    + "GPU from CUDA although " + d.deviceNodes().size() + " device node(s) are here: torch.cuda.device_count() is 0",
                    Evidence.fact("CUDA_VISIBLE_DEVICES", d.cudaVisibleDevices())));
        } else if (named != null && named > d.deviceNodes().size()) {
            out.add(ContainerRules.CUDA_VISIBLE.finding(Severity.WARN, "GPUs", "CUDA_VISIBLE_DEVICES=" + d.cudaVisibleDevices() + " names " + named
                    + " GPUs but only " + d.deviceNodes().size() + " device node(s) are here: CUDA keeps the valid indices up to the first "
                    + "invalid one, so ranks that expect " + named + " GPUs fail with \"invalid device ordinal\"",
                    Evidence.fact("CUDA_VISIBLE_DEVICES", d.cudaVisibleDevices()), Evidence.fact("/dev/nvidiaN", String.valueOf(d.deviceNodes().size()))));
        }
    }

    // ---- PID 1 ----

    private static void pid1(Namespaces n, List<Finding> out) {
        if (n == null || !Boolean.TRUE.equals(n.ownPid()) || n.pid1Kind() == null) return;
        String cmd = n.pid1() == null ? "?" : n.pid1().length() > 60 ? n.pid1().substring(0, 60) + "..." : n.pid1();
        switch (n.pid1Kind()) {
            case "program", "this process" -> out.add(ContainerRules.PID1.finding(Severity.WARN, "PID 1", "PID 1 is " + (n.pid1Kind().equals("this process")
                    ? "this process (" + cmd + "), as a training script started the same way would be" : cmd + ", the program itself")
                    + ", not an init: the kernel gives PID 1 no default signal actions, so SIGTERM (docker stop, a Kubernetes "
                    + "eviction) does nothing unless the program handles it and the container is SIGKILLed after the grace period, "
                    + "without a checkpoint; orphans (workers of a crashed DataLoader, compile workers) are re-parented to it and stay "
                    + "zombies unless it reaps them", Evidence.fact("/proc/1/cmdline", cmd)));
            case "shell" -> out.add(ContainerRules.PID1.finding(Severity.WARN, "PID 1", "PID 1 is a shell (" + cmd + "): it reaps zombies but does "
                    + "not pass SIGTERM on to the training process it waits for, so docker stop ends in SIGKILL after the grace period, without a "
                    + "checkpoint", Evidence.fact("/proc/1/cmdline", cmd)));
            default -> { }
        }
    }

    // ---- root file system ----

    private static void rootFs(ContainerFacts f, List<Finding> out) {
        var r = f.rootFs();
        if (r == null || !Boolean.TRUE.equals(r.readOnly())) return;
        out.add(ContainerRules.ROOT_FS_RO.finding(Severity.WARN, "root fs", "the root file system is read-only (" + r.type() + "): caches written "
                + "under it fail with \"Read-only file system\" (torch.compile/Inductor, Triton's ~/.triton, Hugging Face's ~/.cache)"
                + (Boolean.TRUE.equals(r.tmpWritable()) ? "; /tmp is writable" : "; /tmp is not writable either"),
                Evidence.fact("/proc/self/mountinfo /", "ro " + r.type())));
    }
}
