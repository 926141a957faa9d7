package hostside.cpu.dataloader;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The python3 interpreter that the DataLoader cases of one run pass on to each other, so that no
 * case waits for an interpreter it need not: cow_workers.py, which serves one copy-on-write
 * dataset, then, in the same interpreter, fork_vs_spawn.py's part (its "torch" command). Whether
 * numpy imports is that interpreter's answer to "prepare array", not a probe interpreter's.
 * <p>
 * Shared where the measurements allow it, and no further:
 * <ul>
 * <li>Each dataset gets an interpreter that has served none: a copy-on-write figure counts the
 * pages a worker copies from its main, and what main did before shows in it. A list served
 * before an array in one interpreter added 2-4 copied pages to each array worker (6-11 pages
 * against 3-8 from a fresh one; dev VM, 2026-12-07): the array's 0.05% became 0.08-0.14%.</li>
 * <li>The torch part takes the interpreter of the dataset before it: its figure is the start of a
 * spawned child, a fresh interpreter whatever its parent did before.</li>
 * <li>Nothing runs beside a copy-on-write case. The torch parent's import, started with the cases
 * so as to overlap them, moved the list's figure from 94.08% to 92.37% on the dev VM: USS counts
 * the pages of a file mapped by one process alone, and a second python3 mapping the same
 * interpreter made 4.6 MiB of main's shared for as long as it ran, so main's growth while
 * building took in that much more when it ended.</li>
 * </ul>
 * A case run without a session ({@link DataLoaderTarget#session()} null) makes one of its own and
 * closes it when it ends. Closing a session ends its interpreter and everything it started.
 */
public final class PythonSession implements AutoCloseable {
    private final String python;
    private Driver driver;

    /** A session running {@code python}; nothing is started until a case asks. */
    public PythonSession(String python) {
        this.python = python;
    }

    /**
     * The interpreter and what it said as it started.
     *
     * @param args   the arguments it was started with: a dataset that asks for others gets a new one
     * @param start  its "start" event (pid, python version); null until a case has read it
     * @param served whether it has served a dataset (none is given a second)
     */
    static final class Driver {
        final ScriptProcess process;
        final List<String> args;
        JsonNode start;
        boolean served;

        Driver(ScriptProcess process, List<String> args) {
            this.process = process;
            this.args = List.copyOf(args);
        }
    }

    /** An interpreter for one dataset: the current one where it has served none and was started with {@code args}, else a new one. */
    Driver forDataset(List<String> args) {
        if (driver != null && (driver.served || !driver.args.equals(args) || !driver.process.process().isAlive())) discard();
        return current(args);
    }

    /** An interpreter for the torch part: the current one, whatever dataset it served, else a new one. */
    Driver forTorch(List<String> args) {
        if (driver != null && !driver.process.process().isAlive()) discard();
        return current(args);
    }

    private Driver current(List<String> args) {
        if (driver == null) driver = new Driver(ScriptProcess.start(python, CowSampler.SCRIPT, List.of(ForkVsSpawn.SCRIPT), args), args);
        return driver;
    }

    /** Ends the interpreter: after a failure its state is unknown, after the torch part it is done. */
    void discard() {
        if (driver == null) return;
        try {
            driver.process.close();
        } finally {
            driver = null;
        }
    }

    @Override
    public void close() {
        discard();
    }
}
