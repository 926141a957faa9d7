package hostside.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.BadInputException;
import hostside.libc.LibcException;

/**
 * Test files beside other runs and other people's files: unique names, no planted link
 * followed, only our own files deleted, nothing made after the exit cleanup, and content that
 * neither deduplicates nor compresses.
 */
class TestFileSafetyTest {
    @TempDir
    Path tmp;

    static final long MiB = 1L << 20;
    static final String ID = "0123456789abcdef";

    static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** A file someone else cares about, and a link to it at {@code name}. */
    Path plantLink(String name) throws IOException {
        Path precious = Files.writeString(tmp.resolve("precious.txt"), "not hostside's");
        Files.createSymbolicLink(tmp.resolve(name), precious);
        return precious;
    }

    @Test
    void twoFilesOfOneDrillInOneFolderHaveDifferentNames() throws IOException {
        try (TestFile a = TestFile.create(tmp, "io", MiB, Long.MAX_VALUE / 2); TestFile b = TestFile.create(tmp, "io", MiB, Long.MAX_VALUE / 2);
             TestFile c = TestFile.scratch(tmp, "io-write")) {
            assertThat(Set.of(a.path(), b.path(), c.path())).hasSize(3);
            assertThat(names(tmp)).hasSize(5); // two data files, three lock files
        }
        assertThat(names(tmp)).isEmpty();
    }

