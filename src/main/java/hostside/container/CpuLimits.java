package hostside.container;

import java.util.Map;

import hostside.container.ContainerFacts.Cpu;
import hostside.core.CpuSet;
import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.process.CgroupCpuQuota;
import hostside.process.CgroupCpuQuota.Found;
import hostside.process.CgroupCpuQuota.Garbled;
import hostside.process.CgroupCpuQuota.NoQuota;
import hostside.process.CgroupLayout.Place;
import hostside.process.Cpuset;

/**
 * The CPU a cgroup grants: the quota (CPUs' worth of time per period, at the tightest level),
 * the weight, how often the quota ran out, and against them the CPUs this process sees, which
 * is what thread pools are sized from.
 */
final class CpuLimits {
    private final FsRoot fs;
    private final FactReads reads;
    private final CgroupLimits cgroups;

    CpuLimits(FsRoot fs, FactReads reads, CgroupLimits cgroups) {
        this.fs = fs;
        this.reads = reads;
        this.cgroups = cgroups;
    }

    /** @param visible the CPUs this process may run on (Cpus_allowed_list), null when unknown */
    Cpu read(Place p, CpuSet visible) {
        Integer visibleCount = visible == null ? null : visible.size();
        CpuSet cpuset = Cpuset.read(fs).cpus().orElse(null);
        if (p == null || p.dir() == null) {
            return new Cpu(null, null, null, "unknown: " + (p == null ? "no cpu controller" : p.why()), visibleCount, visible,
                    cpuset, null, null, null, null, null);
        }
        boolean v2 = p.version().equals("v2");
        Long weight = v2 ? reads.number(p.dir() + "/cpu.weight", false) : null;
        Long shares = v2 ? null : reads.number(p.dir() + "/cpu.shares", false);
        return switch (CgroupCpuQuota.read(reads, p)) {
            case Garbled g -> new Cpu(null, null, null, "unknown: " + g.file() + " is garbled",
                    visibleCount, visible, cpuset, weight, shares, null, null, null);
            case NoQuota n -> new Cpu(null, null, null, "none: " + n.where(),
                    visibleCount, visible, cpuset, weight, shares, null, null, null);
            case Found f -> {
                // Throttling is counted where the quota is enforced, which may be an ancestor.
                Map<String, Long> stat = cgroups.keyed(f.dir() + "/cpu.stat");
                Long throttledNs = v2 ? times(stat.get("throttled_usec"), 1000) : stat.get("throttled_time");
                yield new Cpu(f.cpus(), f.quota().quotaUs(), f.quota().periodUs(), f.file(), visibleCount, visible, cpuset,
                        weight, shares, stat.get("nr_periods"), stat.get("nr_throttled"), throttledNs == null ? null : throttledNs / 1e9);
            }
        };
    }

    private static Long times(Long v, long by) {
        return v == null ? null : v * by;
    }
}
