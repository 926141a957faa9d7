package hostside.cpu.trace;

import java.util.ArrayList;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.core.Units;

/**
 * What a syscall profile means for a training step, one finding of a {@link ProfileRules} rule each. A line appears only when its
 * figure stands out; the wording says what the calls are and where they usually come from, and
 * stays neutral where the trace cannot tell. A profile of marked steps
 * ({@link SyscallProfile#steps()} &gt; 0) gives figures per step; a whole run mixes start-up
 * (imports, CUDA's set-up) with the steps and says so.
 */
public final class ProfileVerdicts {
    public static final String SUBJECT = "syscalls";
    /** Printed once under any strace figures. */
    public static final String CAVEAT = "strace stops each thread at every call: the step runs slower and short calls look longer than they are; "
            + "the counts are right, the times are upper bounds";

    static final double FUTEX_SHARE = 0.5;
    static final double MAIN_WAITING = 0.3;
    /** A first thread that makes fewer of its process's calls than this does not run the step (a launcher). */
    static final double MAIN_WORKS = 0.1;
    static final long CHURN_CALLS = 500;
    static final double CHURN_RATE = 50;
    static final double CHURN_PER_STEP = 1;
    static final long MANY_READS = 1000;
    /** Reads smaller than this on average are many calls for few bytes. */
    static final long SMALL_READ = 256 << 10;
    static final long MANY_STATS = 1000;
    static final double STATS_PER_STEP = 1;
    static final double POLL_SHARE = 0.3;
    static final long MANY_YIELDS = 1000;
    static final double SOCKET_SHARE = 0.2;

    private ProfileVerdicts() {}

    /** The findings, most telling first. */
    public static List<Finding> of(SyscallProfile p) {
        List<Finding> f = new ArrayList<>();
        futex(p).ifPresent(f::add);
        nvidia(p).ifPresent(f::add);
        churn(p).ifPresent(f::add);
        reads(p).ifPresent(f::add);
        stats(p).ifPresent(f::add);
        polling(p).ifPresent(f::add);
        yields(p).ifPresent(f::add);
        sockets(p).ifPresent(f::add);
        processes(p).ifPresent(f::add);
        if (f.isEmpty() && p.totalCalls() > 0) {
            f.add(ProfileRules.EVEN.finding(Severity.INFO, SUBJECT, "no group of calls stands out: the largest is " + largest(p), evidence(p)));
        }
        return f;
    }

    /** The findings' text alone. */
    public static List<String> lines(SyscallProfile p) {
        return of(p).stream().map(Finding::text).toList();
    }

    /**
     * "python3 train.py: 18,204 calls, 3.41 s inside them (summed over 23 threads) in 6.2 s of wall time",
     * or for marked steps "..., 50 steps: 2,310 calls (46 a step), ... in 0.66 s (13.2 ms a step)".
     */
    public static String headline(SyscallProfile p) {
        String threads = p.threads().isEmpty() ? "summed over all threads"
                : "summed over " + p.threads().size() + " thread" + (p.threads().size() == 1 ? "" : "s");
        if (p.steps() > 0) {
            return String.format(Locale.ROOT, "%s, %d steps: %,d calls (%s a step), %s s inside them (%s) in %.2f s of wall time (%.1f ms a step)",
                    p.command(), p.steps(), p.totalCalls(), perStep(p, p.totalCalls()), Units.figure(p.totalSeconds()), threads,
                    p.wallSeconds(), 1000 * p.wallSeconds() / p.steps());
        }
        return String.format(Locale.ROOT, "%s: %,d calls, %s s inside them (%s) in %.1f s of wall time", p.command(), p.totalCalls(),
                Units.figure(p.totalSeconds()), threads, p.wallSeconds());
    }

    private static String largest(SyscallProfile p) {
        SyscallProfile.GroupStats g = p.groups().getFirst();
        return String.format(Locale.ROOT, "%s at %s of the syscall time", g.group().label(), Units.share(g.share()));
    }

    /** "the steps'" or "the run's": whose syscall time a share is of. */
    private static String whose(SyscallProfile p) {
        return p.steps() > 0 ? "the steps'" : "the run's";
    }

