package hostside.cpu;

import static hostside.core.Severity.INFO;
import static hostside.core.Severity.OK;
import static hostside.core.Severity.UNKNOWN;
import static hostside.core.Severity.WARN;

import java.util.EnumSet;
import java.util.List;

import hostside.core.Rule;
import hostside.core.Source;
import hostside.harness.Unsettled;

/**
 * Module 3's rules on what its measurements mean for the thread that feeds a GPU. The conditions
 * are {@link MeasuredVerdicts}'; a figure measured while the machine was busy gives each of them
 * an unknown finding, never a fix.
 */
public final class CpuRules {
    private CpuRules() {}

    static final Source CPU_FIGURES = Source.measurement(
            "docs/measurements/2026-12-02-cpu.md: getppid 125-137 ns on the H200 VM, 1218 ns on the dev VM, beside the C loops of bench/c");

    public static final Rule SYSCALL = Rule.of("M3-SYSCALL", "the cost of a trivial syscall (getppid)", EnumSet.of(OK, WARN, UNKNOWN),
            "every read of a batch, futex hand-over between the DataLoader's threads, mmap and blocking wait of the training loop pays a"
                    + " syscall or more; above " + (long) MeasuredVerdicts.SLOW_SYSCALL_NS + " ns the CPU side of the loop slows with it. Kernel"
                    + " launches and copies do not pay it: the CUDA driver submits them from user space and, with the default (spinning)"
                    + " synchronization, made no syscall on the calling thread per launch, launch and synchronize, or 1 MiB copy",
            "on bare metal, check the CPU-vulnerability mitigations (grep . /sys/devices/system/cpu/vulnerabilities/*); in a VM, the"
                    + " hypervisor's exits set it: compare with the same drill on bare metal before tuning the loop",
            CPU_FIGURES,
            Source.measurement("docs/measurements/2026-12-06-findings-h100.md: bench/cuda/syscalls_per_launch.cu, a ptrace count of the calling"
                    + " thread's syscalls on the H100 VM (CUDA 13, driver 580): 0 per kernel launch, per launch and cudaStreamSynchronize, and per"
                    + " synchronous pinned 1 MiB copy, over 10,000 of each"),
            Source.reasoned("800 ns: six times the H200 VM's 125-137 ns and below the dev VM's 1218 ns, so that a VM"
                    + " whose syscalls trap to the hypervisor is named and a healthy one is not"));

    public static final Rule HANDOFF = Rule.of("M3-HANDOFF", "what handing work to another thread costs (context switch, futex wake-up)",
            EnumSet.of(INFO, UNKNOWN),
            "each DataLoader batch handed through a queue, and each pin-memory hand-over, pays it; fewer, larger batches pay it less often", "",
            Source.measurement("docs/measurements/2026-12-02-cpu.md: futex ping-pong between two threads, call for call as the C reference"
                    + " (refs pingpong futex) does, 1.7 us on one core and 4.9-5.9 us across cores on the H200 VM; lmbench's lat_ctx and perf bench"
                    + " sched pipe hand over through pipes, which cost more, so they are not its peers"),
            Source.reasoned("a cost to know, not a threshold: no finding of it asks for a change"));

    public static final Rule TIMER = Rule.of("M3-TIMER", "how late the feeding thread's timer wake-ups run, quiet and with a CPU hog on every core",
            EnumSet.of(OK, WARN, UNKNOWN),
            "a feeding thread that wakes late, or misses ticks, launches late: the GPU idles for what the CPU lost",
            "keep the feeding thread's cores free of DataLoader workers and other work (taskset, isolcpus, cgroup cpusets), and"
                    + " check what else runs on the machine (top, pidstat 1)",
            Source.source("rt-tests cyclictest (git.kernel.org/pub/scm/utils/rt-tests/rt-tests.git, src/cyclictest/cyclictest.c):"
                    + " the same absolute-deadline wake-up loop, lateness after each deadline"),
            Source.reasoned("twice the quiet p99 or p99.9, beyond both runs' spreads, is what the hogs did; 1% of ticks missed is a cadence"
                    + " the timer cannot hold"));

    public static final Rule LAUNCH = Rule.of("M3-LAUNCH", "what a kernel launch adds to the feeding thread's lateness", EnumSet.of(INFO, UNKNOWN),
            "the launch call's own time is CPU time the feeding thread spends per kernel; what it adds to the lateness is what the GPU waits for", "",
            Source.reasoned("the launch condition against the timer condition with the same company, by the noise rule (core.Versus)"));

    public static final Rule PIN = Rule.of("M3-PIN", "whether pinning the feeding thread shortens its tail under hogs", EnumSet.of(OK, WARN, UNKNOWN),
            "where pinning shortens the tail, threads on the same core delay the feeder; where it does not, the noise comes from elsewhere",
            "pin the thread that feeds the GPU (os.sched_setaffinity, taskset -c) and keep DataLoader workers off its core",
            Source.reasoned("a third off the p99 or p99.9, or half the missed ticks where at least 1% were missed, beyond both runs' spreads"));

    public static final Rule GRAPH = Rule.of("M3-GRAPH", "what a CUDA graph saves against separate launches", EnumSet.of(INFO, UNKNOWN),
            "a graph launches many kernels for the CPU cost of one; it helps most where the CPU cannot keep up with small kernels", "",
            Source.document("CUDA C++ Programming Guide, CUDA Graphs; PyTorch torch.cuda.graphs (CUDA graphs) documentation"));

    public static final Rule JITTER_DISTURBED = Rule.of("M3-JITTER-DISTURBED", "a quiet jitter run noisier than its run under hogs",
            EnumSet.of(UNKNOWN),
            "something else ran during the quiet run, so neither figure is this machine's and the pair is not interpreted", "",
            Source.reasoned("the quiet run's p99, p99.9 or missed ticks above the hogs' run beyond both runs' spreads (core.Versus)"));

    /** A figure whose median did not settle in its samples and time. */
    public static final Rule UNSETTLED = Unsettled.rule(3);

    /** Module 3's measured rules, as the rulebook lists them. */
    public static List<Rule> all() {
        return List.of(SYSCALL, HANDOFF, TIMER, LAUNCH, PIN, GRAPH, JITTER_DISTURBED, UNSETTLED);
    }
}
