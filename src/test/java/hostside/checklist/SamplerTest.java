package hostside.checklist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.BadInputException;
import hostside.core.CpuSet;
import hostside.process.Pressure;
import hostside.process.TaskState;

/**
 * The sampler and the window's figures over a recorded /proc that the test rewrites between
 * ticks, with a clock that jumps: every rate here is exact, so every figure is checked.
 * Each tick is 0.5 s, so 50 ticks (USER_HZ 100) of CPU in one tick is one CPU flat out.
 */
class SamplerTest {
    static final long PID = 100, LOADER = 101, LATE = 102, WORKER = 200;

    @TempDir
    Path dir;
    ProcBox box;
    /** Counters that grow tick by tick. */
    long main, loader, late, worker, voluntary, diskWrites, sectors, writeMs, ioMs, rx, written, psiSome;

    @BeforeEach
    void job() {
        box = new ProcBox(dir);
        write(0);
    }

    /** The training job at tick {@code t}: a loader thread flat out, a thread that starts at tick 2, one worker at half a CPU. */
    void write(int t) {
        box.process(PID, 1, "python3", 'S', 1000 + 10L * t, 2L * t, 1000 + main + loader + late, 500, 3, 0)
                .thread(PID, PID, "python3", 'S', 1000 + main, 500, 1, 0, 0)
                .thread(PID, LOADER, "pt_data_loader", t % 2 == 0 ? 'R' : 'D', loader, 0, 2, voluntary, 3L * t)
                .children(PID, PID, WORKER)
                .io(PID, 5_000_000L * t, 0, 0, written)
                .process(WORKER, PID, "pt_data_worker", 'R', 0, 0, worker, 0, 1, 3)
                .thread(WORKER, WORKER, "pt_data_worker", 'R', worker, 0, 3, 0, 0)
                .disk("nvme0n1", 10, 80, 5, diskWrites, sectors, writeMs, ioMs)
                .net("eth0", rx, rx / 1000, 0, 0, 0)
                .psi("memory", 10.0, psiSome, 0, 0);
        if (t >= 2) box.thread(PID, LATE, "pin_memory", 'S', late, 0, 1, 0, 0);
        box.writeStat();
    }

    /** One tick of the job: what 0.5 s adds to every counter. */
    void advance(int t) {
        main += 5;
        loader += 50;
        if (t > 2) late += 25;
        worker += 25;
        voluntary += 10;
        diskWrites += 100;
        sectors += 20480;
        writeMs += 200;
        ioMs += 450;
        rx += 1_000_000;
        written += 1_048_576;
        psiSome += 50_000;
        box.tick(0, 50).tick(1, 5, 0, 0, 45).tick(2, 0, 0, 0, 25, 25).tick(3, 0, 0, 0, 50).switches(1000).running(3, 1);
        write(t);
    }

    Sampler.Sampling sample(int count) throws InterruptedException {
        return Sampler.run(box.fs(), PID, count, Sampler.INTERVAL, new FakeTicker(this::advance), GpuFeed.none("no GPU in a test"), i -> {});
    }

