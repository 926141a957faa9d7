package hostside.container;

import static hostside.core.Severity.BAD;
import static hostside.core.Severity.WARN;

import java.util.EnumSet;
import java.util.List;

import hostside.core.Rule;
import hostside.core.Source;

/**
 * Module 4's rules on the limits a container (or any cgroup and its rlimits) puts on a training job.
 * The conditions are {@link ContainerVerdicts}'; the cgroup's CPU quota is Module 3's rule
 * ({@link #CPU_QUOTA}), the same one the CPU facts give.
 */
public final class ContainerRules {
    private ContainerRules() {}

    /** The subject both drills give a CPU-quota finding, so that page one keeps one of the two. */
    public static final String QUOTA_SUBJECT = "CPU quota";

    static final Source SCHED_BWC = Source.document("Linux Documentation/scheduler/sched-bwc.rst (CFS bandwidth control): a group may use"
            + " quota microseconds of CPU time per period on all its CPUs together and is throttled until the next period once it has;"
            + " cpu.stat's nr_throttled counts the periods it was");

    public static final Rule CPU_QUOTA = Rule.of("M3-CPU-QUOTA", "a cgroup CPU quota below the CPUs the process sees",
            EnumSet.of(BAD, WARN),
            "PyTorch's intra-op pool (one thread per physical core by default), OpenMP and BLAS size themselves from the CPUs they see, not"
                    + " from the quota; their threads use up the quota early in each period and then all wait for the next one, which shows as"
                    + " slow, jittery steps and a starved GPU. Bad where the cgroup was already throttled in at least 10% of its periods",
            "size the pools to the quota: OMP_NUM_THREADS=<quota, rounded down> (torch.set_num_threads the same) and num_workers at most that;"
                    + " or make what the job sees match what it gets (docker run --cpus=N --cpuset-cpus=<N CPUs>)",
            SCHED_BWC,
            Source.source("pytorch/pytorch c10/core/thread_pool.cpp at 4f6f90c7: TaskThreadPoolBase::defaultNumThreads is cpuinfo's count of"
                    + " physical cores, whatever the cgroup's quota"),
            Source.reasoned("throttled in one period in ten or more: every thread of the job stalls that often, so the quota costs time now"));

    static final Source DATALOADER = Source.source("pytorch/pytorch torch/utils/data/dataloader.py and _utils/worker.py at 00a7ccaa: each"
            + " worker is a process that puts collated batches into shared memory, prefetch_factor (default 2) batches ahead; the worker"
            + " loop calls torch.set_num_threads(1)");

    public static final Rule SHM_SIZE = Rule.of("M4-SHM-SIZE", "/dev/shm smaller than the batches DataLoader workers keep in it", EnumSet.of(BAD),
            "workers die with \"DataLoader worker (pid N) is killed by signal: Bus error\" once /dev/shm fills",
            "start the container with --shm-size=<at least the workers' batches, rounded up to GiB> or --ipc=host (Kubernetes: an emptyDir"
                    + " with medium: Memory mounted at /dev/shm)",
            Source.document("docker run reference, --shm-size: the size of /dev/shm, 64 MB when not given"), DATALOADER,
            Source.reasoned("workers x prefetch_factor x one collated batch is what sits in /dev/shm at once in the steady state"));

    public static final Rule SHM_OVER_MEMORY = Rule.of("M4-SHM-OVER-MEMORY", "/dev/shm larger than the cgroup's memory limit", EnumSet.of(WARN),
            "shared-memory pages are charged to the cgroup of the worker that writes them, so workers filling /dev/shm are OOM-killed (\"killed"
                    + " by signal: Killed\") long before it is full",
            "raise --memory together with --shm-size (Kubernetes: the memory limit with the emptyDir's sizeLimit)",
            Source.document("Linux Documentation/admin-guide/cgroup-v2.rst, Memory Ownership: a page is charged to the cgroup that"
                    + " instantiated it, shmem and tmpfs pages included"));

    static final Source CGROUP_MEMORY = Source.document("Linux Documentation/admin-guide/cgroup-v2.rst, memory.max (the OOM killer is invoked"
            + " past it), memory.high (allocations are throttled and reclaimed above it), memory.events (oom_kill, high), memory.current"
            + " (page cache included)");

    public static final Rule OOM_KILLS = Rule.of("M4-OOM-KILLS", "processes of this cgroup killed by the OOM killer", EnumSet.of(BAD),
            "a worker dies with \"DataLoader worker (pid N) is killed by signal: Killed\", or the whole job with exit code 137",
            "raise the limit (--memory, Kubernetes resources.limits.memory) or lower num_workers and prefetch_factor", CGROUP_MEMORY);

