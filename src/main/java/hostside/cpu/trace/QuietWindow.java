package hostside.cpu.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import hostside.fs.FsRoot;
import hostside.process.TaskStat;

/**
 * What it means when an attached process finished no system call in the window: not a
 * failure, but a process blocked in one call the whole time (waiting in a collective, on I/O,
 * on a lock) or computing in user space without entering the kernel. strace counts a call when
 * it returns; a call still in progress when strace lets go shows as {@code <detached ...>} (or
 * {@code <unfinished ...>} for the other threads), which the timed trace keeps as the call each
 * thread was blocked in.
 */
public final class QuietWindow {
    private QuietWindow() {}

    /** The note for a timed trace, where one is due; the process's state is read from {@code fs} when no thread was in a call. */
    public static Optional<String> timed(TraceRun run, TimedTrace t, FsRoot fs) {
        if (!(run.target() instanceof Target.Attach(long pid)) || run.ending() != TraceRun.Ending.TIME_LIMIT) return Optional.empty();
        if (t.totalCalls() - t.inProgressAtEnd() > 0) return Optional.empty();
        String window = window(pid, run);
        List<String> blocked = new ArrayList<>();
        for (TimedTrace.SyscallCount c : t.syscalls()) blocked.add(c.calls() == 1 ? c.name() : c.name() + " x" + c.calls());
        if (!blocked.isEmpty()) {
            long threads = t.inProgressAtEnd();
            String who = threads <= 1 ? "its thread was" : "each of its " + threads + " traced threads was";
            return Optional.of(window + ": " + who + " blocked in one call the whole time (" + String.join(", ", blocked)
                    + "), as a process waiting in a collective, on I/O or on a lock is; strace counts a call when it returns,"
                    + " so a wait longer than the window is in no table");
        }
        char state = state(fs, pid);
        if (state == 'R') {
            return Optional.of(window + " and was running: it computed in user space the whole time without entering the kernel"
                    + " (a busy loop, or a wait that spins instead of sleeping)");
        }
        return Optional.of(window + (state == 0 ? "" : " (state " + state + " at the end)")
                + ": it was blocked or stopped the whole time, in no call strace reported; strace counts a call when it returns");
    }

    /** The note for a strace -c run: no table, because nothing finished. */
    public static Optional<String> summary(TraceRun run, StraceSummary s) {
        if (!(run.target() instanceof Target.Attach(long pid)) || run.ending() != TraceRun.Ending.TIME_LIMIT || s.totalCalls() > 0) {
            return Optional.empty();
        }
        return Optional.of(window(pid, run) + ": strace -c counts a call when it returns, so it printed no table"
                + " (the timed trace shows the call each thread was blocked in)");
    }

    private static String window(long pid, TraceRun run) {
        return String.format(Locale.ROOT, "PID %d finished no system call in the %.0f s window", pid, run.limitSeconds());
    }

    /** The state letter of /proc/PID/stat (after the command name, which may hold spaces and parentheses); 0 when unreadable. */
    static char state(FsRoot fs, long pid) {
        return TaskStat.read(fs, pid).map(t -> t.state().letter).orElse((char) 0);
    }
}
