package hostside.fs;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * This process's mounts: /proc/self/mountinfo, which also says which folder of the file system
 * each mount shows (a container's cgroup mount shows its own subtree), else /proc/self/mounts
 * (older kernels, and recordings such as hwloc's that hold only that).
 */
public final class Mounts {
    /**
     * @param root    the folder of the file system mounted here ("/" when only /proc/mounts was read)
     * @param point   where it is mounted
     * @param options mount options and, from mountinfo, the super-block options (cgroup v1's
     *                controllers are among them: "cpuset", "cpu")
     * @param source  what is mounted: "/dev/nvme0n1p2", "server:/export", "tmpfs"
     * @param device  the device number "major:minor" from mountinfo (/sys/dev/block/M:m for a block
     *                file system, /sys/class/bdi/M:m for its read-ahead); null from /proc/mounts
     */
    public record Mount(String root, String point, String type, List<String> options, String source, String device) {}

    private Mounts() {}

    public static List<Mount> read(FsRoot fs) {
        List<Mount> out = new ArrayList<>();
        Optional<String> info = fs.text("/proc/self/mountinfo");
        if (info.isPresent()) {
            for (String line : info.get().split("\n")) {
                String[] halves = line.split(" - ", 2);
                if (halves.length < 2) continue;
                String[] a = halves[0].split("\\s+"), b = halves[1].strip().split("\\s+");
                if (a.length < 5 || b.length < 1) continue;
                List<String> opts = new ArrayList<>(List.of(a.length > 5 ? a[5].split(",") : new String[0]));
                if (b.length > 2) opts.addAll(List.of(b[2].split(",")));
                out.add(new Mount(unescape(a[3]), unescape(a[4]), b[0], opts, b.length > 1 ? unescape(b[1]) : "", a[2]));
            }
            if (!out.isEmpty()) return out;
        }
        String mounts = fs.text("/proc/self/mounts").or(() -> fs.text("/proc/mounts")).orElse("");
        for (String line : mounts.split("\n")) {
            String[] f = line.strip().split("\\s+");
            if (f.length < 4) continue;
            out.add(new Mount("/", unescape(f[1]), f[2], List.of(f[3].split(",")), unescape(f[0]), null));
        }
        return out;
    }

    /** The mount tables escape spaces and the like as octal (\040). */
    static String unescape(String s) {
        if (!s.contains("\\")) return s;
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length() && s.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
