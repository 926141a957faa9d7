package hostside.cpu.trace;

import static hostside.cpu.trace.StraceSummaryTest.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** Timed traces recorded here, one written by hand in CUDA's manner, and cut or garbled ones. */
class TraceParserTest {
    static long calls(TimedTrace t, SyscallGroup g) {
        return t.syscalls().stream().filter(c -> c.group() == g).mapToLong(TimedTrace.SyscallCount::calls).sum();
    }

    static TimedTrace.ThreadCount thread(TimedTrace t, int tid) {
        return t.threads().stream().filter(x -> x.tid() == tid).findFirst().orElseThrow();
    }

    /** A single-threaded trace counted by a regex, independently of the parser. */
    static Map<String, Long> countByRegex(String text) {
        Map<String, Long> m = new HashMap<>();
        Matcher x = Pattern.compile("(?m)^\\d+ +[\\d:.]+ ([a-z_0-9]+)\\(").matcher(text);
        while (x.find()) m.merge(x.group(1), 1L, Long::sum);
        return m;
    }

    @Test
    void catOfASmallFile() {
        String text = resource("timed_cat.txt");
        TimedTrace t = TraceParser.parse(text);
        assertThat(t.garbageLines()).isZero();
        assertThat(t.unmatchedResumes()).isZero();
        assertThat(t.callsByName()).isEqualTo(countByRegex(text));
        assertThat(t.threads()).hasSize(1);
        assertThat(t.threads().getFirst().name()).isEqualTo("cat");
        assertThat(t.firstPid()).isEqualTo(t.threads().getFirst().tid());
        assertThat(t.wallSeconds()).isBetween(0.001, 5.0);
        // the loader's ELF headers (832 bytes each) and the file itself (18 bytes, then end of file)
        assertThat(t.fileReadBytes()).isEqualTo(countReadBytes(text));
        assertThat(t.fileReadCalls()).isEqualTo(t.callsByName().get("read") + t.callsByName().getOrDefault("pread64", 0L));
        assertThat(t.totalSeconds()).isPositive();
    }

    static long countReadBytes(String text) {
        long sum = 0;
        Matcher x = Pattern.compile("(?m)^\\d+ +[\\d:.]+ p?read(?:64)?\\(.*\\) += (\\d+) <").matcher(text);
        while (x.find()) sum += Long.parseLong(x.group(1));
        return sum;
    }

    @Test
    void pythonWithThreeThreads() {
        TimedTrace t = TraceParser.parse(resource("timed_threads.txt"));
        assertThat(t.garbageLines()).isZero();
        assertThat(t.unmatchedResumes()).isZero();
        assertThat(t.inProgressAtEnd()).isZero();
        assertThat(t.threadsStarted()).isEqualTo(3);
        assertThat(t.processesStarted()).isZero();
        assertThat(t.threads()).hasSize(4).allSatisfy(th -> assertThat(th.process()).isEqualTo(t.firstPid()));
        assertThat(t.threads()).allSatisfy(th -> assertThat(th.name()).isEqualTo("python3"));
        assertThat(calls(t, SyscallGroup.FUTEX_WAIT)).isPositive();
        assertThat(calls(t, SyscallGroup.FUTEX_WAKE)).isPositive();
        assertThat(calls(t, SyscallGroup.FUTEX)).isZero();
        assertThat(calls(t, SyscallGroup.FUTEX_WAIT) + calls(t, SyscallGroup.FUTEX_WAKE)).isEqualTo(t.callsByName().get("futex"));
        // each worker sleeps 20 times (time.sleep: clock_nanosleep)
        assertThat(t.callsByName()).containsEntry("clock_nanosleep", 60L);
        for (TimedTrace.ThreadCount th : t.threads()) {
            if (th.tid() != t.firstPid()) assertThat(th.calls(SyscallGroup.POLL)).isEqualTo(20);
        }
        assertThat(t.wallSeconds()).isPositive();
        double perThread = t.threads().stream().mapToDouble(TimedTrace.ThreadCount::seconds).sum();
        assertThat(perThread).isCloseTo(t.totalSeconds(), within(1e-9));
        assertThat(t.stepWindow()).isEmpty();
    }

