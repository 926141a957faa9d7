package hostside.process;

import java.time.Duration;
import java.util.function.Consumer;

import hostside.fs.FsRoot;

/**
 * The window a drill's {@link MachineLoad} is read over, opened as the drill begins and closed by
 * the drill once it has read its facts, before its first measurement: the window spans that reading
 * instead of a sleep of its own. hostside's own work is left out of what the window judges (others'
 * CPU is the machine's busy time less this process's; others' waits are PSI's less this process's
 * threads' own, {@link MachineLoad#othersWaitPercent}), so the facts this process reads meanwhile
 * do not make the machine look busy; the drills read files there and start no process. A drill's
 * test files are written after the window closes (the kernel's writeback threads are others).
 * {@link #close} waits out what is left of {@link MachineLoad#WINDOW} when the facts took less; a
 * drill whose facts took longer has a longer window, whose figures are rates over it all the same.
 * Before, each of a report's four measuring drills slept its window out: 0.8 s of every report.
 */
public final class LoadWindow {
    /** No window: a recording, or a drill that measures nothing. {@link #close} gives null. */
    public static final LoadWindow NONE = new LoadWindow(null, null, 0, null, l -> { });

    private final FsRoot fs;
    private final LoadCounters start;
    private final long startNanos;
    private final Consumer<MachineLoad> onClose;
    private MachineLoad load;
    private boolean closed;

    private LoadWindow(FsRoot fs, LoadCounters start, long startNanos, MachineLoad load, Consumer<MachineLoad> onClose) {
        this.fs = fs;
        this.start = start;
        this.startNanos = startNanos;
        this.load = load;
        this.closed = fs == null;
        this.onClose = onClose;
    }

    /**
     * A window opened now on {@code fs}'s counters, {@code onClose} told its load once when it closes;
     * {@link #NONE} on a recording, where this machine's load is no one's.
     */
    public static LoadWindow open(FsRoot fs, Consumer<MachineLoad> onClose) {
        return fs.isLive() ? opened(fs, onClose) : NONE;
    }

    /** ... on any {@code fs}, a recording's too (a test's, whose pause moves its counters on). */
    static LoadWindow opened(FsRoot fs, Consumer<MachineLoad> onClose) {
        return new LoadWindow(fs, LoadCounters.read(fs), System.nanoTime(), null, onClose);
    }

    /** A load already read (a test's, or null for none), as a closed window. */
    public static LoadWindow of(MachineLoad load) {
        return load == null ? NONE : new LoadWindow(null, null, 0, load, l -> { });
    }

    /**
     * The load over the window, closing it on the first call: what is left of
     * {@link MachineLoad#WINDOW} is waited out, the counters read again; later calls give the same
     * load. Null for {@link #NONE}.
     */
    public MachineLoad close() {
        return close(d -> Thread.sleep(d));
    }

    /** How what is left of the window is waited out: a sleep, or in a test whatever changes the recorded counters. */
    @FunctionalInterface
    interface Pause {
        void pause(Duration d) throws InterruptedException;
    }

    /** ... waiting with {@code pause} (a test's). */
    MachineLoad close(Pause pause) {
        if (closed) return load;
        closed = true;
        long left = MachineLoad.WINDOW.toNanos() - (System.nanoTime() - startNanos);
        if (left > 0) {
            try {
                pause.pause(Duration.ofNanos(left));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        load = MachineLoad.between(start, LoadCounters.read(fs), System.nanoTime() - startNanos);
        onClose.accept(load);
        return load;
    }
}
