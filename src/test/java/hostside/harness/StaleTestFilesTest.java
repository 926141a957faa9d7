package hostside.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.testing.Tools;

/**
 * The sweep of a killed run's test files: ours with a free lock go, and it says so; a live
 * owner's (its lock held by another process), this JVM's own, strangers' files, links and the
 * PID-named files of older versions stay.
 */
class StaleTestFilesTest {
    @TempDir
    Path tmp;

    static final String ID = "00000000deadbeef";

    static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** A killed run's leftovers: the lock file (with its line) and the data file, nobody holding the lock. */
    Path killedRun(String drill, String id, int dataBytes) throws IOException {
        Files.writeString(tmp.resolve("hostside-" + drill + "-" + id + ".lock"), "hostside " + drill + " test file lock, pid 1\n");
        return Files.write(tmp.resolve("hostside-" + drill + "-" + id + ".tmp"), new byte[dataBytes]);
    }

    /** Another live process holding an fcntl lock on {@code file} (python's lockf is fcntl F_SETLK) until destroyed. */
    static Process holdLock(Path file) throws IOException {
        Tools.requireTool("python3");
        Process p = new ProcessBuilder("python3", "-c", "import fcntl, sys, time\nf = open(sys.argv[1], 'r+')\n"
                + "fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)\nprint('locked', flush=True)\ntime.sleep(60)", file.toString())
                .redirectErrorStream(true).start();
        String line = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertThat(line).as("the lock holder started").isEqualTo("locked");
        return p;
    }

    @Test
    void aKilledRunsFilesAreRemovedAndSaid() throws IOException {
        killedRun("io", ID, 3 << 20);
        Files.writeString(tmp.resolve("hostside-io-write-00000000feedf00d.lock"), "hostside io-write test file lock, pid 7\n");
        List<String> said = new ArrayList<>();
        var note = StaleTestFiles.sweep(tmp, said::add);
        assertThat(names(tmp)).isEmpty();
        assertThat(note).hasValueSatisfying(n -> assertThat(n).startsWith("removed 2 test files (3.0 MiB) that a killed hostside run left in " + tmp)
                .contains("hostside-io-" + ID + ".tmp", "hostside-io-write-00000000feedf00d.lock"));
        assertThat(said).containsExactly(note.get());
        assertThat(StaleTestFiles.sweep(tmp, said::add)).as("nothing left: nothing said").isEmpty();
        assertThat(said).hasSize(1);
    }

    @Test
    void aLiveOwnersFilesStayWhileItHoldsTheLockAndGoOnceItDied() throws Exception {
        Path data = killedRun("io", ID, 4096);
        Process owner = holdLock(tmp.resolve("hostside-io-" + ID + ".lock"));
        try {
            assertThat(StaleTestFiles.sweep(tmp)).isEmpty();
            assertThat(names(tmp)).containsExactly("hostside-io-" + ID + ".lock", data.getFileName().toString());
        } finally {
            owner.destroyForcibly();
            assertThat(owner.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        // killed: the kernel dropped its lock
        assertThat(StaleTestFiles.sweep(tmp)).extracting(StaleTestFiles.Removed::name).containsExactly(data.getFileName().toString());
        assertThat(names(tmp)).isEmpty();
    }

    @Test
    void thisJvmsOwnLiveFilesStayAndKeepTheirLock() throws Exception {
        try (TestFile live = TestFile.create(tmp, "io", 1 << 20, Long.MAX_VALUE / 2); TestFile write = TestFile.scratch(tmp, "io-write")) {
            write.createNew();
            List<String> before = names(tmp);
            assertThat(before).hasSize(4);
            assertThat(StaleTestFiles.sweep(tmp)).isEmpty();
            assertThat(names(tmp)).isEqualTo(before);
            // still locked for everyone else: the sweep did not open (and so unlock) our lock files
            Path lock = tmp.resolve(live.path().getFileName().toString().replace(".tmp", ".lock"));
            Tools.requireTool("python3");
            Process p = new ProcessBuilder("python3", "-c", "import fcntl, sys\nf = open(sys.argv[1], 'r+')\n"
                    + "try:\n    fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)\n    print('free')\nexcept OSError:\n    print('held')", lock.toString())
                    .redirectErrorStream(true).start();
            assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip()).isEqualTo("held");
            p.waitFor();
        }
        assertThat(names(tmp)).isEmpty();
    }

    @Test
    void strangersFilesLinksAndOldPidNamesStay() throws IOException {
        Files.writeString(tmp.resolve("hostside-io-1.tmp"), "an older hostside's, or anyone's: no way to tell");
        Files.writeString(tmp.resolve("hostside-io-write-1.tmp"), "same");
        Files.writeString(tmp.resolve("hostside-vm-0123.tmp"), "not our shape");
        Files.writeString(tmp.resolve("hostside-io-" + ID + ".tmp"), "ours in shape, but no lock file: not provably a dead run's");
        Path precious = Files.writeString(tmp.resolve("precious.txt"), "keep");
        Files.createSymbolicLink(tmp.resolve("hostside-vm-00000000cafef00d.lock"), precious);
        Files.createSymbolicLink(tmp.resolve("hostside-vm-00000000cafef00d.tmp"), precious);
        // a dead run's lock file whose data file is a link: the lock goes, the link stays
        Files.writeString(tmp.resolve("hostside-io-00000000abcdabcd.lock"), "hostside io test file lock, pid 9\n");
        Files.createSymbolicLink(tmp.resolve("hostside-io-00000000abcdabcd.tmp"), precious);
        List<String> before = new ArrayList<>(names(tmp));
        assertThat(StaleTestFiles.sweep(tmp)).extracting(StaleTestFiles.Removed::name).containsExactly("hostside-io-00000000abcdabcd.lock");
        before.remove("hostside-io-00000000abcdabcd.lock");
        assertThat(names(tmp)).isEqualTo(before);
        assertThat(Files.readString(precious)).isEqualTo("keep");
    }

    @Test
    void anotherUsersFilesStay() throws Exception {
        Tools.require(Tools.isRoot(), "root (to give a file to another user)");
        killedRun("io", ID, 4096);
        for (String n : names(tmp)) Files.setAttribute(tmp.resolve(n), "unix:uid", 65534);
        assertThat(StaleTestFiles.sweep(tmp)).isEmpty();
        assertThat(names(tmp)).hasSize(2);
    }

    @Test
    void anEmptyLockFileIsAnOwnerBetweenCreateAndLockUntilItIsOld() throws IOException {
        Path lock = Files.createFile(tmp.resolve("hostside-io-" + ID + ".lock"));
        Path probe = Files.createFile(tmp.resolve("hostside-probe-" + ID + ".tmp"));
        assertThat(StaleTestFiles.sweep(tmp)).isEmpty();
        assertThat(names(tmp)).hasSize(2);
        FileTime old = FileTime.from(Instant.now().minus(StaleTestFiles.UNFINISHED).minusSeconds(60));
        Files.setLastModifiedTime(lock, old);
        Files.setLastModifiedTime(probe, old);
        assertThat(StaleTestFiles.sweep(tmp)).hasSize(2);
        assertThat(names(tmp)).isEmpty();
    }
}
