package hostside.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.BadInputException;

/** A session's test files: one per folder, written once at the largest size asked, gone when the session closes. */
class TestFilesTest {
    static final long MiB = 1L << 20;

    @TempDir
    Path tmp;

    static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** The file offset each page of the file carries in its first 8 bytes (TestData's stamp). */
    static long stampAt(Path file, long offset) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
            ch.read(b, offset);
            return b.flip().getLong();
        }
    }

    @Test
    void eachDrillRunAloneWritesItsOwnFileAndRemovesIt() throws IOException {
        TestFile.Lazy vm = TestFiles.OWN.lend(tmp, "vm", 2 * MiB);
        TestFile.Lazy io = TestFiles.OWN.lend(tmp, "io", 3 * MiB);
        assertThat(vm.get().path()).isNotEqualTo(io.get().path());
        assertThat(vm.get().path().getFileName().toString()).startsWith("hostside-vm-");
        assertThat(TestFiles.OWN.heldIn(tmp)).as("nothing is shared").isZero();
        vm.close();
        io.close();
        assertThat(names(tmp)).isEmpty();
        TestFiles.OWN.close();
        TestFile.Lazy again = TestFiles.OWN.lend(tmp, "vm", MiB);
        assertThat(again.get().bytes()).as("closing OWN changes nothing: it holds no file").isEqualTo(MiB);
        again.close();
    }

    @Test
    void theDrillsOfASessionShareOneFileGrownToTheLargestSizeAsked() throws IOException {
        try (TestFiles files = TestFiles.shared()) {
            TestFile.Lazy vm = files.lend(tmp, "vm", 2 * MiB);
            TestFile first = vm.get();
            long firstStamp = stampAt(first.path(), MiB);
            assertThat(files.heldIn(tmp)).isEqualTo(2 * MiB);
            assertThat(first.path().getFileName().toString()).matches("hostside-shared-[0-9a-f]{16}\\.tmp");
            vm.close();
            assertThat(Files.exists(first.path())).as("a drill done with the file leaves it to the next").isTrue();

            TestFile.Lazy io = files.lend(tmp, "io", 5 * MiB);
            assertThat(io.get()).isSameAs(first);
            assertThat(io.bytes()).isEqualTo(5 * MiB);
            assertThat(Files.size(first.path())).as("grown, not written beside").isEqualTo(5 * MiB);
            assertThat(stampAt(first.path(), MiB)).as("the bytes already there are kept").isEqualTo(firstStamp);
            assertThat(stampAt(first.path(), 4 * MiB + 8192)).as("each added page carries its own offset").isEqualTo(4 * MiB + 8192);
            assertThat(names(tmp)).hasSize(2); // the file and its lock

            TestFile.Lazy small = files.lend(tmp, "vm", MiB);
            assertThat(small.get()).isSameAs(first);
            assertThat(small.bytes()).as("a drill reading less reads the start").isEqualTo(MiB);
            assertThat(Files.size(first.path())).isEqualTo(5 * MiB);
        }
        assertThat(names(tmp)).as("the session removed its file and lock").isEmpty();
    }

    @Test
    void eachFolderHasItsOwnFileAndNoneIsMadeAfterTheSessionClosed() throws IOException {
        Path other = Files.createDirectory(tmp.resolve("other"));
        TestFiles files = TestFiles.shared();
        TestFile a = files.lend(tmp, "vm", MiB).get();
        TestFile b = files.lend(other, "io", MiB).get();
        assertThat(a.path().getParent()).isEqualTo(tmp);
        assertThat(b.path().getParent()).isEqualTo(other);
        assertThat(files.heldIn(other)).isEqualTo(MiB);
        files.close();
        assertThat(names(other)).isEmpty();
        assertThat(names(tmp)).containsExactly("other");
        TestFile.Lazy late = files.lend(tmp, "io", MiB);
        assertThatThrownBy(late::get).isInstanceOf(IllegalStateException.class).hasMessageContaining("none is made again");
        assertThat(names(tmp)).containsExactly("other");
    }

    @Test
    void growingPastTheRoomOnDiskIsBadInputAndKeepsTheFileAsItWas() throws IOException {
        try (TestFile f = TestFile.create(tmp, "vm", MiB, Long.MAX_VALUE / 2)) {
            assertThatThrownBy(() -> f.grow(3 * MiB, 2 * MiB - 1 + TestFile.MARGIN)).isInstanceOf(BadInputException.class)
                    .hasMessageContaining("not enough free space");
            assertThat(f.bytes()).isEqualTo(MiB);
            assertThat(Files.size(f.path())).isEqualTo(MiB);
            f.grow(3 * MiB, 2 * MiB + TestFile.MARGIN);
            assertThat(f.bytes()).as("room for exactly what it lacked").isEqualTo(3 * MiB);
            f.grow(2 * MiB, 0);
            assertThat(f.bytes()).as("never shrunk").isEqualTo(3 * MiB);
        }
    }

    @Test
    void aScratchFileCannotBeGrown() {
        try (TestFile f = TestFile.scratch(tmp, "io-write")) {
            assertThatThrownBy(() -> f.grow(MiB, Long.MAX_VALUE / 2)).isInstanceOf(IllegalStateException.class).hasMessageContaining("scratch");
        }
    }
}
