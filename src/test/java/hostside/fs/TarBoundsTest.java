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

    /**
     * 200,001 tiny members: the limit is on entries, so it trips however little each holds. (It
     * was a million: 999,990 empty members, a 13 MB tarball, took 3.1 GB of RSS.)
     */
    @Test
    void moreEntriesThanTheLimitIsBadInputInOneLine() throws IOException {
        Path t = tmp.resolve("many.tar.gz");
        int perBlock = 1000;
        byte[] block = new byte[perBlock * 512];
        TarArchiveEntry e = new TarArchiveEntry("m/sys/x");
        for (int i = 0; i < perBlock; i++) System.arraycopy(GzTar.header(e), 0, block, i * 512, 512);
        byte[] member = GzTar.gz(block);
        try (GzTar g = new GzTar(t)) {
            for (int i = 0; i <= 200_000 / perBlock; i++) g.rawGz(member);
        }
        CliRun run = assertTimeoutPreemptively(Duration.ofSeconds(120), () -> CliRun.of("machine", "--root", t.toString()));
        run.assertOneLineError("hostside: " + t + ": more than 200000 entries");
    }

    /** A tarball of members with these paths, each holding "1\n"; paths past 100 bytes in pax records, as GNU tar writes them. */
    private Path tarball(String file, java.util.stream.Stream<String> paths) throws IOException {
        Path t = tmp.resolve(file);
        try (TarArchiveOutputStream out = new TarArchiveOutputStream(new GZIPOutputStream(Files.newOutputStream(t)))) {
            out.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (String p : (Iterable<String>) paths::iterator) {
                TarArchiveEntry e = new TarArchiveEntry(p);
                e.setSize(2);
                out.putArchiveEntry(e);
                out.write("1\n".getBytes(StandardCharsets.UTF_8));
                out.closeArchiveEntry();
            }
        }
        return t;
    }

    /** A path of {@code bytes} bytes under m/sys, in folders of 200 letters (sysfs names are far shorter; tar does not care). */
    private static String pathOf(int bytes) {
        StringBuilder b = new StringBuilder("m/sys");
        while (b.length() + 1 + 200 < bytes) b.append('/').append("x".repeat(200));
        int last = bytes - b.length() - 1;
        return b.append('/').append("f".repeat(last)).toString();
    }

    /** No file of a machine has a path longer than PATH_MAX (4096 bytes): a member's that does is no recording's. */
    @Test
    void aPathLongerThanPathMaxIsBadInputInOneLine() throws IOException {
        Path ok = tarball("at-path-max.tar.gz", java.util.stream.Stream.of(pathOf(4096), "m/proc/a"));
        assertThat(pathOf(4096)).hasSize(4096);
        assertThat(FsRoot.open(ok.toString()).text(pathOf(4096).substring(1))).hasValue("1");
        Path t = tarball("long.tar.gz", java.util.stream.Stream.of("m/proc/a", pathOf(4097)));
        CliRun.of("machine", "--root", t.toString()).assertOneLineError("hostside: " + t + ": a member's path is longer than 4096 bytes (PATH_MAX)");
    }

    /** Sysfs's deepest paths have 15 names (hwloc's 81 machines), 14 on a VM's /sys: 128 is far beyond any, 129 is refused. */
    @Test
    void aPathDeeperThan128IsBadInputInOneLine() throws IOException {
        String deepest = "m/sys/" + "a/".repeat(125) + "f"; // 128 names, m and f included
        Path ok = tarball("deepest.tar.gz", java.util.stream.Stream.of(deepest));
        assertThat(FsRoot.open(ok.toString()).text(deepest.substring(1))).hasValue("1");
        Path t = tarball("deep.tar.gz", java.util.stream.Stream.of("m/proc/a", "m/sys/" + "a/".repeat(126) + "f"));
        CliRun.of("machine", "--root", t.toString()).assertOneLineError("hostside: " + t + ": a member's path is more than 128 levels deep");
    }

    /** The tarball run in a JVM of its own with a heap of {@code heap}: what ReadRecording printed, and its exit code. */
    private record Run(int code, String out) {}

    private Run inHeap(String heap, Path tarball) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path out = tmp.resolve("out-" + heap + ".txt");
        Process p = new ProcessBuilder(java, "-Xmx" + heap, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                ReadRecording.class.getName(), tarball.toString(), "/proc/a")
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("finished").isTrue();
        return new Run(p.exitValue(), Files.readString(out));
    }

    /**
     * The red team's bomb: one pax member named proc/a/a/.../f, 50,000 levels (100 KB of path, a
     * 300-byte tarball), took 57 s and 6.2 GB of RSS in an 8 GiB heap, every parent's whole path
     * kept; in 64 MiB it ran out of memory. Refused before anything is kept.
     */
    @Test
    void aDeepPathBombIsRefusedInA64MibHeap() throws Exception {
        Path t = tmp.resolve("bomb.tar.gz");
        try (GzTar g = new GzTar(t)) {
            g.paxFile("m/proc/" + "a/".repeat(50_000) + "f", "1\n");
        }
        assertThat(Files.size(t)).as("a tiny tarball").isLessThan(4096);
        Run r = inHeap("64m", t);
        assertThat(r.code()).as(r.out()).isEqualTo(2);
        assertThat(r.out().lines()).containsExactly(t + ": a member's path is longer than 4096 bytes (PATH_MAX): not a recorded machine");
    }

    /**
     * Folders a tarball leaves out are made, and what they take counts against the 256 MiB kept:
     * 20,000 members, each 120 folders deep under a folder of its own, make 2.4 million folders.
     * Each member's path is short and within the bounds; the folders alone are over 256 MiB. Read
     * in a 512 MiB heap it is refused in one line (it ran out of memory: every folder kept its
     * whole path, and only the member's path was counted).
     */
    @Test
    void foldersAlongTheWayCountAgainstWhatIsKept() throws Exception {
        Path t = tarball("folders.tar.gz", java.util.stream.IntStream.range(0, 20_000).mapToObj(i -> "m/sys/d" + i + "/" + "a/".repeat(120) + "f"));
        Run r = inHeap("512m", t);
        assertThat(r.code()).as(r.out()).isEqualTo(2);
        assertThat(r.out().lines()).containsExactly(t + ": holds more than 256 MiB of files and names: a recorded machine holds a few MiB");
    }

    /**
     * What the index takes for each member counts against the 256 MiB kept, beside its content
     * and name: 199,000 members (under the 200,000 entries) of 1,250 bytes under names of four
     * letters. Content and paths alone come to 251 MB (199,000 x 1,261), under 256 MiB (268 MB),
     * and loaded; with the 128 bytes each takes in the index they come to 275 MB. A member that
     * replaces another counts as any other (what is counted is never less than what is held):
     * the 1,000 names come 199 times each, so this test's own heap stays small.
     */
    @Test
    void whatTheIndexTakesForEachMemberCountsAgainstWhatIsKept() throws IOException {
        Path t = tmp.resolve("members.tar.gz");
        int perBlock = 1000, size = 1250, record = 512 + 1536;
        byte[] block = new byte[perBlock * record];
        for (int i = 0; i < perBlock; i++) {
            TarArchiveEntry e = new TarArchiveEntry(String.format(java.util.Locale.ROOT, "m/sys/f%03d", i));
            e.setSize(size);
            System.arraycopy(GzTar.header(e), 0, block, i * record, 512);
        }
        byte[] member = GzTar.gz(block);
        try (GzTar g = new GzTar(t)) {
            for (int i = 0; i < 199; i++) g.rawGz(member);
        }
        CliRun run = assertTimeoutPreemptively(Duration.ofSeconds(120), () -> CliRun.of("machine", "--root", t.toString()));
        run.assertOneLineError("hostside: " + t + ": holds more than 256 MiB of files and names");
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
