package hostside.harness;

import java.util.Objects;

import hostside.fs.FsRoot;
import hostside.process.LoadWindow;

/**
 * Where and how a drill runs: the machine (live or recorded), which cases, where progress goes,
 * the window the machine's load is read over as the drill begins ({@link LoadWindow}: the drill
 * closes it once its facts are read, before it measures; {@link LoadWindow#NONE}, or null, where
 * none is read, as on a recording: a busy machine makes the measured findings unknown), what
 * earlier drills of the same session made, and the session's test files (a report's drills share
 * one, {@link TestFiles}).
 */
public record DrillContext(FsRoot fs, Selection cases, ProgressSink progress, LoadWindow load, Earlier earlier, TestFiles files) {
    public DrillContext {
        if (load == null) load = LoadWindow.NONE;
        Objects.requireNonNull(fs, "fs");
        Objects.requireNonNull(cases, "cases");
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(earlier, "earlier");
        Objects.requireNonNull(files, "files");
    }

    /** Each drill its own test file. */
    public DrillContext(FsRoot fs, Selection cases, ProgressSink progress, LoadWindow load, Earlier earlier) {
        this(fs, cases, progress, load, earlier, TestFiles.OWN);
    }

    /** A drill run alone: nothing earlier, its own test file. */
    public static DrillContext alone(FsRoot fs, Selection cases, ProgressSink progress, LoadWindow load) {
        return new DrillContext(fs, cases, progress, load, Earlier.NONE);
    }
}
