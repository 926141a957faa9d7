package hostside.checklist;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.testing.RuleTally;

/** Each outcome of the classification, from figures alone, and which comes first when several hold. */
class VerdictsTest {

    /** A quiet 16-CPU host feeding one GPU that is 97% busy: each test changes what it is about. */
    static final class S {
        boolean snapshot;
        Integer cpus = 16;
        Double runnable = 3.0, psiCpuSome = 1.0, psiMemorySome = 0.0, psiMemoryFull = 0.0, psiIoFull = 0.0;
        List<String> oom = new ArrayList<>();
        List<KernelSection.EventUse> xids = new ArrayList<>(), crashes = new ArrayList<>();
        int hardware, hung, gil, blocked;
        String hungExample;
        Double iowait = 0.5, steal = 0.0, hostBusy = 20.0, processCpu = 150.0;
        List<Signals.Busy> busy = new ArrayList<>(List.of(new Signals.Busy("python3", 100, 60, 2, false)));
        List<Signals.Disk> disks = new ArrayList<>(List.of(new Signals.Disk("nvme0n1", 5, 1e6, 2e6)));
        String gpusNotRead;
        List<Signals.Gpu> gpus = new ArrayList<>(List.of(gpu(97.0)));

        static Signals.Gpu gpu(Double util, Signals.Reason... reasons) {
            return new Signals.Gpu(0, util, List.of(reasons), 650.0, 700.0, 1980.0, 1980);
        }

        S noGpu(String why) {
            gpusNotRead = why;
            gpus = new ArrayList<>();
            return this;
        }

        /** The kernel log's events as the live checklist takes them (Signals.of: only those of the last hour count). */
        S kernel(KernelSection k) {
            Signals from = Signals.of(false, new LoadSection(null, cpus, null, null, Map.of()), k, null, null, null, new GpuSection(null, List.of()));
            oom = new ArrayList<>(from.oomVictims());
            xids = new ArrayList<>(from.xids());
            hardware = from.hardwareErrors();
            hung = from.hungTasks();
            hungExample = from.hungExample();
            crashes = new ArrayList<>(from.crashes());
            return this;
        }

        List<Finding> verdicts() {
            return Verdicts.of(new Signals(snapshot, cpus, runnable, psiCpuSome, psiMemorySome, psiMemoryFull, psiIoFull, oom, xids, hardware,
                    hung, hungExample, crashes, iowait, steal, hostBusy, busy, processCpu, gil, blocked, disks, gpusNotRead, gpus));
        }

        Finding verdict() {
            return verdicts().getFirst();
        }
    }

    static KernelSection.EventUse xid(int code, boolean hardware, boolean thisProcess, double age, int count) {
        return new KernelSection.EventUse(KernelEvent.Kind.XID, age, age, count, thisProcess ? 100L : null, null, code, "0000:3b:00",
                Xid.parse("NVRM: Xid (PCI:0000:3b:00): " + code + ", x").orElseThrow().meaning(), hardware, thisProcess, false, "NVRM: Xid ...");
    }

    @Test
    void healthyWhenTheGpuIsBusyAndTheHostIdle() {
        Finding v = new S().verdict();
        assertThat(Verdicts.Code.of(v)).isEqualTo(Verdicts.Code.HEALTHY);
        assertThat(v.severity()).isEqualTo(Severity.INFO);
        assertThat(v.text()).isEqualTo("the GPU is busy (97%) and the host is idle: healthy");
        assertThat(new S().verdicts()).hasSize(1);
    }

    @Test
    void healthyWithABusyHostThatKeepsUp() {
        S s = new S();
        s.hostBusy = 72.4;
        s.busy.add(new Signals.Busy("pt_data_worker", 201, 99, 5, true));
        assertThat(s.verdict().text()).as("a hot worker is no bottleneck while the GPU is busy")
                .isEqualTo("the GPU is busy (97%) and the host keeps up (CPUs 72% busy): healthy");
    }

