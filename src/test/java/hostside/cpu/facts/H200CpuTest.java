package hostside.cpu.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.Fixtures;
import hostside.core.CpuSet;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.fs.FsRoot;
import hostside.machine.PciKind;

/**
 * The NVIDIA H200 VM as recorded in testdata/h200: 16 vCPUs on one node, kernel 6.18
 * (PREEMPT_DYNAMIC), no cpufreq or cpuidle files, no /proc/irq, /proc/interrupts with the
 * GPU's 8 MSI-X vectors and the virtio NIC's 3, and a recorder (pid 603) in a cgroup v2 leaf
 * that was not recorded.
 */
class H200CpuTest {
    static final CpuFacts f = CpuFactsReader.read(FsRoot.open(Fixtures.h200().toString()));

    static CpuSet set(String list) {
        return CpuSet.parseList(list);
    }

    @Test
    void kernelAndScheduler() {
        assertThat(f.kernel().release()).isEqualTo("6.18.44-fc-v973-gpu");
        assertThat(f.kernel().major()).isEqualTo(6);
        assertThat(f.kernel().minor()).isEqualTo(18);
        assertThat(f.kernel().scheduler()).isEqualTo("EEVDF");
        assertThat(f.kernel().preemption()).isEqualTo("dynamic"); // "#1 SMP PREEMPT_DYNAMIC", no preempt= on the command line
        assertThat(f.sched()).isEqualTo(new CpuFacts.Sched(1, 950000L, 1000000L, null, null, 0, new CpuFacts.Tunables(
                "not visible: /sys/kernel/debug/sched needs a mounted debugfs and root", null, null, null, null, null, null)));
    }

    @Test
    void noIsolationAndEveryCpuAllowed() {
        assertThat(f.onlineCpus()).isEqualTo(set("0-15"));
        assertThat(f.cores()).isEqualTo(16);
        assertThat(f.isolation()).isEqualTo(new CpuFacts.Isolation(null, null, null, null, CpuSet.EMPTY, null, set("0-15")));
        CpuFacts.ProcessCpus p = f.process();
        assertThat(p.pid()).isEqualTo("603");
        assertThat(p.cpusAllowed()).isEqualTo(set("0-15"));
        assertThat(p.cpusAllowedCount()).isEqualTo(16);
        assertThat(p.memsAllowed()).isEqualTo(set("0"));
        assertThat(p.cgroup().version()).isEqualTo("v2");
        assertThat(p.cgroup().path()).isEqualTo("/process_api/f87a78867b2da8c17f7b328f1c9ec11c");
        assertThat(p.cgroup().cpusetCpus()).isEqualTo(set("0-15"));
        assertThat(p.cgroup().quotaCpus()).isNull();
        assertThat(p.cgroup().quotaSource()).startsWith("unknown: /sys/fs/cgroup/process_api/f87a78867b2da8c17f7b328f1c9ec11c: missing");
    }

    @Test
    void aVmWithoutCpufreqOrCpuidle() {
        assertThat(f.frequency().status()).isEqualTo(CpuFactsReader.NO_CPUFREQ);
        assertThat(f.frequency().cpus()).isEmpty();
        assertThat(f.frequency().turbo()).isNull();
        assertThat(f.idle()).isEqualTo(new CpuFacts.Idle(null, null, 0, List.of()));
    }

    @Test
    void theGpusAndNicsInterruptsFromProcInterrupts() {
        assertThat(f.irqs().cpuColumns()).isEqualTo(set("0-15"));
        assertThat(f.irqs().irqbalance()).isNull();
        assertThat(f.irqs().devices()).extracting(CpuFacts.DeviceIrqs::device).containsExactly("GPU0", "eth0");

        CpuFacts.DeviceIrqs gpu = f.irqs().devices().get(0);
        assertThat(gpu.address()).isEqualTo("0000:00:06.0");
        assertThat(gpu.foundBy()).containsExactly("address in /proc/interrupts");
        assertThat(gpu.irqs()).extracting(CpuFacts.Irq::irq).containsExactly(42, 43, 44, 45, 46, 47, 48, 49);
        assertThat(gpu.irqs()).allSatisfy(i -> {
            assertThat(i.name()).isEqualTo("nvidia");
            assertThat(i.chip()).isEqualTo("PCI-MSIX-0000:00:06.0");
            assertThat(i.affinity()).isNull(); // no /proc/irq in the recording
        });
        assertThat(gpu.irqs().get(2).perCpu()).isEqualTo(Map.of(0, 14L));
        assertThat(gpu.landedOn()).isEqualTo(set("0"));
        assertThat(gpu.total()).isEqualTo(14);

        CpuFacts.DeviceIrqs nic = f.irqs().devices().get(1);
        assertThat(nic.address()).isEqualTo("0000:00:03.0");
        assertThat(nic.irqs()).extracting(CpuFacts.Irq::name).containsExactly("virtio2-config", "virtio2-input.0", "virtio2-output.0");
        assertThat(nic.landedOn()).isEqualTo(set("7-8"));
        assertThat(nic.total()).isEqualTo(27);

        assertThat(f.feeders()).containsExactly(new CpuFacts.Feeder("GPU0", "0000:00:06.0", null, set("0-15"), CpuSet.EMPTY, set("0-15"), set("0-15"),
                List.of(new CpuFacts.IrqsOnFeeders("eth0", PciKind.NIC, 2, 2, set("7-8"), 27))));
    }

    @Test
    void theUnknownsAreWhatTheRecordingLacks() {
        assertThat(f.unknowns()).containsExactly(
                "/sys/fs/cgroup/process_api/f87a78867b2da8c17f7b328f1c9ec11c: missing (this process's cgroup, not in this recording): "
                        + "its CPU quota is unknown",
                "/proc/irq: missing for IRQs 34-36,42-49: where they may run is unknown (where they ran comes from /proc/interrupts)");
    }

    @Test
    void findingsAreTheNicNoteAndTheSchedulerNote() {
        List<Finding> v = CpuVerdicts.of(f);
        assertThat(v).extracting(Finding::severity, Finding::subject).containsExactly(
                org.assertj.core.groups.Tuple.tuple(Severity.INFO, "GPU0"), org.assertj.core.groups.Tuple.tuple(Severity.INFO, "scheduler"));
        assertThat(v.get(0).text()).isEqualTo("eth0's 2 IRQs land on CPUs 7-8, among the 16 that feed GPU0 (0-15): "
                + "latency-sensitive feeder threads pinned to 0-6,9-15 stay out of their way");
        assertThat(v).extracting(Finding::id).containsExactly("M3-IRQ-FEEDERS", "M3-SCHEDULER");
        assertThat(v.get(1).text()).startsWith("kernel 6.18 schedules with EEVDF (6.6 and later)")
                .contains("by default 3 ms with 16 CPUs").contains("sched_setattr (sched_runtime)")
                .endsWith("the preemption model is chosen at boot (PREEMPT_DYNAMIC, preempt=)");
    }
}