    @Test
    void aLinkPlantedAtTheDataFilesNameIsNotFollowedNorRemoved() throws IOException {
        Path precious = plantLink("hostside-vm-" + ID + ".tmp");
        assertThatThrownBy(() -> TestFile.create(tmp, "vm", MiB, Long.MAX_VALUE / 2, ID)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("a file of that name is in the way");
        assertThat(Files.readString(precious)).isEqualTo("not hostside's");
        assertThat(Files.isSymbolicLink(tmp.resolve("hostside-vm-" + ID + ".tmp"))).as("not ours: left as it was").isTrue();
        assertThat(names(tmp)).as("our lock file is gone").containsExactly("hostside-vm-" + ID + ".tmp", "precious.txt");
    }

    @Test
    void aLinkPlantedAtTheLockFilesNameIsNotFollowedNorRemoved() throws IOException {
        Path precious = plantLink("hostside-vm-" + ID + ".lock");
        assertThatThrownBy(() -> TestFile.create(tmp, "vm", MiB, Long.MAX_VALUE / 2, ID)).isInstanceOf(BadInputException.class);
        assertThatThrownBy(() -> TestFile.scratch(tmp, "vm", ID)).hasMessageContaining("a file of that name is in the way");
        assertThat(Files.readString(precious)).isEqualTo("not hostside's");
        assertThat(Files.isSymbolicLink(tmp.resolve("hostside-vm-" + ID + ".lock"))).isTrue();
        assertThat(names(tmp)).containsExactly("hostside-vm-" + ID + ".lock", "precious.txt");
    }

    @Test
    void aLinkPlantedAtTheProbesNameIsNotFollowedNorRemoved() throws IOException {
        Path precious = plantLink("hostside-probe-" + ID + ".tmp");
        assertThatThrownBy(() -> TestFile.probeWritable(tmp, ID)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("a file of that name is in the way");
        assertThat(Files.readString(precious)).isEqualTo("not hostside's");
        assertThat(Files.isSymbolicLink(tmp.resolve("hostside-probe-" + ID + ".tmp"))).isTrue();
        TestFile.probeWritable(tmp); // a random name: the planted one is not in the way
        assertThat(names(tmp)).containsExactly("hostside-probe-" + ID + ".tmp", "precious.txt");
    }

    @Test
    void aLinkPlantedAtTheWriteFilesNameIsNotFollowed() throws IOException {
        try (TestFile f = TestFile.scratch(tmp, "io-write", ID)) {
            Path precious = plantLink("hostside-io-write-" + ID + ".tmp");
            assertThatThrownBy(f::createNew).isInstanceOf(LibcException.class).satisfies(e -> assertThat(((LibcException) e).errno()).as("EEXIST").isEqualTo(17));
            assertThat(Files.readString(precious)).isEqualTo("not hostside's");
            f.delete();
            assertThat(Files.isSymbolicLink(f.path())).isTrue();
        }
        assertThat(names(tmp)).containsExactly("hostside-io-write-" + ID + ".tmp", "precious.txt");
    }

    @Test
    void aFileReplacedAfterCreationIsNotOursAndStays() throws IOException {
        TestFile f = TestFile.create(tmp, "vm", MiB, Long.MAX_VALUE / 2);
        Path lock = tmp.resolve(f.path().getFileName().toString().replace(".tmp", ".lock"));
        // someone removes ours and puts their own at the same names
        Files.delete(f.path());
        Files.writeString(f.path(), "theirs");
        Files.delete(lock);
        Files.writeString(lock, "theirs too");
        f.close();
        assertThat(Files.readString(f.path())).isEqualTo("theirs");
        assertThat(Files.readString(lock)).isEqualTo("theirs too");
    }

    @Test
    void aWriteFileReplacedAfterCreationIsNotOursAndStays() throws IOException {
        Path path;
        try (TestFile f = TestFile.scratch(tmp, "io-write")) {
            path = f.path();
            f.createNew();
            Files.delete(f.path());
            Files.writeString(f.path(), "theirs");
            f.delete();
            assertThat(Files.readString(f.path())).isEqualTo("theirs");
        }
        assertThat(names(tmp)).as("theirs stays; our lock file is gone").containsExactly(path.getFileName().toString());
        assertThat(Files.readString(path)).isEqualTo("theirs");
    }

    @Test
    void afterTheExitCleanupNothingIsMadeAgain() throws IOException {
        TestFile f = TestFile.scratch(tmp, "io-write");
        f.createNew();
        assertThat(names(tmp)).hasSize(2);
        f.exitCleanup(); // what the JVM's exit hook runs on Ctrl-C
        assertThat(names(tmp)).as("the data file and the lock file are gone").isEmpty();
        f.delete();
        assertThatThrownBy(f::createNew).isInstanceOf(IllegalStateException.class).hasMessageContaining("none is made again");
        assertThat(names(tmp)).isEmpty();
        f.close();
        assertThatThrownBy(f::createNew).isInstanceOf(IllegalStateException.class);
        assertThat(names(tmp)).isEmpty();
    }

    @Test
    void noTwoPagesOfATestFileAreEqualAndItDoesNotCompress() throws IOException {
        byte[] bytes;
        try (TestFile f = TestFile.create(tmp, "io", 8 * MiB, Long.MAX_VALUE / 2)) {
            bytes = Files.readAllBytes(f.path());
        }
        assertThat(bytes).hasSize((int) (8 * MiB));
        assertThat(distinctPages(bytes)).as("every 4 KiB page differs").isEqualTo(bytes.length / 4096);
        assertThat(gzipped(bytes)).as("gzip cannot shrink it").isGreaterThan((long) (bytes.length * 0.99));
    }

    @Test
    void twoTestFilesShareNoPage() throws IOException {
        Set<ByteBuffer> pages = new HashSet<>();
        for (int i = 0; i < 2; i++) {
            try (TestFile f = TestFile.create(tmp, "io", 2 * MiB, Long.MAX_VALUE / 2)) {
                byte[] b = Files.readAllBytes(f.path());
                for (int p = 0; p < b.length; p += 4096) pages.add(ByteBuffer.wrap(b, p, 4096).slice());
            }
        }
        assertThat(pages).as("a deduplicating store keeps no page once for both").hasSize(2 * 2 * 256);
    }

    static int distinctPages(byte[] bytes) {
        Set<ByteBuffer> pages = new HashSet<>();
        for (int p = 0; p < bytes.length; p += 4096) pages.add(ByteBuffer.wrap(bytes, p, 4096).slice());
        return pages.size();
    }

    static long gzipped(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(bytes);
        }
        return out.size();
    }
}