    @Test
    void memoryPressureFromPsiAndOomKills() {
        S s = new S();
        s.psiMemoryFull = 12.3;
        s.oom.addAll(List.of("python3 (4321)", "pt_data_worker (4400)", "pt_data_worker (4401)"));
        Finding v = s.verdict();
        assertThat(Verdicts.Code.of(v)).isEqualTo(Verdicts.Code.MEMORY_PRESSURE);
        assertThat(v.severity()).isEqualTo(Severity.BAD);
        assertThat(v.text()).isEqualTo("memory pressure: PSI memory full 12%, 3 OOM kills in the last hour "
                + "(python3 (4321), pt_data_worker (4400), pt_data_worker (4401))");
    }

    @Test
    void memoryPressureFromSomeStallsAlone() {
        S s = new S();
        s.psiMemorySome = 25.0;
        assertThat(s.verdict().text()).isEqualTo("memory pressure: PSI memory some 25%");
    }

    @Test
    void memoryStallsJustUnderTheirThresholdsAreQuiet() {
        S s = new S();
        s.psiMemoryFull = Verdicts.MEMORY_FULL_PERCENT - 0.1;
        s.psiMemorySome = Verdicts.MEMORY_SOME_PERCENT - 0.1;
        RuleTally.quiet(s.verdicts(), ChecklistRules.MEMORY_PRESSURE);
    }

    /** What the kernel logged {@code ago} seconds before now: an OOM kill, a hardware and an application Xid, EDAC, a hung task, a crash. */
    static KernelSection kernelTrouble(double ago) {
        return KernelSectionTest.section(Set.of(100L, 101L, 200L),
                KernelSectionTest.record(1, ago, "Out of memory: Killed process 200 (pt_data_worker) total-vm:1kB, anon-rss:1kB"),
                KernelSectionTest.record(2, ago, "NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."),
                KernelSectionTest.record(3, ago, "NVRM: Xid (PCI:0000:5e:00): 31, pid=101, name=python3, Ch 00000008, MMU Fault"),
                KernelSectionTest.record(4, ago, "EDAC MC0: 2 CE memory read error on DIMM_A1"),
                KernelSectionTest.record(5, ago, "INFO: task python3:100 blocked for more than 122 seconds."),
                KernelSectionTest.record(6, ago, "python3[101]: segfault at 0 ip 00007f3a sp 00007ffd error 4 in libc.so.6[7f3a+195000]"));
    }

    @Test
    void kernelTroubleMoreThanAnHourOldIsQuiet() {
        List<Rule> kernelRules = List.of(ChecklistRules.MEMORY_PRESSURE, ChecklistRules.GPU_FAULT, ChecklistRules.GPU_APP_ERROR,
                ChecklistRules.HARDWARE_ERRORS, ChecklistRules.HUNG_TASKS, ChecklistRules.PROCESS_CRASHED);
        // within the hour, every one of them speaks
        assertThat(new S().kernel(kernelTrouble(KernelSection.RECENT_SECONDS)).verdicts()).extracting(Finding::id)
                .containsAll(kernelRules.stream().map(Rule::id).toList());
        KernelSection old = kernelTrouble(KernelSection.RECENT_SECONDS + 1);
        assertThat(old.events()).hasSize(6);
        List<Finding> f = new S().kernel(old).verdicts();
        for (Rule r : kernelRules) RuleTally.quiet(f, r);
    }

    @Test
    void manyOomVictimsAreCut() {
        S s = new S();
        for (int i = 0; i < 5; i++) s.oom.add("w (" + i + ")");
        assertThat(s.verdict().text()).isEqualTo("memory pressure: 5 OOM kills in the last hour (w (0), w (1), w (2), +2 more)");
    }

    @Test
    void aHardwareXidIsAGpuFault() {
        S s = new S();
        s.xids.add(xid(79, true, false, 240, 3));
        s.xids.add(xid(48, true, false, 600, 1));
        Finding v = s.verdict();
        assertThat(Verdicts.Code.of(v)).isEqualTo(Verdicts.Code.GPU_FAULT);
        assertThat(v.text()).isEqualTo("GPU fault: Xid 79 on 0000:3b:00 4 min ago (3 times): GPU has fallen off the bus: unreachable over "
                + "PCIe, needs a reboot; 1 more kind of Xid");
    }

