package hostside.container;

import java.util.List;

import hostside.core.CpuSet;
import hostside.process.CgroupLayout;
import hostside.process.Limits;

/**
 * The limits a container (or a plain cgroup) puts on this process, as read through an FsRoot and,
 * for what only the running process can know, a {@link LiveProcess}. Facts only: what they mean
 * for training is {@link ContainerVerdicts}'. A null field is unknown and {@code unknowns} says why.
 * CPU sets are {@link CpuSet}, parsed once where they are read; JSON writes them as the kernel's
 * list spelling ("0-63").
 *
 * @param runtime      whether this is a container and which runtime made it, with the evidence
 * @param cgroup       the cgroup version and where this process's cgroup of each controller is
 * @param memory       memory limit, use, swap and OOM kills
 * @param cpu          CPU quota, weight, cpuset and the CPUs this process sees
 * @param pids         the tasks (processes and threads) the cgroup allows
 * @param shm          /dev/shm, where DataLoader workers put the batches they hand over
 * @param limits       rlimits from /proc/self/limits (memlock, nofile, stack, nproc); a null one is unknown
 * @param capabilities the effective capabilities that matter and the effective uid
 * @param devices      the NVIDIA device nodes visible and what the environment asks for; RDMA devices
 * @param namespaces   this process's namespaces against PID 1's, and what PID 1 is
 * @param rootFs       the root file system's type and whether it is read-only
 * @param unknowns     one line per fact that could not be read, naming the file and why
 */
