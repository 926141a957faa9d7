package hostside.process;

import java.util.Optional;

import hostside.core.GarbageException;
import hostside.fs.CpuQuota;
import hostside.fs.FactReads;
import hostside.process.CgroupLayout.Place;

/**
 * The CPU quota this process's cgroup grants: the tightest of every level from its cgroup up to
 * the mount (a parent's quota caps its children's), as v2's cpu.max or v1's cpu.cfs_quota_us over
 * cpu.cfs_period_us. One reader for Module 3's quota and the container check, so both name the
 * same file and the same number.
 */
public final class CgroupCpuQuota {
    private CgroupCpuQuota() {}

    /** One level without a quota; {@link #read} says where none was found. */
    private static final NoQuota NONE = new NoQuota("");

    /** What the levels say, together. */
    public sealed interface Tightest permits Found, NoQuota, Garbled {}

    /**
     * @param quota the tightest quota
     * @param dir   the level it is set at, where its throttling is counted (cpu.stat)
     * @param file  the file it was read from
     */
    public record Found(CpuQuota quota, String dir, String file) implements Tightest {
        /** CPUs' worth of time, to the thousandth as the facts hold it: 1.5, 0.333. */
        public double cpus() {
            return Math.round(1000.0 * quota.cpus()) / 1000.0;
        }
    }

    /** @param where "no quota in DIR or above": no level sets one ("max", or -1) */
    public record NoQuota(String where) implements Tightest {}

    /**
     * {@code file} is not a quota (said in the unknowns). No quota is claimed past it: the garbled
     * level may hold the tightest one, and any other would overstate what the cgroup grants.
     */
    public record Garbled(String file) implements Tightest {}

    /**
     * @param p     a found place of the cpu controller ({@link Place#dir()} not null)
     * @param reads where a garbled file is said
     */
    public static Tightest read(FactReads reads, Place p) {
        boolean v2 = "v2".equals(p.version());
        Found best = null;
        for (String d : CgroupLayout.levels(p)) {
            Tightest level = v2 ? cpuMax(reads, d) : cfsQuota(reads, d);
            if (level instanceof Garbled) return level;
            if (level instanceof Found f && (best == null || f.quota().cpus() < best.quota().cpus())) best = f;
        }
        return best != null ? best : new NoQuota("no quota in " + p.dir() + (p.dir().equals(p.top()) ? "" : " or above"));
    }

    /** One level's cpu.max: "quota period", or "max period" (none); absent is none too. */
    private static Tightest cpuMax(FactReads reads, String dir) {
        String file = dir + "/cpu.max";
        Optional<String> t = reads.text(file, false);
        if (t.isEmpty()) return NONE;
        try {
            return CpuQuota.parseCpuMax(t.get()).<Tightest>map(q -> new Found(q, dir, file)).orElse(NONE);
        } catch (GarbageException e) {
            reads.garbage(file, e.getMessage(), t.get());
            return new Garbled(file);
        }
    }

    /** One level's cpu.cfs_quota_us (-1: none) over cpu.cfs_period_us, which a quota needs beside it, not 0. */
    private static Tightest cfsQuota(FactReads reads, String dir) {
        String file = dir + "/cpu.cfs_quota_us", periodFile = dir + "/cpu.cfs_period_us";
        Optional<String> t = reads.text(file, false);
        if (t.isEmpty()) return NONE;
        Optional<Long> quota;
        try {
            quota = CpuQuota.parseCfsQuota(t.get());
        } catch (GarbageException e) {
            reads.garbage(file, e.getMessage(), t.get());
            return new Garbled(file);
        }
        if (quota.isEmpty()) return NONE;
        Long period = reads.number(periodFile, true);
        if (period == null || period == 0) {
            if (period != null) reads.garbage(periodFile, "not a period", "0");
            return new Garbled(periodFile);
        }
        return new Found(new CpuQuota(quota.get(), period), dir, file);
    }
}
