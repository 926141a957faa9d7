package hostside.cpu.trace;

import static hostside.cpu.trace.StraceTest.script;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.BadInputException;
import hostside.doc.Block;
import hostside.doc.Text;

/**
 * strace run for real on small commands here, and what each run leaves behind: nothing. The
 * tests assert counts and endings, never times.
 */
class TracerLiveTest {
    @TempDir
    Path tmp;
    Path work;
    Tracer tracer;

    @BeforeEach
    void strace() throws IOException {
        Optional<Strace> s = Strace.find(System.getenv("PATH"));
        assumeTrue(s.isPresent(), "strace is not installed here");
        work = Files.createDirectory(tmp.resolve("strace-files"));
        tracer = new Tracer(s.get(), work);
    }

    List<Path> leftInWork() throws IOException {
        try (Stream<Path> s = Files.list(work)) {
            return s.toList();
        }
    }

    static void assertAllGone(TraceRun run) {
        assertThat(run.processesSeen()).isNotEmpty();
        for (long pid : run.processesSeen()) {
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("process " + pid + " is gone").isFalse();
        }
    }

    Path smallFile() throws IOException {
        return Files.writeString(tmp.resolve("small.txt"), "line one\nline two\n");
    }

    @Test
    void summaryOfCat() throws IOException {
        Tracer.SummaryRun r = tracer.summary(Target.command(List.of("cat", smallFile().toString())), TraceLimits.of(Duration.ofSeconds(60)));
        assertThat(r.run().ending()).isEqualTo(TraceRun.Ending.EXITED);
        assertThat(r.run().exitCode()).isZero();
        assertThat(r.run().notes()).isEmpty();
        assertThat(r.summary().calls("execve")).isEqualTo(1);
        assertThat(r.summary().calls("read")).isGreaterThanOrEqualTo(2);
        assertThat(r.summary().calls("openat")).isPositive();
        assertThat(r.summary().total()).isPresent();
        assertThat(r.run().straceCommand()).containsSubsequence("-f", "-c", "-w", "-o");
        SyscallProfile p = SyscallProfile.of(r);
        assertThat(p.group(SyscallGroup.FILE).calls()).isPositive();
        assertThat(leftInWork()).isEmpty();
        assertAllGone(r.run());
    }

    @Test
    void timedTraceOfCatAgreesWithTheSummary() throws IOException {
        Target cat = Target.command(List.of("cat", smallFile().toString()));
        Tracer.SummaryRun c = tracer.summary(cat, TraceLimits.of(Duration.ofSeconds(60)));
        Tracer.TimedRun t = tracer.timed(cat, TraceLimits.of(Duration.ofSeconds(60)));
        assertThat(t.trace().garbageLines()).isZero();
        assertThat(t.trace().threads()).hasSize(1);
        assertThat(t.trace().threads().getFirst().name()).isEqualTo("cat");
        assertThat(t.trace().fileReadBytes()).isGreaterThanOrEqualTo(18);
        CrossCheck.Result x = CrossCheck.compare(c, t);
        assertThat(x.rows()).allSatisfy(row -> assertThat(row.agrees() || row.why().startsWith("strace -c does not count")).as(row.toString()).isTrue());
        SyscallProfile p = SyscallProfile.of(t);
        assertThat(p.command()).startsWith("cat ");
        assertThat(p.mainThread()).isPresent();
        assertThat(cells(ProfileTables.groups(p))).contains("file reads");
        assertThat(cells(ProfileTables.crossCheck(x, 10))).contains("agree");
        assertThat(leftInWork()).isEmpty();
    }

    @Test
    void childProcessesAndTheirPipe() throws IOException {
        Tracer.TimedRun t = tracer.timed(Target.command(List.of("sh", "-c", "cat " + smallFile() + " | wc -c")), TraceLimits.of(Duration.ofSeconds(60)));
        assertThat(t.trace().processesStarted()).isGreaterThanOrEqualTo(2);
        assertThat(t.trace().syscalls()).anySatisfy(s -> {
            assertThat(s.group()).isEqualTo(SyscallGroup.SOCKET);
            assertThat(s.name()).isIn("read", "write");
        });
        assertAllGone(t.run());
    }

