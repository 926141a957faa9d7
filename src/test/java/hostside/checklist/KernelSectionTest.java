package hostside.checklist;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import hostside.process.Pressure;
import hostside.process.TaskState;

/** The kernel log folded into events with their age, and what the verdicts take from the sections. */
class KernelSectionTest {
    static final double NOW = 10_000;

    /** A record {@code ago} seconds before NOW. */
    static String record(long seq, double ago, String message) {
        return "3," + seq + "," + (long) ((NOW - ago) * 1e6) + ",-;" + message;
    }

    static KernelSection section(Set<Long> family, String... records) {
        return KernelSection.of(KernelLog.parse(List.of(records), NOW), family);
    }

    @Test
    void eventsFoldedAgedAndMostRecentFirst() {
        KernelSection k = section(Set.of(100L, 101L, 200L),
                record(1, 9000, "EXT4-fs (vda): mounted filesystem"),
                record(2, 7200, "INFO: task python3:812 blocked for more than 122 seconds."),
                record(3, 1800, "Out of memory: Killed process 200 (pt_data_worker) total-vm:1kB, anon-rss:1kB"),
                record(4, 600, "NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."),
                record(5, 300, "NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."),
                record(6, 240, "NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."),
                record(7, 120, "NVRM: Xid (PCI:0000:5e:00): 31, pid=101, name=python3, Ch 00000008, MMU Fault"),
                record(8, 60, "python3[101]: segfault at 0 ip 00007f3a sp 00007ffd error 4 in libc.so.6[7f3a+195000]"),
                record(9, 50, "bash[999]: segfault at 0 ip 1 sp 2 error 4 in bash[400000+1000]"),
                "not a record");
        assertThat(k.notRead()).isNull();
        assertThat(k.records()).isEqualTo(9);
        assertThat(k.garbled()).isEqualTo(1);
        assertThat(k.otherCrashes()).as("a stranger's crash is counted, not listed").isEqualTo(1);
        assertThat(k.events()).extracting(KernelSection.EventUse::kind).containsExactly(KernelEvent.Kind.SEGFAULT, KernelEvent.Kind.XID, KernelEvent.Kind.XID, KernelEvent.Kind.OOM_KILL, KernelEvent.Kind.HUNG_TASK);
        KernelSection.EventUse fell = k.events().get(2);
        assertThat(fell.xid()).isEqualTo(79);
        assertThat(fell.count()).isEqualTo(3);
        assertThat(fell.ageSeconds()).isEqualTo(240.0);
        assertThat(fell.firstAgeSeconds()).isEqualTo(600.0);
        assertThat(fell.hardware()).isTrue();
        assertThat(fell.thisProcess()).isFalse();
        assertThat(k.events().get(1).thisProcess()).as("the Xid names a thread of the process").isTrue();
        assertThat(k.events().get(3).thisProcess()).as("the OOM victim was its worker").isTrue();
        assertThat(k.events().get(3).process()).isEqualTo("pt_data_worker");
        assertThat(recent(k, KernelEvent.Kind.XID)).isEqualTo(4);
        assertThat(recent(k, KernelEvent.Kind.HUNG_TASK)).as("two hours ago").isZero();
        assertThat(recent(k, KernelEvent.Kind.OOM_KILL)).isEqualTo(1);
    }

    @Test
    void aRunThatBeganBeforeTheHourCountsOnce() {
        KernelSection k = section(Set.of(1L), record(1, 5000, "mce: [Hardware Error]: Machine check events logged"),
                record(2, 100, "mce: [Hardware Error]: Machine check events logged"));
        assertThat(k.events().getFirst().count()).isEqualTo(2);
        assertThat(recent(k, KernelEvent.Kind.MCE)).isEqualTo(1);
    }

    @Test
    void aLogThatWasNotReadSaysWhy() {
        KernelSection k = KernelSection.of(KernelLog.notRead("/dev/kmsg: EACCES (permission denied)"), Set.of(1L));
        assertThat(k.notRead()).isEqualTo("/dev/kmsg: EACCES (permission denied)");
        assertThat(k.events()).isEmpty();
    }

    @Test
    void withoutUptimeTheAgesAreUnknown() {
        KernelSection k = KernelSection.of(KernelLog.parse(List.of(record(1, 10, "mce: [Hardware Error]: x")), null), Set.of());
        assertThat(k.events().getFirst().ageSeconds()).isNull();
        assertThat(recent(k, KernelEvent.Kind.MCE)).isZero();
    }

