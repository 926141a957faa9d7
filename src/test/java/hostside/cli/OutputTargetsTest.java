package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.Fixtures;
import hostside.fs.SpecialFiles;
import hostside.testing.CliRun;

/**
 * Run as root on every node, a command told to write over a device, a FIFO or a link must refuse
 * in one line before it does any work, and leave what was there as it was: `snapshot -o
 * /dev/null` once replaced the system's /dev/null with a regular file.
 */
class OutputTargetsTest {
    @TempDir
    Path tmp;

    private static final String REPORT = Fixtures.testdata().resolve("reports/h200-hostside1.json").toString();

    private static String type(Path p) throws Exception {
        Process stat = new ProcessBuilder("stat", "-c", "%F", p.toString()).redirectErrorStream(true).start();
        String t = new String(stat.getInputStream().readAllBytes()).strip();
        stat.waitFor();
        return t;
    }

    @Test
    void snapshotToADeviceIsRefusedAndTheDeviceStays() throws Exception {
        Path dev = SpecialFiles.charDevice(tmp.resolve("null"), 1, 3);
        CliRun r = CliRun.of("snapshot", "-o", dev.toString(), "--root", Fixtures.h200().toString());
        r.assertOneLineError("hostside: -o " + dev + ": is a character device; hostside writes only to a regular file or a new name");
        assertThat(type(dev)).isEqualTo("character special file");
    }

    @Test
    void snapshotToAFifoOrToStdoutsLinkIsRefused() throws Exception {
        Path fifo = SpecialFiles.fifo(tmp.resolve("pipe"));
        CliRun.of("snapshot", "-o", fifo.toString(), "--root", Fixtures.h200().toString()).assertOneLineError("hostside: -o " + fifo + ": is a FIFO");
        assertThat(type(fifo)).isEqualTo("fifo");
        Path out = Files.createSymbolicLink(tmp.resolve("stdout"), Path.of("/proc/self/fd/1"));
        CliRun.of("snapshot", "-o", out.toString(), "--root", Fixtures.h200().toString())
                .assertOneLineError("hostside: -o " + out + ": is a symbolic link (to /proc/self/fd/1)");
        assertThat(Files.readSymbolicLink(out)).isEqualTo(Path.of("/proc/self/fd/1"));
    }

    @Test
    void aReportWhoseNameIsADeviceNodeIsRefusedBeforeAnythingIsWritten() throws Exception {
        Path dev = SpecialFiles.charDevice(tmp.resolve("h200-hostside1.html"), 1, 3);
        CliRun r = CliRun.of("report", "--from", REPORT, "--out", tmp.toString());
        r.assertOneLineError("hostside: --out " + dev + ": is a character device");
        assertThat(type(dev)).isEqualTo("character special file");
        assertThat(tmp.resolve("h200-hostside1.json")).as("no part of the set is written").doesNotExist();
        assertThat(tmp.resolve("h200-hostside1.md")).doesNotExist();
    }

    @Test
    void aReportOverItsOwnLastRunReplacesEachFile() throws Exception {
        assertThat(CliRun.of("report", "--from", REPORT, "--out", tmp.toString()).code()).isZero();
        Path md = tmp.resolve("h200-hostside1.md");
        Files.writeString(md, "stale");
        assertThat(CliRun.of("report", "--from", REPORT, "--out", tmp.toString()).code()).isZero();
        assertThat(Files.readString(md)).isNotEqualTo("stale");
        try (var s = Files.list(tmp)) {
            assertThat(s.map(p -> p.getFileName().toString()).sorted().toList())
                    .containsExactly("h200-hostside1.html", "h200-hostside1.json", "h200-hostside1.md");
        }
    }

    @Test
    void bundleToALinkIsRefusedBeforeTheRuntimeIsLinked() throws Exception {
        Path victim = Files.writeString(tmp.resolve("victim"), "precious");
        Path out = Files.createSymbolicLink(tmp.resolve("b.tar.gz"), victim);
        CliRun r = CliRun.of("bundle", "-o", out.toString());
        r.assertOneLineError("hostside: -o " + out + ": is a symbolic link (to " + victim + ")");
        assertThat(Files.isSymbolicLink(out)).isTrue();
        assertThat(Files.readString(victim)).isEqualTo("precious");
        assertThat(Files.exists(tmp.resolve("b.tar.gz"), LinkOption.NOFOLLOW_LINKS)).isTrue();
    }

    /** A folder that is no folder is named for what it is, not "a file" or "does not exist". */
    @Test
    void aFolderThatIsNoFolderIsSaidToBeWhatItIs() throws Exception {
        Path dev = SpecialFiles.charDevice(tmp.resolve("cdev"), 1, 3);
        Path fifo = SpecialFiles.fifo(tmp.resolve("fifo"));
        Path reg = Files.writeString(tmp.resolve("reg"), "x");
        CliRun.of("report", "--from", REPORT, "--out", dev.toString()).assertOneLineError("hostside: --out " + dev + ": is a character device, not a folder");
        CliRun.of("snapshot", "-o", fifo + "/.", "--root", Fixtures.h200().toString())
                .assertOneLineError("hostside: -o " + fifo + "/.: " + fifo + " is a FIFO, not a folder");
        CliRun.of("bundle", "-o", reg + "/x").assertOneLineError("hostside: -o " + reg + "/x: " + reg + " is a regular file, not a folder");
        CliRun.of("snapshot", "-o", tmp.resolve("none/x").toString(), "--root", Fixtures.h200().toString())
                .assertOneLineError("hostside: -o " + tmp.resolve("none/x") + ": folder " + tmp.resolve("none") + " does not exist");
    }
}