    @Test
    void fiveSamplesTwoSecondsAndEveryRate() throws InterruptedException {
        Sampler.Sampling s = sample(5);
        assertThat(s.exited()).isFalse();
        assertThat(s.samples()).hasSize(5);
        assertThat(s.unknowns()).isEmpty();
        Sample first = s.samples().getFirst(), last = s.samples().getLast();
        assertThat(Rates.seconds(first, last)).isEqualTo(2.0);

        CpuSection cpu = CpuSection.of(first, last);
        assertThat(cpu.cpus()).extracting(CpuSection.CpuUse::busy).containsExactly(100.0, 10.0, 0.0, 0.0);
        assertThat(cpu.cpus().get(2).iowait()).isEqualTo(50.0);
        assertThat(cpu.pegged()).containsExactly(0);
        assertThat(cpu.contextSwitchesPerSecond()).isEqualTo(2000.0);
        assertThat(cpu.all().iowait()).isEqualTo(12.5);
        assertThat(cpu.all().busy()).isEqualTo(27.5);

        ProcessSection p = ProcessSection.of(s.samples(), Map.of(), "/job.slice/train.scope");
        assertThat(p.cpuPercent()).as("10 + 100 + the late thread's 50 over its half of the window").isEqualTo(135.0);
        assertThat(p.minorFaultsPerSecond()).isEqualTo(20.0);
        assertThat(p.majorFaultsPerSecond()).isEqualTo(4.0);
        assertThat(p.io().writeBytesPerSecond()).isEqualTo(2_097_152.0);
        assertThat(p.io().rcharPerSecond()).isEqualTo(10_000_000.0);
        assertThat(p.cpusAllowed()).isEqualTo(CpuSet.range(0, 3));
        assertThat(p.cgroup()).isEqualTo("/job.slice/train.scope");
        assertThat(p.threadList()).extracting(ProcessSection.ThreadUse::name).containsExactly("pt_data_loader", "pin_memory", "python3");
        ProcessSection.ThreadUse l = p.threadList().getFirst();
        assertThat(l.cpuPercent()).isEqualTo(100.0);
        assertThat(l.lastCpu()).isEqualTo(2);
        assertThat(l.voluntarySwitchesPerSecond()).isEqualTo(20.0);
        assertThat(l.involuntarySwitchesPerSecond()).isEqualTo(6.0);
        assertThat(l.stateShares()).containsExactly(Map.entry(TaskState.RUNNING, 0.6), Map.entry(TaskState.DISK_SLEEP, 0.4));
        ProcessSection.ThreadUse pin = p.threadList().get(1);
        assertThat(pin.cpuPercent()).as("seen from tick 2: measured over its 1 s").isEqualTo(50.0);
        assertThat(p.threadList().get(2).cpuPercent()).isEqualTo(10.0);
        assertThat(p.children().count()).isEqualTo(1);
        assertThat(p.children().cpuPercent()).isEqualTo(50.0);
        assertThat(p.children().list().getFirst().comm()).isEqualTo("pt_data_worker");
        assertThat(p.children().list().getFirst().lastCpu()).isEqualTo(3);

        IoSection io = IoSection.of(first, last, ChecklistRun.wholeDisks(box.fs()));
        IoSection.DiskUse d = io.disks().getFirst();
        assertThat(d.name()).isEqualTo("nvme0n1");
        assertThat(d.writeBytesPerSecond()).isEqualTo(20480.0 * 512 * 2);
        assertThat(d.writesPerSecond()).isEqualTo(200.0);
        assertThat(d.readsPerSecond()).isZero();
        assertThat(d.awaitMs()).isEqualTo(2.0);
        assertThat(d.utilPercent()).isEqualTo(90.0);
        IoSection.NetUse n = io.networks().getFirst();
        assertThat(n.rxBytesPerSecond()).isEqualTo(2_000_000.0);
        assertThat(n.rxPacketsPerSecond()).isEqualTo(2000.0);

        LoadSection load = LoadSection.of(s.samples());
        assertThat(load.cpus()).isEqualTo(ProcBox.CPUS);
        assertThat(load.pressure().get(Pressure.Resource.MEMORY).someWindowPercent()).isEqualTo(10.0);
        assertThat(load.pressure().get(Pressure.Resource.MEMORY).someAvg10()).isEqualTo(10.0);
        assertThat(load.pressure().keySet()).containsExactly(Pressure.Resource.CPU, Pressure.Resource.MEMORY, Pressure.Resource.IO);
        assertThat(load.procsRunning()).isEqualTo(new LoadSection.Spread(3, 2.6, 3));
        assertThat(load.procsBlocked()).isEqualTo(1L);
    }

    @Test
    void aProcessThatExitsMidWindowLeavesWhatWasGathered() throws Exception {
        FakeTicker ticker = new FakeTicker(t -> {
            advance(t);
            if (t == 3) box.remove("/proc/" + PID);
        });
        Checklist c = ChecklistRun.run(box.fs(), PID, 10, true, ticker, GpuFeed.none("no GPU in a test"), i -> {});
        assertThat(c.window().samples()).isEqualTo(3);
        assertThat(c.window().startedAt()).isEqualTo("2026-12-02T12:00:00Z");
        assertThat(c.window().seconds()).isEqualTo(1.0);
        assertThat(c.window().exitedAfterSeconds()).isEqualTo(1.5);
        assertThat(c.notes()).containsExactly("PID 100 exited 1.5 s into the window: the figures cover the 1.0 s before");
        assertThat(c.process().pssBytes()).isNull();
        assertThat(c.process().memoryNotRead()).isEqualTo("exited before its memory was read");
        assertThat(c.process().rssBytes()).as("status's VmRSS of the last sample").isEqualTo(20480L * 1024);
        assertThat(c.process().threadList().getFirst().cpuPercent()).isEqualTo(100.0);
        assertThat(c.cpus().pegged()).containsExactly(0);
    }

