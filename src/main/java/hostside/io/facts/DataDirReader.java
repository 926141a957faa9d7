package hostside.io.facts;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.fs.Mounts.Mount;
import hostside.io.facts.IoFacts.DataDir;
import hostside.io.facts.IoFacts.Filesystem;

/** For a folder: the mount it lies on, what kind of storage that is, and the disks behind it. */
final class DataDirReader {
    private final FsRoot fs;
    private final FactReads reads;
    private final BlockReader block;
    private final List<Mount> mounts;

    /** @param mounts this process's mount table, in mount order */
    DataDirReader(FsRoot fs, FactReads reads, BlockReader block, List<Mount> mounts) {
        this.fs = fs;
        this.reads = reads;
        this.block = block;
        this.mounts = mounts;
    }

    DataDir read(Path given) {
        String abs = given.toAbsolutePath().normalize().toString();
        Optional<String> real = fs.realPath(abs);
        Boolean exists = fs.isLive() ? real.isPresent() : null;
        String path = real.orElse(abs);
        Mount m = mountOf(path);
        if (m == null) return new DataDir(abs, path, exists, null, null, null, null, List.of(), null, null);

        Filesystem filesystem = filesystem(m);
        String upperDir = null;
        Filesystem upper = null;
        Mount backing = m;
        if (FsKind.OVERLAY.equals(filesystem.storage())) {
            upperDir = option(m, "upperdir=");
            // Inside a container the upperdir is a path on the host, not visible here.
            Optional<String> upperReal = upperDir == null ? Optional.empty() : fs.realPath(upperDir);
            Mount u = upperReal.map(this::mountOf).orElse(null);
            if (u != null && u != m) {
                upper = filesystem(u);
                backing = u;
            }
        }
        String device = blockDeviceOf(backing);
        List<String> disks = device == null ? List.of() : block.physical(block.diskOf(device));
        String raSource = readAheadSource(backing, device);
        Long readAhead = raSource == null ? null : reads.number(raSource, true);
        return new DataDir(abs, path, exists, filesystem, upperDir, upper, device, disks, readAhead, raSource);
    }

    /** The mount a path lies on: the longest mount point above it; of mounts at one point, the last (on top). */
    Mount mountOf(String path) {
        Mount best = null;
        for (Mount m : mounts) {
            String p = m.point();
            boolean above = p.equals("/") || path.equals(p) || path.startsWith(p.endsWith("/") ? p : p + "/");
            if (above && (best == null || p.length() >= best.point().length())) best = m;
        }
        return best;
    }

    private static Filesystem filesystem(Mount m) {
        FsKind.Kind k = FsKind.of(m.type());
        return new Filesystem(m.point(), m.type(), m.source(), m.device(), k.storage(), k.what(),
                FsKind.optionsThatMatter(m.options()));
    }

    private static String option(Mount m, String prefix) {
        return m.options().stream().filter(o -> o.startsWith(prefix)).map(o -> o.substring(prefix.length()))
                .findFirst().orElse(null);
    }

    /**
     * The block device under a mount: by its device number where the file system has a real one;
     * by its source where the number is anonymous (btrfs, major 0) or unknown (/proc/mounts only).
     */
    private String blockDeviceOf(Mount m) {
        if (m.device() != null && !m.device().startsWith("0:")) {
            Optional<String> r = fs.realPath("/sys/dev/block/" + m.device());
            if (r.isPresent()) return SysPaths.name(r.get());
        }
        String src = m.source();
        if (src == null || !src.startsWith("/dev/")) return null;
        // On a live machine /dev/mapper/x and /dev/disk/by-uuid/... are links to the kernel's name.
        String base = SysPaths.name(fs.realPath(src).orElse(src));
        if (block.known(base)) return base;
        if (src.startsWith("/dev/mapper/")) return block.byMapperName(SysPaths.name(src)).orElse(null);
        return null;
    }

    /**
     * Where the kernel keeps this file system's read-ahead: its backing device info (bdi), named by
     * the device number, for network file systems and whole disks; the disk's queue for a partition.
     */
    private String readAheadSource(Mount m, String device) {
        if (m.device() != null) {
            String bdi = "/sys/class/bdi/" + m.device() + "/read_ahead_kb";
            if (fs.exists(bdi)) return bdi;
        }
        if (device == null) return null;
        String queue = BlockReader.BLOCK + "/" + block.diskOf(device) + "/queue/read_ahead_kb";
        return fs.exists(queue) ? queue : null;
    }
}