    @Test
    void sleepPastItsLimitIsKilledAndLeavesNothing() throws IOException {
        long t0 = System.nanoTime();
        Tracer.SummaryRun c = tracer.summary(Target.command(List.of("sleep", "60")), TraceLimits.of(Duration.ofSeconds(1)));
        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(30);
        assertThat(c.run().ending()).isEqualTo(TraceRun.Ending.TIME_LIMIT);
        assertThat(c.run().partial()).isTrue();
        assertThat(c.run().notes()).singleElement().asString().contains("ran past the 1 s limit and was stopped");
        assertThat(c.run().processesSeen()).as("strace and sleep").hasSizeGreaterThanOrEqualTo(2);
        assertAllGone(c.run());
        assertThat(leftInWork()).isEmpty();

        Tracer.TimedRun t = tracer.timed(Target.command(List.of("sleep", "60")), TraceLimits.of(Duration.ofSeconds(1)));
        assertThat(t.run().ending()).isEqualTo(TraceRun.Ending.TIME_LIMIT);
        assertThat(t.trace().callsByName()).containsKey("execve");
        assertAllGone(t.run());
        assertThat(leftInWork()).isEmpty();
    }

    @Test
    void grandchildrenAreKilledToo() throws IOException {
        Path pids = tmp.resolve("pids");
        Tracer.TimedRun t = tracer.timed(Target.command(List.of("sh", "-c", "sleep 60 & echo $! > " + pids + "; sleep 60")),
                TraceLimits.of(Duration.ofSeconds(1)));
        long background = Long.parseLong(Files.readString(pids).strip());
        assertThat(t.run().processesSeen()).contains(background);
        assertAllGone(t.run());
        assertThat(leftInWork()).isEmpty();
    }

    @Test
    void theFileCapStopsTheTrace() throws IOException {
        Tracer.TimedRun t = tracer.timed(Target.command(List.of("sh", "-c", "while :; do cat " + smallFile() + "; done")),
                TraceLimits.of(Duration.ofSeconds(60)).withMaxFileBytes(256 << 10));
        assertThat(t.run().ending()).isEqualTo(TraceRun.Ending.SIZE_LIMIT);
        assertThat(t.run().fileBytes()).isGreaterThan(256 << 10);
        assertThat(t.run().notes()).singleElement().asString().startsWith("the trace file reached 256 KiB after ");
        assertThat(t.trace().processesStarted()).isPositive();
        assertThat(SyscallProfile.of(t).notes()).anySatisfy(n -> assertThat(n).contains("256 KiB"));
        assertAllGone(t.run());
        assertThat(leftInWork()).isEmpty();
    }

    @Test
    void aFailingCommandIsANote() throws IOException {
        Tracer.TimedRun t = tracer.timed(Target.command(List.of("sh", "-c", "echo it broke >&2; exit 3")), TraceLimits.of(Duration.ofSeconds(60)));
        assertThat(t.run().exitCode()).isEqualTo(3);
        assertThat(t.run().notes()).containsExactly("the command exited with status 3 (it broke)");
    }

    @Test
    void aMissingCommandIsBadInput() throws IOException {
        assertThatThrownBy(() -> tracer.summary(Target.command(List.of("no-such-command-here")), TraceLimits.of(Duration.ofSeconds(30))))
                .isInstanceOf(BadInputException.class).hasMessageStartingWith("no-such-command-here: command not found");
        assertThat(leftInWork()).isEmpty();
    }

