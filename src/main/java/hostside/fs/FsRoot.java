package hostside.fs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import hostside.core.BadInputException;
import hostside.libc.Libc;
import hostside.libc.LibcException;

/**
 * The one place that reads /sys, /proc and the cgroup mounts they point to. Everything
 * hostside knows about a machine comes through here, so that a recorded machine (a folder or
 * a tarball given to {@code --root}) reads exactly like a live one, and so that
 * {@code hostside snapshot} can record exactly what was read.
 *
 * <p>Paths are resolved here, component by component, rather than by the OS: an absolute
 * symlink inside a recording must land inside that recording.
 *
 * <p>Every read is bounded: a file over {@link FileCap#BYTES} reads as "too large", a FIFO,
 * socket or device node as "not a regular file" without being opened (a recording is input
 * from anyone), and a tarball's size and entry count are capped ({@link TarTree}).
 */
public final class FsRoot {
    private static final int MAX_LINK_HOPS = 40;

    private final Tree tree;
    private final boolean live;
    private final Map<String, Optional<String>> resolvedDirs = new HashMap<>();
    private Recorder recorder;

    private FsRoot(Tree tree, boolean live) {
        this.tree = tree;
        this.live = live;
    }

    /** A tree as a root (tests pick how a folder is opened). */
    static FsRoot over(Tree tree, boolean live) {
        return new FsRoot(tree, live);
    }

    /** This machine. */
    public static FsRoot live() {
        return new FsRoot(new DirectoryTree(Path.of("/")), true);
    }

    /**
     * A recorded machine: a folder holding sys/ and proc/ (or one folder that does), or a
     * .tar, .tar.gz or .tar.bz2 of one. Throws {@link BadInputException} when it is none of these.
     */
    public static FsRoot open(String root) {
        if (root == null || root.isBlank()) throw new BadInputException("--root: empty path");
        Path p = Path.of(root);
        if (Files.isDirectory(p)) {
            Path base = p;
            if (!looksLikeMachine(base)) {
                Path only = onlySubfolder(base);
                if (only != null && looksLikeMachine(only)) base = only;
                else throw new BadInputException(root + ": no sys/ or proc/ inside: not a recorded machine");
            }
            try {
                return new FsRoot(new DirectoryTree(base.toAbsolutePath()), false);
            } catch (LibcException e) {
                throw new BadInputException(root + ": cannot open the folder (" + Libc.strerror(e.errno()) + ")");
            }
        }
        if (!Files.exists(p)) throw new BadInputException(root + ": no such file or folder");
        if (!Files.isReadable(p)) throw new BadInputException(root + ": permission denied");
        // a FIFO would block the open until someone writes to it; a device could answer for ever
        if (!Files.isRegularFile(p)) throw new BadInputException(root + ": not a folder nor a tarball (a FIFO, socket or device)");
        TarTree t = TarTree.load(p);
        if (t.kind("/sys") != Tree.Kind.DIR && t.kind("/proc") != Tree.Kind.DIR) {
            throw new BadInputException(root + ": no sys/ or proc/ inside: not a recorded machine");
        }
        return new FsRoot(t, false);
    }

    /** Looked at without following links: a recording's own links are FsRoot's to resolve, inside it. */
    private static boolean looksLikeMachine(Path dir) {
        return Files.isDirectory(dir.resolve("sys"), LinkOption.NOFOLLOW_LINKS) || Files.isDirectory(dir.resolve("proc"), LinkOption.NOFOLLOW_LINKS);
    }

