package hostside.container;

import java.util.List;

import hostside.container.ContainerFacts.Shm;
import hostside.fs.FactReads;
import hostside.fs.Mounts.Mount;

/**
 * /dev/shm: where torch.multiprocessing puts the tensors DataLoader workers hand to the main
 * process. Live, statvfs says its size and use; a recording has only the mount's size= option,
 * which mountinfo prints in KiB ("size=65536k"); a tmpfs mounted without one gets half of RAM.
 */
final class ShmReader {
    static final String SHM = "/dev/shm";

    private ShmReader() {}

    static Shm read(List<Mount> mounts, LiveProcess live, Long memTotal) {
        Mount m = null;
        for (Mount x : mounts) if (x.point().equals(SHM)) m = x; // the last one mounted is the one seen
        Boolean mounted = mounts.isEmpty() ? null : m != null;
        String type = m == null ? null : m.type();
        if (live.live() && live.shmBytes() != null) {
            String source = "statvfs " + SHM + (Boolean.FALSE.equals(mounted) ? " (not a mount: the root file system's space)" : "");
            return new Shm(mounted, type, live.shmBytes(), live.shmUsed(), source);
        }
        String why = live.live() ? live.shmWhy() : LiveProcess.RECORDED + ": use unknown";
        if (m == null) {
            return new Shm(mounted, null, null, null, "unknown: " + (mounts.isEmpty() ? "mountinfo unreadable" : "no " + SHM + " mount") + "; " + why);
        }
        if (!m.type().equals("tmpfs")) return new Shm(true, type, null, null, "unknown: " + SHM + " is " + m.type() + ", not tmpfs; " + why);
        for (String o : m.options()) {
            if (!o.startsWith("size=")) continue;
            Long bytes = tmpfsSize(o.substring(5));
            if (bytes != null) return new Shm(true, type, bytes, null, "mountinfo: " + o + " (" + why + ")");
            return new Shm(true, type, null, null, "unknown: mountinfo: " + SHM + " " + FactReads.shown(o) + " is not a size; " + why);
        }
        if (memTotal != null) return new Shm(true, type, memTotal / 2, null, "tmpfs default: half of MemTotal, no size= option (" + why + ")");
        return new Shm(true, type, null, null, "unknown: no size= option and MemTotal unknown; " + why);
    }

    /** The kernel prints tmpfs sizes as KiB with a "k" suffix; a bare number is bytes. */
    static Long tmpfsSize(String s) {
        String v = s.strip().toLowerCase(java.util.Locale.ROOT);
        int shift = 0;
        if (!v.isEmpty()) {
            switch (v.charAt(v.length() - 1)) {
                case 'k' -> shift = 10;
                case 'm' -> shift = 20;
                case 'g' -> shift = 30;
                default -> { }
            }
        }
        Long n = FactReads.parseNumber(shift == 0 ? v : v.substring(0, v.length() - 1));
        if (n == null || n > (Long.MAX_VALUE >> shift)) return null;
        return n << shift;
    }
}
