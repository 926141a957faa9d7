package hostside.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.fs.FsRoot;

/** The load's window spanning a drill's facts: opened, closed once, waited out only for what is left of it. */
class LoadWindowTest {
    @TempDir
    Path tmp;

    Path machine() {
        Path m = tmp.resolve("m");
        MachineLoadTest.copy(MachineLoadTest.BUSY.resolve("before"), m);
        return m;
    }

    @Test
    void closingWaitsOutWhatIsLeftReadsOnceAndTellsOnce() {
        Path m = machine();
        List<MachineLoad> told = new ArrayList<>();
        LoadWindow w = LoadWindow.opened(FsRoot.open(m.toString()), told::add);
        List<Duration> waits = new ArrayList<>();
        MachineLoad l = w.close(d -> {
            waits.add(d);
            MachineLoadTest.copy(MachineLoadTest.BUSY.resolve("after"), m);
        });
        // opened just now: nearly all of the 200 ms is left to wait, never more
        assertThat(waits).singleElement().satisfies(d -> assertThat(d).isPositive().isLessThanOrEqualTo(MachineLoad.WINDOW));
        assertThat(l.othersCpus()).isCloseTo(45 / 23.0, within(1e-9));
        assertThat(l.busy()).isTrue();
        // a second close is the same load, with no wait and no second telling
        assertThat(w.close(d -> { throw new AssertionError("waited again"); })).isSameAs(l);
        assertThat(told).containsExactly(l);
    }

    @Test
    void aWindowAlreadyLongerThanTheLoadsWaitsForNothing() throws InterruptedException {
        LoadWindow w = LoadWindow.opened(FsRoot.open(machine().toString()), l -> { });
        Thread.sleep(MachineLoad.WINDOW.toMillis() + 20); // a drill whose facts took longer than the window
        MachineLoad l = w.close(d -> { throw new AssertionError("waited " + d); });
        assertThat(l.windowMs()).isGreaterThanOrEqualTo(MachineLoad.WINDOW.toMillis());
    }

    @Test
    void aRecordingHasNoWindowAndAReadLoadIsClosed() {
        assertThat(LoadWindow.open(FsRoot.open(machine().toString()), l -> { throw new AssertionError(); })).isSameAs(LoadWindow.NONE);
        assertThat(LoadWindow.NONE.close()).isNull();
        assertThat(LoadWindow.of(null)).isSameAs(LoadWindow.NONE);
        MachineLoad read = new MachineLoad(200, 2, 0.0, 0.1, 0.0, 1.0, 0.0, 1, 0.1, 0.25, false, null);
        assertThat(LoadWindow.of(read).close()).isSameAs(read);
    }
}
