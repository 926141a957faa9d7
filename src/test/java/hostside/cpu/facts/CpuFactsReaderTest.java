package hostside.cpu.facts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import hostside.core.CpuSet;
import hostside.cpu.facts.CpuFacts.CmdlineCpus;
import hostside.fs.FsRoot;
import hostside.machine.PciKind;

class CpuFactsReaderTest {
    static final String CPU = Box.CPU;
    static final String K = "/proc/sys/kernel/";

    @TempDir
    Path root;

    /** An expected CPU set, in the kernel's spelling. */
    static CpuSet set(String list) {
        return CpuSet.parseList(list);
    }

    @Test
    void aHealthyBoxReadsCompletely() {
        CpuFacts f = Box.healthy(root).read();
        assertThat(f.unknowns()).isEmpty();
        assertThat(f.onlineCpus()).isEqualTo(set("0-15"));
        assertThat(f.cores()).isEqualTo(16);
        assertThat(f.kernel()).isEqualTo(new CpuFacts.Kernel("6.8.0-45-generic", 6, 8, "EEVDF", "dynamic",
                "/proc/version: PREEMPT_DYNAMIC: the model is chosen at boot (preempt=); this build's default shows only in "
                        + "/sys/kernel/debug/sched/preempt (root, debugfs)"));
        assertThat(f.sched().autogroupEnabled()).isEqualTo(1);
        assertThat(f.sched().rtRuntimeUs()).isEqualTo(950000L);
        assertThat(f.sched().rtPeriodUs()).isEqualTo(1000000L);
        assertThat(f.sched().childRunsFirst()).isNull();
        assertThat(f.sched().energyAware()).isNull();
        assertThat(f.sched().numaBalancing()).isZero();
        assertThat(f.sched().tunables().source()).startsWith("not visible");
        assertThat(f.isolation()).isEqualTo(new CpuFacts.Isolation(null, null, null, null, CpuSet.EMPTY, null, set("0-15")));
        assertThat(f.process()).isEqualTo(new CpuFacts.ProcessCpus("4242", set("0-15"), 16, set("0-1"),
                new CpuFacts.Cgroup("v2", "/user.slice/job.scope", set("0-15"), "/sys/fs/cgroup/cpuset.cpus.effective", null, null, null,
                        "none: no quota in /sys/fs/cgroup/user.slice/job.scope or above")));
        assertThat(f.frequency().status()).isEqualTo("cpufreq");
        assertThat(f.frequency().governors()).containsExactly(new CpuFacts.Share("performance", set("0-15"), 16));
        assertThat(f.frequency().drivers()).containsExactly(new CpuFacts.Share("intel_pstate", set("0-15"), 16));
        assertThat(f.frequency().turbo()).isTrue();
        assertThat(f.frequency().cpus()).hasSize(16).first()
                .isEqualTo(new CpuFacts.CpuFreq(0, "performance", "intel_pstate", "performance", 3500000L, 3500000L, 3100000L));
        assertThat(f.idle()).isEqualTo(new CpuFacts.Idle("intel_idle", "menu", 0, List.of(new CpuFacts.IdleState("POLL", 0L, false),
                new CpuFacts.IdleState("C1", 2L, false), new CpuFacts.IdleState("C1E", 10L, false))));

        assertThat(f.irqs().cpuColumns()).isEqualTo(set("0-15"));
        assertThat(f.irqs().defaultAffinity()).isEqualTo(set("0-15"));
        assertThat(f.irqs().irqbalance()).isNull(); // a recording
        assertThat(f.irqs().devices()).extracting(CpuFacts.DeviceIrqs::device).containsExactly("GPU0", "eth0", "nvme0");
        CpuFacts.DeviceIrqs gpu = f.irqs().devices().getFirst();
        assertThat(gpu.foundBy()).containsExactly("msi_irqs");
        assertThat(gpu.irqs()).extracting(CpuFacts.Irq::irq).containsExactly(100, 101, 102, 103);
        assertThat(gpu.irqs().get(1)).isEqualTo(new CpuFacts.Irq(101, "nvidia", "IR-PCI-MSIX-0000:3b:00.0", set("0-7"), set("1"), set("1"), set("1"),
                1001, Map.of(1, 1001L)));
        assertThat(gpu.routedTo()).isEqualTo(set("0-3"));
        assertThat(gpu.landedOn()).isEqualTo(set("0-3"));
        assertThat(gpu.total()).isEqualTo(4006);
        assertThat(f.irqs().devices().get(1).routedTo()).isEqualTo(set("8-11"));
        assertThat(f.irqs().devices().get(2).routedTo()).isEqualTo(set("12-13"));

        assertThat(f.feeders()).containsExactly(new CpuFacts.Feeder("GPU0", Box.GPU, 0, set("0-7"), CpuSet.EMPTY, set("0-7"), set("0-7"), List.of()));
    }