    @Test
    void aZombieIsAnExitToo() throws InterruptedException {
        Sampler.Sampling s = Sampler.run(box.fs(), PID, 5, Sampler.INTERVAL, new FakeTicker(t -> {
            advance(t);
            if (t == 1) box.put("/proc/" + PID + "/stat", ProcBox.stat(PID, "python3", 'Z', 1, 0, 0, 0, 0, 1, 5000, 0));
        }), GpuFeed.none("-"), i -> {});
        assertThat(s.samples()).hasSize(1);
        assertThat(s.exited()).isTrue();
    }

    @Test
    void aThreadThatEndsAndAPidTheKernelHandsOnAreToldApart() throws InterruptedException {
        Sampler.Sampling s = Sampler.run(box.fs(), PID, 5, Sampler.INTERVAL, new FakeTicker(t -> {
            advance(t);
            if (t >= 3) box.remove("/proc/" + PID + "/task/" + LOADER);
            if (t >= 2) {
                // the worker exited and a new process got its pid: another start time, counters from zero
                box.put("/proc/" + WORKER + "/stat", ProcBox.stat(WORKER, "pt_data_worker", 'R', PID, 0, 0, 25L * (t - 2), 0, 1, 9000, 1));
            }
        }), GpuFeed.none("-"), i -> {});
        ProcessSection p = ProcessSection.of(s.samples(), Map.of(), null);
        ProcessSection.ThreadUse loaderUse = p.threadList().stream().filter(u -> u.tid() == LOADER).findFirst().orElseThrow();
        assertThat(loaderUse.ended()).isTrue();
        assertThat(loaderUse.cpuPercent()).isEqualTo(100.0);
        ProcessSection.ChildUse w = p.children().list().getFirst();
        assertThat(w.cpuPercent()).as("measured from the new process's first look, not against the old one's counters").isEqualTo(50.0);
    }

    @Test
    void withoutChildrenFilesEveryProcessIsAskedForItsParent() throws InterruptedException {
        box.remove("/proc/" + PID + "/task/" + PID + "/children").remove("/proc/" + PID + "/task/" + LOADER + "/children")
                .remove("/proc/" + WORKER + "/task/" + WORKER + "/children")
                .process(300, WORKER, "grandchild", 'S', 0, 0, 0, 0, 1, 0).process(400, 1, "stranger", 'R', 0, 0, 0, 0, 1, 0);
        Sample s = new SampleReader(box.fs(), PID, new java.util.LinkedHashSet<>()).read(0);
        assertThat(s.process().children().keySet()).containsExactlyInAnyOrder(WORKER, 300L);
    }

    @Test
    void grandchildrenAreFollowedThroughTheChildrenFiles() {
        box.children(WORKER, WORKER, 300).process(300, WORKER, "grandchild", 'S', 0, 0, 0, 0, 1, 0).thread(300, 300, "grandchild", 'S', 0, 0, 0, 0, 0);
        Sample s = new SampleReader(box.fs(), PID, new java.util.LinkedHashSet<>()).read(0);
        assertThat(s.process().children().keySet()).containsExactly(WORKER, 300L);
    }

    @Test
    void unreadableAndGarbledFilesAreUnknownsNotFailures() throws InterruptedException {
        box.remove("/proc/" + PID + "/io").put("/proc/" + PID + "/task/" + LOADER + "/stat", "lots").put("/proc/diskstats", "garbage\n")
                .remove("/proc/pressure");
        Sampler.Sampling s = Sampler.run(box.fs(), PID, 2, Sampler.INTERVAL, new FakeTicker(t -> {}), GpuFeed.none("-"), i -> {});
        assertThat(s.samples()).hasSize(2);
        assertThat(s.unknowns()).contains("/proc/" + PID + "/task/" + LOADER + "/stat: not a /proc stat line: \"lots\"",
                "/proc/diskstats: not /proc/diskstats: \"garbage\"", "/proc/pressure/cpu: missing");
        assertThat(s.samples().getFirst().process().ioNotRead()).isEqualTo("/proc/100/io: missing");
        assertThat(s.samples().getFirst().process().threads()).doesNotContainKey(LOADER);
        ProcessSection p = ProcessSection.of(s.samples(), Map.of(), null);
        assertThat(p.io()).isNull();
        assertThat(p.ioNotRead()).isEqualTo("/proc/100/io: missing");
        assertThat(LoadSection.of(s.samples()).pressure()).isEmpty();
    }