    @Test
    void forkPipeSocketpairAndAKilledChild() {
        TimedTrace t = TraceParser.parse(resource("timed_ipc.txt"));
        assertThat(t.garbageLines()).isZero();
        assertThat(t.processesStarted()).isEqualTo(2);
        assertThat(t.signals()).isEqualTo(2);
        // the parent reads the pipe and receives from the socketpair; the child writes and sends
        assertThat(t.syscalls()).anySatisfy(c -> {
            assertThat(c.name()).isEqualTo("read");
            assertThat(c.group()).isEqualTo(SyscallGroup.SOCKET);
        });
        assertThat(t.syscalls()).anySatisfy(c -> {
            assertThat(c.name()).isEqualTo("write");
            assertThat(c.group()).isEqualTo(SyscallGroup.SOCKET);
        });
        assertThat(t.callsByName()).containsEntry("sendto", 1L).containsEntry("recvfrom", 1L);
        // the killed child's sleep returns "?" on a resumed line and still counts once
        TimedTrace.ThreadCount killed = t.threads().stream().filter(th -> th.calls(SyscallGroup.POLL) == 1 && th.tid() != t.firstPid())
                .findFirst().orElseThrow();
        assertThat(killed.process()).isEqualTo(killed.tid());
        assertThat(t.inProgressAtEnd()).isZero();
    }

    @Test
    void descriptorsFollowedThroughTheTrace() {
        TimedTrace t = TraceParser.parse(resource("timed_cuda_like.txt"));
        assertThat(t.garbageLines()).isZero();
        assertThat(calls(t, SyscallGroup.IOCTL_NVIDIA)).as("nvidiactl x2, uvm, nvidia0, the dup, the thread's, after the fork, -y's nvidia1")
                .isEqualTo(8);
        assertThat(t.nvidiaIoctls()).containsExactlyInAnyOrderEntriesOf(Map.of("/dev/nvidiactl", 5L, "/dev/nvidia-uvm", 1L, "/dev/nvidia0", 1L,
                "/dev/nvidia1", 1L));
        assertThat(calls(t, SyscallGroup.IOCTL_OTHER)).as("the child's FIONREAD on its data file, TCGETS on /etc/passwd").isEqualTo(2);
        assertThat(calls(t, SyscallGroup.IOCTL_UNKNOWN)).as("fd 3 from before; fds 5 and 6 closed by execve (O_CLOEXEC)").isEqualTo(3);
        assertThat(t.fileReadBytes()).isEqualTo(1 << 20);
        assertThat(t.fileReadCalls()).isEqualTo(2);
        assertThat(t.threadsStarted()).isEqualTo(1);
        assertThat(t.processesStarted()).isEqualTo(1);
        assertThat(thread(t, 4101).name()).isEqualTo("pt_autograd_0");
        assertThat(thread(t, 4101).process()).isEqualTo(4100);
        assertThat(thread(t, 4102).name()).as("a fork inherits its parent's name").isEqualTo("python3");
        assertThat(thread(t, 4100).name()).as("after execve(\"/bin/true\")").isEqualTo("true");
        assertThat(calls(t, SyscallGroup.FUTEX_WAIT)).isEqualTo(2);
        assertThat(calls(t, SyscallGroup.FUTEX_WAKE)).isEqualTo(1);
        // the main thread's wait ran 150 us across another thread's lines
        assertThat(thread(t, 4100).seconds(SyscallGroup.FUTEX_WAIT)).isCloseTo(0.00015, within(1e-9));
        assertThat(t.wallSeconds()).isCloseTo(0.0043, within(1e-6));
    }

