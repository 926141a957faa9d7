package hostside.checklist;

import static hostside.core.Severity.BAD;
import static hostside.core.Severity.INFO;
import static hostside.core.Severity.WARN;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import hostside.core.Rule;
import hostside.core.Source;
import hostside.core.Units;

/**
 * Module 4's 60-second checklist as rules: one per verdict {@link Verdicts} can draw, in the order it
 * tries them. The thresholds are {@link Verdicts}'; each is hostside's own unless a document sets
 * it, and says why. A report of an earlier version wrote a verdict by its old code
 * ("memory-pressure"): {@link #byCode} reads it as its rule.
 */
public final class ChecklistRules {
    private ChecklistRules() {}

    static final Source PSI = Source.document("Linux Documentation/accounting/psi.rst: \"some\" is the share of time at least one task is stalled"
            + " on the resource, \"full\" the share in which all non-idle tasks are stalled at once");
    static final Source PROC_STAT = Source.document("Linux Documentation/filesystems/proc.rst, /proc/stat: iowait, steal and procs_running;"
            + " iowait is time idle with I/O outstanding, and not reliable per CPU");
    static final Source XID_CATALOG = Source.document("NVIDIA Xid Errors (docs.nvidia.com/deploy/xid-errors), the Xid catalog: each Xid's"
            + " meaning and resolution bucket (RESTART_APP for application errors, RESET_GPU, RESTART_BM or CONTACT_SUPPORT for the GPU's)");
    static final Source NVML_CLOCKS = Source.document("NVML API Reference, nvmlDeviceGetCurrentClocksEventReasons: SW power cap, HW slowdown,"
            + " thermal slowdown and the other reasons the clocks are held down");