    @Test
    void aMissingOrZombiePidIsBadInput() {
        assertThatThrownBy(() -> ChecklistRun.existing(box.fs(), 4242)).isInstanceOf(BadInputException.class)
                .hasMessageStartingWith("PID 4242: no such process in ");
        box.put("/proc/7/stat", ProcBox.stat(7, "defunct", 'Z', 1, 0, 0, 0, 0, 1, 1, 0));
        assertThatThrownBy(() -> ChecklistRun.existing(box.fs(), 7)).isInstanceOf(BadInputException.class).hasMessageContaining("zombie");
        box.put("/proc/8/stat", "garbage");
        assertThatThrownBy(() -> ChecklistRun.existing(box.fs(), 8)).isInstanceOf(BadInputException.class).hasMessageContaining("not a /proc stat line");
        assertThatThrownBy(() -> ChecklistRun.existing(box.fs(), 0)).isInstanceOf(BadInputException.class).hasMessage("PID 0: not a process ID");
    }

    @Test
    void aRecordingGivesOneSnapshotWithoutRates() throws Exception {
        Checklist c = ChecklistRun.run(box.fs(), PID, 10, new FakeTicker(t -> { throw new AssertionError("a snapshot does not wait"); }),
                GpuFeed.none("unused"), i -> {});
        assertThat(c.window().mode()).isEqualTo(Checklist.Mode.SNAPSHOT);
        assertThat(c.window().startedAt()).as("when it was read says nothing of when it was recorded").isNull();
        assertThat(c.window().samples()).isEqualTo(1);
        assertThat(c.window().ratesNotMeasured()).startsWith("a recorded machine is one moment");
        assertThat(c.cpus()).isNull();
        assertThat(c.io()).isNull();
        assertThat(c.process().cpuPercent()).isNull();
        assertThat(c.process().pssBytes()).as("smaps_rollup is a fact of the moment").isEqualTo(10240L * 1024);
        assertThat(c.process().threadList()).extracting(ProcessSection.ThreadUse::state).contains(TaskState.RUNNING, TaskState.SLEEPING);
        assertThat(c.gpus().notRead()).startsWith("a recorded machine");
        assertThat(c.kernel().notRead()).startsWith("a recorded machine has no kernel log");
        assertThat(Verdicts.Code.of(c.verdict())).isEqualTo(Verdicts.Code.SNAPSHOT);
        assertThat(c.notes()).anyMatch(n -> n.startsWith("one snapshot of "));
    }

    @Test
    void cgroupLinesOfV1V2AndHybridMachines() {
        box.put("/proc/1/cgroup", "0::/user.slice\n");
        assertThat(ChecklistRun.cgroup(box.fs(), 1)).isEqualTo("/user.slice");
        box.put("/proc/1/cgroup", "12:pids:/docker/abc\n4:cpu,cpuacct:/docker/abc\n0::/\n");
        assertThat(ChecklistRun.cgroup(box.fs(), 1)).isEqualTo("/docker/abc (v1 cpu)");
        box.put("/proc/1/cgroup", "3:memory:/m\n");
        assertThat(ChecklistRun.cgroup(box.fs(), 1)).isEqualTo("/m (v1 memory)");
        box.put("/proc/1/cgroup", "junk\n");
        assertThat(ChecklistRun.cgroup(box.fs(), 1)).isNull();
    }

    @Test
    void spreadOfCounts() {
        assertThat(LoadSection.Spread.of(List.of(1L, 4L, 2L))).isEqualTo(new LoadSection.Spread(2, 2.33, 4));
        assertThat(LoadSection.Spread.of(java.util.Arrays.asList(null, null))).isNull();
        assertThat(Rates.cpuPercent(0, 150, 1.5)).isCloseTo(100.0, within(1e-9));
        assertThat(Rates.perSecond(10, 5, 1)).as("a counter that went back").isZero();
    }
}
