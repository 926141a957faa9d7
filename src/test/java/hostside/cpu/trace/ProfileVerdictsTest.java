package hostside.cpu.trace;

import static hostside.cpu.trace.SyscallGroup.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.core.Finding;
import hostside.core.Severity;
import hostside.testing.RuleTally;

/** What the profiles mean, from figures made by hand; a figure that does not stand out says nothing. */
class ProfileVerdictsTest {
    /** A timed trace built from figures: counts per (syscall, group), one main thread and helpers. */
    static final class Fig {
        final List<TimedTrace.SyscallCount> calls = new ArrayList<>();
        final List<TimedTrace.ThreadCount> threads = new ArrayList<>();
        double wall = 10;
        int steps;
        long readCalls, readBytes, processes, threadsStarted;
        Map<String, Long> nvidia = Map.of();

        Fig call(String name, SyscallGroup g, long calls, double seconds) {
            this.calls.add(new TimedTrace.SyscallCount(name, g, calls, 0, seconds));
            return this;
        }

        Fig thread(int tid, double life, SyscallGroup g, double seconds) {
            Map<SyscallGroup, Double> gs = new EnumMap<>(SyscallGroup.class);
            gs.put(g, seconds);
            threads.add(new TimedTrace.ThreadCount(tid, 100, "python3", 10, seconds, life, gs, Map.of(g, 10L)));
            return this;
        }

        SyscallProfile profile() {
            TimedTrace t = new TimedTrace(calls, threads, 100, wall, 1000, 0, List.of(), 0, 0, 0, readCalls, readBytes, nvidia, processes,
                    threadsStarted, steps, false, null);
            return SyscallProfile.of(t, "python3 train.py");
        }
    }

    static Finding only(SyscallProfile p, String code) {
        return ProfileVerdicts.of(p).stream().filter(f -> f.id().equals(code)).findFirst().orElseThrow(
                () -> new AssertionError("no " + code + " in " + ProfileVerdicts.lines(p)));
    }

    @Test
    void futexWaitsOfIdleHelpersAreHarmless() {
        SyscallProfile p = new Fig().call("futex", FUTEX_WAIT, 2000, 76).call("read", FILE, 100, 24)
                .thread(100, 10, FILE, 0.5).thread(101, 10, FUTEX_WAIT, 9.5).profile();
        Finding f = only(p, "M3-TRACE-FUTEX");
        assertThat(f.severity()).isEqualTo(Severity.INFO);
        assertThat(f.text()).startsWith("76% of the run's syscall time is futex waits (2,000 calls, summed over 2 threads): threads wait on each other "
                + "(DataLoader queues, the pin-memory thread").contains("CUDA's blocking sync")
                .contains("the main thread (TID 100) spent only 0% of its 10.00 s there").contains("costs nothing");
    }

