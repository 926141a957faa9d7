package hostside.process;

/**
 * One "cpu" or "cpuN" line of /proc/stat, in clock ticks (USER_HZ) since boot. {@code user} and
 * {@code nice} include guest time (a vCPU of a VM this machine runs), as the kernel counts it.
 */
public record CpuTimes(long user, long nice, long system, long idle, long iowait, long irq, long softirq, long steal,
                       long guest, long guestNice) {

    /** Every tick once: guest time is already inside user and nice, so it is not added again (mpstat's total). */
    public long total() {
        return user + nice + system + idle + iowait + irq + softirq + steal;
    }

    public CpuTimes minus(CpuTimes o) {
        return new CpuTimes(user - o.user, nice - o.nice, system - o.system, idle - o.idle, iowait - o.iowait, irq - o.irq,
                softirq - o.softirq, steal - o.steal, guest - o.guest, guestNice - o.guestNice);
    }
}
