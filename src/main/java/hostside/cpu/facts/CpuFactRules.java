package hostside.cpu.facts;

import static hostside.core.Severity.BAD;
import static hostside.core.Severity.INFO;
import static hostside.core.Severity.WARN;

import java.util.EnumSet;
import java.util.List;

import hostside.container.ContainerRules;
import hostside.core.Rule;
import hostside.core.Source;

/**
 * Module 3's rules on the CPU facts: what the cgroup, the affinity, isolation, interrupts, clocks,
 * idle states and the scheduler mean for the threads that feed GPUs. The conditions are
 * {@link CpuVerdicts}'; unknown facts give no finding ({@link CpuFacts#unknowns} says why).
 */
public final class CpuFactRules {
    private CpuFactRules() {}

    /**
     * The cgroup's CPU quota below the CPUs the job sees: one rule for the CPU facts and the container's
     * limits, so that the report says it once (the container's finding, where it has the throttling
     * counts, is the worse and is kept).
     */
    /**
     * A cgroup CPU quota below the CPUs the process sees: one rule that the CPU facts and the
     * container's limits both give (page one says it once), declared with the container's rules,
     * which the cpu package already reads.
     */
    public static final Rule CPU_QUOTA = ContainerRules.CPU_QUOTA;

    public static final Rule AFFINITY = Rule.of("M3-AFFINITY", "a process affinity narrower than the online CPUs", EnumSet.of(INFO),
            "the threads the process starts, DataLoader workers and OpenMP threads included, inherit its CPU set", "",
            Source.document("sched_setaffinity(2) (man7.org): a child created by fork(2) inherits its parent's CPU affinity mask; taskset(1)"));

    public static final Rule GPU_LOCAL_CPUS = Rule.of("M3-GPU-LOCAL-CPUS", "a process that may not run on any of a GPU's local CPUs",
            EnumSet.of(WARN),
            "its launch, copy and data-loading threads run across the CPU interconnect from the GPU, and the memory they allocate first"
                    + " lands on their own node",
            "bind the processes that feed the GPU to its node: numactl --cpunodebind=<the GPU's NUMA node> --membind=<the same>, or"
                    + " taskset -c <its local CPUs> (nvidia-smi topo -m lists each GPU's CPU affinity)",
            Source.document("Linux Documentation/ABI/testing/sysfs-bus-pci, local_cpulist: the CPUs local to the device; numactl(8),"
                    + " --cpunodebind and --membind"));

    static final Source KERNEL_PARAMETERS = Source.document("Linux Documentation/admin-guide/kernel-parameters.txt: isolcpus= (the domain flag,"
            + " the default, takes the CPUs out of scheduler balancing, so only threads affined to them run there), nohz_full= (no"
            + " scheduling-clock tick while a CPU runs a single task; its RCU callbacks are offloaded as if named in rcu_nocbs=); and"
            + " /sys/devices/system/cpu/isolated (Documentation/ABI/testing/sysfs-devices-system-cpu)");

    public static final Rule ISOLCPUS_MISMATCH = Rule.of("M3-ISOLCPUS-MISMATCH", "isolcpus= on the command line and the CPUs the kernel isolated differ",
            EnumSet.of(WARN),
            "the CPUs meant for pinned feeder threads are not the ones the scheduler keeps free: other threads run on those asked for, or"
                    + " none runs on the ones isolated",
            "make isolcpus= name the CPUs meant (domain isolation is the default flag) and reboot; cat /sys/devices/system/cpu/isolated"
                    + " says what the kernel did",
            KERNEL_PARAMETERS);

    public static final Rule ISOLCPUS = Rule.of("M3-ISOLCPUS", "isolated CPUs: whether they are the GPUs' and whether they still tick",
            EnumSet.of(INFO),
            "the scheduler places no thread on an isolated CPU unless it is pinned there, so a GPU's isolated local CPUs serve its feeder"
                    + " threads only if they are pinned; an isolated CPU that still takes the scheduler tick interrupts the thread pinned to it",
            "pin the feeder threads onto the isolated CPUs deliberately (taskset -c, os.sched_setaffinity); add nohz_full=<the ticking"
                    + " isolated CPUs> to the kernel command line (it offloads their RCU callbacks too) for a core a pinned thread has to itself",
            KERNEL_PARAMETERS);

