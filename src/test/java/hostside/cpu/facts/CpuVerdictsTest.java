package hostside.cpu.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.testing.RuleTally;

class CpuVerdictsTest {
    static final String CPU = Box.CPU;

    @TempDir
    Path root;

    static List<Finding> about(List<Finding> all, String subject) {
        return all.stream().filter(f -> f.subject().equals(subject)).toList();
    }

    static List<Finding> except(List<Finding> all, String subject) {
        return all.stream().filter(f -> !f.subject().equals(subject)).toList();
    }

    @Test
    void aHealthyBoxSaysOnlyTheSchedulerNote() {
        List<Finding> f = Box.healthy(root).findings();
        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.INFO);
            assertThat(x.subject()).isEqualTo("scheduler");
            assertThat(x.text()).startsWith("kernel 6.8 schedules with EEVDF (6.6 and later)")
                    .contains("virtual deadline one slice (base_slice_ns, by default 3 ms with 16 CPUs)")
                    .contains("a waking thread preempts only if its deadline is earlier")
                    .contains("the preemption model is chosen at boot (PREEMPT_DYNAMIC, preempt=)")
                    .doesNotContain("sched_setattr"); // shorter requested slices came in 6.12
        });
    }

    // ---- scheduler ----

    @Test
    void eevdfWithItsBaseSliceAndShortSlices() {
        Finding s = about(Box.healthy(root).put("/proc/sys/kernel/osrelease", "6.12.9\n")
                .put("/sys/kernel/debug/sched/base_slice_ns", "2800000\n").findings(), "scheduler").getFirst();
        assertThat(s.text()).contains("(base_slice_ns 2.8 ms)").contains("sched_setattr (sched_runtime)");
    }

    @Test
    void cfsBeforeSixSix() {
        Finding s = about(Box.healthy(root).put("/proc/sys/kernel/osrelease", "5.15.0-119-generic\n")
                .put("/proc/version", "Linux version 5.15.0-119-generic (buildd@lcy02) (gcc 11.4.0) #129-Ubuntu SMP Fri Aug 2 19:25:20 UTC 2024\n")
                .put("/proc/sys/kernel/sched_wakeup_granularity_ns", "4000000\n").put("/proc/sys/kernel/sched_min_granularity_ns", "3000000\n")
                .findings(), "scheduler").getFirst();
        assertThat(s.severity()).isEqualTo(Severity.INFO);
        assertThat(s.text()).startsWith("kernel 5.15 schedules with CFS (before 6.6)").contains("wakeup_granularity (4 ms here)")
                .contains("6.6 replaced it with EEVDF").endsWith("preemption model: none or voluntary");
    }

    @Test
    void anUnknownKernelSaysNoSchedulerNote() {
        // the note is about the kernel's scheduler; where the release cannot be read there is nothing to say
        Box b = Box.healthy(root).remove("/proc/sys/kernel/osrelease").remove("/proc/version");
        assertThat(b.read().kernel().scheduler()).isNull();
        RuleTally.quiet(b.findings(), CpuFactRules.SCHEDULER);
    }

    @Test
    void rtThrottlingOff() {
        List<Finding> f = about(Box.healthy(root).put("/proc/sys/kernel/sched_rt_runtime_us", "-1\n").findings(), "scheduler");
        assertThat(f).hasSize(2).first().satisfies(x -> assertThat(x.text()).startsWith("RT throttling is off"));
    }

    @Test
    void rtThrottlingAtItsDefaultIsQuiet() {
        // 950000 of every 1000000 us, the kernel's default: real-time threads leave 5% to the rest
        Box b = Box.healthy(root);
        assertThat(b.read().sched().rtRuntimeUs()).isEqualTo(950_000L);
        RuleTally.quiet(b.findings(), CpuFactRules.RT_THROTTLING);
    }

    // ---- cgroup quota and affinity ----

    @Test
    void aQuotaBelowTheVisibleCpusOversubscribes() {
        List<Finding> f = except(Box.healthy(root).put("/sys/fs/cgroup/user.slice/job.scope/cpu.max", "400000 100000\n").findings(), "scheduler");
        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.id()).isEqualTo("M3-CPU-QUOTA");
            assertThat(x.subject()).isEqualTo("CPU quota");
            assertThat(x.text()).startsWith("the cgroup grants 4 CPUs' worth of time (cpu.max 400000 100000) but this process sees 16 CPUs")
                    .contains("16 physical cores here").contains("throttled").contains("100 ms period")
                    .endsWith("4 threads fit the quota");
            assertThat(x.fix()).contains("OMP_NUM_THREADS");
            assertThat(x.evidence()).contains(Evidence.fact("/sys/fs/cgroup/user.slice/job.scope/cpu.max", "cpu.max 400000 100000"));
        });
    }

    @Test
    void aFractionalV1QuotaToo() {
        Finding x = about(Box.healthy(root)
                .put("/proc/4242/mounts", "cgroup /sys/fs/cgroup/cpu cgroup rw,cpu 0 0\n").put("/proc/4242/cgroup", "3:cpu:/job\n")
                .put("/sys/fs/cgroup/cpu/job/cpu.cfs_quota_us", "250000\n").put("/sys/fs/cgroup/cpu/job/cpu.cfs_period_us", "100000\n")
                .findings(), "CPU quota").getFirst();
        assertThat(x.text()).startsWith("the cgroup grants 2.5 CPUs' worth of time (cpu.cfs_quota_us 250000 per 100000")
                .contains("2 threads fit the quota");
    }

    @Test
    void aQuotaOfEveryVisibleCpuIsQuiet() {
        // 16 CPUs' worth of time for the 16 CPUs the process sees: just not below them
        Box b = Box.healthy(root).put("/sys/fs/cgroup/user.slice/job.scope/cpu.max", "1600000 100000\n");
        assertThat(b.read().process().cgroup().quotaCpus()).isEqualTo(16.0);
        RuleTally.quiet(b.findings(), CpuFactRules.CPU_QUOTA);
    }

    @Test
    void affinityNarrowerThanTheCgroupIsNoted() {
        Box b = Box.healthy(root).put("/proc/4242/status", "Cpus_allowed_list:\t0-3\nMems_allowed_list:\t0\n");
        assertThat(about(b.findings(), "affinity")).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.INFO);
            assertThat(x.text()).isEqualTo("this process may run on CPUs 0-3 only (4 of 16 online; narrower than its cgroup's cpuset "
                    + "0-15: taskset, numactl or a launcher set it): the threads it starts, DataLoader workers and OpenMP threads "
                    + "included, inherit that set");
        });
        // the cgroup's cpuset says the same: Module 1 reports it already
        b.put("/sys/fs/cgroup/cpuset.cpus.effective", "0-3\n");
        RuleTally.quiet(b.findings(), CpuFactRules.AFFINITY);
    }

    @Test
    void anAffinityOfEveryOnlineCpuIsQuiet() {
        // no cgroup cpuset to excuse it: the affinity itself covers the 16 online CPUs
        Box b = Box.healthy(root).remove("/sys/fs/cgroup/cpuset.cpus.effective");
        assertThat(b.read().process().cpusAllowed().size()).isEqualTo(16);
        RuleTally.quiet(b.findings(), CpuFactRules.AFFINITY);
    }

    @Test
    void aProcessKeptOffTheGpusNode() {
        List<Finding> f = about(Box.healthy(root).put("/proc/4242/status", "Cpus_allowed_list:\t8-15\nMems_allowed_list:\t1\n").findings(), "GPU0");
        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.id()).isEqualTo("M3-GPU-LOCAL-CPUS");
            assertThat(x.text()).startsWith("this process may not run on any of GPU0's local CPUs (0-7, NUMA node 0)");
            assertThat(x.fix()).contains("numactl --cpunodebind");
        });
    }

    @Test
    void aProcessWithOneOfTheGpusLocalCpusIsQuiet() {
        // CPU 7 is the last of GPU0's local CPUs (0-7): its feeder threads have a core on the GPU's node
        List<Finding> f = Box.healthy(root).put("/proc/4242/status", "Cpus_allowed_list:\t7-15\nMems_allowed_list:\t0-1\n").findings();
        RuleTally.quiet(f, CpuFactRules.GPU_LOCAL_CPUS);
    }

    // ---- isolation ----

    @Test
    void isolcpusWithoutNohzFull() {
        List<Finding> f = about(Box.healthy(root).put("/proc/cmdline", "isolcpus=12-15\n").put(CPU + "/isolated", "12-15\n").findings(), "isolation");
        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.INFO);
            assertThat(x.id()).isEqualTo("M3-ISOLCPUS");
            assertThat(x.text()).isEqualTo("CPUs 12-15 are isolated (isolcpus): the scheduler places no thread there unless it is "
                    + "pinned (taskset -c 12-15); CPUs 12-15 still take the scheduler tick and run RCU callbacks (no nohz_full=), which "
                    + "interrupts a thread pinned there");
            // kernel-parameters.txt: nohz_full= offloads RCU callbacks as rcu_nocbs= would, so the rule asks for nohz_full= alone
            assertThat(CpuFactRules.ISOLCPUS.fix()).contains("nohz_full=").doesNotContain("rcu_nocbs=");
        });
    }

    @Test
    void fullIsolationAwayFromTheGpuIsQuiet() {
        List<Finding> f = Box.healthy(root).put("/proc/cmdline", "isolcpus=12-15 nohz_full=12-15 rcu_nocbs=12-15\n")
                .put(CPU + "/isolated", "12-15\n").put(CPU + "/nohz_full", "12-15\n").findings();
        RuleTally.quiet(f, CpuFactRules.ISOLCPUS);
        RuleTally.quiet(f, CpuFactRules.ISOLCPUS_MISMATCH); // the kernel isolated the CPUs asked for
    }

    @Test
    void isolcpusWithoutTheDomainFlagAsksNoDomainIsolation() {
        // isolcpus=nohz,12-15 stops the tick only: the kernel rightly lists no CPU in /sys/devices/system/cpu/isolated
        List<Finding> f = Box.healthy(root).put("/proc/cmdline", "isolcpus=nohz,12-15 nohz_full=12-15\n").put(CPU + "/isolated", "\n")
                .put(CPU + "/nohz_full", "12-15\n").findings();
        RuleTally.quiet(f, CpuFactRules.ISOLCPUS_MISMATCH);
    }

    @Test
    void isolatedCpusOfTheGpuNeedPinnedFeeders() {
        List<Finding> f = about(Box.healthy(root).put("/proc/cmdline", "isolcpus=managed_irq,domain,4-7 nohz_full=4-7\n")
                .put(CPU + "/isolated", "4-7\n").put(CPU + "/nohz_full", "4-7\n").findings(), "isolation");
        assertThat(f).singleElement().satisfies(x -> assertThat(x.text())
                .contains("they are local to GPU0, whose launch or data-loading threads never use them unless pinned there").doesNotContain("tick"));
    }

    @Test
    void theKernelIsolatedOtherCpusThanAsked() {
        List<Finding> f = about(Box.healthy(root).put("/proc/cmdline", "isolcpus=12-15 nohz_full=12-15\n")
                .put(CPU + "/isolated", "\n").findings(), "isolation");
        assertThat(f).anySatisfy(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.id()).isEqualTo("M3-ISOLCPUS-MISMATCH");
            assertThat(x.text()).startsWith("the command line asks isolcpus=12-15 but the kernel isolated no CPU (" + CPU + "/isolated)");
        });
    }

    // ---- interrupts ----

    @Test
    void nicIrqsOnTheCoresThatFeedTheGpu() {
        Box b = Box.healthy(root);
        for (int i = 0; i < 4; i++) b.affinity(110 + i, "0-7", String.valueOf(i));
        List<Finding> f = about(b.findings(), "GPU0");
        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.id()).isEqualTo("M3-IRQ-FEEDERS");
            assertThat(x.text()).isEqualTo("eth0's 4 IRQs land on CPUs 0-3, the cores that feed GPU0 (0-7): interrupt and softirq work "
                    + "preempts its launch and data-loading threads there; the rest (4-7) are free of them");
            assertThat(x.fix()).contains("smp_affinity_list").contains("IRQBALANCE_BANNED_CPULIST");
        });
        // the NIC is on node 1: its IRQs are also away from it
        assertThat(about(b.findings(), "eth0")).singleElement().satisfies(x -> assertThat(x.text())
                .startsWith("eth0's 4 IRQs are handled on CPUs 0-3 (IRQ 110-113), outside its local CPUs 8-15 on NUMA node 1"));
    }

    @Test
    void oneNicIrqAmongTheFeedersIsANote() {
        Box b = Box.healthy(root).put("/sys/devices/pci0000:86/" + Box.NIC + "/local_cpulist", "0-15\n").affinity(110, "0-7", "6");
        assertThat(about(b.findings(), "GPU0")).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.INFO);
            assertThat(x.id()).isEqualTo("M3-IRQ-FEEDERS");
            assertThat(x.fix()).isEmpty();
            assertThat(x.text()).isEqualTo("eth0's 1 IRQ lands on CPU 6, among the 8 that feed GPU0 (0-7): latency-sensitive "
                    + "feeder threads pinned to 0-5,7 stay out of their way");
        });
    }

    @Test
    void nvmeIrqsOnTheFeedersCannotBeMoved() {
        Box b = Box.healthy(root).put("/sys/devices/pci0000:87/" + Box.NVME + "/local_cpulist", "0-15\n")
                .affinity(120, "0-7", "0").affinity(121, "0-7", "1").affinity(120 + 2, "0-7", "2");
        b.put("/sys/devices/pci0000:87/" + Box.NVME + "/msi_irqs/122", "msix\n").put("/sys/devices/pci0000:87/" + Box.NVME + "/msi_irqs/123", "msix\n")
                .affinity(123, "0-7", "3");
        assertThat(about(b.findings(), "GPU0")).singleElement().satisfies(x -> assertThat(x.text())
                .startsWith("nvme0's 4 IRQs land on CPUs 0-3 (NVMe queue interrupts: kernel-managed, they stay there), the cores that feed GPU0 (0-7)")
                .endsWith("the rest (4-7) are free of them"));
    }

    @Test
    void threeIdleNicIrqsOnEightFeederCoresAreQuiet() {
        // fewer than half of GPU0's 8 feeder cores take them, and none has fired since boot
        Box b = Box.healthy(root).put("/sys/devices/pci0000:86/" + Box.NIC + "/local_cpulist", "0-15\n");
        for (int i = 0; i < 3; i++) b.affinity(110 + i, "0-7", String.valueOf(i));
        StringBuilder s = new StringBuilder(Box.header());
        for (int i = 0; i < 4; i++) s.append(Box.row(100 + i, i, 1000 + i, "IR-PCI-MSIX-" + Box.GPU + "    " + i + "-edge      nvidia"));
        for (int i = 0; i < 4; i++) s.append(Box.row(110 + i, i < 3 ? i : 11, i < 3 ? 0 : 5000, "IR-PCI-MSIX-" + Box.NIC + "    " + i + "-edge      mlx5_comp" + i + "@pci:" + Box.NIC));
        for (int i = 0; i < 2; i++) s.append(Box.row(120 + i, 12 + i, 700, "IR-PCI-MSIX-" + Box.NVME + "    " + i + "-edge      nvme0q" + i));
        b.put("/proc/interrupts", s.toString());
        assertThat(b.read().feeders().getFirst().irqsOnFeeders()).singleElement().satisfies(d -> {
            assertThat(d.irqs()).isEqualTo(3);
            assertThat(d.activeIrqs()).isZero();
        });
        RuleTally.quiet(b.findings(), CpuFactRules.IRQ_FEEDERS);
    }

    @Test
    void irqsOnTheEdgeOfTheirNodeAreQuiet() {
        // GPU0's on CPUs 4-7, the last of its node's 0-7; the NIC's and the drive's on node 1's 8-15
        Box b = Box.healthy(root);
        for (int i = 0; i < 4; i++) b.affinity(100 + i, "0-7", String.valueOf(4 + i));
        b.affinity(113, "8-15", "15");
        RuleTally.quiet(b.findings(), CpuFactRules.IRQ_FAR);
    }

    @Test
    void gpuIrqsAwayFromItsNode() {
        Box b = Box.healthy(root);
        for (int i = 0; i < 4; i++) b.affinity(100 + i, "0-15", String.valueOf(8 + i));
        assertThat(about(b.findings(), "GPU0")).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.id()).isEqualTo("M3-IRQ-FAR");
            assertThat(x.text()).isEqualTo("GPU0's 4 IRQs are handled on CPUs 8-11 (IRQ 100-103), outside its local CPUs 0-7 on NUMA node 0: its "
                    + "completion interrupts (blocking synchronisation, events) are serviced across the CPU interconnect");
            assertThat(x.fix()).contains("smp_affinity_list");
        });
    }

    @Test
    void aBroadAffinityAloneIsNoEvidence() {
        Box b = Box.healthy(root);
        // no effective affinity and no counts: an smp_affinity of every CPU says nothing about where they run
        for (int i = 0; i < 4; i++) b.remove("/proc/irq/" + (100 + i) + "/effective_affinity_list").affinity(100 + i, "0-15", null);
        StringBuilder s = new StringBuilder(Box.header());
        for (int i = 0; i < 4; i++) s.append(Box.row(100 + i, 0, 0, "IR-PCI-MSIX-" + Box.GPU + "    " + i + "-edge      nvidia"));
        b.put("/proc/interrupts", s.toString());
        assertThat(about(b.findings(), "GPU0")).isEmpty();
    }

    @Test
    void everyDeviceIrqOnCpu0() {
        Box b = Box.healthy(root);
        for (int irq : new int[] {100, 101, 102, 103, 110, 111, 112, 113, 120, 121}) b.affinity(irq, "0-15", "0");
        for (String a : new String[] {Box.NIC, Box.NVME}) b.put("/sys/devices/pci0000:" + a.substring(5, 7) + "/" + a + "/local_cpulist", "0-15\n");
        List<Finding> f = about(b.findings(), "IRQ");
        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.text()).startsWith("all 10 interrupts of GPU0, eth0, nvme0 land on CPU0: one core services every completion")
                    .doesNotContain("irqbalance is not running"); // unknown in a recording
        });
    }

    @Test
    void allButOneDeviceIrqOnCpu0IsQuiet() {
        Box b = Box.healthy(root);
        for (int irq : new int[] {100, 101, 102, 103, 110, 111, 112, 113, 120}) b.affinity(irq, "0-15", "0");
        b.affinity(121, "0-15", "1");
        for (String a : new String[] {Box.NIC, Box.NVME}) b.put("/sys/devices/pci0000:" + a.substring(5, 7) + "/" + a + "/local_cpulist", "0-15\n");
        RuleTally.quiet(b.findings(), CpuFactRules.IRQ_CPU0);
    }

    // ---- frequency and idle ----

    Box governor(String governor, String driver, String epp) {
        Box b = Box.healthy(root);
        for (int c = 0; c < 16; c++) {
            String d = CPU + "/cpu" + c + "/cpufreq/";
            b.put(d + "scaling_governor", governor + "\n").put(d + "scaling_driver", driver + "\n");
            if (epp == null) b.remove(d + "energy_performance_preference");
            else b.put(d + "energy_performance_preference", epp + "\n");
        }
        return b;
    }

    @Test
    void powersaveOnAPassiveDriverHoldsTheLowestClock() {
        assertThat(about(governor("powersave", "acpi-cpufreq", null).findings(), "cpufreq")).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.BAD);
            assertThat(x.id()).isEqualTo("M3-GOVERNOR");
            assertThat(x.text()).startsWith("CPUs 0-15 use the generic powersave governor (acpi-cpufreq), which holds them at their lowest frequency");
            assertThat(x.fix()).contains("cpupower frequency-set -g performance");
        });
    }

    @Test
    void intelPstatePowersaveIsJudgedByItsEnergyPreference() {
        // balance_performance: the first preference that does not favour power
        List<Finding> pstate = governor("powersave", "intel_pstate", "balance_performance").findings();
        RuleTally.quiet(pstate, CpuFactRules.GOVERNOR);
        RuleTally.quiet(pstate, CpuFactRules.EPP);
        assertThat(about(governor("powersave", "amd-pstate-epp", "power").findings(), "cpufreq")).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.id()).isEqualTo("M3-EPP");
            assertThat(x.text()).startsWith("CPUs 0-15 run amd-pstate-epp powersave with energy_performance_preference=power");
        });
    }

    @Test
    void thePerformanceGovernorIsQuiet() {
        RuleTally.quiet(governor("performance", "acpi-cpufreq", null).findings(), CpuFactRules.GOVERNOR);
    }

    @Test
    void ondemandLagsBursts() {
        assertThat(about(governor("ondemand", "acpi-cpufreq", null).findings(), "cpufreq")).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.WARN);
            assertThat(x.id()).isEqualTo("M3-GOVERNOR");
            assertThat(x.text()).contains("raises the clock only after a burst has begun");
            assertThat(x.fix()).contains("performance");
        });
    }

    @Test
    void schedutilIsANote() {
        assertThat(about(governor("schedutil", "intel_cpufreq", null).findings(), "cpufreq")).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.INFO);
            assertThat(x.text()).startsWith("CPUs 0-15 use schedutil (intel_cpufreq)");
        });
    }

    @Test
    void cappedClocksAndTurboOff() {
        Box b = Box.healthy(root).put(CPU + "/cpu3/cpufreq/scaling_max_freq", "2000000\n").put(CPU + "/cpu4/cpufreq/scaling_max_freq", "2000000\n")
                .put(CPU + "/intel_pstate/no_turbo", "1\n");
        assertThat(about(b.findings(), "cpufreq")).extracting(Finding::text).containsExactly(
                "CPUs 3-4 are capped at 2.00 GHz of 3.50 GHz (scaling_max_freq below cpuinfo_max_freq): feeder threads there cannot "
                        + "reach full clock",
                "turbo is off (" + CPU + "/intel_pstate/no_turbo): single-threaded feeder work (the Python main loop, kernel "
                        + "launches, collation) runs at base clock");
        assertThat(about(b.findings(), "cpufreq")).extracting(Finding::id).containsExactly("M3-FREQ-CAP", "M3-TURBO-OFF");
    }

    @Test
    void aCapWithinTwoPercentOfTheMaximumIsQuiet() {
        // 3.43 GHz of 3.50: 98%, within the drivers' rounding
        Box b = Box.healthy(root).put(CPU + "/cpu3/cpufreq/scaling_max_freq", "3430000\n");
        assertThat(b.read().frequency().cpus()).anySatisfy(c -> assertThat(c.scalingMaxKHz()).isEqualTo(3_430_000L));
        RuleTally.quiet(b.findings(), CpuFactRules.FREQ_CAP);
    }

    @Test
    void turboOnIsQuiet() {
        Box b = Box.healthy(root);
        assertThat(b.read().frequency().turbo()).isTrue(); // intel_pstate/no_turbo 0
        RuleTally.quiet(b.findings(), CpuFactRules.TURBO_OFF);
        // other drivers say it through cpufreq/boost
        b.remove(CPU + "/intel_pstate/no_turbo").put(CPU + "/cpufreq/boost", "1\n");
        assertThat(b.read().frequency().turboSource()).isEqualTo(CPU + "/cpufreq/boost");
        RuleTally.quiet(b.findings(), CpuFactRules.TURBO_OFF);
    }

    @Test
    void anIdleStateJustUnderTheDeepLineIsQuiet() {
        Box b = Box.healthy(root).put(CPU + "/cpu0/cpuidle/state3/name", "C3\n")
                .put(CPU + "/cpu0/cpuidle/state3/latency", (CpuVerdicts.DEEP_IDLE_US - 1) + "\n").put(CPU + "/cpu0/cpuidle/state3/disable", "0\n");
        assertThat(b.read().idle().states()).hasSize(4);
        RuleTally.quiet(b.findings(), CpuFactRules.IDLE_DEEP);
    }

    @Test
    void deepIdleStatesAreANoteUnlessDisabled() {
        Box b = Box.healthy(root).put(CPU + "/cpu0/cpuidle/state3/name", "C6\n").put(CPU + "/cpu0/cpuidle/state3/latency", "170\n")
                .put(CPU + "/cpu0/cpuidle/state3/disable", "0\n");
        assertThat(about(b.findings(), "cpuidle")).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.INFO);
            assertThat(x.text()).startsWith("idle CPUs may enter C6, which takes up to 170 µs to leave (CPU0, cpuidle intel_idle/menu)");
        });
        b.put(CPU + "/cpu0/cpuidle/state3/disable", "1\n");
        RuleTally.quiet(b.findings(), CpuFactRules.IDLE_DEEP);
    }

    @Test
    void noCpufreqIsQuiet() {
        Box b = Box.healthy(root);
        for (int c = 0; c < 16; c++) b.remove(CPU + "/cpu" + c + "/cpufreq");
        assertThat(about(b.findings(), "cpufreq")).isEmpty();
    }
}