    /** "12 a step" where steps are known, else "340 a second". */
    private static String rateOf(SyscallProfile p, long calls) {
        return p.steps() > 0 ? perStep(p, calls) + " a step" : rate(calls, p.wallSeconds()) + " a second";
    }

    static Optional<Finding> futex(SyscallProfile p) {
        if (!p.timed()) {
            SyscallProfile.GroupStats g = p.group(SyscallGroup.FUTEX);
            if (g.share() < FUTEX_SHARE) return Optional.empty();
            return Optional.of(ProfileRules.FUTEX.finding(Severity.INFO, SUBJECT, String.format(
                    "%s of the syscall time is futex (%,d calls; strace -c does not tell waits from wakes, but with -w the time is nearly all waiting): "
                            + "threads wait on each other (DataLoader queues, the pin-memory thread, thread pools between ops); "
                            + "the timed trace says which threads wait", Units.share(g.share()), g.calls()), evidence(p)));
        }
        SyscallProfile.GroupStats g = p.group(SyscallGroup.FUTEX_WAIT);
        if (g.share() < FUTEX_SHARE) return Optional.empty();
        StringBuilder sb = new StringBuilder(String.format(
                "%s of %s syscall time is futex waits (%,d calls, summed over %d threads): threads wait on each other "
                        + "(DataLoader queues, the pin-memory thread, thread pools between ops, CUDA's blocking sync)",
                Units.share(g.share()), whose(p), g.calls(), p.threads().size()));
        Severity severity = Severity.INFO;
        Optional<SyscallProfile.ThreadStats> main = p.mainThread();
        double span = main.map(m -> p.steps() > 0 ? p.wallSeconds() : m.lifeSeconds()).orElse(0.0);
        if (main.isPresent() && span > 0) {
            double waiting = Math.min(1, main.get().seconds(SyscallGroup.FUTEX_WAIT) / span);
            long processCalls = p.threads().stream().filter(t -> t.process() == main.get().process()).mapToLong(SyscallProfile.ThreadStats::calls).sum();
            double share = processCalls == 0 ? 0 : (double) main.get().calls() / processCalls;
            if (waiting >= MAIN_WAITING && share < MAIN_WORKS) {
                sb.append(String.format(Locale.ROOT, "; the first thread (TID %d) spent %s of its %.2f s there but made only %s of its process's calls: "
                        + "a launcher waiting for the threads that do the work (a JVM's first thread does this); the busiest threads say "
                        + "which of those wait", main.get().tid(), Units.share(waiting), span, Units.share(share)));
            } else if (waiting >= MAIN_WAITING) {
                severity = Severity.WARN;
                sb.append(String.format(Locale.ROOT, "; the main thread (TID %d) spent %s of its %.2f s there, so the step itself waits: most often for the next batch "
                        + "(a starved loader: more workers, prefetch_factor) or for the GPU through a blocking sync", main.get().tid(), Units.share(waiting), span));
            } else {
                sb.append(String.format(Locale.ROOT, "; the main thread (TID %d) spent only %s of its %.2f s there: most of the waiting is helper threads "
                        + "idling, which costs nothing", main.get().tid(), Units.share(waiting), span));
            }
        } else {
            sb.append("; look for a GPU-bound step or a starved loader");
        }
        return Optional.of(ProfileRules.FUTEX.finding(severity, SUBJECT, sb.toString(), evidence(p)));
    }

    static Optional<Finding> nvidia(SyscallProfile p) {
        SyscallProfile.GroupStats g = p.group(SyscallGroup.IOCTL_NVIDIA);
        if (g.calls() == 0) return Optional.empty();
        String where = "";
        if (p.nvidiaIoctls().size() > 1) {
            where = ": " + p.nvidiaIoctls().entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .map(e -> String.format(Locale.ROOT, "%,d on %s", e.getValue(), e.getKey())).collect(Collectors.joining(", "));
        } else if (p.nvidiaIoctls().size() == 1) {
            where = ", all on " + p.nvidiaIoctls().keySet().iterator().next();
        }
        String what = "the CUDA driver calling the kernel driver: context set-up, memory allocation and mapping, streams and events, some waits; "
                + "kernel launches go through memory mapped into the process and make none";
        String tail;
        if (p.steps() > 0) {
            tail = p.perStep(g.calls()) >= 1
                    ? ". About " + perStep(p, g.calls()) + " a step means something allocates, maps or synchronises through the driver every step "
                            + "(a cudaMalloc or cudaHostAlloc the caching allocators would avoid, events, a blocking sync)"
                    : ". Fewer than one a step: the driver stays out of the steps";
        } else {
            tail = ". This run includes CUDA's start-up, which makes hundreds; a count that grows with the number of steps means allocation "
                    + "or synchronisation through the driver every step (the caching allocators and CUDA graphs avoid it)";
        }
        return Optional.of(ProfileRules.NVIDIA_IOCTL.finding(Severity.INFO, SUBJECT, String.format(Locale.ROOT, "%,d ioctls on /dev/nvidia* (%s%s): %s%s", g.calls(), rateOf(p, g.calls()), where,
                what, tail), evidence(p)));
    }

