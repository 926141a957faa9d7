package hostside.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The folders strace's output and the Python scripts live in: private, locked, removed, swept after a SIGKILL. */
class ScratchFolderTest {
    @TempDir
    Path tmp;

    private List<String> names() throws IOException {
        try (var s = Files.list(tmp)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aPrivateLockedFolderRemovedWithItsFilesOnClose() throws IOException {
        List<String> said = new ArrayList<>();
        Path victim = Files.writeString(tmp.resolveSibling(tmp.getFileName() + "-victim"), "precious");
        try (ScratchFolder f = ScratchFolder.create(tmp, "strace", said::add)) {
            assertThat(f.path().getFileName().toString()).matches("hostside-strace-[0-9a-f]{16}\\.d");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f.path()))).isEqualTo("rwx------");
            assertThat(names()).containsExactlyInAnyOrder(f.path().getFileName().toString(), f.path().getFileName().toString().replace(".d", ".lock"));
            Files.writeString(f.file("trace.txt"), "x".repeat(1000));
            Files.createSymbolicLink(f.file("link"), victim);
        }
        assertThat(names()).isEmpty();
        assertThat(Files.readString(victim)).as("a link inside is removed, never its target").isEqualTo("precious");
        assertThat(said).isEmpty();
        Files.delete(victim);
    }

    @Test
    void aKilledRunsFolderIsRemovedByTheNextAndItSaysSo() throws IOException {
        // what a SIGKILL leaves: the folder with its files, and the lock file nobody holds any more
        String dead = "hostside-python-00000000deadbeef";
        Files.createDirectory(tmp.resolve(dead + ".d"));
        Files.writeString(tmp.resolve(dead + ".d/cow_workers.py"), "print(1)\n".repeat(100));
        Files.writeString(tmp.resolve(dead + ".lock"), "hostside python test file lock, pid 1\n");
        List<String> said = new ArrayList<>();
        try (ScratchFolder f = ScratchFolder.create(tmp, "python", said::add)) {
            assertThat(names()).noneMatch(n -> n.startsWith(dead));
            assertThat(said).singleElement().asString().startsWith("removed 1 test file").contains(dead + ".d");
        }
        assertThat(names()).isEmpty();
    }

    @Test
    void aFolderThatIsNoLongerOursIsLeftAlone() throws IOException {
        Path replaced;
        try (ScratchFolder f = ScratchFolder.create(tmp, "strace", s -> { })) {
            replaced = f.path();
            Files.move(replaced, tmp.resolve("moved-away")); // ours still exists: the new one has another inode
            Files.createDirectory(replaced); // someone else's folder at our name
            Files.writeString(replaced.resolve("theirs"), "keep");
        }
        assertThat(Files.readString(replaced.resolve("theirs"))).isEqualTo("keep");
        assertThat(names()).as("the lock file goes, theirs and the moved one stay").containsExactlyInAnyOrder("moved-away", replaced.getFileName().toString());
    }
}
