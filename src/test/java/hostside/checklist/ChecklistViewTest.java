package hostside.checklist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.Style;

/** The one screen, rendered from a window over a recorded /proc: every step in order, the figures where they belong. */
class ChecklistViewTest {
    @TempDir
    Path dir;

    @Test
    void theTrainingJobOnOneScreen() throws InterruptedException {
        SamplerTest job = new SamplerTest();
        job.dir = dir;
        job.job();
        Checklist c = ChecklistRun.gather(job.box.fs(), SamplerTest.PID, 2, true, new FakeTicker(job::advance),
                GpuFeed.none("no NVIDIA driver (libnvidia-ml.so.1 not found)"), i -> {});
        String text = ChecklistView.render(c, Style.plain());
        List<String> lines = text.lines().toList();
        assertThat(lines.getFirst()).isEqualTo("hostside checklist: PID 100 python3, 2.0 s (5 samples, every 500 ms)");
        assertThat(lines.get(1)).isEqualTo("VERDICT   ! CPU-bound: 1 thread at 100% on core 2; GPUs not read: no NVIDIA driver (libnvidia-ml.so.1 not found)");
        assertThat(text).doesNotContain("\u001b[");
        List<String> steps = lines.stream().filter(l -> l.matches("[1-6] \\S.*")).map(l -> l.substring(0, l.indexOf(' ', 2))).toList();
        assertThat(steps).containsExactly("1 Load", "2 Kernel", "3 CPUs", "4 Process", "5 I/O", "6 GPUs");
        assertThat(text).contains("load 0.50 0.40 0.30 (1, 5, 15 min); 4 CPUs; runnable 3 (mean 2.6, most 3); blocked on I/O 1")
                .contains("memory some 10% (10) full 0% (0)")
                .contains("2 Kernel  log not read: a recorded machine has no kernel log")
                .contains("all: 27.5% busy (usr 27.5%, sys 0%, iowait 12.5%, irq 0%, soft 0%, steal 0%); 2,000 context switches/s")
                .contains("pegged (≥95% busy): CPU 0")
                .contains("python3, S (x), 135% CPU, 3 threads, RSS 20 MiB, PSS 10 MiB")
                .contains("faults 20/s minor, 4/s major; disk read 0.0 MB/s, write 2.1 MB/s (all read/write calls: 10.0 MB/s in, 0.0 MB/s out)")
                .contains("cgroup /job.slice/train.scope; allowed CPUs 0-3")
                .contains("below it: 1 process, 50% CPU, RSS 20 MiB, PSS 10 MiB")
                .contains("6 GPUs    not read: no NVIDIA driver (libnvidia-ml.so.1 not found)");
        assertThat(lines).anyMatch(l -> l.matches("\\s+101\\s+pt_data_loader\\s+100\\s+R 60% D 40%\\s+2\\s+20\\s+6"));
        assertThat(lines).anyMatch(l -> l.matches("\\s+nvme0n1\\s+21\\.0\\s+0\\.0\\s+0\\s+200\\s+2\\s+90|\\s+nvme0n1\\s+0\\.0\\s+21\\.0\\s+0\\s+200\\s+2\\s+90"));
        assertThat(lines).anyMatch(l -> l.matches("\\s+eth0\\s+2\\.0\\s+0\\.0\\s+2000\\s+0\\s+0\\s+0"));
        assertThat(lines.size()).as("one screen").isLessThan(60);
    }

    @Test
    void kernelEventsAndGpusAsTheyRead() throws InterruptedException {
        SamplerTest job = new SamplerTest();
        job.dir = dir;
        job.job();
        Checklist c = ChecklistRun.gather(job.box.fs(), SamplerTest.PID, 1, true, new FakeTicker(job::advance), GpuFeed.none("-"), i -> {});
        KernelSection kernel = KernelSectionTest.section(java.util.Set.of(SamplerTest.PID, SamplerTest.WORKER),
                KernelSectionTest.record(1, 1800, "Memory cgroup out of memory: Killed process 200 (pt_data_worker) total-vm:1kB, anon-rss:1kB"),
                KernelSectionTest.record(2, 600, "NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."),
                KernelSectionTest.record(3, 240, "NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."),
                KernelSectionTest.record(4, 30, "INFO: task python3:100 blocked for more than 122 seconds."));
        GpuSection gpus = new GpuSection(null, List.of(new GpuSection.GpuUse(0, "NVIDIA H200", "0000:3b:00.0", 35.2, 20, 60, 30.0, 5, 12.0,
                70L << 30, 141L << 30, 699.5, 700.0, 1410.0, 1980, java.util.Map.of("power cap", 0.8), 1234.0, 15728640.0, List.of(100L), true)));
        Checklist with = new Checklist(c.schema(), c.kind(), c.pid(), c.comm(), c.window(), c.verdict(), c.verdicts(), c.notes(), c.load(),
                kernel, c.cpus(), c.process(), c.io(), gpus, List.of("a", "b", "c", "d"));
        String text = ChecklistView.render(with, Style.plain());
        assertThat(text).contains("2 Kernel  4 records:\n")
                .contains("✗ 30 s ago     hung task python3 (100)")
                .contains("✗ 4 min ago    Xid 79 on 0000:3b:00 (2 times): GPU has fallen off the bus: unreachable over PCIe, needs a reboot")
                .contains("✗ 30 min ago   OOM kill of pt_data_worker (200), this process, by its cgroup's limit")
                .contains("6 GPUs    1 GPU (NVML)")
                .contains("unknown: 4 figures could not be read (--json lists all)");
        List<String> lines = text.lines().toList();
        assertThat(lines).anyMatch(l -> l.matches("\\s+0\\s+NVIDIA H200\\s+35\\.2 \\(20-60\\)\\s+12\\s+70 GiB of 141 GiB\\s+700/700\\s+1410/1980"
                + "\\s+power cap 80%\\s+1/15729\\s+yes"));
    }
}