    private static Path onlySubfolder(Path dir) {
        try (var s = Files.list(dir)) {
            List<Path> all = s.toList();
            // a link there (to "/", say) would make the machine that link's target, outside the recording
            return all.size() == 1 && Files.isDirectory(all.getFirst(), LinkOption.NOFOLLOW_LINKS) ? all.getFirst() : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** True for this machine, false for a recording: nothing is measured on a recording. */
    public boolean isLive() {
        return live;
    }

    public String describe() {
        return live ? "this machine" : tree.describe();
    }

    /** Starts recording every path read from now on, for a snapshot. */
    public Recorder record() {
        recorder = new Recorder();
        resolvedDirs.clear(); // so links met before are met, and recorded, again
        return recorder;
    }

    // ---- reads ----

    public Read read(String path) {
        Optional<String> real = resolve(path, true);
        if (real.isEmpty()) return new Read.Failed(path, "missing");
        String r = real.get();
        try {
            byte[] bytes = readFile(r);
            if (recorder != null) recorder.file(r, bytes);
            return new Read.Ok(path, new String(bytes, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            return new Read.Failed(path, "missing");
        } catch (AccessDeniedException e) {
            if (recorder != null) recorder.unreadable(r, "permission denied");
            return new Read.Failed(path, "permission denied");
        } catch (IOException e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            if (tree.kind(r) == Tree.Kind.DIR) return new Read.Failed(path, "is a folder");
            if (recorder != null) recorder.unreadable(r, why);
            return new Read.Failed(path, why);
        }
    }

    /**
     * The tree's read of a resolved path; a FIFO, socket or device node is refused by its kind
     * before the tree is asked. The tree refuses one again by what it finds when it opens the
     * path (a name can change kind in between), and opens nothing but a regular file.
     */
    private byte[] readFile(String real) throws IOException {
        if (tree.kind(real) == Tree.Kind.SPECIAL) throw new IOException(FileCap.NOT_REGULAR);
        return tree.read(real);
    }

    /**
     * The file's bytes, for the binary files of /sys (a PCI function's config space); empty,
     * with nothing thrown, when it is missing or unreadable. Recorded like any other read.
     */
    public Optional<byte[]> bytes(String path) {
        Optional<String> real = resolve(path, true);
        if (real.isEmpty()) return Optional.empty();
        try {
            byte[] b = readFile(real.get());
            if (recorder != null) recorder.file(real.get(), b);
            return Optional.of(b);
        } catch (IOException e) {
            if (recorder != null && !(e instanceof NoSuchFileException)) {
                recorder.unreadable(real.get(), e instanceof AccessDeniedException ? "permission denied" : String.valueOf(e.getMessage()));
            }
            return Optional.empty();
        }
    }

    /**
     * One variable of an environ file (NUL-separated NAME=value pairs, /proc/PID/environ), read
     * without recording the file, even while a snapshot records: an environment holds keys and
     * tokens. The bytes are scanned where they lie and only the value asked for becomes a String;
     * the rest is dropped with the buffer. Empty when the file is missing or unreadable (reading
     * PID 1's needs ptrace access) or has no such variable. Links met on the way are recorded as
     * for any path: they say where the file is, not what it holds.
     */
    public Optional<String> environVariable(String path, String name) {
        if (name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) throw new IllegalArgumentException("not a variable name: " + name);
        Optional<String> real = resolve(path, true);
        if (real.isEmpty()) return Optional.empty();
        byte[] bytes;
        try {
            bytes = readFile(real.get());
        } catch (IOException e) {
            return Optional.empty();
        }
        byte[] key = (name + "=").getBytes(StandardCharsets.UTF_8);
        for (int start = 0; start < bytes.length; ) {
            int end = start;
            while (end < bytes.length && bytes[end] != 0) end++;
            if (end - start >= key.length && java.util.Arrays.equals(bytes, start, start + key.length, key, 0, key.length)) {
                return Optional.of(new String(bytes, start + key.length, end - start - key.length, StandardCharsets.UTF_8));
            }
            start = end + 1;
        }
        return Optional.empty();
    }

    /**
     * The SHA-256 (hex) of {@code prefix} followed by a file's content without surrounding white
     * space, read without recording the file, even while a snapshot records: for the machine's
     * identity (/etc/machine-id, the DMI product UUID, the boot id), which a snapshot must not hold
     * (docs/snapshot.md). The content never leaves this method: {@code accept} sees it, to refuse a
     * placeholder such as systemd's "uninitialized", and only the hash is returned. Empty when the
     * file is missing or unreadable or {@code accept} refuses it. Links met on the way are recorded
     * as for any path.
     */
    public Optional<String> sha256Unrecorded(String path, String prefix, java.util.function.Predicate<String> accept) {
        Optional<String> real = resolve(path, true);
        if (real.isEmpty()) return Optional.empty();
        String value;
        try {
            value = new String(readFile(real.get()), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return Optional.empty();
        }
        if (!accept.test(value)) return Optional.empty();
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest((prefix + value).getBytes(StandardCharsets.UTF_8));
            return Optional.of(java.util.HexFormat.of().formatHex(d));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /**
     * Puts a file of hostside's own into the snapshot being recorded (nothing when none is): what
     * hostside derived from reads it did not record, such as the hash of the machine's identity,
     * so that a --root read of the snapshot derives the same. Only under /hostside/, a folder no
     * machine has.
     */
    public void recordDerived(String path, String content) {
        if (!path.startsWith(Recorder.OWN_FOLDER + "/") || path.contains("/..")) throw new IllegalArgumentException("not a file of hostside's own: " + path);
        if (recorder != null) recorder.file(path, content.getBytes(StandardCharsets.UTF_8));
    }

    /** The file's content without surrounding white space, if it could be read. */
    public Optional<String> text(String path) {
        return read(path).trimmed();
    }

    /** Child names of a folder, sorted with numbers in numeric order (cpu2 before cpu10). */
    public List<String> list(String path) {
        Optional<String> real = resolve(path, true);
        if (real.isEmpty()) return List.of();
        try {
            List<String> names = new ArrayList<>(tree.list(real.get()));
            names.sort(NATURAL);
            if (recorder != null) recorder.dir(real.get(), names, tree);
            return names;
        } catch (IOException e) {
            return List.of();
        }
    }

    public boolean exists(String path) {
        Optional<String> real = resolve(path, true);
        return real.isPresent() && tree.kind(real.get()) != Tree.Kind.MISSING;
    }

    public boolean isDirectory(String path) {
        Optional<String> real = resolve(path, true);
        boolean dir = real.isPresent() && tree.kind(real.get()) == Tree.Kind.DIR;
        // a snapshot must answer the same: the folder goes in with its listing, as list() records it
        if (dir && recorder != null) list(path);
        return dir;
    }

    /** The target of a symlink as stored (sysfs "driver" links name the driver this way). */
    public Optional<String> readLink(String path) {
        Optional<String> real = resolve(path, false);
        if (real.isEmpty() || tree.kind(real.get()) != Tree.Kind.LINK) return Optional.empty();
        try {
            String target = tree.linkTarget(real.get());
            if (recorder != null) recorder.link(real.get(), target);
            return Optional.of(target);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The path with every symlink resolved, if everything along it exists. */
    public Optional<String> realPath(String path) {
        Optional<String> real = resolve(path, true);
        return real.filter(r -> tree.kind(r) != Tree.Kind.MISSING);
    }

    // ---- resolution ----

    private Optional<String> resolve(String path, boolean followLast) {
        if (!path.startsWith("/")) throw new IllegalArgumentException("not absolute: " + path);
        if (path.contains("/..") || path.contains("/./") || path.contains("//")) {
            return walk("/", components(path), followLast);
        }
        if (path.equals("/")) return Optional.of("/");
        int slash = path.lastIndexOf('/');
        String parent = slash == 0 ? "/" : path.substring(0, slash);
        Optional<String> dir = resolveDir(parent);
        if (dir.isEmpty()) return dir;
        Deque<String> last = new ArrayDeque<>();
        last.add(path.substring(slash + 1));
        return walk(dir.get(), last, followLast);
    }

    private Optional<String> resolveDir(String dir) {
        if (dir.equals("/")) return Optional.of("/");
        Optional<String> known = resolvedDirs.get(dir);
        if (known != null) return known;
        Optional<String> r = resolve(dir, true);
        resolvedDirs.put(dir, r);
        return r;
    }

    private static Deque<String> components(String path) {
        Deque<String> d = new ArrayDeque<>();
        for (String s : path.split("/")) if (!s.isEmpty() && !s.equals(".")) d.add(s);
        return d;
    }

    /** Resolves the components in {@code rest} from the already-resolved folder {@code cur}. */
    private Optional<String> walk(String cur, Deque<String> rest, boolean followLast) {
        int hops = 0;
        while (!rest.isEmpty()) {
            String part = rest.removeFirst();
            if (part.equals("..")) {
                cur = parentOf(cur);
                continue;
            }
            String next = cur.equals("/") ? "/" + part : cur + "/" + part;
            Tree.Kind kind = tree.kind(next);
            if (kind == Tree.Kind.MISSING) {
                return rest.isEmpty() ? Optional.of(next) : Optional.empty();
            }
            if (kind == Tree.Kind.LINK && (followLast || !rest.isEmpty())) {
                if (++hops > MAX_LINK_HOPS) return Optional.empty();
                String target;
                try {
                    target = tree.linkTarget(next);
                } catch (IOException e) {
                    return Optional.empty();
                }
                if (recorder != null) recorder.link(next, target);
                Deque<String> expanded = components(target);
                expanded.addAll(rest);
                rest = expanded;
                if (target.startsWith("/")) cur = "/";
                continue;
            }
            if (kind != Tree.Kind.DIR && !rest.isEmpty()) return Optional.empty();
            cur = next;
        }
        return Optional.of(cur);
    }

    private static String parentOf(String path) {
        int i = path.lastIndexOf('/');
        return i <= 0 ? "/" : path.substring(0, i);
    }

    /** Orders "cpu2" before "cpu10" and "node250" after "node8". */
    public static final Comparator<String> NATURAL = (a, b) -> {
        int i = 0, j = 0;
        while (i < a.length() && j < b.length()) {
            char ca = a.charAt(i), cb = b.charAt(j);
            if (Character.isDigit(ca) && Character.isDigit(cb)) {
                int si = i, sj = j;
                while (i < a.length() && Character.isDigit(a.charAt(i))) i++;
                while (j < b.length() && Character.isDigit(b.charAt(j))) j++;
                String na = a.substring(si, i).replaceFirst("^0+(?=.)", "");
                String nb = b.substring(sj, j).replaceFirst("^0+(?=.)", "");
                int c = na.length() != nb.length() ? Integer.compare(na.length(), nb.length()) : na.compareTo(nb);
                if (c != 0) return c;
            } else {
                if (ca != cb) return Character.compare(ca, cb);
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    };
}
