package hostside.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.Fixtures;
import hostside.testing.CliRun;

/**
 * The H200 recording unpacked into a folder, with a FIFO for /proc/meminfo, a 3 GiB sparse
 * /proc/cpuinfo and a FIFO among the NUMA nodes: `machine --root` hung for ever on the FIFO;
 * now it answers, with those facts unknown and why, and `snapshot` records them as unreadable,
 * never their bytes. The timeouts are hang checks, generous, not timings.
 */
class FolderRecordingCliTest {
    private static final Duration HANG = Duration.ofSeconds(120);
    private static final String NOT_REGULAR = "not a regular file (a FIFO, socket or device is never opened)";

    @TempDir
    Path tmp;

    private Path spoiledRecording() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("box"));
        Process tar = new ProcessBuilder("tar", "xzf", Fixtures.h200().toString(), "-C", dir.toString()).inheritIO().start();
        assertThat(tar.waitFor()).as("tar xzf").isZero();
        assertThat(dir.resolve("proc/meminfo")).exists();
        Files.delete(dir.resolve("proc/meminfo"));
        SpecialFiles.fifo(dir.resolve("proc/meminfo"));
        Files.delete(dir.resolve("proc/cpuinfo"));
        SpecialFiles.sparse(dir.resolve("proc/cpuinfo"), 3L << 30);
        SpecialFiles.fifo(dir.resolve("sys/devices/system/node/fifo0"));
        Path speed = dir.resolve("sys/devices/pci0000:00/0000:00:03.0/virtio2/net/eth0/speed");
        Files.delete(speed);
        SpecialFiles.sparse(speed, 3L << 30);
        return dir;
    }

    @Test
    void machineOnAFolderWithAFifoAndAGiantFileAnswers() throws Exception {
        Path dir = spoiledRecording();
        CliRun run = assertTimeoutPreemptively(HANG, () -> CliRun.of("machine", "--root", dir.toString()));
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("CPU     model unknown"); // /proc/cpuinfo, not read
        CliRun io = assertTimeoutPreemptively(HANG, () -> CliRun.of("io", "--root", dir.toString()));
        assertThat(io.code()).as(io.err()).isZero();
        assertThat(io.out()).contains("unknown (too large (3221225472 bytes, cap 33554432))"); // eth0's speed
    }

    /**
     * The red team's case: /proc/cpuinfo a FIFO with a writer waiting in its open. `machine --root`
     * opened it for reading (non-blocking, as root), which let the writer go on; a device node's
     * driver would have run its open the same way. Nothing but a regular file is opened now.
     */
    @Test
    void machineNeverOpensAFifoThatAWriterWaitsOn() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("box"));
        Process tar = new ProcessBuilder("tar", "xzf", Fixtures.h200().toString(), "-C", dir.toString()).inheritIO().start();
        assertThat(tar.waitFor()).as("tar xzf").isZero();
        Files.delete(dir.resolve("proc/cpuinfo"));
        Path fifo = SpecialFiles.fifo(dir.resolve("proc/cpuinfo"));
        try (SpecialFiles.BlockedWriter writer = SpecialFiles.blockedWriter(fifo)) {
            CliRun run = assertTimeoutPreemptively(HANG, () -> CliRun.of("machine", "--root", dir.toString()));
            assertThat(run.code()).as(run.err()).isZero();
            assertThat(run.out()).contains("CPU     model unknown");
            writer.assertStillBlocked();
            writer.assertReleasedByAReader();
        }
    }

    @Test
    void aSnapshotOfItRecordsThemAsUnreadableNeverTheirBytes() throws Exception {
        Path dir = spoiledRecording();
        Path out = tmp.resolve("snap.tar.gz");
        CliRun run = assertTimeoutPreemptively(HANG, () -> CliRun.of("snapshot", "--root", dir.toString(), "-o", out.toString()));
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(Files.size(out)).as("no 3 GiB inside").isLessThan(1 << 20);
        FsRoot back = FsRoot.open(out.toString());
        assertThat(back.read("/proc/meminfo").why()).isEqualTo("/proc/meminfo: " + NOT_REGULAR);
        assertThat(back.read("/proc/cpuinfo").why()).isEqualTo("/proc/cpuinfo: too large (3221225472 bytes, cap 33554432)");
        assertThat(back.list("/sys/devices/system/node")).contains("fifo0", "node0");
        assertThat(back.read("/sys/devices/system/node/fifo0").why()).isEqualTo("/sys/devices/system/node/fifo0: " + NOT_REGULAR);
        assertThat(back.read("/sys/class/net/eth0/speed").why()).isEqualTo("/sys/class/net/eth0/speed: too large (3221225472 bytes, cap 33554432)");
    }
}
