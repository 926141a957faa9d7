package hostside.cpu.dataloader;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.cpu.dataloader.ProcMemory.Look;
import hostside.fs.FsRoot;

/** Looks at processes that are there, have gone, are zombies or give garbage: only the last is a problem. */
class ProcMemoryTest {
    @TempDir
    Path root;

    void file(String path, String text) throws Exception {
        Path p = root.resolve(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    @Test
    void recordedProcessesThereGoneZombieAndGarbage() throws Exception {
        file("proc/100/smaps_rollup", SmapsRollupTest.WORKER);
        file("proc/100/status", "Name:\tpython3\nState:\tS (sleeping)\nVmHWM:\t   31002 kB\nVmRSS:\t   29480 kB\n");
        file("proc/102/status", "Name:\tpython3\nState:\tZ (zombie)\n"); // smaps_rollup fails with ESRCH: none here
        file("proc/103/smaps_rollup", "nonsense\n");
        file("proc/103/status", "Name:\tpython3\nState:\tR (running)\n");
        file("proc/104/smaps_rollup", "Rss: 10 kB\nPss: 5 kB\n");
        file("proc/104/status", "State:\tS (sleeping)\n");
        FsRoot fs = FsRoot.open(root.toString());

        Look there = ProcMemory.look(fs, 100, 7);
        assertThat(there).isInstanceOf(Look.Seen.class);
        ProcMemory.Sample s = ((Look.Seen) there).sample();
        assertThat(s.atMillis()).isEqualTo(7);
        assertThat(s.uss()).isEqualTo((12L + 17940) * 1024);
        assertThat(s.vmRss()).isEqualTo(29480L * 1024);
        assertThat(s.vmHwm()).isEqualTo(31002L * 1024);
        assertThat(s.swap()).isEqualTo(128L * 1024);

        assertThat(ProcMemory.look(fs, 101, 0)).as("no /proc/101 at all").isInstanceOf(Look.Vanished.class);
        assertThat(ProcMemory.look(fs, 102, 0)).as("a zombie").isInstanceOf(Look.Vanished.class);
        assertThat(ProcMemory.look(fs, 103, 0)).as("running, but garbage").isInstanceOf(Look.Unreadable.class);
        assertThat(((Look.Unreadable) ProcMemory.look(fs, 104, 0)).why()).contains("Private_");

        Series series = new Series(100, "worker 0");
        series.add(there);
        series.add(ProcMemory.look(fs, 101, 1));
        series.add(ProcMemory.look(fs, 103, 2));
        assertThat(series.samples()).hasSize(1);
        assertThat(series.vanishedLooks()).isEqualTo(1);
        assertThat(series.unreadableLooks()).isEqualTo(1);
        assertThat(series.problem()).contains("/proc/103/smaps_rollup");
    }

    @Test
    void aLiveProcessThatExitsBetweenLooksHasVanished() throws Exception {
        FsRoot fs = FsRoot.live();
        Process p = new ProcessBuilder("sleep", "30").start();
        try {
            Look before = ProcMemory.look(fs, p.pid(), 0);
            assertThat(before).isInstanceOf(Look.Seen.class);
            ProcMemory.Sample s = ((Look.Seen) before).sample();
            assertThat(s.rss()).isPositive();
            assertThat(s.vmRss()).as("VmRSS beside Rss").isPositive();
            assertThat(Math.abs(s.vmRss() - s.rss())).isLessThanOrEqualTo(64 * 4096L);
            assertThat(s.vmHwm()).as("the peak is at least what it holds now").isGreaterThanOrEqualTo(s.vmRss());
        } finally {
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
        Series series = new Series(p.pid(), "sleep");
        assertThat(series.add(ProcMemory.look(fs, p.pid(), 1))).isEmpty();
        assertThat(series.vanishedLooks()).isEqualTo(1);
        assertThat(series.unreadableLooks()).isZero();
    }

    @Test
    void aZombieHasVanished() throws Exception {
        FsRoot fs = FsRoot.live();
        // sh forks a child that exits at once; sh does not reap it while it sleeps
        Process p = new ProcessBuilder("sh", "-c", "true & exec sleep 30").start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            List<ProcessHandle> kids = List.of();
            while (System.nanoTime() < deadline) {
                kids = p.children().toList();
                if (!kids.isEmpty() && fs.text("/proc/" + kids.getFirst().pid() + "/status").orElse("").contains("State:\tZ")) break;
                kids = List.of();
                Thread.sleep(10);
            }
            if (kids.isEmpty()) return; // the shell reaped it (or exec'd first): nothing to look at
            assertThat(ProcMemory.look(fs, kids.getFirst().pid(), 0)).isInstanceOf(Look.Vanished.class);
        } finally {
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }
}
