package hostside.fs;

import hostside.core.BadInputException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recorded folder (or live /proc) with files hostside must not read whole or at all: each
 * read returns, promptly, with why. The timeouts are hang checks (a FIFO read without a writer
 * blocks for ever), generous on purpose, not timings.
 */
class FolderBoundsTest {
    private static final Duration HANG = Duration.ofSeconds(20);
    private static final String NOT_REGULAR = "not a regular file (a FIFO, socket or device is never opened)";

    @TempDir
    Path tmp;

    private FsRoot folder() throws IOException {
        Files.createDirectories(tmp.resolve("proc"));
        Files.createDirectories(tmp.resolve("sys"));
        return FsRoot.open(tmp.toString());
    }

    @Test
    void aFifoIsNeverOpened() throws Exception {
        SpecialFiles.fifo(tmp.resolve("sys/fifo"));
        FsRoot fs = folder();
        Read r = assertTimeoutPreemptively(HANG, () -> fs.read("/sys/fifo"));
        assertThat(r.why()).isEqualTo("/sys/fifo: " + NOT_REGULAR);
        assertThat(assertTimeoutPreemptively(HANG, () -> fs.bytes("/sys/fifo"))).isEmpty();
        assertThat(fs.exists("/sys/fifo")).isTrue();
        assertThat(fs.list("/sys")).containsExactly("fifo");
    }

    @Test
    void aSocketIsNeverOpened() throws Exception {
        try (ServerSocketChannel s = SpecialFiles.socket(tmp.resolve("sys/sock"))) {
            FsRoot fs = folder();
            assertThat(assertTimeoutPreemptively(HANG, () -> fs.read("/sys/sock")).why()).isEqualTo("/sys/sock: " + NOT_REGULAR);
        }
    }

    @Test
    void aDeviceNodeIsNeverOpened() throws Exception {
        SpecialFiles.charDevice(tmp.resolve("sys/null"), 1, 3); // /dev/null's numbers: opened, it would read as ""
        SpecialFiles.charDevice(tmp.resolve("proc/zero"), 1, 5); // /dev/zero's: read whole, it never ends
        FsRoot fs = folder();
        assertThat(assertTimeoutPreemptively(HANG, () -> fs.read("/sys/null")).why()).isEqualTo("/sys/null: " + NOT_REGULAR);
        assertThat(assertTimeoutPreemptively(HANG, () -> fs.read("/proc/zero")).why()).isEqualTo("/proc/zero: " + NOT_REGULAR);
    }

    /** The race: kind() said FILE, then a FIFO took the name before the open. The tree's read alone must refuse it. */
    @Test
    void aFifoSwappedInAfterTheKindCheckIsNotOpenedEither() throws Exception {
        SpecialFiles.fifo(tmp.resolve("sys/was-a-file"));
        DirectoryTree tree = new DirectoryTree(tmp);
        assertTimeoutPreemptively(HANG, () -> assertThatThrownBy(() -> tree.read("/sys/was-a-file"))
                .isInstanceOf(IOException.class).hasMessage(NOT_REGULAR));
    }

    /** FsRoot resolves every link itself; a link at the last component was swapped in after that, and is not followed. */
    @Test
    void aLinkSwappedInAtTheLastComponentIsNotFollowed() throws Exception {
        Path outside = Files.writeString(tmp.resolve("outside-the-recording"), "secret\n");
        Files.createDirectories(tmp.resolve("m/sys"));
        Files.createSymbolicLink(tmp.resolve("m/sys/was-a-file"), outside);
        DirectoryTree tree = new DirectoryTree(tmp.resolve("m"));
        assertThatThrownBy(() -> tree.read("/sys/was-a-file")).isInstanceOf(IOException.class).hasMessageContaining("symbolic link");
    }

    @Test
    void aThreeGibFileIsTooLargeAndIsNotRead() throws Exception {
        SpecialFiles.sparse(tmp.resolve("proc/cpuinfo"), 3L << 30);
        FsRoot fs = folder();
        Read r = assertTimeoutPreemptively(HANG, () -> fs.read("/proc/cpuinfo"));
        assertThat(r.why()).isEqualTo("/proc/cpuinfo: too large (3221225472 bytes, cap 33554432)");
        assertThat(fs.bytes("/proc/cpuinfo")).isEmpty();
    }

    @Test
    void aFileAtTheCapIsReadWholeAndOneByteMoreIsNot() throws Exception {
        SpecialFiles.sparse(tmp.resolve("sys/at-cap"), FileCap.BYTES);
        SpecialFiles.sparse(tmp.resolve("sys/over-cap"), FileCap.BYTES + 1L);
        FsRoot fs = folder();
        assertThat(fs.bytes("/sys/at-cap")).hasValueSatisfying(b -> assertThat(b).hasSize(FileCap.BYTES));
        assertThat(fs.read("/sys/over-cap").why()).isEqualTo("/sys/over-cap: too large (33554433 bytes, cap 33554432)");
    }

    /**
     * /proc files say size 0 whatever they hold, so the cap must be kept while reading.
     * /proc/self/pagemap says 0 and holds 8 bytes per page of the address space (hundreds of GiB).
     */
    @Test
    void aLiveProcFileThatSaysSizeZeroIsCutAtTheCap() {
        Read r = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> FsRoot.live().read("/proc/self/pagemap"));
        assertThat(r.why()).endsWith(": too large (more than 33554432 bytes, cap 33554432)");
    }

    @Test
    void aRootThatIsAFifoIsBadInputNotAHang() throws Exception {
        Path fifo = SpecialFiles.fifo(tmp.resolve("root.tar.gz"));
        assertTimeoutPreemptively(HANG, () -> assertThatThrownBy(() -> FsRoot.open(fifo.toString()))
                .isInstanceOf(BadInputException.class).hasMessageContaining("a FIFO, socket or device"));
    }
}
