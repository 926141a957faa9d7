package hostside.container;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import hostside.container.ContainerFacts.Capabilities;
import hostside.container.ContainerFacts.ProcessLimits;
import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.fs.Read;
import hostside.process.Limits;

/**
 * The rlimits and capabilities a container's runtime set: /proc/self/limits (parsed by Module 2's
 * {@link Limits}) and CapEff and Uid of /proc/self/status. The effective set is what the kernel
 * checks, not what a Dockerfile or pod spec asked for.
 */
final class Privileges {
    /** Bit numbers in the capability mask (linux/capability.h). */
    static final int CAP_IPC_LOCK = 14, CAP_SYS_NICE = 23, CAP_SYS_RESOURCE = 24;

    private Privileges() {}

    static ProcessLimits limits(FsRoot fs, FactReads reads, List<String> unknowns) {
        Read r = fs.read("/proc/self/limits");
        if (!(r instanceof Read.Ok ok)) {
            unknowns.add(r.why());
            return new ProcessLimits(null, null, null, null);
        }
        Limits l = Limits.parse(ok.text());
        return new ProcessLimits(limit(l, Limits.MEMLOCK, reads, unknowns), limit(l, Limits.NOFILE, reads, unknowns),
                limit(l, Limits.STACK, reads, unknowns), limit(l, Limits.NPROC, reads, unknowns));
    }

    private static Limits.Limit limit(Limits l, String name, FactReads reads, List<String> unknowns) {
        Optional<Limits.Limit> x = l.get(name);
        if (x.isPresent()) return x.get();
        Optional<String> bad = l.unparsed().stream().filter(u -> u.startsWith(name)).findFirst();
        if (bad.isPresent()) reads.garbage("/proc/self/limits", name + " is not soft, hard and unit", bad.get());
        else unknowns.add("/proc/self/limits: no \"" + name + "\" line");
        return null;
    }

    static Capabilities capabilities(Map<String, String> status, FactReads reads, List<String> unknowns) {
        if (status.isEmpty()) return new Capabilities(null, null, null, null, null);
        String cap = status.get("CapEff");
        Long mask = null;
        if (cap == null) unknowns.add("/proc/self/status: no CapEff line");
        else if (cap.matches("[0-9a-fA-F]{1,16}")) mask = Long.parseUnsignedLong(cap, 16);
        else reads.garbage("/proc/self/status", "CapEff is not a capability mask", cap);
        Integer uid = null;
        String uids = status.get("Uid");
        if (uids == null) unknowns.add("/proc/self/status: no Uid line");
        else {
            String[] f = uids.split("\\s+");
            Long euid = f.length >= 2 ? FactReads.parseNumber(f[1]) : null;
            if (euid != null && euid <= Integer.MAX_VALUE) uid = euid.intValue();
            else reads.garbage("/proc/self/status", "Uid is not real, effective, saved and fs uids", uids);
        }
        return new Capabilities(mask == null ? null : cap, bit(mask, CAP_IPC_LOCK), bit(mask, CAP_SYS_NICE), bit(mask, CAP_SYS_RESOURCE), uid);
    }

    private static Boolean bit(Long mask, int n) {
        return mask == null ? null : (mask >>> n & 1) == 1;
    }
}