    @Test
    void anApplicationXidIsTheProgramsError() {
        S s = new S();
        s.xids.add(xid(13, false, false, 30, 1));
        s.xids.add(xid(31, false, true, 90, 1));
        Finding v = s.verdict();
        assertThat(Verdicts.Code.of(v)).isEqualTo(Verdicts.Code.GPU_APP_ERROR);
        assertThat(v.severity()).isEqualTo(Severity.WARN);
        assertThat(v.text()).startsWith("GPU error in this process: Xid 31 on 0000:3b:00 90 s ago: GPU memory page fault");
    }

    @Test
    void machineChecksAndCrashesAndHungTasks() {
        S s = new S();
        s.hardware = 2;
        assertThat(s.verdict().text()).isEqualTo("hardware errors: 2 machine-check/EDAC reports in the last hour");
        s = new S();
        s.crashes.add(new KernelSection.EventUse(KernelEvent.Kind.SEGFAULT, 200.0, 200.0, 1, 4242L, "python3", null, null, null, false, true, false, "segfault at 0"));
        assertThat(s.verdict().text()).isEqualTo("crashed: python3 (4242) segfaulted 3 min ago");
        s = new S();
        s.hung = 1;
        s.hungExample = "python3 (812)";
        assertThat(Verdicts.Code.of(s.verdict())).isEqualTo(Verdicts.Code.HUNG_TASKS);
        assertThat(s.verdict().text()).isEqualTo("hung tasks: 1 report in the last hour, python3 (812) among them");
    }

    @Test
    void ioBoundByIowaitThatTheProcessWaitsOn() {
        S s = new S();
        s.iowait = 92.0;
        s.blocked = 1;
        s.disks.add(new Signals.Disk("nvme1n1", 100, 3e9, 0));
        s.gpus = new ArrayList<>(List.of(S.gpu(30.0)));
        Finding v = s.verdict();
        assertThat(Verdicts.Code.of(v)).isEqualTo(Verdicts.Code.IO_BOUND);
        assertThat(v.severity()).isEqualTo(Severity.BAD);
        assertThat(v.text()).isEqualTo("I/O-bound: 92% iowait, nvme1n1 at 100% util, 1 thread of the process mostly in D state");
    }

    @Test
    void machineWideIowaitWithoutThisProcessWaiting() {
        S s = new S();
        s.iowait = 35.0;
        s.psiIoFull = 12.0;
        Finding v = s.verdict();
        assertThat(v.severity()).isEqualTo(Severity.WARN);
        assertThat(v.text()).isEqualTo("I/O-bound: 35% iowait, PSI io full 12% (no thread of this process waits on it)");
    }

    @Test
    void aBusyDiskCountsOnlyWhenTheProcessWaitsOnIt() {
        S s = new S();
        s.disks.add(new Signals.Disk("sdb", 97.5, 0, 5e8));
        s.psiIoFull = 15.0;
        RuleTally.quiet(s.verdicts(), ChecklistRules.IO_BOUND); // the machine's disk is busy, nobody of this process waits
        s.blocked = 2;
        assertThat(s.verdict().text()).isEqualTo("I/O-bound: 0.5% iowait, sdb at 98% util, PSI io full 15%, 2 threads of the process mostly in D state");
    }

    @Test
    void ioJustUnderItsThresholdsIsQuiet() {
        // iowait just under a fifth, and the disk the process's threads wait on just under 90% busy
        S s = new S();
        s.iowait = Verdicts.IOWAIT_PERCENT - 0.1;
        s.blocked = 2;
        s.disks.add(new Signals.Disk("nvme1n1", Verdicts.DISK_UTIL_PERCENT - 0.1, 3e9, 0));
        s.psiIoFull = 15.0;
        RuleTally.quiet(s.verdicts(), ChecklistRules.IO_BOUND);
    }

    @Test
    void throttledByThePowerCap() {
        S s = new S();
        s.gpus = new ArrayList<>(List.of(new Signals.Gpu(0, 99.0, List.of(new Signals.Reason("power cap", 0.8)), 699.0, 700.0, 1410.0, 1980)));
        Finding v = s.verdict();
        assertThat(Verdicts.Code.of(v)).isEqualTo(Verdicts.Code.THROTTLED);
        assertThat(v.text()).isEqualTo("throttled: power cap on GPU0 (699 of 700 W, SM 1410 of 1980 MHz)");
        // set in just under half the samples: a blip
        s.gpus = new ArrayList<>(List.of(new Signals.Gpu(0, 99.0, List.of(new Signals.Reason("HW thermal slowdown", Verdicts.THROTTLE_SHARE - 0.01)),
                699.0, 700.0, 1410.0, 1980)));
        RuleTally.quiet(s.verdicts(), ChecklistRules.THROTTLED);
    }