    public static final Rule MEMORY_PRESSURE = Rule.of("M4-60S-MEMORY-PRESSURE", "memory pressure: PSI memory stalls, or OOM kills in the last hour",
            EnumSet.of(BAD),
            "tasks stalled on reclaim or swap-in lose throughput now, and the next allocation burst may be OOM-killed (a DataLoader worker, the trainer)",
            "find what holds the memory (ps -eo rss,comm --sort=-rss | head), lower DataLoader workers or prefetch_factor, or raise the container's"
                    + " memory limit; dmesg -T | grep -i oom names the victims",
            PSI, Source.reasoned("PSI memory full " + Units.percent(Verdicts.MEMORY_FULL_PERCENT) + " or some " + Units.percent(Verdicts.MEMORY_SOME_PERCENT)
                    + ": every task stalled at once a twentieth of the window is throughput already lost; some task stalled a fifth of it is reclaim"
                    + " in the hot path. PSI sets no threshold; these are hostside's"));
    public static final Rule GPU_FAULT = Rule.of("M4-60S-GPU-FAULT", "an Xid of the GPU's own (ECC, fallen off the bus, NVLink, GSP) in the last hour",
            EnumSet.of(BAD), "the GPU or its memory or link failed: the job on it has stopped or will, and the GPU needs a reset or a drain",
            "nvidia-smi -q -d ECC,ROW_REMAPPER; follow the Xid catalog's resolution (reset the GPU, reboot, or drain the node and open a support case)",
            XID_CATALOG, Source.reasoned("recent means the last hour (" + (long) KernelSection.RECENT_SECONDS + " s): a training step's failures,"
                    + " not last month's boot"));
    public static final Rule GPU_APP_ERROR = Rule.of("M4-60S-GPU-APP-ERROR", "an Xid the catalog blames on the application (13, 31, 43, 45) in the last hour",
            EnumSet.of(WARN), "a kernel of this or another process faulted (an illegal address, an exception): the job that ran it stopped, the GPU is fine",
            "rerun the failing job with CUDA_LAUNCH_BLOCKING=1 or compute-sanitizer to find the faulting kernel", XID_CATALOG);
    public static final Rule HARDWARE_ERRORS = Rule.of("M4-60S-HARDWARE-ERRORS", "machine-check or EDAC reports in the kernel log in the last hour",
            EnumSet.of(BAD), "the host's CPUs or memory reported errors: corrected ones warn of a failing DIMM, uncorrected ones kill what used the memory",
            "ras-mc-ctl --errors or edac-util -v for the DIMM, then the vendor's hardware diagnostics; drain the node if uncorrected errors recur",
            Source.document("Linux Documentation/driver-api/edac.rst: EDAC reports corrected (CE) and uncorrected (UE) memory errors per memory controller"
                    + " and DIMM"));
    public static final Rule PROCESS_CRASHED = Rule.of("M4-60S-PROCESS-CRASHED", "a process segfaulted in the last hour",
            EnumSet.of(BAD), "a worker or the trainer died: a DataLoader worker's crash stops the epoch, a rank's stops the job",
            "coredumpctl list for the core; run the process under gdb or with faulthandler (python -X faulthandler) to see where",
            Source.document("Linux kernel arch/x86/mm/fault.c show_signal_msg: the \"segfault at\" line each SIGSEGV of a user process logs"));
    public static final Rule HUNG_TASKS = Rule.of("M4-60S-HUNG-TASKS", "hung task reports (blocked for more than kernel.hung_task_timeout_secs) in the last hour",
            EnumSet.of(WARN), "a task waited in D state longer than the kernel's limit: usually on storage or a network file system, which stalls whoever reads it",
            "cat /proc/<pid>/stack of the blocked task to see what it waits on; check the storage or NFS server it reads",
            Source.document("Linux Documentation/admin-guide/sysctl/kernel.rst, hung_task_timeout_secs: a task in D state longer than this is reported"));
    public static final Rule IO_BOUND = Rule.of("M4-60S-IO-BOUND", "I/O-bound: iowait, or a disk busy while the process's threads wait on it",
            EnumSet.of(BAD, WARN),
            "bad where the process's own threads wait in D state on I/O: its loader reads slower than the GPU consumes; warn where the machine waits"
                    + " on I/O and this process does not",
            "iostat -x 1 for the device, iotop for who reads; more DataLoader workers, a local copy of the data set, or a faster volume",
            PROC_STAT, Source.document("sysstat iostat(1), %util: \"for devices serving requests in parallel, such as RAID arrays and modern SSDs, this"
                    + " number does not reflect their performance limits\""),
            Source.reasoned("iowait " + Units.percent(Verdicts.IOWAIT_PERCENT) + " of CPU time (the CPUs wait on storage a fifth of the time), a disk "
                    + Units.percent(Verdicts.DISK_UTIL_PERCENT) + " busy only where this process's threads wait on it (util alone cannot say an NVMe drive is"
                    + " saturated), PSI io full " + Units.percent(Verdicts.IO_FULL_PERCENT) + " named beside: hostside's own"));
    public static final Rule THROTTLED = Rule.of("M4-60S-THROTTLED", "a GPU held down by a clocks event reason in half the samples or more",
            EnumSet.of(WARN), "the GPU's clocks were held below their maximum by power, heat or a slowdown for most of the window: kernels run slower by as much",
            "nvidia-smi -q -d PERFORMANCE,POWER,TEMPERATURE for the reason; check the cooling, the power limit (nvidia-smi -pl) and the power supply",
            NVML_CLOCKS, Source.reasoned("half the samples: a reason held most of the window, not a passing blip"));
    public static final Rule CPU_BOUND_FEEDING = Rule.of("M4-60S-CPU-BOUND-FEEDING", "a thread or worker of the process near 100% of a CPU while the GPU is"
                    + " not busy", EnumSet.of(BAD, WARN),
            "the host cannot feed the GPU: a loader thread or worker pegged at one CPU sets the step time; bad where the GPU was read below "
                    + Units.percent(Verdicts.GPU_STARVED_PERCENT) + ", warn where it was not read",
            "more DataLoader workers (num_workers), less work per sample on the CPU (decode on the GPU, precomputed features), or pin_memory=True",
            Source.reasoned("a thread at " + Units.percent(Verdicts.THREAD_BUSY_PERCENT) + " of a CPU cannot go faster by waiting less; a GPU below "
                    + Units.percent(Verdicts.GPU_STARVED_PERCENT) + " idles a third of the time or more: hostside's own"));
    public static final Rule GIL_BOUND = Rule.of("M4-60S-GIL-BOUND", "two or more threads of the process sharing one CPU between them while the GPU is not busy",
            EnumSet.of(BAD, WARN),
            "threads whose CPU time adds up to one CPU and no more take turns, most likely on Python's GIL: more threads do not feed the GPU faster",
            "move the work to processes (DataLoader workers, multiprocessing) or to code that releases the GIL",
            Source.reasoned("threads each above " + Units.percent(Signals.GIL_THREAD_PERCENT) + " of a CPU whose sum is between "
                    + Units.percent(Verdicts.THREAD_BUSY_PERCENT) + " and " + Units.percent(100 + Signals.GIL_THREAD_PERCENT) + " of one CPU, none pegged alone: hostside's own"));
    public static final Rule CPU_OVERSUBSCRIBED = Rule.of("M4-60S-CPU-OVERSUBSCRIBED", "more runnable tasks than CPUs, or PSI cpu some half the time",
            EnumSet.of(WARN), "tasks wait for a CPU: a feeder thread waits its turn, and the launch latency it adds shows as gaps on the GPU",
            "fewer threads (OMP_NUM_THREADS, torch.set_num_threads, num_workers) or CPUs reserved for the feeders (taskset, the container's cpuset)",
            PROC_STAT, PSI, Source.reasoned("procs_running minus the reader above the CPU count (the run queue, not the load average, which counts"
                    + " D-state tasks too), or PSI cpu some " + Units.percent(Verdicts.CPU_SOME_PERCENT) + ": hostside's own"));
    public static final Rule STEAL = Rule.of("M4-60S-STEAL", "CPU time stolen by the hypervisor for other guests", EnumSet.of(WARN),
            "the VM's CPUs ran other guests' work a tenth of the time or more: every thread, the feeders' included, runs slower by as much",
            "ask the platform for dedicated (pinned) vCPUs, or move to a larger or bare-metal instance",
            PROC_STAT, Source.reasoned("steal " + Units.percent(Verdicts.STEAL_PERCENT) + " of CPU time: hostside's own"));
    public static final Rule SNAPSHOT = Rule.of("M4-60S-SNAPSHOT", "one look at a recorded machine: no rates", EnumSet.of(INFO),
            "a recording has no rates, so no bottleneck is named; the sections show what was read", "",
            Source.reasoned("a rate needs two samples"));
    public static final Rule HEALTHY = Rule.of("M4-60S-HEALTHY", "the GPU busy and the host keeping up", EnumSet.of(INFO),
            "the GPU, not the host, sets the pace: the host side has nothing to give here", "",
            Source.reasoned("GPU utilisation " + Units.percent(Verdicts.GPU_BUSY_PERCENT) + " or more, and no rule above fired: hostside's own"));
    public static final Rule WAITING = Rule.of("M4-60S-WAITING", "the process nearly idle and the GPU idle", EnumSet.of(WARN),
            "the job is blocked on something outside the host's CPUs and GPU: the network, a peer rank, a lock, a read",
            "py-spy dump --pid <pid> for where each thread waits; check the peers (NCCL_DEBUG=INFO) and the storage",
            Source.reasoned("the process under " + Units.percent(Verdicts.PROCESS_IDLE_PERCENT) + " of a CPU and the GPU under "
                    + Units.percent(Verdicts.GPU_IDLE_PERCENT) + ": hostside's own"));
    public static final Rule GPU_UNDERUSED = Rule.of("M4-60S-GPU-UNDERUSED", "the GPU under-used with no host bottleneck seen", EnumSet.of(WARN),
            "the GPU waits and the host is not the reason the checklist can see: the gaps are between kernels or in the input pipeline",
            "profile a few steps (torch.profiler or nsys) to see the gaps between kernels; CUDA graphs or larger batches close launch gaps",
            Source.reasoned("GPU utilisation under " + Units.percent(Verdicts.GPU_BUSY_PERCENT) + " with no rule above fired and the process not"
                    + " waiting (a process under " + Units.percent(Verdicts.PROCESS_IDLE_PERCENT) + " of a CPU beside a GPU under " + Units.percent(Verdicts.GPU_IDLE_PERCENT)
                    + " is M4-60S-WAITING): hostside's own"));
    public static final Rule NO_BOTTLENECK = Rule.of("M4-60S-NO-BOTTLENECK", "no host bottleneck seen and no GPU read", EnumSet.of(INFO),
            "nothing the checklist reads held the process back; without the GPU's utilisation it cannot say whether the GPU waited", "",
            Source.reasoned("no rule above fired"));

