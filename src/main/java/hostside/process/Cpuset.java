package hostside.process;

import java.util.Optional;

import hostside.core.CpuSet;
import hostside.fs.FsRoot;
import hostside.core.GarbageException;
import hostside.fs.Mounts;

/**
 * The CPUs and memory nodes this process may use, as its cgroup says: cgroup v1's cpuset
 * controller (mounted as "cgroup" with the cpuset option, or the older "cpuset" file system)
 * or cgroup v2's cpuset.{cpus,mems}.effective. Empty sets mean "no restriction found".
 *
 * @param cpus   the allowed CPUs, empty when unrestricted or unknown
 * @param mems   the allowed NUMA nodes, empty when unrestricted or unknown
 * @param source where it was read, e.g. "/sys/fs/cgroup/cpuset.cpus.effective"; "" if none
 */
public record Cpuset(Optional<CpuSet> cpus, Optional<CpuSet> mems, String source) {
    static final Cpuset NONE = new Cpuset(Optional.empty(), Optional.empty(), "");

    public static Cpuset read(FsRoot fs) {
        String v1 = null, legacy = null, v2 = null;
        for (Mounts.Mount m : Mounts.read(fs)) {
            switch (m.type()) {
                case "cgroup" -> {
                    if (m.options().contains("cpuset")) v1 = m.point();
                }
                case "cpuset" -> legacy = m.point();
                case "cgroup2" -> v2 = m.point();
                default -> { }
            }
        }
        if (v1 == null && legacy == null && v2 == null) {
            // No (readable) mount table, as in many captures: hwloc tries the standard mount points.
            if (fs.exists("/sys/fs/cgroup/cpuset.cpus.effective")) v2 = "/sys/fs/cgroup";
            else if (fs.exists("/sys/fs/cgroup/cpuset/cpuset.cpus")) v1 = "/sys/fs/cgroup/cpuset";
            else if (fs.exists("/dev/cpuset/cpus")) legacy = "/dev/cpuset";
        }
        // A controller lives in one hierarchy only: where v1 has cpuset, v2 does not.
        if (v1 != null) {
            String path = cgroupPath(fs, "cpuset");
            if (path == null) path = fs.text("/proc/self/cpuset").orElse(null);
            // mounted with "noprefix", the files lack their "cpuset." prefix
            if (path != null) {
                // v1's configured sets, as hwloc and docs/contract.md read them (effective_* may be narrower)
                Cpuset c = at(fs, v1, path, "cpuset.cpus", "cpuset.cpus", "cpuset.mems", "cpuset.mems");
                return c != NONE ? c : at(fs, v1, path, "cpus", "cpus", "mems", "mems");
            }
        }
        if (legacy != null) {
            String path = fs.text("/proc/self/cpuset").orElse(null);
            if (path != null) return at(fs, legacy, path, "cpus", "cpus", "mems", "mems");
        }
        if (v2 != null) {
            String path = cgroupPath(fs, "");
            if (path == null) path = fs.text("/proc/self/cpuset").orElse(null);
            if (path != null) return at(fs, v2, path, "cpuset.cpus.effective", "cpuset.cpus.effective", "cpuset.mems.effective", "cpuset.mems.effective");
        }
        return NONE;
    }

    /** The path of this process's cgroup for a v1 controller, or the v2 path when controller is "". */
    private static String cgroupPath(FsRoot fs, String controller) {
        for (String line : fs.text("/proc/self/cgroup").orElse("").split("\n")) {
            String[] f = line.split(":", 3);
            if (f.length < 3) continue;
            boolean match = controller.isEmpty()
                    ? f[0].equals("0") && f[1].isEmpty()
                    : java.util.Arrays.asList(f[1].split(",")).contains(controller);
            if (match) return f[2].strip();
        }
        return null;
    }

    /**
     * Reads the sets, walking up to the nearest ancestor that has the files (v2 leaves may lack
     * them). The mount point and the path are a recording's text: a cgroup file system mounted at
     * "/" left {@code top} empty, and "/" is its own parent, so the walk went round for ever there.
     * Each turn now either ends or makes {@code dir} shorter.
     */
    private static Cpuset at(FsRoot fs, String mount, String cgroup, String cpusFile, String cpusFallback,
                             String memsFile, String memsFallback) {
        String top = mount.replaceAll("/+$", "");
        if (top.isEmpty()) top = "/";
        String dir = (top + "/" + cgroup).replaceAll("/+", "/").replaceAll("(.)/$", "$1");
        while (dir.startsWith(top)) {
            Optional<String> cpus = first(fs, dir, cpusFile, cpusFallback);
            if (cpus.isPresent()) {
                Optional<String> mems = first(fs, dir, memsFile, memsFallback);
                try {
                    return new Cpuset(nonEmpty(cpus.get()), mems.flatMap(Cpuset::nonEmpty), dir + "/" + cpusFile);
                } catch (GarbageException e) {
                    return NONE;
                }
            }
            String parent = dir.substring(0, Math.max(dir.lastIndexOf('/'), 1));
            if (dir.equals(top) || parent.length() >= dir.length()) break;
            dir = parent;
        }
        return NONE;
    }

    private static Optional<String> first(FsRoot fs, String dir, String name, String fallback) {
        return fs.text(dir + "/" + name).or(() -> fs.text(dir + "/" + fallback));
    }

    /** An empty effective set means "inherit from the parent" in cgroup v2, not "no CPU at all". */
    private static Optional<CpuSet> nonEmpty(String list) {
        CpuSet s = CpuSet.parseList(list);
        return s.isEmpty() ? Optional.empty() : Optional.of(s);
    }
}