    @Test
    void signalsTakeRecentEventsTheProcessesGpusAndTheGilPattern() {
        KernelSection k = section(Set.of(100L),
                record(1, 7200, "Out of memory: Killed process 5 (old) total-vm:1kB"),
                record(2, 60, "Out of memory: Killed process 6 (new) total-vm:1kB"),
                record(3, 30, "NVRM: Xid (PCI:0000:3b:00): 48, DBE"),
                record(4, 20, "EDAC MC0: 2 CE memory read error on DIMM_A1"),
                record(5, 10, "INFO: task python3:100 blocked for more than 120 seconds."));
        LoadSection load = new LoadSection(null, 8, new LoadSection.Spread(4, 3.5, 5), 0L, Map.of(
                Pressure.Resource.CPU, new LoadSection.PressureUse(30, null, null, null),
                Pressure.Resource.MEMORY, new LoadSection.PressureUse(1, 2.0, 4.0, 6.0)));
        CpuSection cpu = new CpuSection(new CpuSection.CpuUse("all", 40, 0, 5, 3, 0, 1, 2, 49, 48), List.of(), 100.0, List.of());
        List<ProcessSection.ThreadUse> threads = new ArrayList<>();
        threads.add(thread(100, 45.0, Map.of(TaskState.RUNNING, 1.0)));
        threads.add(thread(101, 40.0, Map.of(TaskState.RUNNING, 0.5, TaskState.SLEEPING, 0.5)));
        threads.add(thread(102, 15.0, Map.of(TaskState.DISK_SLEEP, 0.6, TaskState.SLEEPING, 0.4)));
        threads.add(thread(103, 2.0, Map.of(TaskState.SLEEPING, 1.0)));
        ProcessSection proc = new ProcessSection(100, "python3", "R (running)", 4L, 102.0, null, null, null, 0.0, 0.0, null, null, null, null,
                threads, new ProcessSection.Children(1, 30.0, 1L, 1L,
                        List.of(new ProcessSection.ChildUse(200, 100, "pt_data_worker", 30.0, TaskState.RUNNING, 4, 1L, 1L, 0.0))));
        GpuSection gpu = new GpuSection(null, List.of(
                new GpuSection.GpuUse(0, "H200", "0000:3b:00.0", 20.0, 10, 30, 20.0, 3, 5.0, 1L, 2L, 100.0, 700.0, 1980.0, 1980,
                        Map.of("idle", 0.9, "power cap", 0.6), null, null, List.of(100L), true),
                new GpuSection.GpuUse(1, "H200", "0000:5e:00.0", 99.0, 99, 99, 99.0, 3, 5.0, 1L, 2L, 100.0, 700.0, 1980.0, 1980,
                        Map.of(), null, null, List.of(7L), false)));
        Signals s = Signals.of(false, load, k, cpu, proc, null, gpu);
        assertThat(s.oomVictims()).containsExactly("new (6)");
        assertThat(s.xids()).extracting(KernelSection.EventUse::xid).containsExactly(48);
        assertThat(s.hardwareErrors()).isEqualTo(1);
        assertThat(s.hungTasks()).isEqualTo(1);
        assertThat(s.hungExample()).isEqualTo("python3 (100)");
        assertThat(s.psiCpuSome()).as("no window: the kernel's avg10").isEqualTo(30.0);
        assertThat(s.psiMemorySome()).isEqualTo(4.0);
        assertThat(s.psiMemoryFull()).isEqualTo(6.0);
        assertThat(s.runnable()).isEqualTo(3.5);
        assertThat(s.iowait()).isEqualTo(3.0);
        assertThat(s.steal()).isEqualTo(2.0);
        assertThat(s.hostBusy()).isEqualTo(48.0);
        assertThat(s.processCpu()).isEqualTo(132.0);
        assertThat(s.gilShare()).as("45 + 40 + 15: one CPU's worth, no thread holding it alone").isEqualTo(3);
        assertThat(s.blockedThreads()).isEqualTo(1);
        assertThat(s.busy()).extracting(Signals.Busy::id).containsExactly(100L, 101L, 200L, 102L, 103L);
        assertThat(s.busy().get(2).worker()).isTrue();
        assertThat(s.gpus()).as("only the GPU the process runs on").extracting(Signals.Gpu::index).containsExactly(0);
        assertThat(s.gpus().getFirst().reasons()).as("idle is no limit").extracting(Signals.Reason::name).containsExactly("power cap");
        assertThat(s.disks()).isEmpty();
    }

    static int recent(KernelSection k, KernelEvent.Kind kind) {
        return k.events().stream().filter(e -> e.kind() == kind).mapToInt(KernelSection::recentCount).sum();
    }

    static ProcessSection.ThreadUse thread(long tid, Double cpu, Map<TaskState, Double> states) {
        return new ProcessSection.ThreadUse(tid, "t" + tid, cpu, states.keySet().iterator().next(), states, 0, 0.0, 0.0, false);
    }
}
