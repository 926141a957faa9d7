package hostside.cpu.trace;

import static hostside.cpu.trace.StraceSummaryTest.resource;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.fs.FsRoot;

/** An attached process that finished no call in the window: a result with a note, from recorded strace output. */
class QuietWindowTest {
    /** The rest of a /proc/PID/stat line after its state, as Linux 6.x writes it (52 fields in all). */
    static final String REST = "1 42 42 0 -1 4194304 100 0 0 0 250 30 0 0 20 0 3 0 12345 1000000 200 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 5 0 0 0 0 0 0 0 0 0 0 0 0 0\n";

    @TempDir
    Path tmp;

    static TraceRun attached(long pid, TraceRun.Ending e) {
        return new TraceRun(Target.pid(pid), List.of("strace"), e, 143, 2.0, "strace: Process " + pid + " attached\n", List.of(1L), 100, 200L << 20, 2);
    }

    @Test
    void aDetachedCallIsInProgressNotFinished() {
        TimedTrace t = TraceParser.parse(resource("attach_blocked_threads.txt"));
        assertThat(t.totalCalls()).isEqualTo(3);
        assertThat(t.inProgressAtEnd()).as("two <unfinished ...> and one <detached ...>: none returned").isEqualTo(3);
        assertThat(TraceParser.parse(resource("attach_blocked_one.txt")).inProgressAtEnd()).isEqualTo(1);
    }

    @Test
    void threadsBlockedInOneCallEach() {
        TimedTrace t = TraceParser.parse(resource("attach_blocked_threads.txt"));
        String note = QuietWindow.timed(attached(24734, TraceRun.Ending.TIME_LIMIT), t, FsRoot.live()).orElseThrow();
        assertThat(note).startsWith("PID 24734 finished no system call in the 2 s window: each of its 3 traced threads was blocked in one call")
                .contains("clock_nanosleep x2", "futex", "waiting in a collective, on I/O or on a lock");
        String one = QuietWindow.timed(attached(24700, TraceRun.Ending.TIME_LIMIT), TraceParser.parse(resource("attach_blocked_one.txt")),
                FsRoot.live()).orElseThrow();
        assertThat(one).contains("its thread was blocked in one call the whole time (wait4)");
    }

    @Test
    void noCallAtAllWhileRunningIsComputing() throws Exception {
        Files.createDirectories(tmp.resolve("proc/42"));
        Files.createDirectories(tmp.resolve("sys"));
        Files.writeString(tmp.resolve("proc/42/stat"), "42 (python3 (x)) R " + REST);
        FsRoot fs = FsRoot.open(tmp.toString());
        String note = QuietWindow.timed(attached(42, TraceRun.Ending.TIME_LIMIT), TraceParser.parse(""), fs).orElseThrow();
        assertThat(note).contains("was running: it computed in user space the whole time");
        Files.writeString(tmp.resolve("proc/42/stat"), "42 (python3) T " + REST);
        assertThat(QuietWindow.timed(attached(42, TraceRun.Ending.TIME_LIMIT), TraceParser.parse(""), FsRoot.open(tmp.toString())).orElseThrow())
                .contains("(state T at the end)");
    }

    @Test
    void noNoteWhereACallFinishedOrTheCommandWasOurs() {
        TimedTrace busy = TraceParser.parse("7 10:00:00.000000 getpid() = 7 <0.000001>\n");
        assertThat(QuietWindow.timed(attached(7, TraceRun.Ending.TIME_LIMIT), busy, FsRoot.live())).isEmpty();
        TimedTrace blocked = TraceParser.parse(resource("attach_blocked_one.txt"));
        assertThat(QuietWindow.timed(attached(24700, TraceRun.Ending.EXITED), blocked, FsRoot.live())).as("it ended inside the window").isEmpty();
        TraceRun cmd = new TraceRun(Target.command(List.of("sleep", "9")), List.of("strace"), TraceRun.Ending.TIME_LIMIT, 0, 2, "", List.of(1L), 10, 1 << 20, 2);
        assertThat(QuietWindow.timed(cmd, blocked, FsRoot.live())).isEmpty();
    }

    @Test
    void anEmptySummaryIsNoCallsWithANote() {
        assertThat(StraceSummary.none().totalCalls()).isZero();
        assertThat(QuietWindow.summary(attached(5, TraceRun.Ending.TIME_LIMIT), StraceSummary.none()).orElseThrow())
                .startsWith("PID 5 finished no system call in the 2 s window: strace -c counts a call when it returns");
    }

    @Test
    void aTraceFailureIsOneLineWithoutAClassName() {
        assertThat(new UnreadableTraceException("strace wrote nothing").toString()).isEqualTo("strace wrote nothing");
        assertThat(new TraceInterruptedException("tracing was interrupted").toString()).isEqualTo("tracing was interrupted");
    }
}
