package hostside.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.testing.CliRun;

/**
 * Tarballs whose members, or whose whole, would take unbounded memory or time: big members
 * are skipped unkept and read as too large; past the tarball's limits it is bad input, one line.
 * The tarballs are made of repeated gzip members (GzTar), so GiBs of zeros cost nothing to write.
 */
class TarBoundsTest {
    private static final long MIB = 1 << 20;

    @TempDir
    Path tmp;

    @Test
    void aMemberOverTheCapReadsAsTooLargeAndTheOthersLoad() throws IOException {
        Path t = tmp.resolve("big.tar.gz");
        try (GzTar g = new GzTar(t)) {
            g.file("m/sys/a", "1\n").zeros("m/sys/big", FileCap.BYTES + MIB).zeros("m/sys/at-cap", FileCap.BYTES).file("m/proc/b", "2\n");
        }
        FsRoot fs = FsRoot.open(t.toString());
        assertThat(fs.read("/sys/big").why()).isEqualTo("/sys/big: too large (34603008 bytes, cap 33554432)");
        assertThat(fs.bytes("/sys/big")).isEmpty();
        assertThat(fs.exists("/sys/big")).isTrue();
        assertThat(fs.list("/sys")).containsExactly("a", "at-cap", "big");
        assertThat(fs.bytes("/sys/at-cap")).hasValueSatisfying(b -> assertThat(b).hasSize(FileCap.BYTES));
        assertThat(fs.text("/sys/a")).contains("1");
        assertThat(fs.text("/proc/b")).contains("2");
    }

    /**
     * Issue 14's case: a few-MB tarball with a 3 GiB member ended in OutOfMemoryError after 2 GB
     * of RSS. In a JVM of 512 MiB heap it loads, and the member reads as too large. Inflating
     * 3 GiB of zeros takes a few seconds.
     */
    @Test
    void aThreeGibMemberLoadsInA512MibHeap() throws Exception {
        Path t = tmp.resolve("bomb.tar.gz");
        try (GzTar g = new GzTar(t)) {
            g.file("m/sys/before", "1\n").zeros("m/sys/big", 3L << 30).file("m/sys/after", "2\n");
        }
        assertThat(Files.size(t)).as("a small tarball").isLessThan(16 * MIB);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx512m", "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                ReadRecording.class.getName(), t.toString(), "/sys/before", "/sys/big", "/sys/after")
                .redirectErrorStream(true).redirectOutput(tmp.resolve("out.txt").toFile()).start();
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("finished").isTrue();
        String out = Files.readString(tmp.resolve("out.txt"));
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out.lines()).containsExactly("/sys/before=1", "/sys/big: too large (3221225472 bytes, cap 33554432)", "/sys/after=2");
    }

    /** A million tiny members: the limit is on entries, so it trips however little each holds. */
    @Test
    void moreEntriesThanTheLimitIsBadInputInOneLine() throws IOException {
        Path t = tmp.resolve("many.tar.gz");
        int perBlock = 1000;
        byte[] block = new byte[perBlock * 512];
        TarArchiveEntry e = new TarArchiveEntry("m/sys/x");
        for (int i = 0; i < perBlock; i++) System.arraycopy(GzTar.header(e), 0, block, i * 512, 512);
        byte[] member = GzTar.gz(block);
        try (GzTar g = new GzTar(t)) {
            for (int i = 0; i <= TarTree.MAX_ENTRIES / perBlock; i++) g.rawGz(member);
        }
        CliRun run = assertTimeoutPreemptively(Duration.ofSeconds(120), () -> CliRun.of("machine", "--root", t.toString()));
        run.assertOneLineError("hostside: " + t + ": more than 1000000 entries");
    }

    /** Nine members at the cap, each under it: 288 MiB together, over the 256 MiB kept in memory. */
    @Test
    void moreContentThanTheLimitIsBadInputInOneLine() throws IOException {
        Path t = tmp.resolve("fat.tar.gz");
        try (GzTar g = new GzTar(t)) {
            // one name: each member replaces the one before, so this test's own heap stays small
            for (int i = 0; i < 9; i++) g.zeros("m/sys/big", FileCap.BYTES);
        }
        CliRun.of("machine", "--root", t.toString()).assertOneLineError("hostside: " + t + ": holds more than 256 MiB of files and names");
    }

    /** Members over the cap are inflated and dropped; past 4 GiB unpacked the inflating stops. */
    @Test
    void moreThanFourGibUnpackedIsBadInputInOneLine() throws IOException {
        Path t = tmp.resolve("bomb.tar.gz");
        try (GzTar g = new GzTar(t)) {
            g.file("m/sys/a", "1\n").zeros("m/sys/huge", 4L << 30);
        }
        CliRun run = assertTimeoutPreemptively(Duration.ofSeconds(120), () -> CliRun.of("machine", "--root", t.toString()));
        run.assertOneLineError("hostside: " + t + ": unpacks to more than 4 GiB");
    }

    /** The tar reader gathers a GNU long name in memory whatever its size: 2 MiB of name is refused before that. */
    @Test
    void aHugeLongNameIsBadInputInOneLine() throws IOException {
        Path t = tmp.resolve("longname.tar.gz");
        // written by hand: commons-compress takes minutes to encode a 2 MiB name
        TarArchiveEntry longLink = new TarArchiveEntry("././@LongLink", TarConstants.LF_GNUTYPE_LONGNAME);
        longLink.setSize(2 * MIB);
        byte[] name = new byte[(int) (2 * MIB)];
        java.util.Arrays.fill(name, (byte) 'a');
        try (GzTar g = new GzTar(t)) {
            g.raw(GzTar.header(longLink)).raw(name).file("m/sys/x", "1\n");
        }
        CliRun.of("machine", "--root", t.toString()).assertOneLineError("hostside: " + t + ": a tar header (pax records or a GNU long name) of more than 1 MiB");
    }

    @Test
    void fifosAndDevicesInATarballAreListedButNeverRead() throws IOException {
        Path t = tmp.resolve("special.tar.gz");
        try (TarArchiveOutputStream out = new TarArchiveOutputStream(new GZIPOutputStream(Files.newOutputStream(t)))) {
            for (var e : new TarArchiveEntry[] {new TarArchiveEntry("m/sys/fifo", TarConstants.LF_FIFO),
                    new TarArchiveEntry("m/sys/zero", TarConstants.LF_CHR), new TarArchiveEntry("m/sys/disk", TarConstants.LF_BLK)}) {
                out.putArchiveEntry(e);
                out.closeArchiveEntry();
            }
            TarArchiveEntry ok = new TarArchiveEntry("m/sys/x");
            ok.setSize(2);
            out.putArchiveEntry(ok);
            out.write("1\n".getBytes(StandardCharsets.UTF_8));
            out.closeArchiveEntry();
        }
        FsRoot fs = FsRoot.open(t.toString());
        assertThat(fs.list("/sys")).containsExactly("disk", "fifo", "x", "zero");
        for (String p : new String[] {"/sys/fifo", "/sys/zero", "/sys/disk"}) {
            assertThat(fs.read(p).why()).as(p).isEqualTo(p + ": not a regular file (a FIFO, socket or device is never opened)");
            assertThat(fs.bytes(p)).as(p).isEmpty();
        }
        assertThat(fs.text("/sys/x")).contains("1");
    }
}
