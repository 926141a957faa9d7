package hostside.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import hostside.core.BadInputException;

/**
 * A recording is input from anyone, and its folders can change while hostside reads it. FsRoot
 * resolves links itself, inside the recording; what it then opens must stay beneath the
 * recording at every depth, even when a folder is swapped for a link after it was resolved.
 * Each case runs with openat2 and with the folder-at-a-time walk used where openat2 is missing.
 */
class BeneathTheRootTest {
    @TempDir
    Path tmp;

    private Path recording() throws IOException {
        Path m = Files.createDirectories(tmp.resolve("m"));
        Files.createDirectories(m.resolve("proc"));
        Files.writeString(Files.createDirectories(m.resolve("sys/class/x")).resolve("name"), "inside\n");
        return m;
    }

    /** A folder outside the recording holding a file of the same name: what an escape would print. */
    private Path outside() throws IOException {
        Path o = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(o.resolve("name"), "SECRET\n");
        Files.createDirectories(o.resolve("sub"));
        return o;
    }

    /** Puts a link where the folder {@code dir} was (the race: after FsRoot resolved the path, before the open). */
    private static void swapForLink(Path dir, Path target) throws IOException {
        Files.move(dir, dir.resolveSibling(dir.getFileName() + ".away"));
        Files.createSymbolicLink(dir, target);
    }

    @ParameterizedTest(name = "walk={0}")
    @ValueSource(booleans = {false, true})
    void aLinkInTheMiddleOfAPathIsNotFollowedByTheTree(boolean walk) throws Exception {
        Path m = recording();
        swapForLink(m.resolve("sys/class/x"), outside());
        DirectoryTree tree = new DirectoryTree(m, walk);
        assertThatThrownBy(() -> tree.read("/sys/class/x/name")).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> tree.list("/sys/class/x/sub")).isInstanceOf(IOException.class);
        assertThat(tree.kind("/sys/class/x/name")).isEqualTo(Tree.Kind.MISSING);
        assertThat(tree.kind("/sys/class/x")).isEqualTo(Tree.Kind.LINK);
    }

    /**
     * The attack as a hostile recording runs it: the folder is real when FsRoot resolves it (and
     * remembers it), and a link out of the recording by the time the file is opened.
     */
    @ParameterizedTest(name = "walk={0}")
    @ValueSource(booleans = {false, true})
    void aFolderSwappedForALinkAfterItWasResolvedLeadsNowhere(boolean walk) throws Exception {
        Path m = recording();
        FsRoot fs = FsRoot.over(new DirectoryTree(m, walk), false);
        assertThat(fs.text("/sys/class/x/name")).hasValue("inside");
        swapForLink(m.resolve("sys/class/x"), outside());
        assertThat(fs.text("/sys/class/x/name")).isEmpty();
        assertThat(fs.read("/sys/class/x/name").why()).doesNotContain("SECRET");
        assertThat(fs.list("/sys/class/x")).doesNotContain("sub");
    }

    @ParameterizedTest(name = "walk={0}")
    @ValueSource(booleans = {false, true})
    void theRecordingsOwnFolderSwappedAfterItWasOpenedChangesNothing(boolean walk) throws Exception {
        Path m = recording();
        FsRoot fs = FsRoot.over(new DirectoryTree(m, walk), false);
        Path o = outside();
        Files.createDirectories(o.resolve("sys/class/x"));
        Files.writeString(o.resolve("sys/class/x/name"), "SECRET\n");
        swapForLink(m, o);
        assertThat(fs.text("/sys/class/x/name")).hasValue("inside");
    }

    /** Links that stay inside the recording are FsRoot's to follow, as sysfs's are: they still read. */
    @ParameterizedTest(name = "walk={0}")
    @ValueSource(booleans = {false, true})
    void linksInsideTheRecordingStillResolve(boolean walk) throws Exception {
        Path m = recording();
        Files.createDirectories(m.resolve("sys/bus"));
        Files.createSymbolicLink(m.resolve("sys/bus/x"), Path.of("../class/x"));
        Files.createSymbolicLink(m.resolve("sys/abs"), Path.of("/sys/class/x")); // absolute: lands in the recording
        FsRoot fs = FsRoot.over(new DirectoryTree(m, walk), false);
        assertThat(fs.text("/sys/bus/x/name")).hasValue("inside");
        assertThat(fs.text("/sys/abs/name")).hasValue("inside");
        assertThat(fs.list("/sys/bus/x")).containsExactly("name");
        assertThat(fs.readLink("/sys/bus/x")).hasValue("../class/x");
    }

    @Test
    void theLiveMachineReadsThroughTheSameCalls() {
        FsRoot live = FsRoot.live();
        assertThat(live.text("/proc/self/status")).hasValueSatisfying(s -> assertThat(s).contains("Pid:"));
        assertThat(live.list("/proc/self/task")).isNotEmpty();
        assertThat(live.exists("/proc/self")).isTrue();
    }

    /** A recording folder whose only entry links to "/" is no recording: the live machine is not read as if it were one. */
    @Test
    void aLinkAsTheRecordingsOnlyFolderIsNotFollowed() throws Exception {
        Path box = Files.createDirectories(tmp.resolve("box"));
        Files.createSymbolicLink(box.resolve("machine"), Path.of("/"));
        assertThatThrownBy(() -> FsRoot.open(box.toString())).isInstanceOf(BadInputException.class)
                .hasMessageContaining("not a recorded machine");
        Path box2 = Files.createDirectories(tmp.resolve("box2"));
        Files.createSymbolicLink(box2.resolve("sys"), Path.of("/sys"));
        Files.createSymbolicLink(box2.resolve("proc"), Path.of("/proc"));
        assertThatThrownBy(() -> FsRoot.open(box2.toString())).isInstanceOf(BadInputException.class);
    }
}