    @Test
    void cpuBoundFeeding() {
        S s = new S();
        s.busy.add(0, new Signals.Busy("pt_main_thread", 101, 99.6, 3, false));
        s.gpus = new ArrayList<>(List.of(S.gpu(35.0)));
        Finding v = s.verdict();
        assertThat(Verdicts.Code.of(v)).isEqualTo(Verdicts.Code.CPU_BOUND_FEEDING);
        assertThat(v.severity()).isEqualTo(Severity.BAD);
        assertThat(v.text()).isEqualTo("CPU-bound feeding: 1 thread at 100% on core 3, GPU at 35%");
    }

    @Test
    void cpuBoundWorkersAndThreadsTogether() {
        S s = new S();
        s.busy = new ArrayList<>(List.of(new Signals.Busy("w0", 201, 100, 1, true), new Signals.Busy("w1", 202, 97, 2, true),
                new Signals.Busy("python3", 100, 95, 1, false)));
        s.gpus = new ArrayList<>(List.of(S.gpu(20.0)));
        assertThat(s.verdict().text()).isEqualTo("CPU-bound feeding: 1 thread and 2 worker processes at 95-100% on cores 1, 2, GPU at 20%");
    }

    @Test
    void cpuBoundWithoutAGpuToCompare() {
        S s = new S().noGpu("no NVIDIA driver (libnvidia-ml.so.1 not found)");
        s.busy.add(0, new Signals.Busy("python3", 100, 98, 3, false));
        Finding v = s.verdict();
        assertThat(v.severity()).isEqualTo(Severity.WARN);
        assertThat(v.text()).isEqualTo("CPU-bound: 1 thread at 98% on core 3; GPUs not read: no NVIDIA driver (libnvidia-ml.so.1 not found)");
    }

    @Test
    void aHotThreadBesideAGpuNotStarvedIsNoBottleneck() {
        S s = new S();
        s.busy.add(0, new Signals.Busy("python3", 100, 100, 3, false));
        s.gpus = new ArrayList<>(List.of(S.gpu(Verdicts.GPU_STARVED_PERCENT)));
        RuleTally.quiet(s.verdicts(), ChecklistRules.CPU_BOUND_FEEDING);
    }

    @Test
    void aThreadJustUnderOneCpuBesideAStarvedGpuIsNoBottleneck() {
        S s = new S();
        s.busy.add(0, new Signals.Busy("python3", 100, Verdicts.THREAD_BUSY_PERCENT - 0.1, 3, false));
        s.gpus = new ArrayList<>(List.of(S.gpu(35.0)));
        RuleTally.quiet(s.verdicts(), ChecklistRules.CPU_BOUND_FEEDING);
    }

    @Test
    void threadsSharingOneCpuUnderTheGil() {
        S s = new S();
        s.gil = 3;
        s.gpus = new ArrayList<>(List.of(S.gpu(40.0)));
        assertThat(s.verdict().text()).isEqualTo("CPU-bound feeding: 3 threads share one CPU between them (the GIL?), GPU at 40%");
    }

    @Test
    void threadsSharingOneCpuBesideAGpuNotStarvedAreQuiet() {
        S s = new S();
        s.gil = 3;
        s.gpus = new ArrayList<>(List.of(S.gpu(Verdicts.GPU_STARVED_PERCENT)));
        RuleTally.quiet(s.verdicts(), ChecklistRules.GIL_BOUND);
    }

