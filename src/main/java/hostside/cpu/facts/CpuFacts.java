package hostside.cpu.facts;

import java.util.List;
import java.util.Map;

import hostside.core.CpuSet;
import hostside.machine.PciKind;

/**
 * The CPU side of feeding a GPU: which scheduler and preemption model the kernel runs, the
 * scheduler knobs, CPU isolation, where this process may run and how much CPU time its cgroup
 * grants, CPU frequency and idle policy, where the GPUs', NICs' and NVMe drives' interrupts
 * are handled, and per GPU the CPUs that feed it.
 *
 * <p>CPU sets are {@link CpuSet}, parsed once where /proc or /sys is read, never kept as text
 * to be parsed again; JSON writes them as the kernel's list spelling ("0-7,16-23"), "" for
 * {@link CpuSet#EMPTY} (known to be empty). A value that could not be read is null, and
 * {@link #unknowns} says which file and why (a missing file of an optional feature is simply null).
 *
 * @param kernel     the kernel release, its scheduler and preemption model
 * @param sched      scheduler sysctls and, when debugfs is readable, its tunables
 * @param isolation  isolcpus, nohz_full, rcu_nocbs and irqaffinity: asked for and in effect
 * @param process    the CPUs and memory nodes the reading process may use, and its cgroup's CPU quota
 * @param frequency  cpufreq governors, drivers and limits
 * @param idle       the cpuidle driver, governor and idle states
 * @param irqs       the interrupts of the GPUs, NICs and NVMe drives, and whether irqbalance runs
 * @param feeders    per GPU: its local CPUs, those free to feed it, and device interrupts landing there
 * @param onlineCpus the online CPUs (empty when unknown)
 * @param cores      physical cores this process may use (Module 1's count; torch's default
 *                   intra-op thread count); null when unknown
 * @param unknowns   what could not be read, with the path and why
 */