    static Optional<Finding> churn(SyscallProfile p) {
        long mmap = p.calls("mmap") + p.calls("mmap2"), unmap = p.calls("munmap"), madvise = p.calls("madvise");
        long returned = unmap + madvise;
        if (p.steps() > 0) {
            if (p.perStep(returned) < CHURN_PER_STEP || returned < 10) return Optional.empty();
        } else if (returned < CHURN_CALLS || p.wallSeconds() <= 0 || returned / p.wallSeconds() < CHURN_RATE) {
            return Optional.empty();
        }
        String cause = "memory goes back to the kernel and is mapped again, and each page mapped again faults on its first touch: large "
                + "host allocations above glibc's mmap threshold (each batch's tensors) or an allocator that trims do this";
        if (p.steps() > 0) {
            return Optional.of(ProfileRules.MMAP_CHURN.finding(Severity.INFO, SUBJECT, String.format(Locale.ROOT, "mmap/munmap churn: %,d mmap and %,d munmap/madvise calls in the steps (%s): %s",
                    mmap, returned, rateOf(p, returned), cause), evidence(p)));
        }
        return Optional.of(ProfileRules.MMAP_CHURN.finding(Severity.INFO, SUBJECT, String.format(Locale.ROOT, "mmap/munmap churn: %,d mmap and %,d munmap/madvise calls (%s), start-up "
                + "included (loading libraries and imports map and unmap); where they keep coming through the steps, %s", mmap, returned,
                rateOf(p, returned), cause), evidence(p)));
    }

    static Optional<Finding> reads(SyscallProfile p) {
        SyscallProfile.Reads r = p.fileReads();
        boolean enough = p.steps() > 0 ? r.calls() >= p.steps() : r.calls() >= MANY_READS;
        if (!p.timed() || !enough) return Optional.empty();
        long avg = r.bytes() / Math.max(1, r.calls());
        String figures = String.format(Locale.ROOT, "file reads: %s in %,d calls of %s on average%s", Units.bytes(r.bytes()), r.calls(), Units.bytes(avg),
                p.steps() > 0 ? String.format(Locale.ROOT, " (%s a step)", perStep(p, r.calls())) : "");
        if (avg < SMALL_READ) {
            return Optional.of(ProfileRules.READS.finding(Severity.INFO, SUBJECT, figures + ": each read is a syscall, so small ones cost more than their bytes"
                    + (p.steps() > 0 ? "" : " (start-up imports count here too)"), evidence(p)));
        }
        return Optional.of(ProfileRules.READS.finding(Severity.INFO, SUBJECT, figures + ": reads are large enough that their count is not the cost; the bytes are",
                evidence(p)));
    }

    static Optional<Finding> stats(SyscallProfile p) {
        long stats = p.calls("newfstatat") + p.calls("stat") + p.calls("lstat") + p.calls("statx") + p.calls("fstatat64") + p.calls("stat64");
        long opens = p.calls("openat") + p.calls("open");
        if (p.steps() > 0) {
            if (p.perStep(stats + opens) < STATS_PER_STEP) return Optional.empty();
            return Optional.of(ProfileRules.FILE_LOOKUPS.finding(Severity.INFO, SUBJECT, String.format(
                    "%,d stat calls and %,d opens in the steps (%s a step): something looks files up every step (an import or "
                            + "os.path check inside the loop, a dataset that opens a file per sample)",
                    stats, opens, perStep(p, stats + opens)), evidence(p)));
        }
        if (stats < MANY_STATS) return Optional.empty();
        return Optional.of(ProfileRules.FILE_LOOKUPS.finding(Severity.INFO, SUBJECT, String.format(
                "%,d stat calls and %,d opens: Python's imports look for every module along sys.path, so most of these are start-up, "
                        + "paid once per process (and once per DataLoader worker under spawn), not per step", stats, opens), evidence(p)));
    }

