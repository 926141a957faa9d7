package hostside.harness;

import java.util.Objects;

import hostside.fs.FsRoot;
import hostside.process.MachineLoad;

/**
 * Where and how a drill runs: the machine (live or recorded), which cases, where progress goes,
 * the machine's load as the drill began (null where not read, as on a recording: a busy machine
 * makes the measured findings unknown), and what earlier drills of the same session made.
 */
public record DrillContext(FsRoot fs, Selection cases, ProgressSink progress, MachineLoad load, Earlier earlier) {
    public DrillContext {
        Objects.requireNonNull(fs, "fs");
        Objects.requireNonNull(cases, "cases");
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(earlier, "earlier");
    }

    /** A drill run alone: nothing earlier. */
    public static DrillContext alone(FsRoot fs, Selection cases, ProgressSink progress, MachineLoad load) {
        return new DrillContext(fs, cases, progress, load, Earlier.NONE);
    }
}
