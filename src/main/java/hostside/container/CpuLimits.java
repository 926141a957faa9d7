package hostside.container;

import java.util.Map;
import java.util.Optional;

import hostside.container.ContainerFacts.Cpu;
import hostside.container.ContainerFacts.Place;
import hostside.fs.CpuQuota;
import hostside.core.CpuSet;
import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.core.GarbageException;
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
        long[] best = null;
        String source = null;
        for (String d : CgroupLayout.levels(p)) {
            long[] qp = v2 ? cpuMax(d) : cfsQuota(d);
            if (qp == null) continue;
            if (qp.length == 0) return new Cpu(null, null, null, "unknown: " + d + (v2 ? "/cpu.max" : "/cpu.cfs_quota_us") + " is garbled",
                    visibleCount, visible, cpuset, weight, shares, null, null, null);
            if (best == null || (double) qp[0] / qp[1] < (double) best[0] / best[1]) {
                best = qp;
                source = d + (v2 ? "/cpu.max" : "/cpu.cfs_quota_us");
            }
        }
        if (best == null) {
            String where = p.dir() + (p.dir().equals(p.top()) ? "" : " or above");
            return new Cpu(null, null, null, "none: no quota in " + where, visibleCount, visible, cpuset, weight, shares,
                    null, null, null);
        }
        // Throttling is counted where the quota is enforced, which may be an ancestor.
        Map<String, Long> stat = cgroups.keyed(source.substring(0, source.lastIndexOf('/')) + "/cpu.stat");
        Long throttledNs = v2 ? times(stat.get("throttled_usec"), 1000) : stat.get("throttled_time");
        return new Cpu(Math.round(1000.0 * best[0] / best[1]) / 1000.0, best[0], best[1], source, visibleCount, visible, cpuset,
                weight, shares, stat.get("nr_periods"), stat.get("nr_throttled"), throttledNs == null ? null : throttledNs / 1e9);
    }

    private static Long times(Long v, long by) {
        return v == null ? null : v * by;
    }

    /** cpu.max "quota period" or "max period": {quota, period}; null when no quota; {} when garbled. */
    private long[] cpuMax(String dir) {
        Optional<String> t = reads.text(dir + "/cpu.max", false);
        if (t.isEmpty()) return null;
        try {
            return CpuQuota.parseCpuMax(t.get()).map(q -> new long[] {q.quotaUs(), q.periodUs()}).orElse(null);
        } catch (GarbageException e) {
            reads.garbage(dir + "/cpu.max", e.getMessage(), t.get());
            return new long[0];
        }
    }

    /** cpu.cfs_quota_us (-1: none) over cpu.cfs_period_us. */
    private long[] cfsQuota(String dir) {
        Optional<String> qt = reads.text(dir + "/cpu.cfs_quota_us", false);
        if (qt.isEmpty()) return null;
        Optional<Long> quota;
        try {
            quota = CpuQuota.parseCfsQuota(qt.get());
        } catch (GarbageException e) {
            reads.garbage(dir + "/cpu.cfs_quota_us", e.getMessage(), qt.get());
            return new long[0];
        }
        if (quota.isEmpty()) return null;
        long q = quota.get();
        Long period = reads.number(dir + "/cpu.cfs_period_us", true);
        if (period == null || period == 0) {
            if (period != null) reads.garbage(dir + "/cpu.cfs_period_us", "not a period", "0");
            return new long[0];
        }
        return new long[] {q, period};
    }
}