public record CpuFacts(
        Kernel kernel,
        Sched sched,
        Isolation isolation,
        ProcessCpus process,
        Frequency frequency,
        Idle idle,
        Irqs irqs,
        List<Feeder> feeders,
        CpuSet onlineCpus,
        Integer cores,
        List<String> unknowns) {

    /**
     * @param release          /proc/sys/kernel/osrelease ("6.8.0-45-generic"); null when unknown
     * @param major            the release's major number; null when it does not parse
     * @param minor            the release's minor number; null when it does not parse
     * @param scheduler        "EEVDF" (6.6 and later) or "CFS" (before), decided by the version; null when unknown
     * @param preemption       none, voluntary, full, lazy, rt, "none or voluntary", "full or lazy", or
     *                         "dynamic" (chosen at boot, not visible); null when unknown
     * @param preemptionSource how the preemption model was decided
     */
    public record Kernel(String release, Integer major, Integer minor, String scheduler, String preemption,
                         String preemptionSource) {}

    /**
     * Scheduler sysctls under /proc/sys/kernel; null where the kernel has no such file.
     *
     * @param autogroupEnabled sched_autogroup_enabled: 1 groups threads by session for fairness
     * @param rtRuntimeUs      sched_rt_runtime_us: RT threads' share of each period (-1: no throttling)
     * @param rtPeriodUs       sched_rt_period_us
     * @param childRunsFirst   sched_child_runs_first (gone from recent kernels)
     * @param energyAware      sched_energy_aware (asymmetric CPUs with an energy model only)
     * @param numaBalancing    numa_balancing: 0 off, 1 on, 2 memory tiering, 3 both
     * @param tunables         the fair scheduler's tunables, where visible
     */
    public record Sched(Integer autogroupEnabled, Long rtRuntimeUs, Long rtPeriodUs, Integer childRunsFirst,
                        Integer energyAware, Integer numaBalancing, Tunables tunables) {}

    /**
     * The fair scheduler's tunables: in /sys/kernel/debug/sched since 5.13 (root and a mounted
     * debugfs), in /proc/sys/kernel before. Null where not visible.
     *
     * @param source              where they were read, or why they are not visible
     * @param baseSliceNs         EEVDF's base slice (6.6+): how long a thread runs before its deadline
     * @param minGranularityNs    CFS's minimum slice (before 6.6)
     * @param latencyNs           CFS's target latency (before 6.6)
     * @param wakeupGranularityNs CFS's wake-up preemption threshold (before 6.6)
     * @param migrationCostNs     a thread that ran this recently is cache-hot: the balancer leaves it
     * @param nrMigrate           threads moved per load-balancing pass
     */
    public record Tunables(String source, Long baseSliceNs, Long minGranularityNs, Long latencyNs,
                           Long wakeupGranularityNs, Long migrationCostNs, Long nrMigrate) {}

    /**
     * CPU isolation as asked for on the kernel command line and as the kernel applied it.
     *
     * @param isolcpus          isolcpus=; null when absent
     * @param nohzFull          nohz_full=; null when absent
     * @param rcuNocbs          rcu_nocbs=; null when absent
     * @param irqaffinity       irqaffinity=; null when absent
     * @param isolated          /sys/devices/system/cpu/isolated: CPUs out of the scheduler's domains; null when unknown
     * @param nohzFullEffective /sys/devices/system/cpu/nohz_full; null when the kernel has no such file
     * @param housekeeping      online CPUs that are neither isolated nor nohz_full
     */
    public record Isolation(CmdlineCpus isolcpus, CmdlineCpus nohzFull, CmdlineCpus rcuNocbs, CmdlineCpus irqaffinity,
                            CpuSet isolated, CpuSet nohzFullEffective, CpuSet housekeeping) {}

    /**
     * One CPU-list parameter of the kernel command line.
     *
     * @param text  as written ("isolcpus=managed_irq,domain,2-7")
     * @param flags the flags before the list (isolcpus: nohz, domain, managed_irq); empty when none
     * @param cpus  the CPUs; null when the list does not parse
     */
    public record CmdlineCpus(String text, List<String> flags, CpuSet cpus) {}

    /**
     * The process that read the facts (hostside live, the recorder in a recording).
     *
     * @param pid              /proc/self's pid; null when unknown
     * @param cpusAllowed      Cpus_allowed_list: its scheduler affinity (taskset, numactl, cpuset)
     * @param cpusAllowedCount how many CPUs that is
     * @param memsAllowed      Mems_allowed_list: NUMA nodes it may allocate from. A node set, not a CPU set: it
     *                         is a CpuSet because the kernel spells both as the same bit list ("0-1")
     * @param cgroup           its cgroup's cpuset and CPU quota
     */
    public record ProcessCpus(String pid, CpuSet cpusAllowed, Integer cpusAllowedCount, CpuSet memsAllowed,
                              Cgroup cgroup) {}

    /**
     * @param version      "v1" or "v2" for the cpu controller's hierarchy; null when none was found
     * @param path         the cgroup path from /proc/self/cgroup
     * @param cpusetCpus   the cgroup's cpuset (Module 1's reading); null when unrestricted or unknown
     * @param cpusetSource where the cpuset was read
     * @param quotaUs      CPU time allowed per period (cpu.max, cpu.cfs_quota_us) at the tightest level; null when none
     * @param periodUs     its period
     * @param quotaCpus    quota / period: how many CPUs' worth of time; null when there is no quota
     * @param quotaSource  the file the tightest quota comes from, "none: ..." or "unknown: ..."
     */
    public record Cgroup(String version, String path, CpuSet cpusetCpus, String cpusetSource, Long quotaUs,
                         Long periodUs, Double quotaCpus, String quotaSource) {}

    /**
     * @param status     "cpufreq", or "no cpufreq (VM or firmware-controlled)"
     * @param governors  scaling_governor -> CPUs
     * @param drivers    scaling_driver -> CPUs
     * @param epp        energy_performance_preference -> CPUs (HWP / amd-pstate-epp only)
     * @param turbo      false when turbo/boost is off, true when on; null when the kernel does not say
     * @param turboSource the file that said so
     * @param cpus       per online CPU with cpufreq
     */
    public record Frequency(String status, List<Share> governors, List<Share> drivers, List<Share> epp, Boolean turbo,
                            String turboSource, List<CpuFreq> cpus) {}

    /** A value and the CPUs that have it. */
    public record Share(String value, CpuSet cpus, int count) {}

    /** One CPU's cpufreq files; frequencies in kHz as the kernel gives them. */
    public record CpuFreq(int cpu, String governor, String driver, String epp, Long cpuinfoMaxKHz,
                          Long scalingMaxKHz, Long scalingCurKHz) {}

    /**
     * @param driver   cpuidle current_driver (intel_idle, acpi_idle, haltpoll, "none"); null when unknown
     * @param governor current_governor_ro (menu, teo, ladder, haltpoll); null when unknown
     * @param cpu      the CPU whose states are listed
     * @param states   its idle states, shallowest first
     */
    public record Idle(String driver, String governor, Integer cpu, List<IdleState> states) {}

    /**
     * @param name      POLL, C1, C1E, C6...
     * @param latencyUs exit latency in microseconds: what a wake-up from it costs
     * @param disabled  true when disabled through sysfs
     */
    public record IdleState(String name, Long latencyUs, Boolean disabled) {}

    /**
     * @param cpuColumns       the CPUs /proc/interrupts has columns for (empty when it has none)
     * @param defaultAffinity  /proc/irq/default_smp_affinity; null when unknown
     * @param irqbalance       whether an irqbalance process runs; null when not knowable (a recording)
     * @param irqbalanceSource how that was decided
     * @param devices          per GPU, NIC and NVMe drive, its interrupts
     */
    public record Irqs(CpuSet cpuColumns, CpuSet defaultAffinity, Boolean irqbalance, String irqbalanceSource,
                       List<DeviceIrqs> devices) {}

    /**
     * @param device    the device's label (GPU0, eth0, nvme0, or its address)
     * @param address   its PCI address
     * @param kind      gpu, nic or nvme
     * @param numaNode  its NUMA node; null when unknown
     * @param localCpus the CPUs the kernel calls local to it (empty when the kernel gives none; null when unknown)
     * @param foundBy   how its interrupts were found: msi_irqs, address in /proc/interrupts, irq file, name
     * @param irqs      its interrupts, by number
     * @param routedTo  where they are handled now (union of each IRQ's {@link Irq#routedTo()})
     * @param landedOn  CPUs that have handled at least one of them since boot
     * @param total     interrupts handled since boot
     */
    public record DeviceIrqs(String device, String address, PciKind kind, Integer numaNode, CpuSet localCpus,
                             List<String> foundBy, List<Irq> irqs, CpuSet routedTo, CpuSet landedOn, long total) {}

    /**
     * @param irq               the IRQ number
     * @param name              the handler name(s) in /proc/interrupts ("nvidia", "mlx5_comp3@pci:0000:3b:00.0")
     * @param chip              the interrupt chip ("IR-PCI-MSIX-0000:3b:00.0", "ITS-MSI")
     * @param affinity          /proc/irq/N/smp_affinity_list: where it may be handled; null when unknown
     * @param effectiveAffinity /proc/irq/N/effective_affinity_list: where it is handled; null when unknown
     * @param landedOn          CPUs with a non-zero count in /proc/interrupts
     * @param routedTo          the best knowledge of where it is handled: effective affinity, else
     *                          where it landed, else its affinity (empty when none is known)
     * @param total             interrupts since boot (0 when not in /proc/interrupts)
     * @param perCpu            non-zero counts by CPU number
     */
    public record Irq(int irq, String name, String chip, CpuSet affinity, CpuSet effectiveAffinity, CpuSet landedOn,
                      CpuSet routedTo, long total, Map<Integer, Long> perCpu) {}

    /**
     * The CPUs that feed one GPU: the threads that launch its kernels, copy to it and prepare its
     * batches run best on its own NUMA node.
     *
     * @param gpu               GPU0, GPU1...
     * @param address           its PCI address
     * @param numaNode          its NUMA node; null when unknown
     * @param localCpus         its local CPUs (all online CPUs when the kernel does not say)
     * @param isolatedLocal     local CPUs that are isolated: the scheduler places no thread there unasked
     * @param feederCpus        local CPUs minus isolated ones: where unpinned feeder threads run
     * @param allowedFeederCpus feeder CPUs this process may use; null when its affinity is unknown
     * @param irqsOnFeeders     NIC and NVMe interrupts routed to the feeder CPUs
     */
    public record Feeder(String gpu, String address, Integer numaNode, CpuSet localCpus, CpuSet isolatedLocal,
                         CpuSet feederCpus, CpuSet allowedFeederCpus, List<IrqsOnFeeders> irqsOnFeeders) {}

    /**
     * @param device     eth0, mlx5_0, nvme0...
     * @param kind       nic or nvme
     * @param irqs       how many of its interrupts are routed to the feeder CPUs
     * @param activeIrqs how many of those have fired since boot
     * @param cpus       the feeder CPUs they are routed to
     * @param total      their count since boot
     */
    public record IrqsOnFeeders(String device, PciKind kind, int irqs, int activeIrqs, CpuSet cpus, long total) {}
}
