package hostside.process;

import java.util.List;
import java.util.Optional;

import hostside.core.CpuSet;
import hostside.core.GarbageException;
import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.fs.Read;

/**
 * This process as the kernel sees it, for every drill: its resource limits (/proc/self/limits),
 * its effective capabilities and user (CapEff and Uid of /proc/self/status) and the CPUs and
 * memory nodes it may run on (Cpus_allowed_list, Mems_allowed_list). What the kernel checks is the
 * effective state, not what a Dockerfile or a pod spec asked for. The two files are read once;
 * each value is parsed when a drill asks for it, and what is missing or garbled is said then, once,
 * through that drill's unknowns (a drill that never asks for the uid says nothing about it).
 *
 * @param pid        this process's PID as /proc/self names it; null on a recording without the link
 * @param limits     the parsed limits; null when /proc/self/limits could not be read
 * @param limitsWhy  why the limits could not be read; null when read
 * @param status     /proc/self/status; null when it could not be read
 * @param statusWhy  why the status could not be read; null when read
 */
public record ThisProcess(Integer pid, Limits limits, String limitsWhy, ProcStatus status, String statusWhy) {
    /** Bit numbers in the capability mask (linux/capability.h). */
    public static final int CAP_IPC_LOCK = 14, CAP_SYS_NICE = 23, CAP_SYS_RESOURCE = 24;

    public static ThisProcess read(FsRoot fs) {
        Integer pid = fs.readLink("/proc/self").filter(s -> s.matches("\\d{1,9}")).map(Integer::valueOf).orElse(null);
        Read lr = fs.read("/proc/self/limits"), sr = fs.read("/proc/self/status");
        return new ThisProcess(pid, lr instanceof Read.Ok ok ? Limits.parse(ok.text()) : null, lr instanceof Read.Ok ? null : lr.why(),
                sr instanceof Read.Ok ok ? ProcStatus.lines(ok.text()) : null, sr instanceof Read.Ok ? null : sr.why());
    }

    /** The effective capability mask as the kernel prints it (hex); null when it cannot be read. */
    public String capEff(FactReads reads, List<String> unknowns) {
        String cap = field("CapEff", unknowns);
        if (cap == null || cap.matches("[0-9a-fA-F]{1,16}")) return cap;
        garbage(reads, unknowns, "/proc/self/status", "CapEff is not a capability mask", cap);
        return null;
    }

    /** Whether capability {@code bit} is effective; null when the mask cannot be read. */
    public Boolean capability(int bit, FactReads reads, List<String> unknowns) {
        String cap = capEff(reads, unknowns);
        return cap == null ? null : (Long.parseUnsignedLong(cap, 16) >>> bit & 1) == 1;
    }

    /** The effective user id; null when it cannot be read. */
    public Integer uid(FactReads reads, List<String> unknowns) {
        String uids = field("Uid", unknowns);
        if (uids == null) return null;
        String[] f = uids.split("\\s+");
        Long euid = f.length >= 2 ? FactReads.parseNumber(f[1]) : null;
        if (euid != null && euid <= Integer.MAX_VALUE) return euid.intValue();
        garbage(reads, unknowns, "/proc/self/status", "Uid is not real, effective, saved and fs uids", uids);
        return null;
    }

    /** The CPUs this process may run on; null when they cannot be read. */
    public CpuSet cpusAllowed(FactReads reads, List<String> unknowns) {
        return list("Cpus_allowed_list", reads, unknowns);
    }

    /** The NUMA nodes it may allocate from; null when they cannot be read. */
    public CpuSet memsAllowed(FactReads reads, List<String> unknowns) {
        return list("Mems_allowed_list", reads, unknowns);
    }

    /** The limit named as the kernel prints it ("Max locked memory"); null when the file or the line is missing or garbled. */
    public Limits.Limit limit(String name, FactReads reads, List<String> unknowns) {
        if (limits == null) {
            once(unknowns, limitsWhy);
            return null;
        }
        Optional<Limits.Limit> x = limits.get(name);
        if (x.isPresent()) return x.get();
        Optional<String> bad = limits.unparsed().stream().filter(u -> u.startsWith(name)).findFirst();
        if (bad.isPresent()) garbage(reads, unknowns, "/proc/self/limits", name + " is not soft, hard and unit", bad.get());
        else once(unknowns, "/proc/self/limits: no \"" + name + "\" line (a truncated file?)");
        return null;
    }

    private CpuSet list(String key, FactReads reads, List<String> unknowns) {
        String v = field(key, unknowns);
        if (v == null) return null;
        try {
            return CpuSet.parseList(v);
        } catch (GarbageException e) {
            garbage(reads, unknowns, "/proc/self/status", key + " is not a list", v);
            return null;
        }
    }

    /** A line of the status; null, said once, when the file or the line is missing. */
    private String field(String key, List<String> unknowns) {
        if (status == null) {
            once(unknowns, statusWhy);
            return null;
        }
        String v = status.get(key).orElse(null);
        if (v == null) once(unknowns, "/proc/self/status: no " + key + " line");
        return v;
    }

    /** Garbage said through {@code reads} (which adds it to the same unknowns), once however often it is asked for. */
    private static void garbage(FactReads reads, List<String> unknowns, String path, String what, String text) {
        if (!unknowns.contains(path + ": " + what + ": \"" + FactReads.shown(text) + "\"")) reads.garbage(path, what, text);
    }

    private static void once(List<String> unknowns, String why) {
        if (why != null && !unknowns.contains(why)) unknowns.add(why);
    }
}
