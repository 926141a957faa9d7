package hostside.fs;

import hostside.core.BadInputException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Outputs land whole, never through a planted symlink, and never leave a temporary file behind. */
class OutputFileTest {
    @TempDir
    Path tmp;

    private List<String> names() throws IOException {
        try (var s = Files.list(tmp)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void writesTheFileAndNothingElse() throws IOException {
        Path target = tmp.resolve("r.json");
        OutputFile.writeString(target, "{}\n");
        assertThat(Files.readString(target)).isEqualTo("{}\n");
        assertThat(names()).containsExactly("r.json");
        OutputFile.writeString(target, "{\"again\":1}\n");
        assertThat(Files.readString(target)).isEqualTo("{\"again\":1}\n");
        assertThat(names()).containsExactly("r.json");
    }

    @Test
    void aSymlinkAtTheTargetIsReplacedNotWrittenThrough() throws IOException {
        Path victim = Files.writeString(tmp.resolve("victim"), "precious");
        Path target = Files.createSymbolicLink(tmp.resolve("r.json"), victim);
        OutputFile.writeString(target, "report");
        assertThat(Files.readString(victim)).isEqualTo("precious");
        assertThat(Files.isSymbolicLink(target)).isFalse();
        assertThat(Files.readString(target)).isEqualTo("report");
    }

    @Test
    void aSymlinkPlantedAtTheOldPartNameIsNeverFollowed() throws IOException {
        Path victim = Files.writeString(tmp.resolve("victim"), "precious");
        Path part = Files.createSymbolicLink(tmp.resolve("box.tar.gz.part"), victim);
        Recorder r = FsRoot.open(hostside.Fixtures.h200().toString()).record();
        r.writeTarGz(tmp.resolve("box.tar.gz"), "box");
        assertThat(Files.readString(victim)).isEqualTo("precious");
        assertThat(Files.isSymbolicLink(part)).isTrue();
        assertThat(names()).containsExactlyInAnyOrder("box.tar.gz", "box.tar.gz.part", "victim");
    }

    @Test
    void theTemporaryNameIsFreshEachTime() {
        String a = OutputFile.temporaryName("r.json"), b = OutputFile.temporaryName("r.json");
        assertThat(a).isNotEqualTo(b).startsWith(".r.json.").endsWith(".part");
    }

    @Test
    void aFailingWriterLeavesTheOldFileAndNoTemporaryOne() throws IOException {
        Path target = Files.writeString(tmp.resolve("r.md"), "old");
        assertThatThrownBy(() -> OutputFile.write(target, out -> {
            out.write("half".getBytes());
            throw new IOException("disk full");
        })).hasMessage("disk full");
        assertThat(Files.readString(target)).isEqualTo("old");
        assertThat(names()).containsExactly("r.md");
    }

    @Test
    void aFolderInTheWayIsRefused() throws IOException {
        Path target = Files.createDirectory(tmp.resolve("r.json"));
        assertThatThrownBy(() -> OutputFile.writeString(target, "x")).isInstanceOf(IOException.class).hasMessageContaining("is a folder");
        assertThat(Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)).isTrue();
    }

    @Test
    void writersRacingForOneTargetEachLeaveAWholeFile() throws Exception {
        Path target = tmp.resolve("r.json");
        int writers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> done = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                String text = String.valueOf((char) ('a' + i)).repeat(1 << 20); // 1 MiB: the writes overlap
                texts.add(text);
                done.add(pool.submit(() -> {
                    OutputFile.writeString(target, text);
                    return null;
                }));
            }
            for (Future<?> f : done) f.get();
            assertThat(texts).contains(Files.readString(target));
        } finally {
            pool.shutdownNow();
        }
        assertThat(names()).containsExactly("r.json");
    }

    @Test
    void aFolderIsCheckedBeforeAnyWork() throws IOException {
        OutputFile.checkFolder(tmp.resolve("new/deeper"), "--out", 1);
        assertThat(Files.isDirectory(tmp.resolve("new/deeper"))).isTrue();
        assertThat(names()).containsExactly("new");
        try (var s = Files.list(tmp.resolve("new/deeper"))) {
            assertThat(s.toList()).as("the probe file is removed").isEmpty();
        }
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        assertThatThrownBy(() -> OutputFile.checkFolder(file, "--out", 1)).isInstanceOf(BadInputException.class).hasMessageContaining("is a file");
        assertThatThrownBy(() -> OutputFile.checkFolder(file.resolve("sub"), "--out", 1)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("cannot create");
        assertThatThrownBy(() -> OutputFile.checkFolder(Path.of("/proc"), "--out", 1)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("cannot write there");
        assertThatThrownBy(() -> OutputFile.checkFolder(tmp, "--out", Long.MAX_VALUE)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("bytes free");
    }
}
