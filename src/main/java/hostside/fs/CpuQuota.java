package hostside.fs;

import java.util.Optional;

import hostside.core.GarbageException;

/**
 * A cgroup's CPU quota as the kernel writes it: v2's cpu.max ("QUOTA PERIOD", or "max PERIOD"
 * for none) and v1's cpu.cfs_quota_us (-1 for none) over cpu.cfs_period_us. One parser for
 * Module 3's quota and the container check, so both read the same text the same way.
 *
 * @param quotaUs  CPU time granted per period, microseconds
 * @param periodUs the period, microseconds (never 0)
 */
public record CpuQuota(long quotaUs, long periodUs) {
    /** CPUs' worth of time, e.g. 1.5. */
    public double cpus() {
        return (double) quotaUs / periodUs;
    }

    /** cpu.max: empty for "max PERIOD" (no quota); garbage otherwise throws. */
    public static Optional<CpuQuota> parseCpuMax(String text) {
        String[] f = text.strip().split("\\s+");
        if (f.length == 2 && f[0].equals("max") && f[1].matches("\\d{1,12}")) return Optional.empty();
        if (f.length == 2 && f[0].matches("\\d{1,15}") && f[1].matches("\\d{1,12}") && Long.parseLong(f[1]) > 0) {
            return Optional.of(new CpuQuota(Long.parseLong(f[0]), Long.parseLong(f[1])));
        }
        throw new GarbageException("not \"quota period\" or \"max period\"");
    }

    /** cpu.cfs_quota_us: empty for -1 (no quota); the quota otherwise; garbage throws. */
    public static Optional<Long> parseCfsQuota(String text) {
        String t = text.strip();
        if (!t.matches("-1|\\d{1,15}")) throw new GarbageException("not a quota");
        long q = Long.parseLong(t);
        return q < 0 ? Optional.empty() : Optional.of(q);
    }
}