    private static final Map<Verdicts.Code, Rule> BY_CODE = new java.util.EnumMap<>(Map.ofEntries(
            Map.entry(Verdicts.Code.MEMORY_PRESSURE, MEMORY_PRESSURE), Map.entry(Verdicts.Code.GPU_FAULT, GPU_FAULT),
            Map.entry(Verdicts.Code.GPU_APP_ERROR, GPU_APP_ERROR), Map.entry(Verdicts.Code.HARDWARE_ERRORS, HARDWARE_ERRORS),
            Map.entry(Verdicts.Code.PROCESS_CRASHED, PROCESS_CRASHED), Map.entry(Verdicts.Code.HUNG_TASKS, HUNG_TASKS),
            Map.entry(Verdicts.Code.IO_BOUND, IO_BOUND), Map.entry(Verdicts.Code.THROTTLED, THROTTLED),
            Map.entry(Verdicts.Code.CPU_BOUND_FEEDING, CPU_BOUND_FEEDING), Map.entry(Verdicts.Code.GIL_BOUND, GIL_BOUND),
            Map.entry(Verdicts.Code.CPU_OVERSUBSCRIBED, CPU_OVERSUBSCRIBED), Map.entry(Verdicts.Code.STEAL, STEAL),
            Map.entry(Verdicts.Code.SNAPSHOT, SNAPSHOT), Map.entry(Verdicts.Code.HEALTHY, HEALTHY), Map.entry(Verdicts.Code.WAITING, WAITING),
            Map.entry(Verdicts.Code.GPU_UNDERUSED, GPU_UNDERUSED), Map.entry(Verdicts.Code.NO_BOTTLENECK, NO_BOTTLENECK)));

    /** The rule of a verdict. */
    static Rule of(Verdicts.Code code) {
        return BY_CODE.get(code);
    }

    /** The rule a report of an earlier version named by its old code ("memory-pressure"), or by its ID; null for neither. */
    static Rule byCode(String code) {
        if (code == null) return null;
        for (Map.Entry<Verdicts.Code, Rule> e : BY_CODE.entrySet()) {
            if (e.getKey().code().equals(code) || e.getValue().id().equals(code)) return e.getValue();
        }
        return null;
    }

    /** Module 4's checklist rules, in the order the verdicts are tried. */
    public static List<Rule> all() {
        return List.copyOf(BY_CODE.values());
    }
}