    // ---- kernel ----

    @ParameterizedTest
    @CsvSource(nullValues = "null", value = {
            "6.8.0-45-generic, EEVDF", "5.15.0, CFS", "6.18.44-fc-v1045, EEVDF", "6.6.0, EEVDF", "6.6, EEVDF",
            "6.5.13-1-pve, CFS", "4.18.0-513.el8.x86_64, CFS", "7.0.0, EEVDF", "6.10-rc1, EEVDF", "3.10.0, CFS",
            "garbage, null", "6, null", "'', null"})
    void theSchedulerFollowsTheRelease(String release, String scheduler) {
        assertThat(CpuFactsReader.schedulerOf(release)).isEqualTo(scheduler);
    }

    @Test
    void aCfsKernelReadsItsVersion() {
        CpuFacts f = Box.healthy(root).put(K + "osrelease", "5.15.0\n").read();
        assertThat(f.kernel().scheduler()).isEqualTo("CFS");
        assertThat(f.kernel().major()).isEqualTo(5);
        assertThat(f.kernel().minor()).isEqualTo(15);
    }

    @Test
    void theReleaseFallsBackToProcVersionAndGarbageIsUnknown() {
        Box b = Box.healthy(root).remove(K + "osrelease");
        CpuFacts f = b.read();
        assertThat(f.kernel().release()).isEqualTo("6.8.0-45-generic");
        assertThat(f.unknowns()).containsExactly("/proc/sys/kernel/osrelease: missing");

        f = b.put(K + "osrelease", "\u0000\u0001 not a kernel\n").read();
        assertThat(f.kernel().major()).isNull();
        assertThat(f.kernel().scheduler()).isNull();
        assertThat(f.unknowns()).singleElement().asString().startsWith("/proc/sys/kernel/osrelease: not a kernel release: \"");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "#1 SMP PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024 | 6.8.0 | '' | dynamic",
            "#1 SMP PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024 | 6.8.0 | preempt=full | full",
            "#1 SMP PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024 | 6.8.0 | preempt=bogus | dynamic",
            "#1 SMP PREEMPT_RT Tue Jan 2 2024 | 6.6.0 | '' | rt",
            "#1 SMP PREEMPT Tue Jan 2 2024 | 6.6.0 | '' | full",
            "#1 SMP PREEMPT Tue Jan 2 2024 | 6.14.0 | '' | full or lazy",
            "#1 SMP Tue Jan 2 2024 | 5.15.0 | preempt=full | none or voluntary"})
    void thePreemptionModelFromTheBuildFlags(String flags, String release, String cmdline, String model) {
        CpuFacts f = Box.healthy(root).put(K + "osrelease", release + "\n")
                .put("/proc/version", "Linux version " + release + " (builder@host) (gcc (GCC) 13.2.0) " + flags + "\n")
                .put("/proc/cmdline", "root=/dev/sda1 " + cmdline + "\n").read();
        assertThat(f.kernel().preemption()).isEqualTo(model);
    }

    @Test
    void debugfsNamesThePreemptionModelAndTheTunables() {
        CpuFacts f = Box.healthy(root).put("/sys/kernel/debug/sched/preempt", "none voluntary (full) lazy\n")
                .put("/sys/kernel/debug/sched/base_slice_ns", "3000000\n")
                .put("/sys/kernel/debug/sched/migration_cost_ns", "500000\n")
                .put("/sys/kernel/debug/sched/nr_migrate", "32\n").read();
        assertThat(f.kernel().preemption()).isEqualTo("full");
        assertThat(f.kernel().preemptionSource()).isEqualTo("/sys/kernel/debug/sched/preempt");
        assertThat(f.sched().tunables()).isEqualTo(new CpuFacts.Tunables("/sys/kernel/debug/sched", 3000000L, null, null, null, 500000L, 32L));
        assertThat(f.unknowns()).isEmpty();
    }

    @Test
    void oldKernelsHaveTheTunablesAsSysctls() {
        CpuFacts f = Box.healthy(root).put(K + "osrelease", "4.18.0-513.el8.x86_64\n")
                .put(K + "sched_min_granularity_ns", "3000000\n").put(K + "sched_latency_ns", "24000000\n")
                .put(K + "sched_wakeup_granularity_ns", "4000000\n").put(K + "sched_child_runs_first", "0\n").read();
        assertThat(f.sched().tunables()).isEqualTo(new CpuFacts.Tunables("/proc/sys/kernel (before 5.13)", null, 3000000L,
                24000000L, 4000000L, null, null));
        assertThat(f.sched().childRunsFirst()).isZero();
    }

    // ---- isolation ----

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "isolcpus=2-7 | true | '' | 2-7",
            "isolcpus=managed_irq,domain,2-7 | true | managed_irq,domain | 2-7",
            "isolcpus=nohz,managed_irq,4-5,10 | true | nohz,managed_irq | 4-5,10",
            "isolcpus=domain,0-15:2 | true | domain | 0,2,4,6,8,10,12,14",
            "nohz_full=1-N | false | '' | 1-15",
            "rcu_nocbs=all | false | '' | 0-15",
            "rcu_nocbs | false | '' | ''",
            "irqaffinity=0-1 | false | '' | 0-1",
            "isolcpus=2-x | true | '' | null",
            "nohz_full=domain | false | '' | null"})
    void cmdlineCpuLists(String text, boolean flags, String expectedFlags, String cpus) {
        CmdlineCpus c = CmdlineCpuLists.parse(text, flags, 15);
        assertThat(c.text()).isEqualTo(text);
        assertThat(String.join(",", c.flags())).isEqualTo(expectedFlags);
        assertThat(c.cpus()).isEqualTo(cpus == null ? null : set(cpus));
    }

    @Test
    void isolationAskedForAndInEffect() {
        CpuFacts f = Box.healthy(root)
                .put("/proc/cmdline", "ro quiet isolcpus=managed_irq,domain,2-7 nohz_full=2-7 rcu_nocbs=2-7 irqaffinity=0-1 -- isolcpus=9\n")
                .put(CPU + "/isolated", "2-7\n").put(CPU + "/nohz_full", "2-7\n").read();
        CpuFacts.Isolation i = f.isolation();
        assertThat(i.isolcpus()).isEqualTo(new CmdlineCpus("isolcpus=managed_irq,domain,2-7", List.of("managed_irq", "domain"), set("2-7")));
        assertThat(i.nohzFull().cpus()).isEqualTo(set("2-7"));
        assertThat(i.rcuNocbs().cpus()).isEqualTo(set("2-7"));
        assertThat(i.irqaffinity().cpus()).isEqualTo(set("0-1"));
        assertThat(i.isolated()).isEqualTo(set("2-7"));
        assertThat(i.nohzFullEffective()).isEqualTo(set("2-7"));
        assertThat(i.housekeeping()).isEqualTo(set("0-1,8-15"));
        assertThat(f.feeders().getFirst().isolatedLocal()).isEqualTo(set("2-7"));
        assertThat(f.feeders().getFirst().feederCpus()).isEqualTo(set("0-1"));
        assertThat(f.unknowns()).isEmpty();
    }

    @Test
    void noNohzMaskReadsAsEmptyAndABadListIsUnknown() {
        CpuFacts f = Box.healthy(root).put(CPU + "/nohz_full", "(null)\n").put("/proc/cmdline", "isolcpus=2-x\n").read();
        assertThat(f.isolation().nohzFullEffective()).isEqualTo(CpuSet.EMPTY);
        assertThat(f.isolation().isolcpus().cpus()).isNull();
        assertThat(f.unknowns()).containsExactly("kernel command line isolcpus=2-x: not a CPU list");
    }

    // ---- the process and its cgroup ----

    @Test
    void cgroupV2QuotaAtTheLeaf() {
        CpuFacts.Cgroup c = Box.healthy(root).put("/sys/fs/cgroup/user.slice/job.scope/cpu.max", "400000 100000\n").read()
                .process().cgroup();
        assertThat(c.quotaUs()).isEqualTo(400000L);
        assertThat(c.periodUs()).isEqualTo(100000L);
        assertThat(c.quotaCpus()).isEqualTo(4.0);
        assertThat(c.quotaSource()).isEqualTo("/sys/fs/cgroup/user.slice/job.scope/cpu.max");
    }

    @Test
    void cgroupV2TheTightestAncestorWins() {
        CpuFacts.Cgroup c = Box.healthy(root).put("/sys/fs/cgroup/user.slice/job.scope/cpu.max", "400000 100000\n")
                .put("/sys/fs/cgroup/user.slice/cpu.max", "150000 100000\n").read().process().cgroup();
        assertThat(c.quotaCpus()).isEqualTo(1.5);
        assertThat(c.quotaSource()).isEqualTo("/sys/fs/cgroup/user.slice/cpu.max");
    }

    @Test
    void cgroupV2GarbageIsUnknown() {
        CpuFacts f = Box.healthy(root).put("/sys/fs/cgroup/user.slice/job.scope/cpu.max", "lots of it\n").read();
        assertThat(f.process().cgroup().quotaCpus()).isNull();
        assertThat(f.unknowns()).containsExactly(
                "/sys/fs/cgroup/user.slice/job.scope/cpu.max: not \"quota period\" or \"max period\": \"lots of it\"");
    }

    @Test
    void aGarbledLevelClaimsNoQuotaFromTheLevelsAboveIt() {
        // the garbled leaf may hold the tightest quota: the parent's 1.5 CPUs would overstate the grant
        CpuFacts.Cgroup c = Box.healthy(root).put("/sys/fs/cgroup/user.slice/job.scope/cpu.max", "lots of it\n")
                .put("/sys/fs/cgroup/user.slice/cpu.max", "150000 100000\n").read().process().cgroup();
        assertThat(c.quotaCpus()).isNull();
        assertThat(c.quotaSource()).isEqualTo("unknown: /sys/fs/cgroup/user.slice/job.scope/cpu.max is garbled");
    }

    @Test
    void aMissingCgroupFolderLeavesTheQuotaUnknown() {
        CpuFacts f = Box.healthy(root).remove("/sys/fs/cgroup/user.slice").read();
        assertThat(f.process().cgroup().quotaSource()).startsWith("unknown: /sys/fs/cgroup/user.slice/job.scope: missing");
        assertThat(f.unknowns()).singleElement().asString().contains("not in this recording").endsWith("its CPU quota is unknown");
    }

    @Test
    void cgroupV1CfsQuota() {
        Box b = Box.healthy(root)
                .put("/proc/4242/mounts", "cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,nosuid,nodev,noexec,relatime,cpu,cpuacct 0 0\n"
                        + "cgroup /sys/fs/cgroup/cpuset cgroup rw,cpuset 0 0\n")
                .put("/proc/4242/cgroup", "5:cpuset:/\n4:cpu,cpuacct:/docker/abc\n1:name=systemd:/docker/abc\n")
                .put("/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "250000\n")
                .put("/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000\n")
                .put("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "-1\n")
                .put("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
        CpuFacts.Cgroup c = b.read().process().cgroup();
        assertThat(c.version()).isEqualTo("v1");
        assertThat(c.path()).isEqualTo("/docker/abc");
        assertThat(c.quotaCpus()).isEqualTo(2.5);
        assertThat(c.quotaSource()).isEqualTo("/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us");

        c = b.put("/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "-1\n").read().process().cgroup();
        assertThat(c.quotaCpus()).isNull();
        assertThat(c.quotaSource()).isEqualTo("none: no quota in /sys/fs/cgroup/cpu,cpuacct/docker/abc or above");
    }

    @Test
    void cgroupV1WithoutANamespaceUsesTheMountsRoot() {
        // the container sees its cgroup's full path, but /sys/fs/cgroup/cpu is that cgroup already
        CpuFacts.Cgroup c = Box.healthy(root)
                .put("/proc/4242/mountinfo", "30 25 0:26 /docker/abc /sys/fs/cgroup/cpu rw,nosuid shared:9 - cgroup cgroup rw,cpu\n")
                .put("/proc/4242/cgroup", "4:cpu:/docker/abc\n")
                .put("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "200000\n").put("/sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000\n")
                .read().process().cgroup();
        assertThat(c.quotaCpus()).isEqualTo(2.0);
        assertThat(c.quotaSource()).isEqualTo("/sys/fs/cgroup/cpu/cpu.cfs_quota_us");
    }

    @Test
    void statusGarbageIsUnknown() {
        CpuFacts f = Box.healthy(root).put("/proc/4242/status", "Name:\tjava\nCpus_allowed_list:\t0-zz\n").read();
        assertThat(f.process().cpusAllowed()).isNull();
        assertThat(f.process().cpusAllowedCount()).isNull();
        assertThat(f.unknowns()).containsExactly("/proc/self/status: Cpus_allowed_list is not a list: \"0-zz\"",
                "/proc/self/status: no Mems_allowed_list line");
        assertThat(f.feeders().getFirst().allowedFeederCpus()).isNull();
    }

    // ---- frequency and idle ----

    @Test
    void governorsAreSummarisedByCpu() {
        Box b = Box.healthy(root);
        for (int c = 0; c < 16; c++) {
            String d = CPU + "/cpu" + c + "/cpufreq/";
            b.put(d + "scaling_governor", (c < 4 || c >= 12 ? "powersave" : "schedutil") + "\n")
                    .put(d + "scaling_driver", "acpi-cpufreq\n").remove(d + "energy_performance_preference");
        }
        CpuFacts.Frequency q = b.put(CPU + "/cpu5/cpufreq/scaling_max_freq", "2000000\n").remove(CPU + "/intel_pstate")
                .put(CPU + "/cpufreq/boost", "0\n").read().frequency();
        assertThat(q.governors()).containsExactly(new CpuFacts.Share("powersave", set("0-3,12-15"), 8),
                new CpuFacts.Share("schedutil", set("4-11"), 8));
        assertThat(q.drivers()).containsExactly(new CpuFacts.Share("acpi-cpufreq", set("0-15"), 16));
        assertThat(q.epp()).isEmpty();
        assertThat(q.cpus().get(5).scalingMaxKHz()).isEqualTo(2000000L);
        assertThat(q.turbo()).isFalse();
        assertThat(q.turboSource()).isEqualTo(CPU + "/cpufreq/boost");
    }

    @Test
    void noCpufreqIsAStatusNotAnUnknown() {
        Box b = Box.healthy(root);
        for (int c = 0; c < 16; c++) b.remove(CPU + "/cpu" + c + "/cpufreq");
        CpuFacts f = b.remove(CPU + "/intel_pstate").remove(CPU + "/cpuidle").remove(CPU + "/cpu0/cpuidle").read();
        assertThat(f.frequency()).isEqualTo(new CpuFacts.Frequency(CpuFactsReader.NO_CPUFREQ, List.of(), List.of(), List.of(),
                null, null, List.of()));
        assertThat(f.idle()).isEqualTo(new CpuFacts.Idle(null, null, 0, List.of()));
        assertThat(f.unknowns()).isEmpty();
    }

    // ---- interrupts ----

    @Test
    void withoutMsiIrqsTheRowsNameTheDevices() {
        Box b = Box.healthy(root);
        for (String a : new String[] {Box.GPU, Box.NIC, Box.NVME}) b.remove("/sys/devices/pci0000:" + a.substring(5, 7) + "/" + a + "/msi_irqs");
        StringBuilder s = new StringBuilder(Box.header());
        // older x86: the NVMe drive in the hardware number of a bus-wide MSI chip
        for (int i = 0; i < 2; i++) s.append(Box.row(120 + i, 12 + i, 700, "IR-PCI-MSI " + ((0x87L << 19) + i) + "-edge      nvme0q" + i));
        // a paravirtual chip: only the handler name says eth0
        for (int i = 0; i < 2; i++) s.append(Box.row(110 + i, 8 + i, 50, "xen-pirq    -edge      i40e-eth0-TxRx-" + i));
        s.append(Box.row(130, 8, 1, "xen-pirq    -edge      eth01-TxRx-0")); // another interface
        // the GPU's legacy line, from its irq file
        s.append(Box.row(16, 0, 3, "IR-IO-APIC   16-fasteoi   nvidia"));
        b.put("/sys/devices/pci0000:3b/" + Box.GPU + "/irq", "16\n").put("/proc/irq/16/smp_affinity_list", "0-7\n");
        CpuFacts f = b.put("/proc/interrupts", s.toString()).read();
        Map<String, CpuFacts.DeviceIrqs> by = new java.util.HashMap<>();
        for (CpuFacts.DeviceIrqs d : f.irqs().devices()) by.put(d.device(), d);
        assertThat(by.get("GPU0").foundBy()).containsExactly("irq file");
        assertThat(by.get("GPU0").irqs()).extracting(CpuFacts.Irq::irq).containsExactly(16);
        assertThat(by.get("GPU0").irqs().getFirst().effectiveAffinity()).isNull();
        assertThat(by.get("GPU0").irqs().getFirst().routedTo()).isEqualTo(set("0")); // where it landed
        assertThat(by.get("eth0").foundBy()).containsExactly("name in /proc/interrupts");
        assertThat(by.get("eth0").irqs()).extracting(CpuFacts.Irq::irq).containsExactly(110, 111);
        assertThat(by.get("nvme0").foundBy()).containsExactly("address in /proc/interrupts");
        assertThat(by.get("nvme0").irqs()).extracting(CpuFacts.Irq::irq).containsExactly(120, 121);
        assertThat(f.unknowns()).isEmpty();
    }

    @Test
    void oneNvidiaGpuOwnsRowsNamedNvidia() {
        Box b = Box.healthy(root).remove("/sys/devices/pci0000:3b/" + Box.GPU + "/msi_irqs");
        String s = Box.header() + Box.row(200, 3, 9, "xen-pirq    -edge      nvidia") + Box.row(201, 4, 9, "xen-pirq    -edge      nvidia-nvlink")
                // a row whose chip names another device is not the GPU's, whatever its name
                + Box.row(202, 5, 9, "IR-PCI-MSI " + (0x99L << 19) + "-edge      nvidia");
        CpuFacts f = b.put("/proc/interrupts", s).read();
        CpuFacts.DeviceIrqs gpu = f.irqs().devices().getFirst();
        assertThat(gpu.irqs()).extracting(CpuFacts.Irq::irq).containsExactly(200, 201);
        assertThat(gpu.foundBy()).containsExactly("name in /proc/interrupts");
        assertThat(f.unknowns()).singleElement().asString()
                .isEqualTo("/proc/irq/N/smp_affinity_list: missing for IRQs 200-201: where they may run is unknown "
                        + "(where they ran comes from /proc/interrupts)");
    }

    @Test
    void affinityMasksWhenTheListsAreMissing() {
        Box b = Box.healthy(root).remove("/proc/irq/100/smp_affinity_list").remove("/proc/irq/100/effective_affinity_list")
                .put("/proc/irq/100/smp_affinity", "00000000,000000ff\n").put("/proc/irq/100/effective_affinity", "0001\n");
        CpuFacts.Irq irq = b.read().irqs().devices().getFirst().irqs().getFirst();
        assertThat(irq.affinity()).isEqualTo(set("0-7"));
        assertThat(irq.effectiveAffinity()).isEqualTo(set("0"));
    }

    @Test
    void withoutProcIrqTheCountsSayWhereTheyLanded() {
        CpuFacts f = Box.healthy(root).remove("/proc/irq").read();
        CpuFacts.DeviceIrqs nic = f.irqs().devices().get(1);
        assertThat(nic.irqs()).allSatisfy(i -> assertThat(i.affinity()).isNull());
        assertThat(nic.routedTo()).isEqualTo(set("8-11"));
        assertThat(f.irqs().defaultAffinity()).isNull();
        assertThat(f.unknowns()).containsExactly("/proc/irq: missing for IRQs 100-103,110-113,120-121: where they may run is unknown "
                + "(where they ran comes from /proc/interrupts)");
    }

    @Test
    void nicIrqsOnTheGpusCpusAreCountedPerFeeder() {
        Box b = Box.healthy(root);
        for (int i = 0; i < 4; i++) b.affinity(110 + i, "0-7", String.valueOf(4 + i));
        CpuFacts.Feeder g = b.read().feeders().getFirst();
        assertThat(g.irqsOnFeeders()).containsExactly(new CpuFacts.IrqsOnFeeders("eth0", PciKind.NIC, 4, 4, set("4-7"), 20000));
    }

    @Test
    void aGpuWithoutLocalCpusIsFedByEveryOnlineCpu() {
        CpuFacts f = Box.healthy(root).put("/sys/devices/pci0000:3b/" + Box.GPU + "/local_cpulist", "\n")
                .put("/sys/devices/pci0000:3b/" + Box.GPU + "/numa_node", "-1\n").read();
        assertThat(f.feeders().getFirst().localCpus()).isEqualTo(set("0-15"));
        assertThat(f.feeders().getFirst().numaNode()).isNull();
        // the NIC and NVMe interrupts now land among GPU0's feeders
        assertThat(f.feeders().getFirst().irqsOnFeeders()).extracting(CpuFacts.IrqsOnFeeders::device).containsExactly("eth0", "nvme0");
    }

    // ---- garbage ----

    @Test
    void garbageInEveryFileBecomesUnknownsNotExceptions() {
        Box b = Box.healthy(root);
        String junk = "\u0000\u0001garbage \uFFFD";
        for (String p : new String[] {K + "osrelease", "/proc/version", K + "sched_autogroup_enabled", K + "sched_rt_runtime_us",
                K + "sched_rt_period_us", K + "numa_balancing", "/proc/cmdline", CPU + "/isolated", CPU + "/nohz_full",
                "/proc/4242/status", "/sys/fs/cgroup/user.slice/job.scope/cpu.max",
                CPU + "/cpu0/cpufreq/scaling_governor", CPU + "/cpu0/cpufreq/cpuinfo_max_freq", CPU + "/cpu0/cpufreq/scaling_max_freq",
                CPU + "/intel_pstate/no_turbo", CPU + "/cpuidle/current_driver", CPU + "/cpu0/cpuidle/state1/latency",
                CPU + "/cpu0/cpuidle/state1/disable", "/proc/interrupts", "/proc/irq/100/smp_affinity_list",
                "/proc/irq/101/effective_affinity_list", "/proc/irq/default_smp_affinity", CPU + "/online",
                "/sys/devices/pci0000:3b/" + Box.GPU + "/local_cpulist", "/sys/devices/pci0000:3b/" + Box.GPU + "/irq",
                "/sys/kernel/debug/sched/preempt", "/sys/kernel/debug/sched/base_slice_ns"}) {
            b.put(p, junk);
        }
        b.put("/sys/devices/pci0000:3b/" + Box.GPU + "/msi_irqs/garbage", "x").put("/proc/cmdline", "isolcpus=" + junk);
        CpuFacts[] f = new CpuFacts[1];
        assertThatCode(() -> f[0] = b.read()).doesNotThrowAnyException();
        assertThat(String.join("\n", f[0].unknowns())).contains(K + "osrelease", K + "sched_autogroup_enabled",
                K + "sched_rt_runtime_us", K + "numa_balancing", CPU + "/isolated", CPU + "/nohz_full",
                "/proc/self/status", "cpu.max", "cpuinfo_max_freq", "scaling_max_freq", "no_turbo", "state1/latency",
                "/proc/interrupts", "/proc/irq/100/smp_affinity_list", "/proc/irq/101/effective_affinity_list",
                "default_smp_affinity", "base_slice_ns");
        assertThat(f[0].kernel().scheduler()).isNull();
        assertThatCode(() -> CpuVerdicts.of(f[0])).doesNotThrowAnyException();
    }

    @Test
    void anEmptyMachineStillReads() throws Exception {
        Files.createDirectories(root.resolve("proc"));
        CpuFacts f = CpuFactsReader.read(FsRoot.open(root.toString()));
        assertThat(f.onlineCpus()).isEqualTo(CpuSet.EMPTY);
        assertThat(f.feeders()).isEmpty();
        assertThat(f.irqs().devices()).isEmpty();
        assertThat(f.frequency().status()).isEqualTo(CpuFactsReader.NO_CPUFREQ);
        assertThat(f.unknowns()).contains("/proc/sys/kernel/osrelease: missing", "/proc/interrupts: missing",
                "/proc/self/status: missing", "/proc/self/cgroup: missing: this process's cgroup is unknown");
        assertThat(CpuVerdicts.of(f)).isEmpty();
    }
}
