package hostside.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The one way hostside starts a process (CPU hogs, strace, the Python scripts, short probes), so
 * that none outlives hostside, however hostside ends:
 * <ul>
 * <li>each child runs in a process group of its own ({@code setsid}), so that it and everything
 * it starts (strace's command, forked workers, orphans included) are killed with one signal;</li>
 * <li>normal end, an exception, Ctrl-C or SIGTERM: {@link Child#close()} or the shutdown hook
 * here kills the group (SIGTERM first where the child asked for a grace period, then SIGKILL)
 * and waits until it is gone; the JVM's own reaper thread collects the exit status;</li>
 * <li>SIGKILL of hostside, where no Java code runs: the kernel sends SIGKILL to each child
 * ({@code setpriv --pdeathsig KILL}, util-linux 2.33 or newer), and a watchdog process, which
 * hostside tells the groups it started, sees its stdin close when hostside dies and SIGKILLs
 * those groups: the grandchildren too (a command strace started survives strace's death,
 * strace 6.1 has no --kill-on-exit, and the parent-death signal is not inherited across fork).</li>
 * </ul>
 * Traps this avoids, written down because each one is silent:
 * <ul>
 * <li>PR_SET_PDEATHSIG fires when the parent <em>thread</em> ends, not the process: a child
 * started from a short-lived thread (an executor's, a virtual thread's carrier) would be
 * killed when that thread ends. Every child is therefore started from one platform thread that
 * lives as long as the JVM ({@link #LAUNCHER}).</li>
 * <li>The parent-death signal is cleared by the exec of a set-user-ID or set-group-ID program
 * and in the children of a fork: each level sets its own (the Python scripts call prctl
 * themselves, and check {@code os.getppid()} against {@link #PARENT_ENV} for a parent that died
 * before prctl ran); the watchdog covers whatever does not.</li>
 * <li>setsid forks when its caller leads a process group; a child of the JVM never does (the
 * JVM starts children in its own group), so setsid execs in place and the child's pid is its
 * group's id.</li>
 * <li>A group is signalled only while one of its processes is known to be alive: a pid is not
 * reused while it names a live group, so the signal cannot reach a stranger.</li>
 * </ul>
 * A child's own group also keeps it out of the terminal's foreground group: Ctrl-C reaches
 * hostside alone, whose hook then ends the children (before, the terminal's SIGINT raced the
 * hook). A process that leaves the group itself (a daemon calling setsid) is reached only
 * through its remembered handle, on a normal end.
 *
 * <p>Where setpriv or setsid is missing, what remains still works (killing by pid, the watchdog for
 * groups) and {@link #note()} says what is lost; it is printed once on stderr.
 */
public final class Children {
    /** The environment variable that tells a child the pid it must have as its parent. */
    public static final String PARENT_ENV = "HOSTSIDE_PARENT_PID";

    /**
     * How a command is wrapped so that it dies with hostside. The tools by their full path, found
     * on hostside's own PATH: a child may be given a PATH of its own (a test's, a probe's).
     */
    enum Wrap {
        /** {@code setsid setpriv --pdeathsig KILL -- CMD}: its own group, and killed when hostside dies. */
        FULL,
        /** {@code setsid CMD}: its own group only (setpriv too old or missing). */
        GROUP,
        /** The command as it is: neither tool works here. */
        NONE;

        List<String> prefix() {
            return switch (this) {
                case FULL -> List.of(tool("setsid"), tool("setpriv"), "--pdeathsig", "KILL", "--");
                case GROUP -> List.of(tool("setsid"));
                case NONE -> List.of();
            };
        }
    }

    /** {@code name}'s full path on this JVM's PATH, or the name itself (the start then fails, and the next wrapper is tried). */
    static String tool(String name) {
        String path = System.getenv("PATH");
        for (String dir : (path == null || path.isBlank() ? "/usr/bin:/bin" : path).split(java.io.File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            java.nio.file.Path p = java.nio.file.Path.of(dir, name);
            if (java.nio.file.Files.isRegularFile(p) && java.nio.file.Files.isExecutable(p)) return p.toString();
        }
        return name;
    }

    private static final Set<Child> OPEN = ConcurrentHashMap.newKeySet();
    private static final BlockingQueue<FutureTask<?>> TASKS = new LinkedBlockingQueue<>();
    /** Starts every child: a platform thread that never ends, because a child's parent-death signal follows its parent thread. */
    private static final Thread LAUNCHER = Thread.ofPlatform().daemon().name("hostside-launcher").start(() -> {
        while (true) {
            try {
                TASKS.take().run(); // FutureTask.run keeps any failure for the caller: this loop never dies of one
            } catch (InterruptedException e) {
                // nothing interrupts this thread on purpose; it must go on serving
            }
        }
    });
    private static volatile Wrap wrap;
    private static volatile List<String> prefix; // wrap's, with the tools' paths, found once
    private static Watchdog watchdog; // guarded by Children.class
    private static boolean noted;

    static {
        try {
            Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("hostside-children-cleanup").unstarted(Children::killAll));
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: nothing can be started, so nothing to clean up
        }
    }

    private Children() {}

    /** Starts {@code pb}'s command as a child that ends when closed or when hostside ends; killed at once (no grace). */
    public static Child start(ProcessBuilder pb) throws IOException {
        return start(pb, Duration.ZERO);
    }

    /**
     * Starts {@code pb}'s command wrapped so that it dies with hostside. {@code grace}: how long
     * {@link Child#close()} waits after SIGTERM before SIGKILL (strace detaching from a process it
     * attached to needs one; a CPU hog does not). The builder's command is left as it was.
     */
    public static Child start(ProcessBuilder pb, Duration grace) throws IOException {
        return start(pb, grace, false);
    }

    /**
     * Starts {@code pb}'s command in hostside's own session and process group instead of new ones:
     * for a child that must compete for the CPU as a process the user starts beside their own
     * does. Where autogroups are on (sched_autogroup_enabled, tasks in the root cpu cgroup), each
     * session is a scheduling group of its own: a child in a new session competes with hostside
     * as a group, not as one more thread beside hostside's. It is killed on close and by the
     * hooks like any child (by its pid and the pids noted below it, no group), and by the
     * kernel's parent-death signal if hostside is SIGKILLed, where setpriv works; the watchdog,
     * which signals groups, does not reach it. So it must be one process that ends by itself in
     * time (a CPU hog with a CPU-time limit), and it shares the terminal's Ctrl-C with hostside.
     */
    public static Child startInSession(ProcessBuilder pb) throws IOException {
        return start(pb, Duration.ZERO, true);
    }

    private static Child start(ProcessBuilder pb, Duration grace, boolean inSession) throws IOException {
        Wrap w = wrap();
        List<String> original = pb.command();
        // in hostside's session: setpriv alone, without the setsid before it
        List<String> wrapper = !inSession ? prefix : w == Wrap.FULL ? prefix.subList(1, prefix.size()) : List.of();
        if (!wrapper.isEmpty()) requireExecutable(original.getFirst(), pb.environment().get("PATH"), pb.directory());
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.addAll(original);
        pb.environment().put(PARENT_ENV, Long.toString(ProcessHandle.current().pid()));
        Process p;
        ProcessBuilder wrapped = pb.command(cmd);
        try {
            p = onLauncher(wrapped::start);
        } finally {
            pb.command(original);
        }
        Child c = new Child(p, !inSession && w != Wrap.NONE, grace);
        OPEN.add(c);
        if (c.ownGroup()) watch(c.pid());
        return c;
    }

    /**
     * The check ProcessBuilder would make, made before the wrapper runs: wrapped, a missing
     * program would start setsid and fail in it ("setpriv: failed to execute ..."), where callers
     * expect the IOException of a program that cannot be run.
     */
    static void requireExecutable(String program, String path, java.io.File dir) throws IOException {
        java.nio.file.Path found = null;
        if (program.contains("/")) {
            java.nio.file.Path p = java.nio.file.Path.of(program);
            if (!p.isAbsolute() && dir != null) p = dir.toPath().resolve(p);
            found = p;
        } else {
            for (String d : (path == null ? "" : path).split(java.io.File.pathSeparator)) {
                java.nio.file.Path p = java.nio.file.Path.of(d.isEmpty() ? "." : d, program);
                if (java.nio.file.Files.isRegularFile(p) && java.nio.file.Files.isExecutable(p)) {
                    found = p;
                    break;
                }
            }
        }
        if (found == null || !java.nio.file.Files.isRegularFile(found) || !java.nio.file.Files.isExecutable(found)) {
            throw new IOException("Cannot run program \"" + program + "\": No such file or directory, or not executable");
        }
    }

    /** What a user should know about children surviving hostside here: empty where nothing is lost. */
    public static String note() {
        return switch (wrap()) {
            case FULL -> "";
            case GROUP -> "setpriv --pdeathsig (util-linux 2.33 or newer) is not available: if hostside is killed with SIGKILL, its helper"
                    + " processes are ended by its watchdog process alone";
            case NONE -> "setsid and setpriv (util-linux) are not available: helper processes end with hostside on exit and Ctrl-C,"
                    + " but one started by a helper may outlive a SIGKILL of hostside";
        };
    }

    static Wrap wrap() {
        Wrap w = wrap;
        if (w == null) {
            synchronized (Children.class) {
                if (wrap == null) {
                    Wrap found = probe();
                    prefix = found.prefix();
                    wrap = found;
                    String n = note();
                    if (!n.isEmpty() && !noted) {
                        noted = true;
                        System.err.println("hostside: note: " + n);
                    }
                }
                w = wrap;
            }
        }
        return w;
    }

    /** The first wrapper that runs {@code true} here (setpriv without --pdeathsig fails on the option). */
    private static Wrap probe() {
        for (Wrap w : List.of(Wrap.FULL, Wrap.GROUP)) {
            List<String> cmd = new ArrayList<>(w.prefix());
            cmd.add("true");
            try {
                Process p = onLauncher(() -> new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectError(ProcessBuilder.Redirect.DISCARD).start());
                if (p.waitFor() == 0) return w;
            } catch (IOException e) {
                // not installed: try the next
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Wrap.NONE;
            }
        }
        return Wrap.NONE;
    }

    @FunctionalInterface
    interface Start {
        Process start() throws IOException;
    }

    /** Runs a start on {@link #LAUNCHER}; an interrupt of the caller waits for it all the same (the child must not go unrecorded). */
    static Process onLauncher(Start s) throws IOException {
        FutureTask<Process> task = new FutureTask<>(s::start);
        TASKS.add(task);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return task.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof IOException io) throw io;
                    if (e.getCause() instanceof RuntimeException r) throw r;
                    if (e.getCause() instanceof Error err) throw err;
                    throw new UncheckedIOException(new IOException(e.getCause()));
                }
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    /** The children started and not yet closed. */
    static Set<Child> open() {
        return Set.copyOf(OPEN);
    }

    /** Called by {@link Child#close()}: the watchdog forgets the group, and stops once nothing is left to watch. */
    static void closed(Child c) {
        if (!OPEN.remove(c)) return;
        synchronized (Children.class) {
            if (watchdog == null) return;
            if (c.ownGroup()) watchdog.tell("-" + c.pid());
            if (OPEN.stream().noneMatch(Child::ownGroup)) {
                watchdog.stop();
                watchdog = null;
            }
        }
    }

    private static void watch(long pgid) {
        synchronized (Children.class) {
            if (watchdog == null || !watchdog.alive()) watchdog = Watchdog.start();
            if (watchdog != null) watchdog.tell("+" + pgid);
        }
    }

    /** The shutdown hook: every child still open is killed and forgotten, so the watchdog is left no group to signal at exit. */
    private static void killAll() {
        for (Child c : OPEN) {
            try {
                c.kill();
            } finally {
                closed(c);
            }
        }
    }

    /** The pid of the watchdog process now, for tests; -1 when none runs. */
    static long watchdogPid() {
        synchronized (Children.class) {
            return watchdog == null ? -1 : watchdog.pid();
        }
    }
}
