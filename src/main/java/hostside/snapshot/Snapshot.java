package hostside.snapshot;

import java.util.regex.Pattern;

import hostside.drills.Drills;
import hostside.fs.FsRoot;
import hostside.harness.Drill;
import hostside.machine.MachineDrill;
import hostside.machine.MachineFacts;
import hostside.machine.MachineIdentity;

/** What a snapshot records: the files every fact reader of hostside reads. */
public final class Snapshot {
    /** The top folder when the host name will not do (see {@link #topFolder}). */
    public static final String UNNAMED = "hostside-snapshot";
    /**
     * A plain name: ASCII letters, digits, '.', '_' and '-', neither a dot first (a hidden
     * folder, "." or "..") nor a '-' (an option to the tools it is typed to), at most 64
     * characters (HOST_NAME_MAX: no host name is longer).
     */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,63}");

    private Snapshot() {}

    /**
     * The folder every file of a snapshot sits in: the machine's short host name when it is a
     * plain name, else {@link #UNNAMED}. The host name is the read machine's own (a recording's
     * may hold anything) and becomes part of every member's name, which tar lists on a terminal
     * and unpacks where it is told: no escape, line break, '/' or ".." may reach either.
     */
    public static String topFolder(String hostName) {
        return PLAIN.matcher(hostName).matches() ? hostName : UNNAMED;
    }

    /**
     * Every drill's facts ({@link Drill#facts}: read, nothing measured, no GPU opened), then the
     * report's identity, a hash of the machine's id, never the id itself. A drill added to the
     * registry is recorded with no change here. What a reader may leave in a snapshot of process
     * files (no environ, PID 1's name only) is decided by {@link hostside.fs.ProcessFiles} in the
     * recorder, not by the readers: docs/snapshot.md.
     */
    public static MachineFacts readEverything(FsRoot fs) {
        MachineFacts machine = null;
        for (Drill<?, ?> d : Drills.all()) {
            if (d.facts(fs) instanceof MachineFacts m && machine == null) machine = m;
        }
        MachineIdentity.record(fs);
        return machine != null ? machine : MachineDrill.DRILL.facts(fs);
    }
}