    public static final Rule MEMORY_NEAR_LIMIT = Rule.of("M4-MEMORY-NEAR-LIMIT", "a cgroup at 90% or more of its memory limit", EnumSet.of(WARN),
            "the kernel reclaims page cache first, so dataset files are read from disk again, then the OOM killer ends the largest process",
            "raise --memory (Kubernetes resources.limits.memory)", CGROUP_MEMORY,
            Source.reasoned("90%: page cache counts, so a cgroup this full reclaims it hard and is one burst from the OOM killer"));

    public static final Rule MEMORY_HIGH = Rule.of("M4-MEMORY-HIGH", "a memory.high below the memory limit", EnumSet.of(WARN),
            "above memory.high the kernel throttles the cgroup's allocations and reclaims, so steps slow down well before any OOM kill",
            "raise or remove it (echo max > memory.high; Kubernetes sets it with the MemoryQoS feature gate)", CGROUP_MEMORY);

    public static final Rule PIDS = Rule.of("M4-PIDS", "pids.max leaves no room for the DataLoader plan's threads", EnumSet.of(BAD),
            "threads count as tasks: creating them fails with EAGAIN, seen as \"RuntimeError: can't start new thread\", \"BlockingIOError:"
                    + " [Errno 11] Resource temporarily unavailable\" or OpenBLAS \"pthread_create failed\"",
            "raise it (docker run --pids-limit, Kubernetes podPidsLimit) or cap the main process's pools (OMP_NUM_THREADS)",
            Source.document("Linux Documentation/admin-guide/cgroup-v1/pids.rst: fork() and clone() fail with EAGAIN once pids.max tasks"
                    + " (processes and threads) are in the hierarchy"), DATALOADER);

    public static final Rule MEMLOCK = Rule.of("M4-MEMLOCK", "a small locked-memory limit (RLIMIT_MEMLOCK) without CAP_IPC_LOCK",
            EnumSet.of(BAD, WARN),
            "RDMA memory registration is charged to it: NCCL over InfiniBand or RoCE fails to register its buffers (\"NCCL WARN Call to"
                    + " ibv_reg_mr... failed with error Cannot allocate memory\") and the job fails at start-up; bad where an RDMA device is"
                    + " visible, a warning where none is. PyTorch's pin_memory() is not charged to it (the NVIDIA driver pins the pages):"
                    + " a low limit leaves the copies to the GPU as they were",
            "run with --ulimit memlock=-1 (and --cap-add IPC_LOCK), or set memlock unlimited in /etc/security/limits.conf and check ulimit -l"
                    + " inside the launcher (mpirun, srun)",
            Source.thread("NVIDIA/nccl-tests#206 (2024-04): NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory with"
                    + " ulimit -l at 8192; fixed by raising the memlock limit"),
            Source.document("getrlimit(2), RLIMIT_MEMLOCK: CAP_IPC_LOCK processes are not limited by it; NCCL User Guide, Troubleshooting,"
                    + " InfiniBand: raise the locked-memory limit"),
            Source.reasoned("64 MiB: hostside's own line, the one Module 2 judges memlock by; how much NCCL registers per connection is not known"
                    + " here, so a limit above it may still be too small for a large job; an unlimited soft limit or CAP_IPC_LOCK is quiet"),
            Source.measurement("docs/measurements/2026-12-06-findings-h100.md: on the H100 VM with CAP_IPC_LOCK dropped and memlock 64 KiB,"
                    + " torch.empty(256 MiB).pin_memory() pinned (is_pinned True) while mlock() of 1 MiB failed with ENOMEM"));

    public static final Rule NOFILE = Rule.of("M4-NOFILE", "a small open-files limit (RLIMIT_NOFILE)", EnumSet.of(WARN),
            "DataLoader workers hand each tensor to the main process as a file descriptor (torch.multiprocessing's file_descriptor strategy),"
                    + " so many workers or tensors per batch end in \"RuntimeError: received 0 items of ancdata\" or \"Too many open files\"",
            "--ulimit nofile=1048576:1048576 (or raise the soft limit to the hard one in the entrypoint: ulimit -n), or"
                    + " torch.multiprocessing.set_sharing_strategy('file_system')",
            Source.document("PyTorch torch.multiprocessing documentation, Sharing strategies: file_descriptor is the default on Linux and keeps"
                    + " a descriptor open per shared tensor"),
            Source.reasoned("4096 or less: login shells' 1024 and the 4096 some images set"));

