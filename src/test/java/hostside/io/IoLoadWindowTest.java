package hostside.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.fs.FsRoot;
import hostside.harness.DrillContext;
import hostside.harness.ProgressSink;
import hostside.harness.Selection;
import hostside.process.LoadWindow;

/**
 * The load's window closes before the drill writes its test file or starts a case: the kernel's
 * writeback of that file is others' CPU time, and a case is what the window is read for.
 */
class IoLoadWindowTest {
    @TempDir
    Path dir;

    @Test
    void theWindowClosesBeforeTheTestFileAndTheFirstCase() {
        List<String> events = new ArrayList<>();
        LoadWindow window = LoadWindow.open(FsRoot.live(), l -> events.add("window closed"));
        ProgressSink sink = e -> {
            if (e instanceof ProgressSink.Step s) events.add("step: " + s.what());
            if (e instanceof ProgressSink.CaseStarted c) events.add("started " + c.label());
        };
        IoRun run = IoDrill.DRILL.run(DrillContext.alone(FsRoot.live(), Selection.named(List.of("seq_read_warm_qd1"), IoDrill.tests()), sink, window),
                new IoDrill.Options(dir, 64L << 20, null, 100L));
        assertThat(run.results()).singleElement().satisfies(r -> assertThat(r.isOk()).as(r.why()).isTrue());
        assertThat(events).as("the file is written, then read").anyMatch(e -> e.startsWith("step: ")).contains("started seq_read_warm_qd1");
        assertThat(events.getFirst()).isEqualTo("window closed");
        assertThat(events).filteredOn("window closed"::equals).hasSize(1);
    }
}