    @Test
    void oversubscribedCpus() {
        S s = new S();
        s.runnable = 25.0;
        s.psiCpuSome = 62.0;
        Finding v = s.verdict();
        assertThat(Verdicts.Code.of(v)).isEqualTo(Verdicts.Code.CPU_OVERSUBSCRIBED);
        assertThat(v.text()).isEqualTo("CPU oversubscribed: 24 runnable on 16 CPUs, PSI cpu some 62%");
        // 16 besides the reader: not more than the CPUs; PSI cpu some just under half the time
        s.runnable = 17.0;
        s.psiCpuSome = Verdicts.CPU_SOME_PERCENT - 0.1;
        RuleTally.quiet(s.verdicts(), ChecklistRules.CPU_OVERSUBSCRIBED);
    }

    @Test
    void stolenCpu() {
        S s = new S();
        s.steal = 15.0;
        assertThat(s.verdict().text()).isEqualTo("CPU stolen by the hypervisor: 15% steal");
        s.steal = Verdicts.STEAL_PERCENT - 0.1;
        RuleTally.quiet(s.verdicts(), ChecklistRules.STEAL);
    }

    @Test
    void waitingWhenNeitherSideWorks() {
        S s = new S();
        s.processCpu = 2.0;
        s.gpus = new ArrayList<>(List.of(S.gpu(0.0)));
        assertThat(Verdicts.Code.of(s.verdict())).isEqualTo(Verdicts.Code.WAITING);
        assertThat(s.verdict().text()).isEqualTo("waiting: the process used 2% of a CPU and the GPU 0%: blocked on something outside "
                + "(the network, a peer, a lock, a read)");
        s.noGpu("no NVIDIA driver");
        assertThat(s.verdict().text()).startsWith("waiting: the process used 2% of a CPU: blocked");
    }

    @Test
    void aProcessAtATenthOfACpuOrAGpuAtATenthIsNotWaiting() {
        S s = new S();
        s.processCpu = Verdicts.PROCESS_IDLE_PERCENT;
        s.gpus = new ArrayList<>(List.of(S.gpu(0.0)));
        RuleTally.quiet(s.verdicts(), ChecklistRules.WAITING);
        s.processCpu = 2.0;
        s.gpus = new ArrayList<>(List.of(S.gpu(Verdicts.GPU_IDLE_PERCENT)));
        RuleTally.quiet(s.verdicts(), ChecklistRules.WAITING);
    }

    @Test
    void anUnderusedGpuWithNoHostCause() {
        S s = new S();
        s.gpus = new ArrayList<>(List.of(S.gpu(55.0)));
        assertThat(Verdicts.Code.of(s.verdict())).isEqualTo(Verdicts.Code.GPU_UNDERUSED);
        assertThat(s.verdict().text()).startsWith("GPU at 55% and no host bottleneck seen");
    }

    @Test
    void aGpuJustUnderBusyIsNotHealthy() {
        S s = new S();
        s.gpus = new ArrayList<>(List.of(S.gpu(Verdicts.GPU_BUSY_PERCENT - 0.1)));
        RuleTally.quiet(s.verdicts(), ChecklistRules.HEALTHY);
    }

    @Test
    void aGpuBusyEnoughIsNotUnderused() {
        S s = new S();
        s.gpus = new ArrayList<>(List.of(S.gpu(Verdicts.GPU_BUSY_PERCENT)));
        RuleTally.quiet(s.verdicts(), ChecklistRules.GPU_UNDERUSED);
    }

    @Test
    void nothingToNameWithoutAGpu() {
        S s = new S().noGpu("no NVIDIA driver (libnvidia-ml.so.1 not found)");
        s.processCpu = 35.0;
        assertThat(Verdicts.Code.of(s.verdict())).isEqualTo(Verdicts.Code.NO_BOTTLENECK);
        assertThat(s.verdict().text()).isEqualTo("no host bottleneck seen: the process used 35% of a CPU; GPUs not read "
                + "(no NVIDIA driver (libnvidia-ml.so.1 not found))");
    }

    @Test
    void aWindowWithTheGpuReadSaysMoreThanNoBottleneck() {
        S s = new S();
        s.processCpu = 35.0;
        s.gpus = new ArrayList<>(List.of(S.gpu(55.0)));
        RuleTally.quiet(s.verdicts(), ChecklistRules.NO_BOTTLENECK);
    }

