package hostside.process;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import hostside.fs.FsRoot;
import hostside.fs.Mounts.Mount;

/**
 * Where this process's cgroup of each controller is: /proc/self/cgroup gives the path inside
 * each hierarchy, mountinfo where that hierarchy is mounted and which of its folders the mount
 * shows. A controller lives in one hierarchy only: a v1 mount that names it wins; otherwise it is
 * in the cgroup2 tree (hybrid systems mount an empty cgroup2 beside the v1 controllers). Read
 * once here for every reader of cgroup limits: Module 3's CPU quota and the container check.
 *
 * @param version v1, v2, hybrid (v1 controllers beside a cgroup2 mount); null when no cgroup file system is mounted
 * @param places  per controller (memory, cpu, pids, cpuset): where this process's cgroup is
 */
public record CgroupLayout(String version, Map<String, Place> places) {
    public static final List<String> CONTROLLERS = List.of("memory", "cpu", "pids", "cpuset");

    /**
     * Where one controller's cgroup of this process is.
     *
     * @param version v1 or v2: the hierarchy that holds this controller; null when none does
     * @param path    the path /proc/self/cgroup gives ("/" inside a cgroup namespace)
     * @param dir     the folder under the mount; null when it could not be found (why says why)
     * @param top     the mount point: limits are looked for from dir up to here
     * @param why     "" when found, else why not
     */
    public record Place(String version, String path, String dir, String top, String why) {}

    /** @param mounts the mount table (Mounts.read); empty when unreadable */
    public static CgroupLayout read(FsRoot fs, List<Mount> mounts, List<String> unknowns) {
        Optional<String> self = fs.text("/proc/self/cgroup");
        if (self.isEmpty()) unknowns.add(fs.read("/proc/self/cgroup").why() + ": this process's cgroup is unknown");
        Map<String, String> v1Paths = new LinkedHashMap<>();
        String v2Path = null;
        for (String line : self.orElse("").split("\n")) {
            String[] f = line.strip().split(":", 3);
            if (f.length < 3) continue;
            if (f[0].equals("0") && f[1].isEmpty()) v2Path = f[2];
            else for (String c : f[1].split(",")) v1Paths.put(c, f[2]);
        }
        Mount v2 = null;
        List<Mount> v1 = new ArrayList<>();
        for (Mount m : mounts) {
            if (m.type().equals("cgroup2")) v2 = v2 == null ? m : v2;
            else if (m.type().equals("cgroup") && CONTROLLERS.stream().anyMatch(m.options()::contains)) v1.add(m);
        }
        String version = v1.isEmpty() ? (v2 == null ? null : "v2") : (v2 == null ? "v1" : "hybrid");
        if (version == null && !mounts.isEmpty()) unknowns.add("mountinfo: no cgroup file system mounted: no cgroup limits can be read");
        List<String> v2Controllers = v2 == null ? List.of()
                : fs.text(v2.point().replaceAll("/+$", "") + "/cgroup.controllers").map(t -> List.of(t.split("\\s+"))).orElse(null);

        Map<String, Place> places = new LinkedHashMap<>();
        for (String c : CONTROLLERS) {
            Mount m = v1.stream().filter(x -> x.options().contains(c)).findFirst().orElse(null);
            if (m != null) {
                places.put(c, place(fs, "v1", m, v1Paths.get(c), c));
            } else if (v2 != null && (v2Controllers == null || v2Controllers.contains(c))) {
                places.put(c, place(fs, "v2", v2, v2Path, c));
            } else if (version != null) {
                places.put(c, new Place(null, null, null, null, "no " + c + " controller mounted for this process"));
            }
        }
        return new CgroupLayout(version, places);
    }

    /**
     * The folder of {@code path} under mount {@code m}. Without a cgroup namespace of its own a
     * container sees its full path but has only its own subtree mounted, and mountinfo's root
     * says which: that part of the path is already the mount point. Inside a cgroup namespace
     * the path is "/" and the mount shows the namespace's root. A mount whose root lies above
     * the namespace's root shows as "/.." and cannot be placed.
     */
    private static Place place(FsRoot fs, String version, Mount m, String path, String controller) {
        String top = m.point().replaceAll("/+$", "");
        if (top.isEmpty()) top = "/";
        if (path == null) {
            return new Place(version, null, null, top, "/proc/self/cgroup: no line for " + (version.equals("v2") ? "cgroup v2 (0::)" : controller));
        }
        String root = m.root();
        if (root.startsWith("/..")) {
            return new Place(version, path, null, top, "the " + top + " mount shows a cgroup above this process's cgroup namespace (root "
                    + root + "): its own cgroup cannot be located in it");
        }
        String rel = path;
        if (!root.equals("/")) {
            if (path.equals(root) || path.startsWith(root + "/")) rel = path.substring(root.length());
            else return new Place(version, path, null, top, top + " shows " + root + ", which does not hold " + path);
        }
        String dir = (top + "/" + rel).replaceAll("/+", "/").replaceAll("(.)/$", "$1");
        if (!fs.isDirectory(dir)) {
            return new Place(version, path, null, top, dir + ": missing (this process's cgroup" + (fs.isLive() ? "" : ", not in this recording") + ")");
        }
        return new Place(version, path, dir, top, "");
    }

    /** dir, its parent, ... up to and including the mount point: the levels whose limits apply. */
    public static List<String> levels(Place p) {
        List<String> out = new ArrayList<>();
        if (p == null || p.dir() == null) return out;
        for (String d = p.dir(); ; d = d.substring(0, Math.max(d.lastIndexOf('/'), 1))) {
            out.add(d);
            if (d.equals(p.top()) || !d.startsWith(p.top()) || d.equals("/")) break;
        }
        return out;
    }
}
