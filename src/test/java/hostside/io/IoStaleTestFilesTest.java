package hostside.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.Finding;
import hostside.core.Severity;
import hostside.fs.FsRoot;
import hostside.harness.DrillContext;
import hostside.harness.ProgressSink;
import hostside.harness.Selection;
import hostside.io.facts.IoFactRules;
import hostside.testing.RuleTally;

/**
 * The I/O drill removes a killed run's test files from its folder before writing there and keeps
 * the note among its findings (M4-STALE-TEST-FILES); files that are not provably a dead run's stay,
 * and nothing is said.
 */
class IoStaleTestFilesTest {
    @TempDir
    Path dir;

    /** A live run of one short measurement (a 64 MiB file read warm) in {@link #dir}. */
    IoRun run() {
        return IoDrill.DRILL.run(DrillContext.alone(FsRoot.live(), Selection.named(List.of("seq_read_warm_qd1"), IoDrill.tests()), ProgressSink.NONE, null),
                new IoDrill.Options(dir, 64L << 20, null, 100L));
    }

    List<Path> files() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }

    @Test
    void aKilledRunsFilesAreRemovedAndNoted() throws Exception {
        // what a SIGKILLed io run leaves: the data file and its lock file, nobody holding the lock
        Files.writeString(dir.resolve("hostside-io-00000000deadbeef.lock"), "hostside io test file lock, pid 1\n");
        Files.write(dir.resolve("hostside-io-00000000deadbeef.tmp"), new byte[1 << 20]);
        Finding f = run().findings().stream().filter(x -> x.id().equals(IoFactRules.STALE_TEST_FILES.id())).findFirst().orElseThrow();
        assertThat(f.severity()).isEqualTo(Severity.INFO);
        assertThat(f.subject()).isEqualTo("test files");
        assertThat(f.text()).startsWith("removed 1 test file (1.0 MiB) that a killed hostside run left in " + dir)
                .endsWith("hostside-io-00000000deadbeef.tmp");
        assertThat(files()).as("the run's own test file is gone too").isEmpty();
    }

    @Test
    void aFolderWithoutADeadRunsFilesIsQuiet() throws Exception {
        // an older version's PID-named file and a stranger's: neither is provably a dead run's, so both stay
        Path pidNamed = Files.writeString(dir.resolve("hostside-io-1.tmp"), "not provably ours: stays");
        Path other = Files.writeString(dir.resolve("notes.txt"), "a user's file");
        RuleTally.quiet(run().findings(), IoFactRules.STALE_TEST_FILES);
        assertThat(files()).containsExactlyInAnyOrder(pidNamed, other);
    }
}
