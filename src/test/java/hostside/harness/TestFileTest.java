package hostside.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.BadInputException;

/** The read/mmap test file: made whole or not at all, and gone when closed. */
class TestFileTest {
    @TempDir
    Path tmp;

    static final long MiB = 1L << 20;

    static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void createsTheFileOfExactlyTheSizeAndCloseDeletesIt() throws IOException {
        long bytes = 3 * MiB + 4096 + 17; // not a whole number of the 1 MiB chunks it is written in
        TestFile f = TestFile.create(tmp, "vm", bytes, Long.MAX_VALUE / 2);
        try {
            assertThat(f.path().getParent()).isEqualTo(tmp);
            String name = f.path().getFileName().toString();
            assertThat(name).as("64 random bits, not the PID").matches("hostside-vm-[0-9a-f]{16}\\.tmp");
            assertThat(Files.size(f.path())).isEqualTo(bytes);
            assertThat(f.bytes()).isEqualTo(bytes);
            assertThat(names(tmp)).as("the writability probe is gone; the lock file is there")
                    .containsExactly(name.replace(".tmp", ".lock"), name);
            // incompressible bytes, not zeros
            byte[] head = new byte[4096];
            try (var in = Files.newInputStream(f.path())) {
                assertThat(in.readNBytes(head, 0, head.length)).isEqualTo(head.length);
            }
            int zeros = 0;
            for (byte b : head) if (b == 0) zeros++;
            assertThat(zeros).isLessThan(100);
        } finally {
            f.close();
        }
        assertThat(names(tmp)).isEmpty();
        f.close(); // twice is harmless
    }

    @Test
    void notEnoughFreeSpaceIsBadInputAndLeavesNothing() throws IOException {
        long bytes = 64 * MiB;
        // the file and the 1 GiB margin do not fit by one byte
        long usable = bytes + TestFile.MARGIN - 1;
        assertThatThrownBy(() -> TestFile.create(tmp, "vm", bytes, usable)).isInstanceOf(BadInputException.class)
                .hasMessageStartingWith(tmp + ": not enough free space").hasMessageContaining("--size");
        assertThat(names(tmp)).isEmpty();
        // exactly enough is enough
        try (TestFile f = TestFile.create(tmp, "vm", bytes, bytes + TestFile.MARGIN)) {
            assertThat(Files.size(f.path())).isEqualTo(bytes);
        }
        assertThat(names(tmp)).isEmpty();
    }

    @Test
    void aFolderThatIsNotAFolderIsBadInput() throws IOException {
        Path file = Files.writeString(tmp.resolve("plain.txt"), "x");
        assertThatThrownBy(() -> TestFile.create(file, "vm", MiB, Long.MAX_VALUE / 2)).isInstanceOf(BadInputException.class)
                .hasMessage(file + ": not a directory (--dir)");
        Path missing = tmp.resolve("missing");
        assertThatThrownBy(() -> TestFile.create(missing, "vm", MiB, Long.MAX_VALUE / 2)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("not a directory");
        assertThat(names(tmp)).containsExactly("plain.txt");
    }

    @Test
    void aFolderNoOneCanWriteIsBadInputEvenForRoot() throws IOException {
        // chmod does not stop root (CI runs as root); /proc refuses new files to everyone
        Path proc = Path.of("/proc");
        List<String> before = names(proc).stream().filter(n -> n.startsWith("hostside-")).toList();
        assertThatThrownBy(() -> TestFile.create(proc, "vm", MiB, Long.MAX_VALUE / 2)).isInstanceOf(BadInputException.class)
                .hasMessageStartingWith("/proc: not writable (").hasMessageEndingWith("choose another --dir")
                .satisfies(e -> assertThat(e.getMessage()).as("a one-line error names no Java class").doesNotContain("Exception"));
        assertThat(names(proc).stream().filter(n -> n.startsWith("hostside-")).toList()).isEqualTo(before).isEmpty();
    }

    @Test
    void theLazyFileIsMadeOnFirstUseOnceAndRemovedOnClose() throws IOException {
        TestFile.Lazy lazy = new TestFile.Lazy(tmp, "vm", MiB);
        assertThat(names(tmp)).as("nothing before first use").isEmpty();
        TestFile f = lazy.get();
        assertThat(lazy.get()).isSameAs(f);
        assertThat(Files.size(f.path())).isEqualTo(MiB);
        lazy.close();
        assertThat(names(tmp)).isEmpty();
        new TestFile.Lazy(tmp, "vm", MiB).close(); // never used: nothing to remove, no error
    }

    @Test
    void usableSpaceOfAMissingFolderIsBadInput() {
        assertThat(TestFile.usableSpace(tmp)).isPositive();
        assertThatThrownBy(() -> TestFile.usableSpace(tmp.resolve("missing"))).isInstanceOf(BadInputException.class)
                .hasMessageContaining("cannot read its free space");
    }
}
