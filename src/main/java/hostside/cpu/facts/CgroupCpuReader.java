package hostside.cpu.facts;

import hostside.core.CpuSet;
import hostside.core.GarbageException;
import hostside.cpu.facts.CpuFacts.Cgroup;
import hostside.fs.CpuQuota;
import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.fs.Mounts.Mount;
import hostside.fs.Mounts;
import hostside.fs.Read;
import hostside.machine.MachineFacts;
import hostside.machine.Topology;
import java.util.List;
import java.util.Optional;

/**
 * Module 3's cgroup of this process: where it sits (/proc/self/cgroup), its CPU quota and period
 * (cgroup v2 cpu.max, v1 cfs_quota_us and cfs_period_us, the tightest up the tree), weight and
 * throttling, beside the cpuset Module 1 read. Read for {@link CpuFactsReader}, which owns the
 * unknowns it adds to.
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

        Read cg = fs.read("/proc/self/cgroup");
        if (!(cg instanceof Read.Ok cgOk)) {
            unknowns.add(cg.why());
            return new Cgroup(null, null, cpuset, cpusetSource, null, null, null, "unknown: " + cg.why());
        }
        String v1Path = null, v2Path = null;
        for (String line : cgOk.text().split("\n")) {
            String[] f = line.strip().split(":", 3);
            if (f.length < 3) continue;
            if (f[0].equals("0") && f[1].isEmpty()) v2Path = f[2];
            else if (List.of(f[1].split(",")).contains("cpu")) v1Path = f[2];
        }
        List<Mount> mounts = Mounts.read(fs);
        Mount v1 = mounts.stream().filter(m -> m.type().equals("cgroup") && m.options().contains("cpu")).findFirst().orElse(null);
        Mount v2 = mounts.stream().filter(m -> m.type().equals("cgroup2")).findFirst().orElse(null);
        String version, path;
        Mount mount;
        if (v1 != null && v1Path != null) {
            version = "v1";
            path = v1Path;
            mount = v1;
        } else if (v2 != null && v2Path != null) {
            version = "v2";
            path = v2Path;
            mount = v2;
        } else {
            String why = mounts.isEmpty() ? "unknown: /proc/self/mounts unreadable" : "none: no cpu controller mounted for this process";
            if (mounts.isEmpty()) unknowns.add("/proc/self/mounts: unreadable, the cgroup CPU quota is unknown");
            return new Cgroup(null, v2Path != null ? v2Path : v1Path, cpuset, cpusetSource, null, null, null, why);
        }
        // Without its own cgroup namespace a container sees its cgroup's full path but has only
        // that cgroup mounted: mountinfo's root says which part of the path the mount already is.
        String rel = path;
        if (!mount.root().equals("/") && (path.equals(mount.root()) || path.startsWith(mount.root() + "/"))) {
            rel = path.substring(mount.root().length());
        }
        String top = mount.point().replaceAll("/+$", "");
        if (top.isEmpty()) top = "/";
        String leaf = (top + "/" + rel).replaceAll("/+", "/").replaceAll("(.)/$", "$1");
        if (!fs.isDirectory(leaf)) {
            String why = leaf + ": missing (this process's cgroup" + (fs.isLive() ? "" : ", not in this recording") + ")";
            unknowns.add(why + ": its CPU quota is unknown");
            return new Cgroup(version, path, cpuset, cpusetSource, null, null, null, "unknown: " + why);
        }
        Long bestQuota = null, bestPeriod = null;
        String bestSource = null;
        for (String dir = leaf; ; dir = dir.substring(0, Math.max(dir.lastIndexOf('/'), 1))) {
            long[] qp = version.equals("v2") ? cpuMax(dir) : cfsQuota(dir);
            if (qp != null && (bestQuota == null || (double) qp[0] / qp[1] < (double) bestQuota / bestPeriod)) {
                bestQuota = qp[0];
                bestPeriod = qp[1];
                bestSource = version.equals("v2") ? dir + "/cpu.max" : dir + "/cpu.cfs_quota_us";
            }
            if (dir.equals(top) || !dir.startsWith(top) || dir.equals("/")) break;
        }
        if (bestQuota == null) {
            return new Cgroup(version, path, cpuset, cpusetSource, null, null, null,
                    "none: no quota in " + leaf + (leaf.equals(top) ? "" : " or above"));
        }
        return new Cgroup(version, path, cpuset, cpusetSource, bestQuota, bestPeriod,
                Math.round(1000.0 * bestQuota / bestPeriod) / 1000.0, bestSource);
    }

    /** cgroup v2 cpu.max "quota period" or "max period": {quota, period}, null when unlimited or absent. */
    private long[] cpuMax(String dir) {
        Optional<String> t = reads.text(dir + "/cpu.max", false);
        if (t.isEmpty()) return null;
        try {
            return CpuQuota.parseCpuMax(t.get()).map(q -> new long[] {q.quotaUs(), q.periodUs()}).orElse(null);
        } catch (GarbageException e) {
            reads.garbage(dir + "/cpu.max", e.getMessage(), t.get());
            return null;
        }
    }

    /** cgroup v1 cpu.cfs_quota_us (-1: none) and cpu.cfs_period_us. */
    private long[] cfsQuota(String dir) {
        Long q = reads.signed(dir + "/cpu.cfs_quota_us", false);
        if (q == null || q < 0) return null;
        Long p = reads.signed(dir + "/cpu.cfs_period_us", false);
        if (p == null || p <= 0) {
            if (p != null) reads.garbage(dir + "/cpu.cfs_period_us", "not a period", String.valueOf(p));
            else unknowns.add(dir + "/cpu.cfs_period_us: missing beside a quota");
            return null;
        }
        return new long[] {q, p};
    }
}
