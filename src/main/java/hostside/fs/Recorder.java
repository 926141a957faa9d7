package hostside.fs;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/**
 * What an {@link FsRoot} read while recording: files with their bytes, symlinks met on the way,
 * folders listed. Written out as a tarball it reads back, through {@code --root}, as the same
 * machine, because it holds exactly the answers hostside got, less what {@link ProcessFiles} keeps out
 * of every snapshot (environ files, other processes' command lines and names).
 */
public final class Recorder {
    private sealed interface Item {}
    private record FileItem(byte[] content) implements Item {}
    private record UnreadableItem(String why) implements Item {}
    private record LinkItem(String target) implements Item {}
    private record DirItem() implements Item {}
    /** A file seen in a listing but never read: kept so the listing reads the same. */
    private record PlaceholderItem() implements Item {}

    private final Map<String, Item> items = new TreeMap<>();

    /** The folder of hostside's own files in a recording ({@link FsRoot#recordDerived}): no machine has one. */
    public static final String OWN_FOLDER = "/hostside";

    /** Records what was read, as much of it as {@link ProcessFiles} allows (an environ file: nothing). */
    void file(String path, byte[] content) {
        if (isIdentity(path)) return;
        switch (ProcessFiles.keep(path)) {
            case ALL -> items.put(path, new FileItem(content));
            case NAME_ONLY -> items.put(path, new FileItem(ProcessFiles.nameOnly(content)));
            case NOTHING -> { }
        }
    }

    /**
     * The files that name this very machine: never in a snapshot, whichever reader reads them
     * (FsRoot.sha256Unrecorded reads them for the report's name without recording). The path is
     * resolved: /sys/class/dmi/id/product_uuid arrives as /sys/devices/virtual/dmi/id/product_uuid,
     * /etc/machine-id as its link's target where it is one.
     */
    static boolean isIdentity(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        return name.equals("machine-id") || name.equals("boot_id") || name.equals("product_uuid")
                || name.equals("product_serial") || name.equals("board_serial") || name.equals("chassis_serial");
    }

    void unreadable(String path, String why) {
        if (ProcessFiles.keep(path) != ProcessFiles.Keep.NOTHING) items.put(path, new UnreadableItem(why));
    }

    void link(String path, String target) {
        if (ProcessFiles.keep(path) != ProcessFiles.Keep.NOTHING) items.put(path, new LinkItem(target));
    }

    void dir(String path, List<String> children, Tree tree) {
        items.putIfAbsent(path, new DirItem());
        if (items.get(path) instanceof PlaceholderItem) items.put(path, new DirItem());
        for (String name : children) {
            String child = path.equals("/") ? "/" + name : path + "/" + name;
            // a file the recording may not hold is left out of the listing too, not kept as an empty placeholder
            if (items.containsKey(child) || ProcessFiles.keep(child) == ProcessFiles.Keep.NOTHING) continue;
            switch (tree.kind(child)) {
                case DIR -> items.put(child, new DirItem());
                case FILE -> items.put(child, new PlaceholderItem());
                case SPECIAL -> items.put(child, new UnreadableItem(FileCap.NOT_REGULAR)); // never opened
                case LINK -> {
                    try {
                        items.put(child, new LinkItem(tree.linkTarget(child)));
                    } catch (IOException e) {
                        // vanished between listing and reading: leave it out
                    }
                }
                case MISSING -> { }
            }
        }
    }

    public int size() {
        return items.size();
    }

    /**
     * Writes the recording as a .tar.gz with one top folder, hwloc-gather-topology's layout,
     * through {@link OutputFile}: a planted symlink is never followed, and Ctrl-C or a failure
     * never leaves half a tarball behind.
     */
    public void writeTarGz(Path out, String topFolder) throws IOException {
        OutputFile.write(out, file -> write(file, topFolder));
    }

    private void write(OutputStream file, String topFolder) throws IOException {
        try (GZIPOutputStream gz = new GZIPOutputStream(file, 1 << 16);
             TarArchiveOutputStream tar = new TarArchiveOutputStream(gz)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            long now = System.currentTimeMillis();
            put(tar, new TarArchiveEntry(topFolder + "/"), now);
            for (var e : items.entrySet()) {
                String name = topFolder + e.getKey();
                switch (e.getValue()) {
                    case DirItem d -> put(tar, new TarArchiveEntry(name + "/"), now);
                    case LinkItem l -> {
                        TarArchiveEntry t = new TarArchiveEntry(name, TarConstants.LF_SYMLINK);
                        t.setLinkName(l.target());
                        put(tar, t, now);
                    }
                    case FileItem f -> {
                        TarArchiveEntry t = new TarArchiveEntry(name);
                        t.setSize(f.content().length);
                        t.setModTime(now);
                        tar.putArchiveEntry(t);
                        tar.write(f.content());
                        tar.closeArchiveEntry();
                    }
                    case UnreadableItem u -> {
                        TarArchiveEntry t = new TarArchiveEntry(name);
                        t.addPaxHeader(TarTree.UNREADABLE_KEY, u.why());
                        put(tar, t, now);
                    }
                    case PlaceholderItem p -> put(tar, new TarArchiveEntry(name), now);
                }
            }
            tar.finish();
        }
    }

    private static void put(TarArchiveOutputStream tar, TarArchiveEntry e, long now) throws IOException {
        e.setModTime(now);
        tar.putArchiveEntry(e);
        tar.closeArchiveEntry();
    }
}