    @Test
    void aMainThreadThatWaitsIsAWarning() {
        SyscallProfile p = new Fig().call("futex", FUTEX_WAIT, 2000, 80).call("read", FILE, 100, 20)
                .thread(100, 10, FUTEX_WAIT, 6).thread(101, 10, FUTEX_WAIT, 9.5).profile();
        Finding f = only(p, "M3-TRACE-FUTEX");
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.text()).contains("the main thread (TID 100) spent 60% of its 10.00 s there, so the step itself waits")
                .contains("a starved loader");
        RuleTally.quiet(ProfileVerdicts.of(p), ProfileRules.EVEN); // a group stands out: the profile is not even
    }

    @Test
    void aLauncherThatWaitsForTheRealMainThreadIsNoStarvedStep() {
        Fig fig = new Fig().call("futex", FUTEX_WAIT, 2000, 80).call("read", FILE, 1000, 20);
        fig.thread(100, 4, FUTEX_WAIT, 4);
        fig.threads.set(0, new TimedTrace.ThreadCount(100, 100, "java", 5, 4, 4, Map.of(FUTEX_WAIT, 4.0), Map.of(FUTEX_WAIT, 5L)));
        fig.threads.add(new TimedTrace.ThreadCount(101, 100, "java", 900, 0.5, 4, Map.of(FILE, 0.5), Map.of(FILE, 900L)));
        Finding f = only(fig.profile(), "M3-TRACE-FUTEX");
        assertThat(f.severity()).isEqualTo(Severity.INFO);
        assertThat(f.text()).contains("the first thread (TID 100) spent 100% of its 4.00 s there but made only 1% of its process's calls: a launcher")
                .doesNotContain("starved");
    }

    @Test
    void futexBelowHalfSaysNothing() {
        // 49.9% of the syscall time in futex waits, the main thread among the waiters: just under half
        SyscallProfile p = new Fig().call("futex", FUTEX_WAIT, 10, 4.99).call("read", FILE, 100, 5.01)
                .thread(100, 10, FUTEX_WAIT, 4.99).profile();
        assertThat(p.group(FUTEX_WAIT).share()).isLessThan(ProfileVerdicts.FUTEX_SHARE).isGreaterThan(0.49);
        RuleTally.quiet(ProfileVerdicts.of(p), ProfileRules.FUTEX);
    }

    @Test
    void nvidiaIoctlsOfAWholeRunMentionStartUp() {
        Fig fig = new Fig().call("ioctl", IOCTL_NVIDIA, 4812, 1).call("read", FILE, 100, 1);
        fig.nvidia = Map.of("/dev/nvidiactl", 4000L, "/dev/nvidia-uvm", 612L, "/dev/nvidia0", 200L);
        Finding f = only(fig.profile(), "M3-TRACE-NVIDIA-IOCTL");
        assertThat(f.text()).startsWith("4,812 ioctls on /dev/nvidia* (481 a second: 4,000 on /dev/nvidiactl, 612 on /dev/nvidia-uvm, 200 on /dev/nvidia0): "
                + "the CUDA driver calling the kernel driver").contains("kernel launches go through memory mapped into the process and make none")
                .contains("start-up").contains("CUDA graphs");
    }

    @Test
    void nvidiaIoctlsPerMarkedStep() {
        Fig fig = new Fig().call("ioctl", IOCTL_NVIDIA, 600, 0.1).call("read", FILE, 100, 1);
        fig.steps = 50;
        fig.nvidia = Map.of("/dev/nvidiactl", 600L);
        Finding f = only(fig.profile(), "M3-TRACE-NVIDIA-IOCTL");
        assertThat(f.text()).startsWith("600 ioctls on /dev/nvidia* (12 a step, all on /dev/nvidiactl)").contains("About 12 a step means something allocates");
        Fig quiet = new Fig().call("ioctl", IOCTL_NVIDIA, 3, 0.1).call("read", FILE, 100, 1);
        quiet.steps = 50;
        assertThat(only(quiet.profile(), "M3-TRACE-NVIDIA-IOCTL").text()).contains("Fewer than one a step");
    }

    @Test
    void stepsWithoutIoctlsOnTheDriverAreQuiet() {
        // the H200's steady steps made no ioctl on /dev/nvidia* (docs/measurements/2026-12-02-cpu.md); a terminal's ioctl is not the driver
        Fig fig = new Fig().call("ioctl", IOCTL_OTHER, 50, 0.01).call("read", FILE, 100, 1).call("futex", FUTEX_WAKE, 100, 0.5);
        fig.steps = 50;
        RuleTally.quiet(ProfileVerdicts.of(fig.profile()), ProfileRules.NVIDIA_IOCTL);
    }

    @Test
    void mmapChurnBelowItsCountsIsQuiet() {
        // a whole run: 499 calls returning memory, at 99.8 a second: fewer than CHURN_CALLS
        Fig whole = new Fig().call("mmap", MEMORY, 499, 1).call("munmap", MEMORY, 300, 1).call("madvise", MEMORY, 199, 1).call("read", FILE, 100, 1);
        whole.wall = 5;
        RuleTally.quiet(ProfileVerdicts.of(whole.profile()), ProfileRules.MMAP_CHURN);
        // 600 calls, but at 49.9 a second over 12.03 s: under CHURN_RATE
        Fig slow = new Fig().call("mmap", MEMORY, 600, 1).call("munmap", MEMORY, 600, 1).call("read", FILE, 100, 1);
        slow.wall = 12.03;
        RuleTally.quiet(ProfileVerdicts.of(slow.profile()), ProfileRules.MMAP_CHURN);
        // marked steps: 49 in 50 steps, under one a step
        Fig steps = new Fig().call("mmap", MEMORY, 49, 1).call("munmap", MEMORY, 49, 1).call("read", FILE, 100, 1);
        steps.steps = 50;
        RuleTally.quiet(ProfileVerdicts.of(steps.profile()), ProfileRules.MMAP_CHURN);
    }

    @Test
    void mmapChurn() {
        SyscallProfile p = new Fig().call("mmap", MEMORY, 1203, 1).call("munmap", MEMORY, 1203, 1).call("read", FILE, 100, 1).profile();
        assertThat(only(p, "M3-TRACE-MMAP-CHURN").text()).startsWith("mmap/munmap churn: 1,203 mmap and 1,203 munmap/madvise calls (120 a second), "
                + "start-up included").contains("where they keep coming through the steps, memory goes back to the kernel");
        assertThat(only(p, "M3-TRACE-MMAP-CHURN").severity()).isEqualTo(Severity.INFO);
        assertThat(ProfileRules.MMAP_CHURN.fix()).contains("MALLOC_MMAP_THRESHOLD_");
        Fig steps = new Fig().call("mmap", MEMORY, 100, 1).call("munmap", MEMORY, 100, 1).call("read", FILE, 100, 1);
        steps.steps = 50;
        assertThat(only(steps.profile(), "M3-TRACE-MMAP-CHURN").text()).contains("in the steps (2.0 a step): memory goes back").doesNotContain("start-up");
        RuleTally.quiet(ProfileVerdicts.of(new Fig().call("munmap", MEMORY, 40, 1).profile()), ProfileRules.MMAP_CHURN);
    }

    @Test
    void smallFileReads() {
        Fig fig = new Fig().call("read", FILE, 30000, 5).call("futex", FUTEX_WAKE, 10, 1);
        fig.readCalls = 30000;
        fig.readBytes = 30000L * 70 * 1024;
        assertThat(only(fig.profile(), "M3-TRACE-READS").text()).startsWith("file reads: 2 GiB in 30,000 calls of 70 KiB on average: "
                + "each read is a syscall");
        assertThat(ProfileRules.READS.fix()).contains("1 MiB and up").contains("np.memmap");
        fig.readBytes = 30000L * (4 << 20);
        assertThat(only(fig.profile(), "M3-TRACE-READS").text()).contains("of 4 MiB on average").contains("the bytes are");
    }

    @Test
    void fewerReadsThanTheirLineAreQuiet() {
        // a whole run: 999 small reads, under MANY_READS
        Fig whole = new Fig().call("read", FILE, 999, 5).call("futex", FUTEX_WAKE, 10, 1);
        whole.readCalls = ProfileVerdicts.MANY_READS - 1;
        whole.readBytes = whole.readCalls * 4096;
        RuleTally.quiet(ProfileVerdicts.of(whole.profile()), ProfileRules.READS);
        // marked steps: 49 reads in 50 steps, fewer than one a step
        Fig steps = new Fig().call("read", FILE, 49, 1).call("futex", FUTEX_WAKE, 10, 1);
        steps.steps = 50;
        steps.readCalls = 49;
        steps.readBytes = 49 * 4096;
        RuleTally.quiet(ProfileVerdicts.of(steps.profile()), ProfileRules.READS);
    }

    @Test
    void fewerLookupsThanTheirLineAreQuiet() {
        // a whole run: 999 stat calls, under MANY_STATS (opens alone do not count there)
        SyscallProfile whole = new Fig().call("newfstatat", FILE, ProfileVerdicts.MANY_STATS - 1, 0.4).call("openat", FILE, 4908, 0.1).profile();
        RuleTally.quiet(ProfileVerdicts.of(whole), ProfileRules.FILE_LOOKUPS);
        // marked steps: 30 stats and 19 opens in 50 steps, fewer than one a step
        Fig steps = new Fig().call("newfstatat", FILE, 30, 0.1).call("openat", FILE, 19, 0.1).call("futex", FUTEX_WAKE, 10, 1);
        steps.steps = 50;
        RuleTally.quiet(ProfileVerdicts.of(steps.profile()), ProfileRules.FILE_LOOKUPS);
    }

    @Test
    void importsAreStartUpUnlessInsideTheSteps() {
        SyscallProfile whole = new Fig().call("newfstatat", FILE, 26508, 0.4).call("openat", FILE, 4908, 0.1).profile();
        assertThat(only(whole, "M3-TRACE-FILE-LOOKUPS").text()).startsWith("26,508 stat calls and 4,908 opens").contains("start-up");
        Fig steps = new Fig().call("newfstatat", FILE, 100, 0.1).call("futex", FUTEX_WAKE, 10, 1);
        steps.steps = 50;
        assertThat(only(steps.profile(), "M3-TRACE-FILE-LOOKUPS").text()).contains("2.0 a step").contains("every step");
    }

    @Test
    void processesStartedInsideTheSteps() {
        Fig steps = new Fig().call("clone", PROCESS, 2, 0.1).call("read", FILE, 10, 1);
        steps.steps = 50;
        steps.processes = 2;
        Finding f = only(steps.profile(), "M3-TRACE-PROCESSES");
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.text()).contains("persistent_workers=True");
        assertThat(f.fix()).isEqualTo("DataLoader(..., persistent_workers=True)");
        Fig whole = new Fig().call("clone", PROCESS, 2, 0.1).call("read", FILE, 10, 1);
        whole.processes = 2;
        whole.threadsStarted = 26;
        assertThat(only(whole.profile(), "M3-TRACE-PROCESSES").severity()).isEqualTo(Severity.INFO);
    }

    @Test
    void noProcessStartedInTheStepsIsQuiet() {
        // threads started, no process: persistent workers, or none
        Fig steps = new Fig().call("clone3", PROCESS, 4, 0.1).call("read", FILE, 10, 1);
        steps.steps = 50;
        steps.threadsStarted = 4;
        RuleTally.quiet(ProfileVerdicts.of(steps.profile()), ProfileRules.PROCESSES);
        // a whole run that started one process: a helper command, not workers started again
        Fig whole = new Fig().call("clone", PROCESS, 1, 0.1).call("read", FILE, 10, 1);
        whole.processes = 1;
        whole.threadsStarted = 26;
        RuleTally.quiet(ProfileVerdicts.of(whole.profile()), ProfileRules.PROCESSES);
    }

    @Test
    void pollingYieldsAndSocketsUnderTheirLinesAreQuiet() {
        // 29.9% polling, 19.9% sockets, 999 sched_yield calls: each just under its line
        SyscallProfile p = new Fig().call("epoll_wait", POLL, 500, 2.89).call("sched_yield", POLL, ProfileVerdicts.MANY_YIELDS - 1, 0.1)
                .call("recvmsg", SOCKET, 100, 1.99).call("read", FILE, 10, 5.02).profile();
        assertThat(p.group(POLL).share()).isLessThan(ProfileVerdicts.POLL_SHARE).isGreaterThan(0.29);
        assertThat(p.group(SOCKET).share()).isLessThan(ProfileVerdicts.SOCKET_SHARE).isGreaterThan(0.19);
        List<Finding> f = ProfileVerdicts.of(p);
        RuleTally.quiet(f, ProfileRules.POLLING);
        RuleTally.quiet(f, ProfileRules.YIELDS);
        RuleTally.quiet(f, ProfileRules.SOCKETS);
    }

    @Test
    void pollingYieldsAndSockets() {
        SyscallProfile p = new Fig().call("epoll_wait", POLL, 500, 6).call("sched_yield", POLL, 5000, 0.5).call("recvmsg", SOCKET, 100, 3)
                .call("read", FILE, 10, 0.5).profile();
        assertThat(only(p, "M3-TRACE-POLLING").text()).startsWith("65% of the run's syscall time is polling and sleeping (epoll_wait 500, sched_yield 5,000)");
        assertThat(only(p, "M3-TRACE-YIELD").text()).startsWith("5,000 sched_yield calls (500 a second)");
        assertThat(only(p, "M3-TRACE-SOCKETS").text()).startsWith("30% of the run's syscall time is sockets and pipes (100 calls)");
    }

    @Test
    void nothingStandsOut() {
        SyscallProfile p = new Fig().call("read", FILE, 10, 0.4).call("futex", FUTEX_WAKE, 10, 0.3).call("getpid", OTHER, 10, 0.3).profile();
        assertThat(ProfileVerdicts.lines(p)).containsExactly("no group of calls stands out: the largest is file reads at 40% of the syscall time");
        assertThat(ProfileVerdicts.of(p)).singleElement().satisfies(f -> {
            assertThat(f.id()).isEqualTo("M3-TRACE-EVEN"); // every other rule of the profile stays quiet
            assertThat(f.evidence()).isNotEmpty();
            assertThat(f.source()).isEqualTo(ProfileRules.EVEN.sources().getFirst().toString());
        });
        Fig empty = new Fig();
        assertThat(ProfileVerdicts.of(empty.profile())).isEmpty();
    }

    @Test
    void aStraceDashCSummarySaysWhatItCannotSplit() {
        StraceSummary s = StraceSummary.parse(StraceSummaryTest.resource("summary_threads.txt"));
        SyscallProfile p = SyscallProfile.of(s, "python3 threads.py", 0.2);
        assertThat(p.timed()).isFalse();
        assertThat(p.group(FUTEX).calls()).isEqualTo(s.calls("futex"));
        assertThat(p.group(FUTEX_WAIT).calls()).isZero();
        assertThat(p.notes()).anySatisfy(n -> assertThat(n).contains("not told apart"));
        assertThat(ProfileVerdicts.headline(p)).startsWith("python3 threads.py: ").contains("summed over all threads");
    }

    @Test
    void headlines() {
        Fig fig = new Fig().call("read", FILE, 2310, 0.4).thread(100, 0.66, FILE, 0.4);
        fig.steps = 50;
        fig.wall = 0.66;
        assertThat(ProfileVerdicts.headline(fig.profile())).isEqualTo(
                "python3 train.py, 50 steps: 2,310 calls (46 a step), 0.40 s inside them (summed over 1 thread) in 0.66 s of wall time (13.2 ms a step)");
        Fig whole = new Fig().call("read", FILE, 18204, 3.41).thread(100, 6.2, FILE, 3.41);
        whole.wall = 6.2;
        assertThat(ProfileVerdicts.headline(whole.profile())).isEqualTo(
                "python3 train.py: 18,204 calls, 3.41 s inside them (summed over 1 thread) in 6.2 s of wall time");
        assertThat(ProfileVerdicts.CAVEAT).contains("upper bounds");
    }
}
