package hostside.cpu.dataloader;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import hostside.fs.FsRoot;

/**
 * A started process and every process below it, so that none outlives its run. The processes
 * below are noted while they run ({@link #remember()}), because once the root has died they are
 * orphans that {@link ProcessHandle#descendants()} no longer finds. {@link #close()} kills the
 * root and all of them and waits (bounded) until they are gone; a JVM shutdown hook does the
 * same for every tree still open when the JVM exits (Ctrl-C, SIGTERM, System.exit).
 *
 * <p>Handles keep their start time, so a pid the kernel has since given to a stranger is never
 * killed.
 */
public final class ProcessTree implements AutoCloseable {
    /** How long {@link #kill()} waits for the processes to be gone. */
    static final Duration KILL_WAIT = Duration.ofSeconds(5);

    private static final Set<ProcessTree> OPEN = ConcurrentHashMap.newKeySet();

    static {
        try {
            Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("hostside-process-cleanup").unstarted(() -> {
                for (ProcessTree t : OPEN) t.kill();
            }));
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: nothing can be started, so nothing to clean up
        }
    }

    private final Process root;
    private final Map<Long, ProcessHandle> below = new ConcurrentHashMap<>();

    private ProcessTree(Process root) {
        this.root = root;
    }

    public static ProcessTree start(ProcessBuilder pb) throws IOException {
        ProcessTree t = new ProcessTree(pb.start());
        OPEN.add(t);
        return t;
    }

    public Process process() {
        return root;
    }

    public long pid() {
        return root.pid();
    }

    /** Notes every process below the root now. */
    public void remember() {
        root.descendants().forEach(h -> below.putIfAbsent(h.pid(), h));
    }

    /** Notes the processes below the root; true if {@code pid} is the root or one of them. */
    public boolean remember(long pid) {
        remember();
        return pid == root.pid() || below.containsKey(pid);
    }

    /** The root and every process noted below it, alive or not. */
    public List<Long> pids() {
        List<Long> all = new ArrayList<>();
        all.add(root.pid());
        all.addAll(below.keySet());
        return all;
    }

    /** True while the root or any process noted below it runs. */
    public boolean anyAlive() {
        if (root.isAlive()) return true;
        for (ProcessHandle h : below.values()) if (running(h)) return true;
        return false;
    }

    /**
     * Alive and not a zombie. An orphan that was killed stays a zombie until init reaps it (a
     * second or more under some container inits); it runs nothing and holds no memory. A fresh
     * FsRoot each time: this runs on the shutdown hook's thread too, and a pid's folder must not
     * be remembered.
     */
    static boolean running(ProcessHandle h) {
        return h.isAlive() && !ProcMemory.gone(FsRoot.live().text("/proc/" + h.pid() + "/status"));
    }

    /**
     * SIGKILL to the root and to everything below it (noted or found now), then a bounded wait
     * until they are gone. Works on an interrupted thread: the interrupt is kept for the caller.
     */
    public void kill() {
        remember();
        root.destroyForcibly();
        for (ProcessHandle h : below.values()) h.destroyForcibly();
        boolean interrupted = Thread.interrupted();
        long end = System.nanoTime() + KILL_WAIT.toNanos();
        try {
            while (anyAlive() && System.nanoTime() < end) {
                remember(); // anything the root started in its last moment
                for (ProcessHandle h : below.values()) if (running(h)) h.destroyForcibly();
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    /** Kills whatever still runs and forgets the tree. */
    @Override
    public void close() {
        try {
            if (anyAlive() || !root.descendants().toList().isEmpty()) kill();
        } finally {
            OPEN.remove(this);
        }
    }
}