    public static final Rule NPROC = Rule.of("M4-NPROC", "RLIMIT_NPROC below the DataLoader plan's threads", EnumSet.of(BAD),
            "the limit counts every process and thread of the uid on the host, other containers of the same uid included: thread creation"
                    + " fails with EAGAIN (\"can't start new thread\")",
            "--ulimit nproc=-1 (or at least the plan's threads more than the uid already runs), or cap the main process's pools (OMP_NUM_THREADS)",
            Source.document("getrlimit(2), RLIMIT_NPROC: the number of extant processes (threads) for the real user ID; CAP_SYS_ADMIN or"
                    + " CAP_SYS_RESOURCE and root are exempt"), DATALOADER);

    public static final Rule GPU_NODES = Rule.of("M4-GPU-NODES", "NVIDIA GPUs on the bus or asked for, but no /dev/nvidiaN device node",
            EnumSet.of(BAD),
            "CUDA reports \"no CUDA-capable device is detected\" and torch.cuda.is_available() is False",
            "in a container: start it with --gpus all (the NVIDIA Container Toolkit; --runtime=nvidia where NVIDIA_VISIBLE_DEVICES is set but"
                    + " runc ran it; Kubernetes: resources.limits nvidia.com/gpu); on a host: load the driver (modprobe nvidia) and check nvidia-smi",
            Source.document("NVIDIA Container Toolkit documentation, Specialized Configurations: NVIDIA_VISIBLE_DEVICES and the device nodes"
                    + " the runtime hook injects"));

    public static final Rule GPU_UVM = Rule.of("M4-GPU-UVM", "GPU device nodes but no /dev/nvidia-uvm", EnumSet.of(BAD),
            "nvidia-smi works yet CUDA fails to start (\"CUDA unknown error\", error 999, torch.cuda.is_available() False)",
            "load nvidia_uvm on the host (nvidia-modprobe -u -c=0), then start the container again with --gpus",
            Source.document("NVIDIA Container Toolkit troubleshooting and CUDA installation guide: the CUDA runtime needs /dev/nvidia-uvm,"
                    + " created by nvidia-modprobe -u"));

    public static final Rule CUDA_VISIBLE = Rule.of("M4-CUDA-VISIBLE", "CUDA_VISIBLE_DEVICES hiding every GPU or naming more than are here",
            EnumSet.of(WARN),
            "torch.cuda.device_count() is 0, or CUDA keeps the valid indices up to the first invalid one and ranks that expect more fail with"
                    + " \"invalid device ordinal\"",
            "unset CUDA_VISIBLE_DEVICES or name the GPUs that are here (renumbered from 0 inside a container); start the container with the"
                    + " GPUs it names (--gpus '\"device=...\"')",
            Source.document("CUDA C++ Programming Guide, CUDA Environment Variables, CUDA_VISIBLE_DEVICES: only the devices whose index is"
                    + " present are visible; an invalid index hides the ones that follow"));

    public static final Rule PID1 = Rule.of("M4-PID1", "PID 1 of the container is the program or a shell, not an init", EnumSet.of(WARN),
            "the kernel gives PID 1 no default signal actions, so SIGTERM (docker stop, an eviction) does nothing unless the program handles"
                    + " it and the container is SIGKILLed after the grace period, without a checkpoint; a shell does not pass SIGTERM on; orphans"
                    + " (a crashed DataLoader's workers) stay zombies unless PID 1 reaps them",
            "run with --init (docker) or tini or dumb-init as the entrypoint; from a shell script, exec the trainer so that it replaces the shell (exec python ...)",
            Source.document("pid_namespaces(7): the init process of a PID namespace gets only the signals it has handlers for; docker run"
                    + " reference, --init"));

    public static final Rule ROOT_FS_RO = Rule.of("M4-ROOT-FS-RO", "a read-only root file system", EnumSet.of(WARN),
            "caches written under it fail with \"Read-only file system\" (torch.compile/Inductor, Triton's ~/.triton, Hugging Face's ~/.cache)",
            "point TRITON_CACHE_DIR, TORCHINDUCTOR_CACHE_DIR and HF_HOME at a mounted volume (-v, --tmpfs /tmp)",
            Source.document("docker run reference, --read-only; Triton TRITON_CACHE_DIR and PyTorch TORCHINDUCTOR_CACHE_DIR, Hugging Face"
                    + " HF_HOME environment variables"));

    /** Module 4's rules on a container's limits, as the rulebook lists them. */
    public static List<Rule> all() {
        return List.of(SHM_SIZE, SHM_OVER_MEMORY, OOM_KILLS, MEMORY_NEAR_LIMIT, MEMORY_HIGH, PIDS, MEMLOCK, NOFILE, NPROC, GPU_NODES, GPU_UVM,
                CUDA_VISIBLE, PID1, ROOT_FS_RO);
    }
}