    static final Source IRQ_AFFINITY = Source.document("Linux Documentation/core-api/irq/irq-affinity.rst: /proc/irq/N/smp_affinity_list"
            + " sets the CPUs an IRQ may be handled on; irqbalance(1), IRQBALANCE_BANNED_CPULIST; managed interrupts (NVMe's per-queue"
            + " vectors, Documentation/core-api/genericirq.rst) are placed by the kernel and cannot be moved from user space");

    public static final Rule IRQ_FEEDERS = Rule.of("M3-IRQ-FEEDERS", "device interrupts handled on the cores that feed a GPU",
            EnumSet.of(WARN, INFO),
            "interrupt and softirq work preempts the launch and data-loading threads on those cores; warn where they land on at least half"
                    + " of the GPU's feeder cores, a note where on fewer but active",
            "move the IRQs off those cores (echo <other CPUs> > /proc/irq/N/smp_affinity_list; IRQBALANCE_BANNED_CPULIST for irqbalance),"
                    + " or pin the feeder threads to the GPU's other local cores (taskset -c); NVMe queue interrupts are kernel-managed and"
                    + " stay where they are: pin the threads",
            IRQ_AFFINITY, Source.reasoned("half of the feeder cores: fewer leave room to pin the feeder threads beside them"));

    public static final Rule IRQ_FAR = Rule.of("M3-IRQ-FAR", "a GPU's, NIC's or NVMe drive's interrupts handled outside its NUMA node",
            EnumSet.of(WARN),
            "its completions (a GPU's blocking synchronisation and events, a NIC's packets, a drive's I/O) are serviced across the CPU"
                    + " interconnect, away from the buffers near the device",
            "set /proc/irq/N/smp_affinity_list to the device's local CPUs (/sys/bus/pci/devices/<address>/local_cpulist), or ban the far"
                    + " CPUs for them in irqbalance; NVMe's managed queue interrupts cannot be moved",
            IRQ_AFFINITY);

    public static final Rule IRQ_CPU0 = Rule.of("M3-IRQ-CPU0", "every device interrupt on CPU0", EnumSet.of(WARN),
            "one core services every completion and packet, and the threads on it are preempted for each",
            "start irqbalance (systemctl enable --now irqbalance) or spread the IRQs with /proc/irq/N/smp_affinity_list",
            IRQ_AFFINITY);

    static final Source CPUFREQ = Source.document("Linux Documentation/admin-guide/pm/cpufreq.rst: the generic powersave governor requests the"
            + " lowest frequency within scaling_min_freq; ondemand and conservative estimate the load from samples taken every sampling_rate;"
            + " schedutil follows the scheduler's utilisation estimate (PELT), which decays while a task sleeps");

    static final Source INTEL_PSTATE = Source.document("Linux Documentation/admin-guide/pm/intel_pstate.rst, Active Mode: intel_pstate's"
            + " powersave and performance are its own P-state selection algorithms, not the generic governors (its powersave roughly"
            + " corresponds to schedutil and ondemand); with HWP, energy_performance_preference (performance, balance_performance,"
            + " balance_power, power) sets the hardware's bias; Documentation/admin-guide/pm/amd-pstate.rst, amd-pstate-epp likewise");

    public static final Rule GOVERNOR = Rule.of("M3-GOVERNOR", "the cpufreq governor of the CPUs", EnumSet.of(BAD, WARN, INFO),
            "the generic powersave governor holds the CPUs at their lowest frequency, so feeder threads run at minimum clock (bad);"
                    + " ondemand and conservative raise the clock only after a burst has begun, so short bursts (collation, kernel launches) run"
                    + " slow (warn); schedutil starts a thread that slept below full speed, and userspace leaves the clock to a daemon (notes)."
                    + " intel_pstate's and amd-pstate-epp's own powersave is not the generic one and is judged by its energy preference (M3-EPP)",
            "cpupower frequency-set -g performance (or echo performance | tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor)",
            CPUFREQ, INTEL_PSTATE);

    public static final Rule EPP = Rule.of("M3-EPP", "intel_pstate's or amd-pstate-epp's energy preference favouring power", EnumSet.of(WARN),
            "with energy_performance_preference power or balance_power the hardware favours energy and ramps slowly for bursty feeder threads",
            "echo balance_performance (or performance) | tee /sys/devices/system/cpu/cpu*/cpufreq/energy_performance_preference, or set the"
                    + " performance governor (cpupower frequency-set -g performance)",
            INTEL_PSTATE);

