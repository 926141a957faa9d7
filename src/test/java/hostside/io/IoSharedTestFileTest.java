package hostside.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.fs.FsRoot;
import hostside.harness.DrillContext;
import hostside.harness.Earlier;
import hostside.harness.ProgressSink;
import hostside.harness.Selection;
import hostside.harness.TestFile;
import hostside.harness.TestFiles;

/**
 * In a report the I/O drill reads the test file Module 2 wrote, lengthened to its own size where it
 * needs more: one file written once, left for the session to remove.
 */
class IoSharedTestFileTest {
    static final long MiB = 1L << 20;

    @TempDir
    Path dir;

    List<String> steps = new ArrayList<>();

    IoRun run(TestFiles files, long size) {
        ProgressSink progress = e -> {
            if (e instanceof ProgressSink.Step s) steps.add(s.what());
        };
        DrillContext c = new DrillContext(FsRoot.live(), Selection.named(List.of("seq_read_warm_qd1"), IoDrill.tests()), progress, null,
                Earlier.NONE, files);
        return IoDrill.DRILL.run(c, new IoDrill.Options(dir, size, null, 100L));
    }

    List<String> names() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void theDrillGrowsTheSessionsFileToItsSizeAndLeavesItToTheSession() throws Exception {
        try (TestFiles files = TestFiles.shared()) {
            TestFile vm = files.lend(dir, "vm", 32 * MiB).get();
            IoRun r = run(files, 64 * MiB);
            assertThat(r.results()).singleElement().satisfies(x -> assertThat(x.isOk()).as(x.why()).isTrue());
            assertThat(r.file().path()).isEqualTo(vm.path().toString());
            assertThat(r.file().bytes()).isEqualTo(64 * MiB);
            assertThat(Files.size(vm.path())).as("lengthened, not written beside").isEqualTo(64 * MiB);
            assertThat(names()).as("the file and its lock, and no other test file").hasSize(2);
            assertThat(steps).contains("writing the report's test file on to 64 MiB");
        }
        assertThat(names()).isEmpty();
    }

    @Test
    void aDrillAskingLessReadsTheStartOfTheLongerFile() throws Exception {
        try (TestFiles files = TestFiles.shared()) {
            TestFile vm = files.lend(dir, "vm", 96 * MiB).get();
            IoRun r = run(files, 64 * MiB);
            assertThat(r.file().bytes()).isEqualTo(64 * MiB);
            assertThat(Files.size(vm.path())).isEqualTo(96 * MiB);
            assertThat(steps).contains("reading the first 64 MiB of the report's test file");
        }
    }

    @Test
    void runAloneItWritesItsOwnFileAndRemovesIt() throws Exception {
        IoRun r = run(TestFiles.OWN, 64 * MiB);
        assertThat(Path.of(r.file().path()).getFileName().toString()).startsWith("hostside-io-");
        assertThat(steps).contains("writing the 64 MiB test file");
        assertThat(names()).isEmpty();
    }
}