    @Test
    void seedFromProcNamesDescriptorsOpenedBeforeTheTrace() {
        String lines = """
                900 10:00:00.000100 ioctl(8, _IOC(_IOC_READ|_IOC_WRITE, 0x46, 0x2a, 0x20), 0x7ffd) = 0 <0.000010>
                901 10:00:00.000200 ioctl(8, _IOC(_IOC_READ|_IOC_WRITE, 0x46, 0x2a, 0x20), 0x7ffd) = 0 <0.000010>
                900 10:00:00.000300 ioctl(9, TCGETS, 0x7ffd) = -1 ENOTTY (Inappropriate ioctl for device) <0.000010>
                900 10:00:00.000400 ioctl(10, TCGETS, 0x7ffd) = -1 EBADF (Bad file descriptor) <0.000010>
                """;
        FdSeed seed = new FdSeed(900, java.util.Set.of(900, 901), Map.of(8, "/dev/nvidiactl", 9, "/dev/pts/0"), Map.of(901, "pt_autograd_0"));
        TimedTrace t;
        try {
            t = TraceParser.parse(new java.io.BufferedReader(new java.io.StringReader(lines)), seed);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        assertThat(calls(t, SyscallGroup.IOCTL_NVIDIA)).as("both threads share the process's table").isEqualTo(2);
        assertThat(calls(t, SyscallGroup.IOCTL_OTHER)).isEqualTo(1);
        assertThat(calls(t, SyscallGroup.IOCTL_UNKNOWN)).isEqualTo(1);
        assertThat(t.firstPid()).isEqualTo(900);
        assertThat(thread(t, 901).name()).isEqualTo("pt_autograd_0");
        assertThat(thread(t, 901).process()).isEqualTo(900);
    }

    @Test
    void aTraceCutMidLineLosesOnlyThatLine() {
        String text = resource("timed_threads.txt");
        TimedTrace whole = TraceParser.parse(text);
        // cut inside the last complete call line before the end
        int cut = text.lastIndexOf(" = ", text.lastIndexOf("exit_group")) - 10;
        String head = text.substring(0, cut);
        TimedTrace part = TraceParser.parse(head);
        assertThat(part.garbageLines()).isEqualTo(1);
        assertThat(part.garbageSamples()).hasSize(1);
        assertThat(part.totalCalls()).isLessThan(whole.totalCalls()).isGreaterThan(whole.totalCalls() - 10);
    }

    @Test
    void garbageIsCountedNotFatal() {
        TimedTrace t = TraceParser.parse("not a trace\n\u0000\u0001\u0002\n12 10:00:00.1 getpid() = 12 <0.000001>\n(((\n");
        assertThat(t.garbageLines()).isEqualTo(3);
        assertThat(t.totalCalls()).isEqualTo(1);
        assertThat(TraceParser.parse("").totalCalls()).isZero();
        assertThat(TraceParser.parse("").wallSeconds()).isZero();
    }

    @Test
    void callsStillInProgressAtTheEndAreTimedUpToIt() {
        TimedTrace t = TraceParser.parse("""
                7 10:00:00.000000 futex(0x1, FUTEX_WAIT_PRIVATE, 0, NULL <unfinished ...>
                8 10:00:01.000000 getpid() = 7 <0.000001>
                """);
        assertThat(t.inProgressAtEnd()).isEqualTo(1);
        assertThat(thread(t, 7).seconds(SyscallGroup.FUTEX_WAIT)).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void anExitThatNeverReturnsIsNoCallInProgress() {
        TimedTrace t = TraceParser.parse("""
                7 10:00:00.000000 exit(0 <unfinished ...>
                8 10:00:00.100000 getpid() = 8 <0.000001>
                7 10:00:00.200000 +++ exited with 0 +++
                """);
        assertThat(t.inProgressAtEnd()).isZero();
        assertThat(t.callsByName()).containsEntry("exit", 1L);
    }

    @Test
    void aResumedHalfWithoutItsFirstHalfCountsByName() {
        TimedTrace t = TraceParser.parse("7 10:00:00.000000 <... futex resumed>) = 0 <0.5>\n");
        assertThat(t.unmatchedResumes()).isEqualTo(1);
        assertThat(calls(t, SyscallGroup.FUTEX)).isEqualTo(1);
    }

    @Test
    void detachedCallsCountOnce() {
        TimedTrace t = TraceParser.parse("""
                7 10:00:00.000000 futex(0x1, FUTEX_WAIT_PRIVATE, 0, NULL <unfinished ...>
                7 10:00:02.000000 <... futex resumed> <detached ...>
                """);
        assertThat(t.callsByName()).containsEntry("futex", 1L);
        assertThat(thread(t, 7).seconds(SyscallGroup.FUTEX_WAIT)).isCloseTo(2.0, within(1e-9));
    }

    @Test
    void midnightDoesNotMakeATraceNegative() {
        TimedTrace t = TraceParser.parse("""
                7 23:59:59.900000 getpid() = 7 <0.000001>
                7 00:00:00.100000 getpid() = 7 <0.000001>
                """);
        assertThat(t.wallSeconds()).isCloseTo(0.2, within(1e-6));
    }

    @Test
    void stepMarksMakeAWindow() {
        TimedTrace t = TraceParser.parse("""
                7 10:00:00.000000 openat(AT_FDCWD, "/dev/nvidiactl", O_RDWR|O_CLOEXEC) = 5 <0.000010>
                7 10:00:00.100000 ioctl(5, _IOC(_IOC_READ|_IOC_WRITE, 0x46, 0x2a, 0x20), 0x7ffd) = 0 <0.000010>
                8 10:00:00.500000 futex(0x1, FUTEX_WAIT_PRIVATE, 0, NULL <unfinished ...>
                7 10:00:01.000000 newfstatat(AT_FDCWD, "/.hostside-trace-mark/steps-begin", 0x7ffd, 0) = -1 ENOENT (No such file or directory) <0.000010>
                7 10:00:01.100000 ioctl(5, _IOC(_IOC_READ|_IOC_WRITE, 0x46, 0x2a, 0x20), 0x7ffd) = 0 <0.000010>
                8 10:00:01.500000 <... futex resumed>) = 0 <1.000000>
                7 10:00:01.600000 read(5, "x", 1) = 1 <0.000010>
                9 10:00:01.700000 futex(0x2, FUTEX_WAIT_PRIVATE, 0, NULL <unfinished ...>
                7 10:00:02.000000 newfstatat(AT_FDCWD, "/.hostside-trace-mark/steps-end/4", 0x7ffd, 0) = -1 ENOENT (No such file or directory) <0.000010>
                7 10:00:02.500000 ioctl(5, _IOC(_IOC_READ|_IOC_WRITE, 0x46, 0x2a, 0x20), 0x7ffd) = 0 <0.000010>
                9 10:00:03.000000 <... futex resumed>) = 0 <1.300000>
                """);
        assertThat(t.callsByName()).as("the marks count nowhere").doesNotContainKey("newfstatat");
        assertThat(t.nvidiaIoctls()).containsEntry("/dev/nvidiactl", 3L);
        TimedTrace w = t.stepWindow().orElseThrow();
        assertThat(w.steps()).isEqualTo(4);
        assertThat(w.windowUnclosed()).isFalse();
        assertThat(w.wallSeconds()).isCloseTo(1.0, within(1e-4));
        assertThat(w.nvidiaIoctls()).containsEntry("/dev/nvidiactl", 1L);
        assertThat(w.callsByName()).containsEntry("ioctl", 1L).containsEntry("futex", 1L).containsEntry("read", 1L);
        // thread 8 waited 1 s, of which 0.5 s inside the steps; thread 9 waited 0.3 s inside them and returned after
        assertThat(thread(w, 8).seconds(SyscallGroup.FUTEX_WAIT)).isCloseTo(0.5, within(1e-4));
        assertThat(thread(w, 9).seconds(SyscallGroup.FUTEX_WAIT)).isCloseTo(0.3, within(1e-4));
        assertThat(thread(w, 9).calls()).as("it returned after the steps").isZero();
        assertThat(thread(t, 8).seconds(SyscallGroup.FUTEX_WAIT)).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void aWindowWithoutItsEndRunsToTheTraceEnd() {
        TimedTrace t = TraceParser.parse("""
                7 10:00:01.000000 newfstatat(AT_FDCWD, "/.hostside-trace-mark/steps-begin", 0x7ffd, 0) = -1 ENOENT (No such file or directory) <0.000010>
                7 10:00:01.100000 getpid() = 7 <0.000001>
                7 10:00:03.000000 getpid() = 7 <0.000001>
                """);
        TimedTrace w = t.stepWindow().orElseThrow();
        assertThat(w.windowUnclosed()).isTrue();
        assertThat(w.steps()).isZero();
        assertThat(w.wallSeconds()).isCloseTo(2.0, within(1e-4));
        assertThat(w.totalCalls()).isEqualTo(2);
    }
}