    public static final Rule FREQ_CAP = Rule.of("M3-FREQ-CAP", "CPUs capped below their maximum frequency", EnumSet.of(WARN),
            "with scaling_max_freq below cpuinfo_max_freq, feeder threads on those CPUs cannot reach full clock",
            "raise the cap: cpupower frequency-set -u <cpuinfo_max_freq> (or write scaling_max_freq); check what set it (a tuned profile, a"
                    + " power-capping daemon)",
            Source.document("Linux Documentation/admin-guide/pm/cpufreq.rst, scaling_max_freq and cpuinfo_max_freq"),
            Source.reasoned("2% below the maximum: the drivers' rounding stays within it"));

    public static final Rule TURBO_OFF = Rule.of("M3-TURBO-OFF", "turbo (boost) frequencies disabled", EnumSet.of(WARN),
            "single-threaded feeder work (the Python main loop, kernel launches, collation) runs at base clock instead of the turbo clock",
            "echo 0 > /sys/devices/system/cpu/intel_pstate/no_turbo (intel_pstate) or echo 1 > /sys/devices/system/cpu/cpufreq/boost"
                    + " (other drivers); where the firmware disables it, its setup turns it on",
            Source.document("Linux Documentation/admin-guide/pm/intel_pstate.rst, no_turbo; Documentation/admin-guide/pm/cpufreq.rst, boost"));

    public static final Rule IDLE_DEEP = Rule.of("M3-IDLE-DEEP", "idle states that take long to leave", EnumSet.of(INFO),
            "a feeder thread that sleeps between batches may pay the exit latency of the idle state its CPU entered on each wake-up",
            "where that matters, hold /dev/cpu_dma_latency open with a low value (a PM QoS request) or disable the deep states"
                    + " (cpupower idle-set -D <microseconds>), at a power cost",
            Source.document("Linux Documentation/admin-guide/pm/cpuidle.rst: each state's latency attribute is its exit latency in microseconds;"
                    + " Documentation/power/pm_qos_interface.rst, /dev/cpu_dma_latency"),
            Source.reasoned("50 us: hostside's own line above the shallow halt states; no outside source sets it, and what a wake-up costs a"
                    + " step is not known without measuring it (Module 3's timer drill)"));

    public static final Rule RT_THROTTLING = Rule.of("M3-RT-THROTTLING", "real-time throttling switched off", EnumSet.of(INFO),
            "with sched_rt_runtime_us at -1 a SCHED_FIFO thread that spins can starve everything else on its CPU, kernel threads included", "",
            Source.document("Linux Documentation/scheduler/sched-rt-group.rst: sched_rt_runtime_us, -1 removes the limit on real-time tasks'"
                    + " CPU time"));

    public static final Rule SCHEDULER = Rule.of("M3-SCHEDULER", "which scheduler the kernel runs (EEVDF or CFS) and its preemption model",
            EnumSet.of(INFO),
            "how soon a waking feeder thread gets its CPU back: EEVDF (6.6 and later) runs the eligible thread with the earliest virtual"
                    + " deadline, one slice after it became eligible; CFS (before 6.6) the one with the least virtual runtime, a waker"
                    + " preempting only past wakeup_granularity", "",
            Source.document("Linux Documentation/scheduler/sched-eevdf.rst and sched-design-CFS.rst"),
            Source.source("Linux kernel/sched/fair.c (v6.6 and later): sysctl_sched_base_slice 0.75 ms, scaled by 1 + log2 of the CPUs up to 8;"
                    + " v6.12 lets a task ask for a shorter slice through sched_setattr's sched_runtime"));

    /** Module 3's rules on the CPU facts, as the rulebook lists them. */
    public static List<Rule> all() {
        return List.of(CPU_QUOTA, AFFINITY, GPU_LOCAL_CPUS, ISOLCPUS_MISMATCH, ISOLCPUS, IRQ_FEEDERS, IRQ_FAR, IRQ_CPU0, GOVERNOR, EPP,
                FREQ_CAP, TURBO_OFF, IDLE_DEEP, RT_THROTTLING, SCHEDULER);
    }
}
