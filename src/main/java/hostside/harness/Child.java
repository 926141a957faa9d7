package hostside.harness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import hostside.fs.FsRoot;
import hostside.libc.LibcException;
import hostside.libc.Signals;
import hostside.process.TaskStat;

/**
 * A process hostside started through {@link Children}, and every process below it, so that none
 * outlives its run. The processes below are noted while they run ({@link #remember()}), because
 * once their parent has died they are orphans that {@link ProcessHandle#descendants()} no longer
 * finds; where the child leads a process group of its own, one signal to the group reaches them
 * anyway. Handles keep their start time, so a pid the kernel has since given to a stranger is
 * never signalled.
 */
public final class Child implements AutoCloseable {
    /** How long {@link #kill()} waits for the processes to be gone after SIGKILL. */
    static final Duration KILL_WAIT = Duration.ofSeconds(5);
    /** How long killed processes below are given to be reaped by their parents before those are killed too. */
    static final Duration PARENT_REAP_WAIT = Duration.ofMillis(300);
    /** How long orphans are given to be reaped by init (which takes a second or more under some container inits). */
    static final Duration REAP_WAIT = Duration.ofSeconds(2);

    private final Process process;
    private final boolean ownGroup;
    private final Duration grace;
    private final Map<Long, ProcessHandle> below = new ConcurrentHashMap<>();

    Child(Process process, boolean ownGroup, Duration grace) {
        this.process = process;
        this.ownGroup = ownGroup;
        this.grace = grace == null || grace.isNegative() ? Duration.ZERO : grace;
    }

    public Process process() {
        return process;
    }

    public long pid() {
        return process.pid();
    }

    /** True where the child leads a process group of its own (its pid is the group's id). */
    public boolean ownGroup() {
        return ownGroup;
    }

    /** Notes every process below the child now. */
    public void remember() {
        process.descendants().forEach(h -> below.putIfAbsent(h.pid(), h));
    }

    /** Notes the processes below the child; true if {@code pid} is the child or one of them. */
    public boolean remember(long pid) {
        remember();
        return pid == process.pid() || below.containsKey(pid);
    }

    /** The processes noted below the child (alive or not). */
    public List<ProcessHandle> below() {
        return List.copyOf(below.values());
    }

    /** The child and every process noted below it, alive or not. */
    public List<Long> pids() {
        List<Long> all = new ArrayList<>();
        all.add(process.pid());
        all.addAll(below.keySet().stream().sorted().toList());
        return all;
    }

    /** True while the child or any process noted below it runs (a zombie does not). */
    public boolean anyAlive() {
        if (process.isAlive()) return true;
        for (ProcessHandle h : below.values()) if (running(h)) return true;
        return false;
    }

    /**
     * Alive and not a zombie. An orphan that was killed stays a zombie until init reaps it (a
     * second or more under some container inits); it runs nothing and holds no memory. A fresh
     * FsRoot each time: this runs on the shutdown hook's thread too.
     */
    static boolean running(ProcessHandle h) {
        if (!h.isAlive()) return false;
        // unreadable or cut short: gone between the two looks
        return TaskStat.read(FsRoot.live(), h.pid()).map(t -> !t.exited()).orElse(false);
    }

    /** Sends SIGTERM to everything below the child, not the child itself (strace, which must live to write its summary). */
    public void terminateBelow() {
        remember();
        for (ProcessHandle h : below.values()) h.destroy();
    }

    /** Sends SIGKILL to everything below the child, not the child itself. */
    public void killBelow() {
        remember();
        for (ProcessHandle h : below.values()) h.destroyForcibly();
    }

