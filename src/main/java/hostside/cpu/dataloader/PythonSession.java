package hostside.cpu.dataloader;

import java.util.List;

/**
 * The python3 interpreter that the DataLoader cases of one run pass on, so that no case waits for
 * an interpreter it need not: cow_workers.py serves one copy-on-write dataset, then, in the same
 * interpreter, fork_vs_spawn.py's part (its "torch" command). Whether numpy imports is that
 * interpreter's own answer for the array, not a probe interpreter's.
 * <p>
 * Shared where the measurements allow it, and no further:
 * <ul>
 * <li>Each dataset gets an interpreter of its own: a copy-on-write figure counts the pages a
 * worker copies from its main, and what main did before shows in it. A list served before an
 * array in one interpreter added 2-4 copied pages to each array worker (6-11 pages against 3-8
 * from a fresh one; dev VM, 2026-12-07): the array's 0.05% became 0.08-0.14%.</li>
 * <li>The torch part takes the interpreter of the dataset before it: its figure is the start of
 * a spawned child, a fresh interpreter whatever its parent did before.</li>
 * <li>Nothing runs beside a copy-on-write case. The torch parent's import, started with the cases
 * so as to overlap them, moved the list's figure from 94.08% to 92.37% on the dev VM: USS counts
 * the pages of a file mapped by one process alone (Documentation/filesystems/proc.rst: a page is
 * "private" if it is mapped exactly once, independent of MAP_SHARED), and a second python3
 * mapping the same interpreter made 4.6 MiB of main's shared for as long as it ran, so main's
 * growth while building took in that much more when it ended.</li>
 * </ul>
 * A case run without a session ({@link DataLoaderTarget#session()} null) makes one of its own and
 * closes it when it ends. Closing a session ends its interpreter and everything it started.
 */
public final class PythonSession implements AutoCloseable {
    private final String python;
    private ScriptProcess driver;

    /** A session running {@code python}; nothing is started until a case asks. */
    public PythonSession(String python) {
        this.python = python;
    }

    /** An interpreter of its own for one dataset, started with {@code args} (any before it ended). */
    ScriptProcess forDataset(List<String> args) {
        discard();
        driver = start(args);
        return driver;
    }

    /** An interpreter for the torch part: the dataset's before it while it still runs, else a new one with no dataset. */
    ScriptProcess forTorch(List<String> args) {
        if (driver != null && !driver.process().isAlive()) discard();
        if (driver == null) driver = start(args);
        return driver;
    }

    private ScriptProcess start(List<String> args) {
        return ScriptProcess.start(python, CowSampler.SCRIPT, List.of(ForkVsSpawn.SCRIPT), args);
    }

    /** Ends the interpreter: after a failure its state is unknown, after the torch part it is done. */
    void discard() {
        if (driver == null) return;
        try {
            driver.close();
        } finally {
            driver = null;
        }
    }

    @Override
    public void close() {
        discard();
    }
}
