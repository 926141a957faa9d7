package hostside.container;

import java.util.List;

import hostside.container.ContainerFacts.Capabilities;
import hostside.container.ContainerFacts.ProcessLimits;
import hostside.fs.FactReads;
import hostside.process.Limits;
import hostside.process.ThisProcess;

/**
 * The rlimits and capabilities a container's runtime set, as {@link ThisProcess} read them
 * (/proc/self/limits, CapEff and Uid of /proc/self/status): the effective set is what the kernel
 * checks, not what a Dockerfile or pod spec asked for.
 */
final class Privileges {
    private Privileges() {}

    static ProcessLimits limits(ThisProcess p, FactReads reads, List<String> unknowns) {
        return new ProcessLimits(p.limit(Limits.MEMLOCK, reads, unknowns), p.limit(Limits.NOFILE, reads, unknowns),
                p.limit(Limits.STACK, reads, unknowns), p.limit(Limits.NPROC, reads, unknowns));
    }

    /** All unknown when /proc/self/status could not be read at all (said once, by the status reader). */
    static Capabilities capabilities(ThisProcess p, boolean statusUnread, FactReads reads, List<String> unknowns) {
        if (statusUnread) return new Capabilities(null, null, null, null, null);
        String cap = p.capEff(reads, unknowns);
        return new Capabilities(cap, p.capability(ThisProcess.CAP_IPC_LOCK, reads, unknowns), p.capability(ThisProcess.CAP_SYS_NICE, reads, unknowns),
                p.capability(ThisProcess.CAP_SYS_RESOURCE, reads, unknowns), p.uid(reads, unknowns));
    }
}