    /**
     * Ends the child and everything below it: SIGTERM to its group and then, after the grace
     * period it was started with (none by default), SIGKILL; then a bounded wait until all are
     * gone. The processes below go first, while their parents still live to reap them (strace
     * waits for its tracees, a shell for its jobs): killed all at once they would be left as
     * zombies for init, which under some container inits never reaps them. Then the group,
     * which reaches orphans never noted, and the child. Works on an interrupted thread: the
     * interrupt is kept for the caller. Synchronized: close() and the shutdown hook may race.
     */
    public synchronized void kill() {
        remember();
        boolean interrupted = Thread.interrupted();
        try {
            if (!grace.isZero() && anyAlive()) {
                signal(Signals.SIGTERM);
                long end = System.nanoTime() + grace.toNanos();
                while (anyAlive() && System.nanoTime() < end) interrupted |= pause();
            }
            long end = System.nanoTime() + KILL_WAIT.toNanos();
            killBelow();
            while (belowRunning() && System.nanoTime() < end) {
                killBelow(); // and anything started in the meantime
                interrupted |= pause();
            }
            long reaped = Math.min(end, System.nanoTime() + PARENT_REAP_WAIT.toNanos());
            while (below.values().stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < reaped) interrupted |= pause();
            signal(Signals.SIGKILL);
            while (anyAlive() && System.nanoTime() < end) {
                remember(); // anything started in its last moment
                signal(Signals.SIGKILL);
                interrupted |= pause();
            }
            // orphans are reaped by init, at its own pace: a moment, bounded, so that callers find them gone
            reaped = System.nanoTime() + REAP_WAIT.toNanos();
            while (below.values().stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < reaped) interrupted |= pause();
            // the JVM's reaper thread collects the child's exit status; wait for it so that no zombie of ours is left
            while (true) {
                try {
                    process.waitFor(1, TimeUnit.SECONDS);
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            // a member never noted (orphaned before remember() looked) got the group's SIGKILL but has no
            // handle here: wait, bounded, for the group to be gone (a zombie not yet reaped counts), so
            // that callers find it gone too (a full test run under load once found such an orphan
            // still running right after close())
            reaped = System.nanoTime() + REAP_WAIT.toNanos();
            while (groupOurs() && System.nanoTime() < reaped) interrupted |= pause();
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    private boolean belowRunning() {
        for (ProcessHandle h : below.values()) if (running(h)) return true;
        return false;
    }

    private static boolean pause() {
        try {
            Thread.sleep(5);
            return false;
        } catch (InterruptedException e) {
            return true;
        }
    }

    /**
     * One signal to the group (while a member is known to be alive, so the id is still ours), and
     * to each handle, which reaches what left the group and works where there is no group.
     */
    private void signal(int sig) {
        if (groupOurs()) {
            try {
                Signals.toGroup(process.pid(), sig);
            } catch (LibcException | LinkageError e) {
                // no libc to call: the handles below still get it
            }
        }
        boolean force = sig == Signals.SIGKILL;
        if (process.isAlive()) {
            if (force) process.destroyForcibly();
            else process.destroy();
        }
        for (ProcessHandle h : below.values()) {
            if (!h.isAlive()) continue;
            if (force) h.destroyForcibly();
            else h.destroy();
        }
    }

    /**
     * Whether the child's group id still names its group. While the child or a process noted
     * below it is alive, the id is pinned (the kernel does not reuse a pid that names a live
     * group). Once the child is gone and reaped, the group may live on in orphans never noted:
     * then the group exists while no process has the child's pid, which a stranger's group of
     * that id would need (its leader).
     */
    private boolean groupOurs() {
        if (!ownGroup) return false;
        if (process.isAlive() || below.values().stream().anyMatch(ProcessHandle::isAlive)) return true;
        try {
            return ProcessHandle.of(process.pid()).isEmpty() && Signals.groupExists(process.pid());
        } catch (LibcException | LinkageError e) {
            return false;
        }
    }

    /** Kills whatever still runs and forgets the child. */
    @Override
    public void close() {
        try {
            remember();
            if (anyAlive() || groupOurs()) kill();
        } finally {
            Children.closed(this);
        }
    }
}