    @Test
    void attachingForAWindowLeavesTheProcessRunning() throws Exception {
        Process sleeper = new ProcessBuilder("sh", "-c", "while :; do sleep 0.05; done").start();
        try {
            Tracer.TimedRun t = tracer.timed(Target.pid(sleeper.pid()), TraceLimits.of(Duration.ofSeconds(1)));
            assertThat(t.run().ending()).isEqualTo(TraceRun.Ending.TIME_LIMIT);
            assertThat(t.run().partial()).as("a window is what --pid asks for").isFalse();
            assertThat(t.run().notes()).isEmpty();
            assertThat(t.trace().firstPid()).isEqualTo(sleeper.pid());
            assertThat(t.trace().processesStarted()).as("the loop's sleeps").isPositive();
            assertThat(sleeper.isAlive()).as("attached, never killed").isTrue();
            assertThat(leftInWork()).isEmpty();
            Tracer.SummaryRun c = tracer.summary(Target.pid(sleeper.pid()), TraceLimits.of(Duration.ofSeconds(1)));
            assertThat(c.summary().calls("wait4") + c.summary().calls("clone")).isPositive();
            assertThat(sleeper.isAlive()).isTrue();
        } finally {
            sleeper.descendants().forEach(ProcessHandle::destroyForcibly);
            sleeper.destroyForcibly();
            sleeper.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aProcessBlockedTheWholeWindowIsAResult() throws Exception {
        // sleep makes one call (clock_nanosleep) and waits in it: nothing returns inside the window
        Process sleeper = new ProcessBuilder("sleep", "1000").start();
        try {
            Tracer.SummaryRun c = tracer.summary(Target.pid(sleeper.pid()), TraceLimits.of(Duration.ofSeconds(1)));
            assertThat(c.summary().totalCalls()).isZero();
            assertThat(SyscallProfile.of(c).notes()).anySatisfy(n -> assertThat(n).startsWith("PID " + sleeper.pid() + " finished no system call"));
            Tracer.TimedRun t = tracer.timed(Target.pid(sleeper.pid()), TraceLimits.of(Duration.ofSeconds(1)));
            assertThat(t.run().ending()).isEqualTo(TraceRun.Ending.TIME_LIMIT);
            assertThat(SyscallProfile.of(t).notes().getFirst()).startsWith("PID " + sleeper.pid() + " finished no system call in the 1 s window: ");
            assertThat(sleeper.isAlive()).as("attached, never killed").isTrue();
            assertThat(leftInWork()).isEmpty();
        } finally {
            sleeper.destroyForcibly();
            sleeper.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aProcessThatEndsInsideTheWindowIsANote() throws Exception {
        Process short_ = new ProcessBuilder("sh", "-c", "sleep 0.5; for i in 1 2 3; do sleep 0.1; done").start();
        try {
            Tracer.TimedRun t = tracer.timed(Target.pid(short_.pid()), TraceLimits.of(Duration.ofSeconds(30)));
            assertThat(t.run().ending()).isEqualTo(TraceRun.Ending.EXITED);
            assertThat(t.run().notes()).singleElement().asString().startsWith("the process ended ").endsWith("into the 30 s window: the figures cover that part");
        } finally {
            short_.destroyForcibly();
        }
    }

    @Test
    void attachingToNothingOrToItselfIsBadInput() {
        assertThatThrownBy(() -> tracer.timed(Target.pid(Integer.MAX_VALUE - 7), TraceLimits.of(Duration.ofSeconds(1))))
                .isInstanceOf(BadInputException.class).hasMessageContaining("no such process");
        assertThatThrownBy(() -> tracer.timed(Target.pid(ProcessHandle.current().pid()), TraceLimits.of(Duration.ofSeconds(1))))
                .isInstanceOf(BadInputException.class).hasMessageContaining("hostside itself");
    }

    @Test
    void deniedPtraceSaysHowToAllowIt() throws Exception {
        Path bin = Files.createDirectory(tmp.resolve("bin"));
        script(bin, "strace", "echo 'strace: attach: ptrace(PTRACE_SEIZE, 1): Operation not permitted' >&2; exit 1");
        Tracer fake = new Tracer(new Strace(bin.resolve("strace"), "6.1"), work);
        Process sleeper = new ProcessBuilder("sleep", "30").start();
        try {
            assertThatThrownBy(() -> fake.timed(Target.pid(sleeper.pid()), TraceLimits.of(Duration.ofSeconds(5))))
                    .isInstanceOf(TraceUnavailableException.class).hasMessageStartingWith("ptrace was denied (strace: attach: ptrace(PTRACE_SEIZE, 1)")
                    .hasMessageNotContaining("\n");
            assertThat(leftInWork()).isEmpty();
        } finally {
            sleeper.destroyForcibly();
        }
    }

    @Test
    void straceThatWritesNothingIsAOneLineError() throws Exception {
        Path bin = Files.createDirectory(tmp.resolve("bin"));
        script(bin, "strace", "echo 'strace: something odd' >&2; exit 1");
        Tracer fake = new Tracer(new Strace(bin.resolve("strace"), "6.1"), work);
        assertThatThrownBy(() -> fake.summary(Target.command(List.of("true")), TraceLimits.of(Duration.ofSeconds(5))))
                .isInstanceOf(UnreadableTraceException.class).hasMessage("strace wrote nothing (exit status 1): strace: something odd");
        assertThat(leftInWork()).isEmpty();
    }

    /** A table's cells as text, row by row. */
    static java.util.List<String> cells(Block.Table t) {
        return t.rows().stream().flatMap(java.util.List::stream).map(Text::plainText).toList();
    }
}
