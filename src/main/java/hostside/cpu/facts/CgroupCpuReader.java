package hostside.cpu.facts;

import java.util.List;

import hostside.core.CpuSet;
import hostside.cpu.facts.CpuFacts.Cgroup;
import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.fs.Mounts;
import hostside.fs.Mounts.Mount;
import hostside.machine.MachineFacts;
import hostside.machine.Topology;
import hostside.process.CgroupCpuQuota;
import hostside.process.CgroupCpuQuota.Found;
import hostside.process.CgroupCpuQuota.Garbled;
import hostside.process.CgroupCpuQuota.NoQuota;
import hostside.process.CgroupLayout;
import hostside.process.CgroupLayout.Place;

/**
 * Module 3's cgroup of this process: where its cpu controller's cgroup sits ({@link CgroupLayout})
 * and the quota it grants ({@link CgroupCpuQuota}, read as the container check reads it), beside
 * the cpuset Module 1 read. Read for {@link CpuFactsReader}, which owns the unknowns it adds to.
 */
final class CgroupCpuReader {
    private final FsRoot fs;
    private final MachineFacts machine;
    private final FactReads reads;
    private final List<String> unknowns;

    CgroupCpuReader(FsRoot fs, MachineFacts machine, FactReads reads, List<String> unknowns) {
        this.fs = fs;
        this.machine = machine;
        this.reads = reads;
        this.unknowns = unknowns;
    }

    Cgroup read() {
        Topology.Whole w = machine.topology() == null ? null : machine.topology().whole();
        CpuSet cpuset = w == null || w.allowedCpus().isEmpty() ? null : w.allowedCpus();
        String cpusetSource = w == null ? "" : w.cpusetSource();

        List<Mount> mounts = Mounts.read(fs);
        Place p = CgroupLayout.read(fs, mounts, unknowns).places().get("cpu");
        if (p == null || p.dir() == null) {
            // No cgroup file system, or no cpu controller in it, grants no quota; a cgroup that
            // cannot be found may hold one.
            String why = p != null ? p.why() : mounts.isEmpty() ? "no mount table" : "no cgroup file system mounted";
            boolean none = p == null ? !mounts.isEmpty() : p.version() == null;
            if (!none) unknowns.add(why + ": its CPU quota is unknown");
            return new Cgroup(p == null ? null : p.version(), p == null ? null : p.path(), cpuset, cpusetSource, null, null, null,
                    (none ? "none: " : "unknown: ") + why);
        }
        return switch (CgroupCpuQuota.read(reads, p)) {
            case Found f -> new Cgroup(p.version(), p.path(), cpuset, cpusetSource, f.quota().quotaUs(), f.quota().periodUs(), f.cpus(), f.file());
            case NoQuota n -> new Cgroup(p.version(), p.path(), cpuset, cpusetSource, null, null, null, "none: " + n.where());
            case Garbled g -> new Cgroup(p.version(), p.path(), cpuset, cpusetSource, null, null, null, "unknown: " + g.file() + " is garbled");
        };
    }
}
