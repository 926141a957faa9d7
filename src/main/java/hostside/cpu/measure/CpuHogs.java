package hostside.cpu.measure;

import java.util.ArrayList;
import java.util.List;

import hostside.harness.Child;
import hostside.harness.Children;
import hostside.libc.Sched;

/**
 * CPU hogs as {@code refs hog N SECONDS} makes them: N processes that spin in user space and
 * never enter the kernel. Each is {@code /bin/sh} running {@code while :; do :; done} (builtins
 * only: no fork, no syscall), named {@link #NAME} (its {@code $0}, last on its command line), so
 * that a test or a user's {@code pgrep -f} finds them.
 * <p>
 * They were a shell loop that ran {@code $(date +%s)} every 100,000 iterations: a fork and an
 * exec of date several times a second per hog, whose kernel work (page tables, ELF loading,
 * exit) cannot be preempted on a PREEMPT_NONE kernel, so a feeder woken meanwhile waited for
 * it. With such hogs the C timer loop itself was several times later at p99.9 than under
 * {@code refs hog} (docs/measurements/2026-12-03-jitter-vs-refs.md).
 * <p>
 * They run in hostside's own session, as {@code refs hog}'s children run in the session of the
 * shell that also runs {@code refs timer}: where autogroups are on (sched_autogroup_enabled and
 * the root cpu cgroup, as on the development VM), a hog in a session of its own would be a
 * scheduling group of its own, competing with the feeder's whole JVM as one group rather than
 * with the feeder thread as one thread, as a DataLoader worker does. Each is a {@link Children}
 * child ({@link Children#startInSession}: killed on close, by the JVM's hooks, and by the
 * kernel's parent-death signal if hostside is killed). Should every stop fail, the kernel ends
 * it by its own CPU-time limit ({@code ulimit -t}, RLIMIT_CPU: SIGKILL), set to the run's time
 * bound, with no fork to check the clock.
 */
public final class CpuHogs implements AutoCloseable {
    /** The hogs' name on their command line ({@code $0} of the shell). */
    public static final String NAME = "hostside-cpu-hog";
    private final List<Child> processes = new ArrayList<>();

    private CpuHogs() {}

    /** The shell script of one hog: no core file, at most {@code limitS} s of CPU time, then a spin on builtins. */
    static String script(long limitS) {
        return "ulimit -c 0; ulimit -t " + Math.max(1, limitS) + "; while :; do :; done";
    }

    /**
     * Starts {@code n} hogs, each allowed on {@code cpus} and placed there by the scheduler, as
     * {@code refs hog}'s are (it starts them unpinned, one per CPU); none when {@code n} is 0.
     */
    public static CpuHogs start(int n, List<Integer> cpus, long limitS) {
        CpuHogs h = new CpuHogs();
        try {
            for (int i = 0; i < n; i++) {
                Child c = Children.startInSession(new ProcessBuilder("/bin/sh", "-c", script(limitS), NAME)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD));
                h.processes.add(c);
                try {
                    Sched.pin(c.pid(), cpus);
                } catch (RuntimeException e) {
                    // CPUs this process may not use: the hog keeps the affinity it inherited
                }
            }
        } catch (java.io.IOException e) {
            h.close();
            throw new IllegalStateException("cannot start the CPU hogs (/bin/sh): " + e.getMessage());
        }
        return h;
    }

    /** Whether {@code cmdline} (/proc/PID/cmdline, NULs as spaces) is a hog's. */
    public static boolean isHog(String cmdline) {
        return cmdline.strip().endsWith(" " + NAME) && cmdline.contains("while :; do :; done");
    }

    /** The hogs' pids. */
    public List<Long> pids() {
        return processes.stream().map(Child::pid).toList();
    }

    /**
     * SIGKILL to every hog first, then each one's close. {@link Child#close()} polls every 5 ms
     * until its process is gone, and while the other hogs still spin each poll waits for a CPU:
     * closed one by one, 2 hogs took 31-202 ms on the 2-CPU dev VM and 16 hogs there 0.5-3.7 s;
     * killed together, 3-22 ms and 22-77 ms (2026-12-07, six closes each).
     */
    @Override
    public void close() {
        for (Child c : processes) c.process().destroyForcibly();
        for (Child c : processes) c.close();
    }
}
