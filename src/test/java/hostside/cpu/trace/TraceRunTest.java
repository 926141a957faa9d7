package hostside.cpu.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The notes under a run's figures. */
class TraceRunTest {
    static TraceRun run(Target t, TraceRun.Ending e, int exit, String stderr) {
        return new TraceRun(t, List.of("strace"), e, exit, 12.34, stderr, List.of(1L), 1000, 200L << 20, 60);
    }

    static final Target CMD = Target.command(List.of("python3", "train.py"));

    @Test
    void aFailedCommandQuotesItsError() {
        String python = "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n    import torch\n"
                + "ModuleNotFoundError: No module named 'torch'\n+++ exited with 1 +++\n";
        assertThat(run(CMD, TraceRun.Ending.EXITED, 1, python).notes()).containsExactly(
                "the command exited with status 1 (ModuleNotFoundError: No module named 'torch')");
        String java = "Exception in thread \"main\" java.lang.NoClassDefFoundError: org/HdrHistogram/Histogram\n"
                + "\tat hostside.cpu.measure.LaunchJitter$Series.create(LaunchJitter.java:69)\n"
                + "Caused by: java.lang.ClassNotFoundException: org.HdrHistogram.Histogram\n\t... 19 more\n";
        assertThat(run(CMD, TraceRun.Ending.EXITED, 1, java).notes()).containsExactly(
                "the command exited with status 1 (Caused by: java.lang.ClassNotFoundException: org.HdrHistogram.Histogram)");
        assertThat(run(CMD, TraceRun.Ending.EXITED, 2, "").notes()).containsExactly("the command exited with status 2");
        assertThat(run(CMD, TraceRun.Ending.EXITED, 0, "warning: something\n").notes()).isEmpty();
    }

    @Test
    void limits() {
        assertThat(run(CMD, TraceRun.Ending.TIME_LIMIT, 137, "").notes()).containsExactly(
                "the command ran past the 60 s limit and was stopped: the figures cover its first 60 s");
        assertThat(run(CMD, TraceRun.Ending.SIZE_LIMIT, 137, "").notes()).containsExactly(
                "the trace file reached 200 MiB after 12.3 s and tracing stopped there: the figures cover that part");
        assertThat(run(Target.pid(42), TraceRun.Ending.TIME_LIMIT, 0, "").notes()).isEmpty();
        assertThat(run(Target.pid(42), TraceRun.Ending.EXITED, 0, "").notes()).containsExactly(
                "the process ended 12.3 s into the 60 s window: the figures cover that part");
        assertThat(run(CMD, TraceRun.Ending.SIZE_LIMIT, 137, "").partial()).isTrue();
        assertThat(run(Target.pid(42), TraceRun.Ending.TIME_LIMIT, 0, "").partial()).isFalse();
    }

    @Test
    void theCommandsExitIsReported() {
        assertThat(run(CMD, TraceRun.Ending.EXITED, 0, "").commandExit().orElseThrow())
                .isEqualTo(new TraceRun.CommandExit(0, "the command exited with status 0"));
        assertThat(run(CMD, TraceRun.Ending.EXITED, 3, "").commandExit().orElseThrow().status()).isEqualTo(3);
        assertThat(run(CMD, TraceRun.Ending.EXITED, 137, "").commandExit().orElseThrow().text())
                .isEqualTo("the command exited with status 137 (killed by signal 9, SIGKILL, or an exit with that status)");
        TraceRun.CommandExit stopped = run(CMD, TraceRun.Ending.TIME_LIMIT, 143, "").commandExit().orElseThrow();
        assertThat(stopped.status()).as("stopped by hostside: no status of its own").isNull();
        assertThat(stopped.text()).isEqualTo("the command was stopped at the 60 s limit: no exit status of its own");
        assertThat(run(Target.pid(42), TraceRun.Ending.TIME_LIMIT, 0, "").commandExit()).as("an attached process is not ours").isEmpty();
    }
}
