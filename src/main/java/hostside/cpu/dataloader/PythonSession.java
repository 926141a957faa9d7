package hostside.cpu.dataloader;

import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.harness.TestCase;

/**
 * The python3 processes that the DataLoader cases of one run share, so that no case waits for an
 * interpreter it need not:
 * <ul>
 * <li>the copy-on-write driver, cow_workers.py serving one dataset after another: the list and
 * the array cases run in one interpreter, and numpy's presence is its answer to "prepare array",
 * not a second interpreter's import;</li>
 * <li>the parent of fork_vs_spawn_cuda, fork_vs_spawn.py with {@code --go}: started as the cases
 * begin when another case runs before its own, so that its {@code import torch} (3.3 s on the
 * H200 VM) overlaps that case, then told to go when its case comes.</li>
 * </ul>
 * They are two processes, not one: the copy-on-write main must be a process without torch (its
 * workers are fork()ed from it, and a process with CUDA's threads is no DataLoader's main), and a
 * process fork()ed from it would share its pages, moving its USS, the dataset's measure, while the
 * child imports. What overlaps is no figure: the copy-on-write figures are memory, another
 * process's import does not move them, and the torch parent's import is not timed; its CUDA start
 * and its children, which are, come after "go", when the copy-on-write cases have ended.
 * <p>
 * A case run without a session ({@link DataLoaderTarget#session()} null) makes one of its own and
 * closes it when it ends. Closing a session ends every process it started.
 */
public final class PythonSession implements AutoCloseable {
    private final String python;
    private Cow cow;
    private ScriptProcess torch;
    private boolean torchEarly;

    /** A session running {@code python}; nothing is started until a case asks. */
    public PythonSession(String python) {
        this.python = python;
    }

    /**
     * The session for {@code cases}, run in this order against {@code t}: the torch parent is
     * started now when fork_vs_spawn_cuda will run and another case runs before it (a case alone
     * gains nothing from an early start); its bound covers its wait for those cases.
     */
    public static PythonSession open(DataLoaderTarget t, List<? extends TestCase<DataLoaderTarget>> cases) {
        PythonSession s = new PythonSession(t.python());
        int before = 0;
        for (TestCase<DataLoaderTarget> c : cases) {
            if (c instanceof ForkVsSpawn f) {
                if (before > 0 && f.notApplicable(t).isEmpty()) s.startTorch(t, t.timeout().multipliedBy(before), true);
                break;
            }
            if (runs(c, t)) before++;
        }
        return s;
    }

    /**
     * Whether {@code c} will run on {@code t}: applicable, which costs nothing to ask of these
     * cases; a case left out of the run (the quick report's, {@code Skipped}) never is.
     */
    private static boolean runs(TestCase<DataLoaderTarget> c, DataLoaderTarget t) {
        try {
            return c.notApplicable(t).isEmpty();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * The copy-on-write driver and what it said as it started.
     *
     * @param args  the arguments it was started with: a case whose target asks for others gets a new one
     * @param start its "start" event (pid, python version); null until the first case has read it
     */
    static final class Cow {
        final ScriptProcess process;
        final List<String> args;
        JsonNode start;

        Cow(ScriptProcess process, List<String> args) {
            this.process = process;
            this.args = List.copyOf(args);
        }
    }

    /** The running driver when it was started with {@code args}, else a new one (any other ended first). */
    Cow cow(List<String> args) {
        if (cow != null && (!cow.args.equals(args) || !cow.process.process().isAlive())) discardCow();
        if (cow == null) cow = new Cow(ScriptProcess.start(python, CowSampler.SCRIPT, args, true), args);
        return cow;
    }

    /** Ends the driver: after a run that did not end well its state is unknown, and the next case starts afresh. */
    void discardCow() {
        if (cow == null) return;
        try {
            cow.process.close();
        } finally {
            cow = null;
        }
    }

    /** Starts the torch parent: {@code wait} is how long it may wait for "go". */
    private void startTorch(DataLoaderTarget t, Duration wait, boolean early) {
        try {
            torch = ScriptProcess.start(python, ForkVsSpawn.SCRIPT, ForkVsSpawn.arguments(t.timeout(), wait), false);
            torchEarly = early;
        } catch (RunFailed e) {
            torch = null; // its case says why, starting it again
        }
    }

    /** Whether the torch parent was started before its case, its import hidden behind the cases before. */
    boolean torchStartedEarly() {
        return torchEarly;
    }

    /** The torch parent: the one started early, else one started now. The caller ends it ({@link #endTorch}). */
    ScriptProcess torch(DataLoaderTarget t) {
        if (torch == null) {
            torch = ScriptProcess.start(python, ForkVsSpawn.SCRIPT, ForkVsSpawn.arguments(t.timeout(), Duration.ZERO), false);
            torchEarly = false;
        }
        return torch;
    }

    /** Ends the torch parent: it serves one run. */
    void endTorch() {
        if (torch == null) return;
        try {
            torch.close();
        } finally {
            torch = null;
        }
    }

    @Override
    public void close() {
        try {
            discardCow();
        } finally {
            endTorch();
        }
    }
}
