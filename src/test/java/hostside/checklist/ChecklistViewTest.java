package hostside.checklist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.report.Style;

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
}
