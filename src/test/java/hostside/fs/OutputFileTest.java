package hostside.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
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

import hostside.core.BadInputException;

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
    void aSymlinkAtTheTargetIsRefusedNeitherWrittenThroughNorReplaced() throws IOException {
        Path victim = Files.writeString(tmp.resolve("victim"), "precious");
        Path target = Files.createSymbolicLink(tmp.resolve("r.json"), victim);
        assertThatThrownBy(() -> OutputFile.writeString(target, "report")).isInstanceOf(OutputFile.NotARegularFile.class)
                .hasMessageContaining("is a symbolic link (to " + victim + "); hostside writes only to a regular file or a new name");
        assertThat(Files.readString(victim)).isEqualTo("precious");
        assertThat(Files.readSymbolicLink(target)).isEqualTo(victim);
        assertThat(names()).containsExactlyInAnyOrder("r.json", "victim");
    }

    /** As root, a rename over /dev/null replaces the system's device with a file: a device at the target is left as it is. */
    @Test
    void aDeviceAtTheTargetIsRefusedAndLeftAsItIs() throws Exception {
        Path dev = SpecialFiles.charDevice(tmp.resolve("null"), 1, 3);
        assertThatThrownBy(() -> OutputFile.writeString(dev, "snapshot")).isInstanceOf(OutputFile.NotARegularFile.class)
                .hasMessageContaining("is a character device");
        assertCharDevice(dev);
        assertThat(names()).containsExactly("null");
    }

    @Test
    void aFifoOrASocketAtTheTargetIsRefused() throws Exception {
        Path fifo = SpecialFiles.fifo(tmp.resolve("fifo"));
        assertThatThrownBy(() -> OutputFile.writeString(fifo, "x")).hasMessageContaining("is a FIFO");
        try (var sock = SpecialFiles.socket(tmp.resolve("sock"))) {
            assertThatThrownBy(() -> OutputFile.writeString(tmp.resolve("sock"), "x")).hasMessageContaining("is a socket");
        }
        assertThat(Files.isRegularFile(fifo, LinkOption.NOFOLLOW_LINKS)).isFalse();
        assertThat(names()).containsExactlyInAnyOrder("fifo", "sock");
    }

    /**
     * The race the look before the write cannot close: the target is a regular file when checked
     * and a device by the time the new file is moved in (swapped while the body writes). The
     * device is swapped back and stays.
     */
    @Test
    void aDeviceSwappedInWhileWritingIsPutBackNotReplaced() throws Exception {
        Path target = Files.writeString(tmp.resolve("box.tar.gz"), "old");
        assertThatThrownBy(() -> OutputFile.write(target, out -> {
            out.write("new".getBytes());
            Files.delete(target);
            swapIn(target);
        })).isInstanceOf(OutputFile.NotARegularFile.class).hasMessageContaining("is a character device");
        assertCharDevice(target);
        assertThat(names()).containsExactly("box.tar.gz");
    }

    private static void swapIn(Path target) throws IOException {
        try {
            SpecialFiles.charDevice(target, 1, 3);
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    private static void assertCharDevice(Path p) throws Exception {
        Process stat = new ProcessBuilder("stat", "-c", "%F %t:%T", p.toString()).redirectErrorStream(true).start();
        assertThat(new String(stat.getInputStream().readAllBytes()).strip()).isEqualTo("character special file 1:3");
        stat.waitFor();
    }

    /** A set is this run's whole or the last run's whole: the third file failing (a full disk) leaves all three old ones. */
    @Test
    void aSetWhoseLastFileFailsLeavesEveryOldFile() throws IOException {
        Path json = Files.writeString(tmp.resolve("r.json"), "old json"), md = Files.writeString(tmp.resolve("r.md"), "old md");
        Path html = tmp.resolve("r.html");
        assertThatThrownBy(() -> OutputFile.writeSet(List.of(
                new OutputFile.Part(json, out -> out.write("new json".getBytes())),
                new OutputFile.Part(md, out -> out.write("new md".getBytes())),
                new OutputFile.Part(html, out -> {
                    out.write("half".getBytes());
                    throw new IOException("No space left on device");
                })))).hasMessage("No space left on device");
        assertThat(Files.readString(json)).isEqualTo("old json");
        assertThat(Files.readString(md)).isEqualTo("old md");
        assertThat(names()).containsExactly("r.json", "r.md");
    }

    /** A set whose second target turns out not to be a regular file only when it is moved in: the first is put back as it was. */
    @Test
    void aSetRefusedHalfWayPutsBackWhatItAlreadyReplaced() throws Exception {
        Path json = Files.writeString(tmp.resolve("r.json"), "old json"), fresh = tmp.resolve("r.txt");
        Path md = Files.writeString(tmp.resolve("r.md"), "old md");
        assertThatThrownBy(() -> OutputFile.writeSet(List.of(
                new OutputFile.Part(json, out -> out.write("new json".getBytes())),
                new OutputFile.Part(fresh, out -> out.write("new txt".getBytes())),
                new OutputFile.Part(md, out -> {
                    Files.delete(md);
                    swapIn(md);
                })))).isInstanceOf(OutputFile.NotARegularFile.class);
        assertThat(Files.readString(json)).isEqualTo("old json");
        assertThat(fresh).doesNotExist();
        assertCharDevice(md);
        assertThat(names()).containsExactly("r.json", "r.md");
    }

    @Test
    void aSetLandsWhole() throws IOException {
        Path json = Files.writeString(tmp.resolve("r.json"), "old json"), md = tmp.resolve("r.md");
        OutputFile.writeSet(List.of(new OutputFile.Part(json, out -> out.write("new json".getBytes())),
                new OutputFile.Part(md, out -> out.write("new md".getBytes()))));
        assertThat(Files.readString(json)).isEqualTo("new json");
        assertThat(Files.readString(md)).isEqualTo("new md");
        assertThat(names()).containsExactly("r.json", "r.md");
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

    /**
     * node_exporter's textfile collector reads every name ending in ".prom" in its folder
     * (collector/textfile.go: strings.HasSuffix(f.Name(), ".prom")), whenever it is scraped: while
     * hostside health writes hostside.prom, the only such name there is the whole previous file.
     */
    @Test
    void aTextfileCollectorReadingTheFolderMidWriteSeesOnlyTheWholeOldFile() throws IOException {
        Path target = Files.writeString(tmp.resolve("hostside.prom"), "old 1\n");
        List<String> seenMidWrite = new ArrayList<>();
        OutputFile.write(target, out -> {
            out.write("new ".getBytes());
            out.flush();
            try (var s = Files.list(tmp)) {
                s.filter(p -> p.getFileName().toString().endsWith(".prom")).forEach(p -> seenMidWrite.add(p.getFileName() + ": " + read(p)));
            }
            out.write("2\n".getBytes());
        });
        assertThat(names()).containsExactly("hostside.prom"); // the temporary file is gone too
        assertThat(seenMidWrite).containsExactly("hostside.prom: old 1\n");
        assertThat(Files.readString(target)).isEqualTo("new 2\n");
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
        OutputFolder.check(tmp.resolve("new/deeper"), "--out", 1);
        assertThat(Files.isDirectory(tmp.resolve("new/deeper"))).isTrue();
        assertThat(names()).containsExactly("new");
        try (var s = Files.list(tmp.resolve("new/deeper"))) {
            assertThat(s.toList()).as("the probe file is removed").isEmpty();
        }
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        assertThatThrownBy(() -> OutputFolder.check(file, "--out", 1)).isInstanceOf(BadInputException.class).hasMessageContaining("is a regular file, not a folder");
        assertThatThrownBy(() -> OutputFolder.check(file.resolve("sub"), "--out", 1)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("cannot create");
        assertThatThrownBy(() -> OutputFolder.check(Path.of("/proc"), "--out", 1)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("cannot write there");
        assertThatThrownBy(() -> OutputFolder.check(tmp, "--out", Long.MAX_VALUE)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("bytes free");
    }
}
