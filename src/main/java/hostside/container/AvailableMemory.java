package hostside.container;

import java.util.ArrayList;
import java.util.List;

import hostside.container.ContainerFacts.Memory;
import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.fs.MemInfo;
import hostside.fs.Mounts;
import hostside.process.CgroupLayout;
import hostside.process.CgroupLayout.Place;

/**
 * The memory a drill may take from: the kernel's MemAvailable, cut to what this process's memory
 * cgroup has left. Inside a container /proc/meminfo is the host's, so a budget taken from it
 * alone (a quarter of 1 TiB in a 16 GiB container) ends in reclaim stalls or the OOM killer,
 * and a "warm" read of a file larger than the cgroup is not warm. The cgroup's room is its
 * tightest limit less its working set: usage less the inactive file pages the kernel reclaims
 * first, as kubelet and the JDK count it.
 *
 * @param memAvailable   MemAvailable in bytes, or null when /proc/meminfo does not say
 * @param cgroupRoom     the room under the tightest memory limit, or null when none binds (or unreadable)
 * @param cgroupLimit    the file of that limit, or null
 */
public record AvailableMemory(Long memAvailable, Long cgroupRoom, String cgroupLimit) {

    public static AvailableMemory read(FsRoot fs) {
        Long avail = MemInfo.proc(fs, "MemAvailable");
        List<String> unknowns = new ArrayList<>(); // what a budget cannot read it does without: the container command reports those
        FactReads reads = new FactReads(fs, unknowns);
        Place p = CgroupLayout.read(fs, Mounts.read(fs), unknowns).places().get("memory");
        if (p == null || p.dir() == null) return new AvailableMemory(avail, null, null);
        CgroupLimits limits = new CgroupLimits(reads);
        Memory m = limits.memory(p, null);
        if (!m.limit().limited() || m.currentBytes() == null) return new AvailableMemory(avail, null, null);
        String limitFile = m.limit().source();
        String level = limitFile.substring(0, limitFile.lastIndexOf('/'));
        String key = p.version().equals("v2") ? "inactive_file" : "total_inactive_file";
        long inactive = limits.keyed(level + "/memory.stat").getOrDefault(key, 0L);
        long workingSet = Math.max(0, m.currentBytes() - inactive);
        return new AvailableMemory(avail, Math.max(0, m.limit().value() - workingSet), limitFile);
    }

    /** The smaller of the two, or null when neither could be read. */
    public Long bytes() {
        if (memAvailable == null) return cgroupRoom;
        return cgroupRoom == null ? memAvailable : Math.min(memAvailable, cgroupRoom);
    }

    public long orElse(long fallback) {
        Long b = bytes();
        return b == null ? fallback : b;
    }

    /** The cgroup, not the machine, sets the budget. */
    public boolean cgroupBinds() {
        return cgroupRoom != null && (memAvailable == null || cgroupRoom < memAvailable);
    }
}