    static Optional<Finding> polling(SyscallProfile p) {
        SyscallProfile.GroupStats g = p.group(SyscallGroup.POLL);
        if (g.share() < POLL_SHARE) return Optional.empty();
        String top = g.top().stream().limit(3).map(s -> String.format(Locale.ROOT, "%s %,d", s.name(), s.calls())).collect(Collectors.joining(", "));
        return Optional.of(ProfileRules.POLLING.finding(Severity.INFO, SUBJECT, String.format(
                "%s of %s syscall time is polling and sleeping (%s): threads idle until work or a timeout arrives; time asleep, not CPU burnt",
                Units.share(g.share()), whose(p), top), evidence(p)));
    }

    static Optional<Finding> yields(SyscallProfile p) {
        long y = p.calls("sched_yield");
        if (y < MANY_YIELDS) return Optional.empty();
        return Optional.of(ProfileRules.YIELDS.finding(Severity.INFO, SUBJECT, String.format(
                "%,d sched_yield calls (%s): threads spin while they wait and hand the CPU back each time (OpenMP, MKL and "
                        + "OpenBLAS workers between parallel regions; CUDA's synchronisation under cudaDeviceScheduleYield): a waiting thread "
                        + "that keeps a core busy", y, rateOf(p, y)), evidence(p)));
    }

    static Optional<Finding> sockets(SyscallProfile p) {
        SyscallProfile.GroupStats g = p.group(SyscallGroup.SOCKET);
        if (g.share() < SOCKET_SHARE) return Optional.empty();
        return Optional.of(ProfileRules.SOCKETS.finding(Severity.INFO, SUBJECT, String.format(
                "%s of %s syscall time is sockets and pipes (%,d calls): DataLoader workers hand each batch to the main process over a "
                        + "pipe or Unix socket (the tensors stay in shared memory; the socket carries their handles), or the job talks to "
                        + "other hosts (NCCL's socket transport, a data service)", Units.share(g.share()), whose(p), g.calls()), evidence(p)));
    }

    static Optional<Finding> processes(SyscallProfile p) {
        if (!p.timed()) return Optional.empty();
        if (p.steps() > 0) {
            if (p.processesStarted() == 0) return Optional.empty();
            return Optional.of(ProfileRules.PROCESSES.finding(Severity.WARN, SUBJECT, String.format(
                    "%,d processes started during the steps: DataLoader workers start anew for every pass over the loader unless "
                            + "persistent_workers=True, and each start forks the whole training process", p.processesStarted()),
                    evidence(p)));
        }
        if (p.processesStarted() < 2) return Optional.empty();
        return Optional.of(ProfileRules.PROCESSES.finding(Severity.INFO, SUBJECT, String.format(
                "%,d processes and %,d threads started during the trace: DataLoader workers are processes, started anew for every "
                        + "pass over the loader unless persistent_workers=True (some may be helper commands; their execve shows which)",
                p.processesStarted(), p.threadsStarted()), evidence(p)));
    }

    /** What every profile finding read: the trace's totals. */
    static List<Evidence> evidence(SyscallProfile p) {
        List<Evidence> e = new ArrayList<>();
        e.add(Evidence.fact("strace calls", String.valueOf(p.totalCalls())));
        e.add(Evidence.fact("strace wall seconds", String.format(Locale.ROOT, "%.3f", p.wallSeconds())));
        if (p.steps() > 0) e.add(Evidence.fact("marked steps", String.valueOf(p.steps())));
        return e;
    }

    static String rate(long calls, double seconds) {
        return seconds > 0 ? String.format(Locale.ROOT, "%,.0f", calls / seconds) : "?";
    }

    static String perStep(SyscallProfile p, long calls) {
        double v = p.perStep(calls);
        if (Double.isNaN(v)) return "?";
        return v >= 10 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
