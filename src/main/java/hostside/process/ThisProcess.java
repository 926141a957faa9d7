package hostside.process;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import hostside.core.CpuSet;
import hostside.core.GarbageException;
import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.fs.Read;

/**
 * This process as the kernel sees it, read once for every drill: its resource limits
 * (/proc/self/limits), its effective capabilities and user (CapEff and Uid of /proc/self/status)
 * and the CPUs and memory nodes it may run on (Cpus_allowed_list, Mems_allowed_list). What the
 * kernel checks is the effective state, not what a Dockerfile or a pod spec asked for. Never
 * throws on what it reads: a missing line goes to {@code unknowns}, a garbled one to the reads'
 * garbage, and its field is null.
 *
 * @param pid         this process's PID as /proc/self names it; null on a recording without the link
 * @param limits      the parsed limits; null when /proc/self/limits could not be read
 * @param capEff      the effective capability mask as the kernel prints it (hex); null when unread
 * @param uid         the effective user id; null when unread
 * @param cpusAllowed the CPUs this process may run on; null when unread
 * @param memsAllowed the NUMA nodes it may allocate from; null when unread
 */
public record ThisProcess(Integer pid, Limits limits, String capEff, Integer uid, CpuSet cpusAllowed, CpuSet memsAllowed) {
    /** Bit numbers in the capability mask (linux/capability.h). */
    public static final int CAP_IPC_LOCK = 14, CAP_SYS_NICE = 23, CAP_SYS_RESOURCE = 24;

    public static ThisProcess read(FsRoot fs, FactReads reads, List<String> unknowns) {
        Integer pid = fs.readLink("/proc/self").filter(s -> s.matches("\\d{1,9}")).map(Integer::valueOf).orElse(null);
        Limits limits = null;
        Read lr = fs.read("/proc/self/limits");
        if (lr instanceof Read.Ok ok) limits = Limits.parse(ok.text());
        else unknowns.add(lr.why());
        String cap = null;
        Integer uid = null;
        CpuSet cpus = null, mems = null;
        Read sr = fs.read("/proc/self/status");
        if (sr instanceof Read.Ok ok) {
            Map<String, String> status = fields(ok.text());
            cap = status.get("CapEff");
            if (cap == null) unknowns.add("/proc/self/status: no CapEff line");
            else if (!cap.matches("[0-9a-fA-F]{1,16}")) {
                reads.garbage("/proc/self/status", "CapEff is not a capability mask", cap);
                cap = null;
            }
            String uids = status.get("Uid");
            if (uids == null) unknowns.add("/proc/self/status: no Uid line");
            else {
                String[] f = uids.split("\\s+");
                Long euid = f.length >= 2 ? FactReads.parseNumber(f[1]) : null;
                if (euid != null && euid <= Integer.MAX_VALUE) uid = euid.intValue();
                else reads.garbage("/proc/self/status", "Uid is not real, effective, saved and fs uids", uids);
            }
            cpus = list(status, "Cpus_allowed_list", reads, unknowns).orElse(null);
            mems = list(status, "Mems_allowed_list", reads, unknowns).orElse(null);
        } else {
            unknowns.add(sr.why());
        }
        return new ThisProcess(pid, limits, cap, uid, cpus, mems);
    }

    /** Whether capability {@code bit} is effective; null when the mask was not read. */
    public Boolean capability(int bit) {
        return capEff == null ? null : (Long.parseUnsignedLong(capEff, 16) >>> bit & 1) == 1;
    }

    /**
     * The limit named as the kernel prints it ("Max locked memory"); null when the file or the line
     * is missing (an unknown) or garbled (garbage), each said once through {@code reads}.
     */
    public Limits.Limit limit(String name, FactReads reads, List<String> unknowns) {
        if (limits == null) return null;
        Optional<Limits.Limit> x = limits.get(name);
        if (x.isPresent()) return x.get();
        Optional<String> bad = limits.unparsed().stream().filter(u -> u.startsWith(name)).findFirst();
        if (bad.isPresent()) reads.garbage("/proc/self/limits", name + " is not soft, hard and unit", bad.get());
        else unknowns.add("/proc/self/limits: no \"" + name + "\" line");
        return null;
    }

    private static Optional<CpuSet> list(Map<String, String> status, String key, FactReads reads, List<String> unknowns) {
        String v = status.get(key);
        if (v == null) {
            unknowns.add("/proc/self/status: no " + key + " line");
            return Optional.empty();
        }
        try {
            return Optional.of(CpuSet.parseList(v));
        } catch (GarbageException e) {
            reads.garbage("/proc/self/status", key + " is not a list", v);
            return Optional.empty();
        }
    }

    /** "Key:\tvalue" lines, the first of each key kept. */
    static Map<String, String> fields(String text) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) m.putIfAbsent(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
        }
        return m;
    }
}