public record ContainerFacts(Detection runtime, CgroupLayout cgroup, Memory memory, Cpu cpu, Pids pids, Shm shm,
                             ProcessLimits limits, Capabilities capabilities, Devices devices, Namespaces namespaces,
                             RootFs rootFs, List<String> unknowns) {

    /**
     * @param inContainer true when some mark says so; false when none did (the evidence says what was looked at)
     * @param runtime     docker, podman, containerd, cri-o, lxc, systemd-nspawn; "unknown runtime" for a
     *                    container-like process without a runtime's marks; null when not in a container
     * @param kubernetes  true when the process runs in a Kubernetes pod
     * @param summary     the evidence that decided, in a few words
     * @param evidence    what was found, one line each ("/.dockerenv exists", "kthreadd is PID 2: the host's PID namespace")
     */
    public record Detection(boolean inContainer, String runtime, boolean kubernetes, String summary, List<String> evidence) {}

    /**
     * A limit: a value, unlimited, or unknown (value null and unlimited false; source says why).
     *
     * @param source the file it comes from ("/sys/fs/cgroup/memory.max"), "none: ..." when no level sets one,
     *               or "unknown: ..."
     */
    public record Bound(Long value, boolean unlimited, String source) {
        public static Bound of(long value, String source) {
            return new Bound(value, false, source);
        }

        public static Bound none(String source) {
            return new Bound(null, true, source);
        }

        public static Bound unknown(String why) {
            return new Bound(null, false, "unknown: " + why);
        }

        public boolean limited() {
            return value != null;
        }
    }

    /**
     * @param limit         the tightest of memory.max / memory.limit_in_bytes from this cgroup up
     * @param currentBytes  memory.current / memory.usage_in_bytes at the level of the limit (this cgroup's without one)
     * @param high          cgroup v2 memory.high: above it the kernel throttles and reclaims; null on v1
     * @param swap          swap the cgroup may use: v2 memory.swap.max; v1 memory.memsw.limit_in_bytes less the memory limit
     * @param oomKills      processes of this cgroup killed by the OOM killer (memory.events / memory.oom_control oom_kill)
     * @param limitHits     times use reached the limit (v2 memory.events max, v1 memory.failcnt)
     * @param highHits      times use went over memory.high (v2 memory.events high)
     * @param memTotalBytes the machine's MemTotal, for scale
     */
    public record Memory(Bound limit, Long currentBytes, Bound high, Bound swap, Long oomKills, Long limitHits,
                         Long highHits, Long memTotalBytes) {}

    /**
     * @param quotaCpus        quota / period, in CPUs' worth of time; null when there is no quota or it is unknown
     * @param quotaUs          cpu.max's or cpu.cfs_quota_us's quota at the tightest level
     * @param periodUs         its period
     * @param quotaSource      the file, "none: ..." or "unknown: ..."
     * @param visibleCpus      CPUs this process may run on (sched_getaffinity, Cpus_allowed_list): what
     *                         PyTorch, OpenMP and os.sched_getaffinity size pools from
     * @param visibleList      the same CPUs as a set (written "0-63"); null when unknown
     * @param cpusetCpus       the cgroup's cpuset as Module 1 reads it; null when unrestricted or unknown
     * @param weight           cgroup v2 cpu.weight (default 100); null on v1
     * @param shares           cgroup v1 cpu.shares (default 1024); null on v2
     * @param periods          enforcement periods counted at the quota's level (cpu.stat nr_periods)
     * @param throttledPeriods periods in which the cgroup ran out of quota (cpu.stat nr_throttled)
     * @param throttledSeconds time the cgroup spent throttled (throttled_usec / throttled_time)
     */
    public record Cpu(Double quotaCpus, Long quotaUs, Long periodUs, String quotaSource, Integer visibleCpus,
                      CpuSet visibleList, CpuSet cpusetCpus, Long weight, Long shares, Long periods,
                      Long throttledPeriods, Double throttledSeconds) {}

    /**
     * @param max      pids.max at the tightest level (processes and threads both count)
     * @param current  pids.current of this process's cgroup
     * @param headroom tasks that can still start before some level's pids.max refuses (the least over the levels)
     */
    public record Pids(Bound max, Long current, Long headroom) {}

    /**
     * @param mounted   true when /dev/shm is a mount of its own (false: a folder of the root file system)
     * @param type      its file system type (tmpfs)
     * @param sizeBytes its size: statvfs of the live /dev/shm, else the size= mount option, else tmpfs's default
     * @param usedBytes in use (live only)
     * @param source    how the size was found ("statvfs /dev/shm", "mountinfo: size=65536k", "unknown: ...")
     */
    public record Shm(Boolean mounted, String type, Long sizeBytes, Long usedBytes, String source) {}

    /** Soft and hard limits of /proc/self/limits; a null limit is unknown. */
    public record ProcessLimits(Limits.Limit memlock, Limits.Limit nofile, Limits.Limit stack, Limits.Limit nproc) {}

    /**
     * @param effective  CapEff as the kernel prints it (hex)
     * @param ipcLock    CAP_IPC_LOCK: lock memory past RLIMIT_MEMLOCK (RDMA registration, mlock)
     * @param sysNice    CAP_SYS_NICE: raise priority, real-time scheduling, move other processes' pages
     * @param sysResource CAP_SYS_RESOURCE: exempt from RLIMIT_NPROC and able to raise hard limits
     * @param uid        the effective uid
     */
    public record Capabilities(String effective, Boolean ipcLock, Boolean sysNice, Boolean sysResource, Integer uid) {}

    /**
     * @param deviceNodes          /dev/nvidia0, /dev/nvidia1...; null when /dev could not be read (a recording)
     * @param ctl                  /dev/nvidiactl exists
     * @param uvm                  /dev/nvidia-uvm exists (CUDA needs it to start)
     * @param pciGpus              NVIDIA GPUs on the PCI bus (sysfs is not namespaced: a container sees the host's)
     * @param envKnown             false on a recorded machine, where the environment is unknown
     * @param cudaVisibleDevices   CUDA_VISIBLE_DEVICES; null when unset
     * @param nvidiaVisibleDevices NVIDIA_VISIBLE_DEVICES (what the NVIDIA container runtime was asked for); null when unset
     * @param rdmaDevices          /sys/class/infiniband: the adapters NCCL registers memory with
     */
    public record Devices(List<String> deviceNodes, Boolean ctl, Boolean uvm, Integer pciGpus, boolean envKnown,
                          String cudaVisibleDevices, String nvidiaVisibleDevices, List<String> rdmaDevices) {}

    /**
     * @param list          ipc, pid, net, user, mnt, uts, cgroup
     * @param ownPid        true in a PID namespace of its own (no kthreadd as PID 2, or a pid namespace other than PID 1's)
     * @param ownPidWhy     the evidence for ownPid, or why it is unknown
     * @param pid1          PID 1's executable name, never its arguments (comm when the command line is unreadable)
     * @param pid1Kind      init, shell, this process, program (the training process itself), host init; null when unknown
     * @param userNamespace true when uid_map is not the identity map of the initial user namespace
     * @param uidMap        /proc/self/uid_map, one mapping per line joined by "; "
     */
    public record Namespaces(List<Ns> list, Boolean ownPid, String ownPidWhy, String pid1, String pid1Kind,
                             Boolean userNamespace, String uidMap) {}

    /**
     * @param name     ipc, pid, net...
     * @param self     this process's namespace ("ipc:[4026531839]"); null when unreadable
     * @param pid1     PID 1's; null when unreadable
     * @param relation own, shared with the host, shared with PID 1, this process is PID 1, or unknown (why)
     */
    public record Ns(String name, String self, String pid1, String relation) {}

    /**
     * @param readOnly the root is mounted read-only
     * @param type     its file system (overlay in most containers)
     * @param tmpWritable /tmp is a writable mount of its own (a read-only root with a writable /tmp still runs compile caches)
     */
    public record RootFs(Boolean readOnly, String type, Boolean tmpWritable) {}
}