    @Test
    void aLiveWindowIsNoSnapshot() {
        S s = new S().noGpu("no NVIDIA driver (libnvidia-ml.so.1 not found)");
        s.processCpu = 35.0;
        RuleTally.quiet(s.verdicts(), ChecklistRules.SNAPSHOT);
    }

    @Test
    void aSnapshotNamesNoBottleneck() {
        S s = new S();
        s.snapshot = true;
        s.iowait = s.steal = s.hostBusy = s.processCpu = null;
        s.busy = new ArrayList<>();
        s.disks = new ArrayList<>();
        s.noGpu("a recorded machine");
        assertThat(Verdicts.Code.of(s.verdict())).isEqualTo(Verdicts.Code.SNAPSHOT);
        s.psiMemoryFull = 30.0;
        assertThat(Verdicts.Code.of(s.verdict())).as("PSI's own averages are a fact of the moment").isEqualTo(Verdicts.Code.MEMORY_PRESSURE);
    }

    @Test
    void theMostUrgentComesFirstAndTheRestFollow() {
        S s = new S();
        s.steal = 12.0;
        s.busy.add(0, new Signals.Busy("python3", 100, 100, 3, false));
        s.gpus = new ArrayList<>(List.of(S.gpu(35.0, new Signals.Reason("power cap", 1.0))));
        s.iowait = 40.0;
        s.psiMemoryFull = 8.0;
        s.blocked = 1;
        assertThat(s.verdicts()).extracting(Verdicts.Code::of)
                .containsExactly(Verdicts.Code.MEMORY_PRESSURE, Verdicts.Code.IO_BOUND, Verdicts.Code.CPU_BOUND_FEEDING, Verdicts.Code.THROTTLED, Verdicts.Code.STEAL);
        s.blocked = 0;
        assertThat(s.verdicts()).as("I/O this process does not wait on comes after its own trouble").extracting(Verdicts.Code::of)
                .containsExactly(Verdicts.Code.MEMORY_PRESSURE, Verdicts.Code.CPU_BOUND_FEEDING, Verdicts.Code.THROTTLED, Verdicts.Code.STEAL, Verdicts.Code.IO_BOUND);
        s.psiMemoryFull = 0.0;
        s.gpus = new ArrayList<>(List.of(S.gpu(35.0)));
        s.busy = new ArrayList<>();
        s.hung = 2;
        s.hungExample = "x (1)";
        assertThat(s.verdicts()).extracting(Verdicts.Code::of).containsExactly(Verdicts.Code.HUNG_TASKS, Verdicts.Code.STEAL, Verdicts.Code.IO_BOUND);
    }

    @Test
    void theCodesAreTheNamesTheJsonHasAlwaysWritten() {
        assertThat(java.util.Arrays.stream(Verdicts.Code.values()).map(Verdicts.Code::code)).containsExactly("memory-pressure", "gpu-fault",
                "gpu-app-error", "hardware-errors", "process-crashed", "hung-tasks", "io-bound", "throttled", "cpu-bound-feeding", "gil-bound",
                "cpu-oversubscribed", "steal", "snapshot", "healthy", "waiting", "gpu-underused", "no-bottleneck");
        // a report of an earlier version wrote the code where the rule's ID now is: both read as the rule
        assertThat(Verdicts.Code.of(new Finding("healthy", Severity.INFO, "gpu", "x", "", java.util.List.of(), ""))).isEqualTo(Verdicts.Code.HEALTHY);
        assertThat(Verdicts.Code.of(new Finding("M4-60S-HEALTHY", Severity.INFO, "gpu", "x", "", java.util.List.of(), ""))).isEqualTo(Verdicts.Code.HEALTHY);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Verdicts.Code.of(new Finding("", Severity.INFO, "gpu", "x", "", java.util.List.of(), "")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ages() {
        assertThat(Verdicts.age(null)).isEqualTo("at an unknown time");
        assertThat(Verdicts.age(0.4)).isEqualTo("just now");
        assertThat(Verdicts.age(45.0)).isEqualTo("45 s ago");
        assertThat(Verdicts.age(725.0)).isEqualTo("12 min ago");
        assertThat(Verdicts.age(3 * 3600.0)).isEqualTo("3 h ago");
        assertThat(Verdicts.age(5 * 86400.0)).isEqualTo("5 days ago");
    }
}
