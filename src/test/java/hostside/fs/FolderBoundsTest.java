package hostside.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import hostside.core.BadInputException;

/**
 * A recorded folder (or live /proc) with files hostside must not read whole or at all: each
 * read returns, promptly, with why, and nothing but a regular file is opened (a FIFO's waiting
 * writer shows it). The timeouts are hang checks (a FIFO read without a writer blocks for ever),
 * generous on purpose, not timings.
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
    void aFifoReadsAsNotARegularFile() throws Exception {
        SpecialFiles.fifo(tmp.resolve("sys/fifo"));
        FsRoot fs = folder();
        Read r = assertTimeoutPreemptively(HANG, () -> fs.read("/sys/fifo"));
        assertThat(r.why()).isEqualTo("/sys/fifo: " + NOT_REGULAR);
        assertThat(assertTimeoutPreemptively(HANG, () -> fs.bytes("/sys/fifo"))).isEmpty();
        assertThat(fs.exists("/sys/fifo")).isTrue();
        assertThat(fs.list("/sys")).containsExactly("fifo");
    }

    @Test
    void aSocketReadsAsNotARegularFile() throws Exception {
        try (ServerSocketChannel s = SpecialFiles.socket(tmp.resolve("sys/sock"))) {
            FsRoot fs = folder();
            assertThat(assertTimeoutPreemptively(HANG, () -> fs.read("/sys/sock")).why()).isEqualTo("/sys/sock: " + NOT_REGULAR);
        }
    }

    /**
     * What a device node reads as. That it is never opened cannot be watched here (an open of
     * /dev/null's numbers leaves no trace): {@link #aFifoWithAWriterWaitingIsNeverOpened} is the
     * case that shows it, through the same code.
     */
    @Test
    void aDeviceNodeReadsAsNotARegularFile() throws Exception {
        SpecialFiles.charDevice(tmp.resolve("sys/null"), 1, 3); // /dev/null's numbers: opened, it would read as ""
        SpecialFiles.charDevice(tmp.resolve("proc/zero"), 1, 5); // /dev/zero's: read whole, it never ends
        FsRoot fs = folder();
        assertThat(assertTimeoutPreemptively(HANG, () -> fs.read("/sys/null")).why()).isEqualTo("/sys/null: " + NOT_REGULAR);
        assertThat(assertTimeoutPreemptively(HANG, () -> fs.read("/proc/zero")).why()).isEqualTo("/proc/zero: " + NOT_REGULAR);
    }

    /** The race: kind() said FILE, then a FIFO or a device took the name before the open. The tree's read alone must refuse it. */
    @ParameterizedTest(name = "walk={0}")
    @ValueSource(booleans = {false, true})
    void aFifoOrDeviceSwappedInAfterTheKindCheckIsRefusedByTheTreeAlone(boolean walk) throws Exception {
        SpecialFiles.fifo(tmp.resolve("sys/was-a-file"));
        SpecialFiles.charDevice(tmp.resolve("sys/was-another"), 1, 5);
        DirectoryTree tree = new DirectoryTree(tmp, walk);
        for (String p : new String[] {"/sys/was-a-file", "/sys/was-another"}) {
            assertTimeoutPreemptively(HANG, () -> assertThatThrownBy(() -> tree.read(p)).as(p).isInstanceOf(IOException.class).hasMessage(NOT_REGULAR));
        }
    }

    /**
     * The case that shows a FIFO is never opened: a writer waits in its open for a reader, and
     * any open for reading, even non-blocking and closed at once, would let it go on. It still
     * waits after FsRoot's reads and after the tree's own read (the race above, where FsRoot's
     * look is passed by).
     */
    @ParameterizedTest(name = "walk={0}")
    @ValueSource(booleans = {false, true})
    void aFifoWithAWriterWaitingIsNeverOpened(boolean walk) throws Exception {
        Path m = Files.createDirectories(tmp.resolve("m"));
        Files.createDirectories(m.resolve("sys"));
        Path fifo = SpecialFiles.fifo(m.resolve("proc/cpuinfo"));
        try (SpecialFiles.BlockedWriter writer = SpecialFiles.blockedWriter(fifo)) {
            DirectoryTree tree = new DirectoryTree(m, walk);
            FsRoot fs = FsRoot.over(tree, false);
            assertTimeoutPreemptively(HANG, () -> {
                assertThat(fs.read("/proc/cpuinfo").why()).isEqualTo("/proc/cpuinfo: " + NOT_REGULAR);
                assertThat(fs.bytes("/proc/cpuinfo")).isEmpty();
                assertThat(fs.environVariable("/proc/cpuinfo", "PATH")).isEmpty();
                assertThatThrownBy(() -> tree.read("/proc/cpuinfo")).isInstanceOf(IOException.class).hasMessage(NOT_REGULAR);
            });
            writer.assertStillBlocked();
            writer.assertReleasedByAReader();
        }
    }

    /**
     * Where /proc/self/fd cannot be opened (here: a tmpfs mounted over this JVM's own, in a mount
     * namespace of its own), a regular file is opened by name a second time and still reads, and
     * a FIFO is still refused without an open: its waiting writer stays where it is.
     */
    @Test
    void withoutProcSelfFdAFileStillReadsAndAFifoIsStillNeverOpened() throws Exception {
        Path m = Files.createDirectories(tmp.resolve("m"));
        Files.writeString(Files.createDirectories(m.resolve("sys")).resolve("x"), "inside\n");
        Path fifo = SpecialFiles.fifo(m.resolve("proc/cpuinfo"));
        try (SpecialFiles.BlockedWriter writer = SpecialFiles.blockedWriter(fifo)) {
            String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Path out = tmp.resolve("out.txt");
            Process p = new ProcessBuilder("unshare", "--mount", "sh", "-c", "mount -t tmpfs none /proc/$$/fd && exec \"$@\"", "sh",
                    javaBin, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), ReadRecording.class.getName(),
                    m.toString(), "/sys/x", "/proc/cpuinfo")
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("finished").isTrue();
            String said = Files.readString(out);
            if (p.exitValue() != 0 && said.contains("mount") && "1".equals(System.getenv(SpecialFiles.ALLOW))) {
                org.junit.jupiter.api.Assumptions.abort("unshare and mount refused (not root): " + said);
            }
            assertThat(p.exitValue()).as(said).isZero();
            assertThat(said.lines()).containsExactly("/sys/x=inside", "/proc/cpuinfo: " + NOT_REGULAR);
            writer.assertStillBlocked();
            writer.assertReleasedByAReader();
        }
    }

    /** FsRoot resolves every link itself; a link at the last component was swapped in after that, and is not followed. */
    @ParameterizedTest(name = "walk={0}")
    @ValueSource(booleans = {false, true})
    void aLinkSwappedInAtTheLastComponentIsNotFollowed(boolean walk) throws Exception {
        Path outside = Files.writeString(tmp.resolve("outside-the-recording"), "secret\n");
        Files.createDirectories(tmp.resolve("m/sys"));
        Files.createSymbolicLink(tmp.resolve("m/sys/was-a-file"), outside);
        DirectoryTree tree = new DirectoryTree(tmp.resolve("m"), walk);
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
