package hostside.snapshot;

import java.util.regex.Pattern;

import hostside.container.ContainerReader;
import hostside.container.LiveProcess;
import hostside.cpu.facts.CpuFactsReader;
import hostside.fs.FsRoot;
import hostside.io.IoDrill;
import hostside.machine.MachineFacts;
import hostside.machine.MachineIdentity;
import hostside.machine.MachineReader;
import hostside.rack.RackFactsReader;
import hostside.vm.VmDrill;

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
     * Every fact reader hostside has; each drill that reads the machine adds its reader here. What a
     * reader may leave in a snapshot of process files (no environ, PID 1's name only) is decided by
     * {@link hostside.fs.ProcessFiles} in the recorder, not by the readers: docs/snapshot.md.
     */
    public static MachineFacts readEverything(FsRoot fs) {
        MachineFacts facts = MachineReader.read(fs);
        VmDrill.facts(fs); // Module 2's files: /sys/kernel/mm, /proc/sys/vm, limits, vmstat
        CpuFactsReader.read(fs, facts); // Module 3's: interrupts, /proc/irq, cpufreq, cgroup quotas
        IoDrill.facts(fs, facts.host(), new IoDrill.Options(null, null, null, null)); // Module 4's: /sys/block, mountinfo, net, infiniband, modules
        ContainerReader.read(fs, LiveProcess.recorded()); // Module 4's container: cgroup limits, limits, namespaces
        RackFactsReader.read(fs, facts); // Module 5's: the driver's params and numa_status, IMEX, the fabric manager's unit, PCI power
        MachineIdentity.record(fs); // the report's name: a hash of the machine's identity, never the id itself
        return facts;
    }
}
