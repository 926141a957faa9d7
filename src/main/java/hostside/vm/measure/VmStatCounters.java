package hostside.vm.measure;

import java.util.Map;

import hostside.fs.FsRoot;
import hostside.vm.facts.VmStat;

/** /proc/vmstat around a measurement: the kernel's own count of what happened (machine-wide). */
final class VmStatCounters {
    private VmStatCounters() {}

    static Map<String, Long> read(FsRoot fs) {
        return fs.text("/proc/vmstat").map(VmStat::parse).orElse(Map.of());
    }

    /** after - before; -1 when the kernel does not have the counter. */
    static long delta(Map<String, Long> before, Map<String, Long> after, String key) {
        Long a = after.get(key), b = before.get(key);
        return a == null || b == null ? -1 : a - b;
    }
}
