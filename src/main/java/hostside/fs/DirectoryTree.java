package hostside.fs;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Cleaner;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import hostside.libc.Libc;
import hostside.libc.LibcException;
import hostside.libc.PathAt;

/**
 * A tree on disk: "/" for the live machine, or a folder holding a recorded sys/ and proc/.
 *
 * <p>Every path is opened beneath one descriptor of the tree's folder, taken when the tree is
 * made, and never by name from the top again: {@link FsRoot} has already resolved every link
 * (lexically, inside the tree), so the path handed here must hold none, and none is followed at
 * any depth. With openat2 (Linux 5.6) that is one call, RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS;
 * where the kernel or a container's seccomp filter lacks it, each folder along the path is opened
 * in turn with O_NOFOLLOW | O_DIRECTORY from the last. Either way a folder of a recording swapped
 * for a link between FsRoot's resolution and the open (a race a hostile recording can run) makes
 * the read fail; it never leads out of the recording. Swapping the recording's folder itself
 * changes nothing either: the descriptor still names the folder first opened.
 */
final class DirectoryTree implements Tree {
    /** A folder with more entries than this is not a machine's (a live /proc holds one per task, tens of thousands). */
    static final int MAX_ENTRIES = 1_000_000;
    /** The first read(2) asks for this much: a sysctl arrives whole in it (see {@link #read}). */
    private static final int CHUNK = 64 << 10;
    private static final Cleaner CLEANER = Cleaner.create();
    /** A link where FsRoot, which resolves every link itself, saw none. */
    private static final String LINK_APPEARED = "a symbolic link that appeared after the path was resolved: not followed";

    private final Path base;
    private final int rootFd;
    /** True where openat2 is missing: the path is opened a folder at a time. */
    private final boolean walk;

    DirectoryTree(Path base) {
        this(base, !PathAt.hasOpenat2());
    }

    /** {@code walk}: open a folder at a time even where openat2 exists (tests run both ways). */
    DirectoryTree(Path base, boolean walk) {
        this.base = base;
        this.walk = walk;
        this.rootFd = PathAt.openat(PathAt.AT_FDCWD, base.toString(), PathAt.O_PATH | PathAt.O_DIRECTORY | PathAt.O_CLOEXEC);
        int fd = rootFd;
        CLEANER.register(this, () -> PathAt.closeQuietly(fd));
    }

    /**
     * Opens {@code path} (absolute in the tree) beneath the tree's folder, following no link on the
     * way nor at the end (a link at the end opens as itself with O_PATH | O_NOFOLLOW, else ELOOP).
     */
    private int openBeneath(String path, int flags) {
        String rel = path.equals("/") ? "." : path.substring(1);
        if (!walk) return PathAt.openat2(rootFd, rel, flags | PathAt.O_NOFOLLOW | PathAt.O_CLOEXEC, PathAt.RESOLVE_BENEATH | PathAt.RESOLVE_NO_SYMLINKS);
        String[] parts = rel.split("/");
        int dir = rootFd;
        try {
            for (int i = 0; i < parts.length - 1; i++) {
                int next = PathAt.openat(dir, component(parts[i]), PathAt.O_PATH | PathAt.O_DIRECTORY | PathAt.O_NOFOLLOW | PathAt.O_CLOEXEC);
                if (dir != rootFd) PathAt.closeQuietly(dir);
                dir = next;
            }
            return PathAt.openat(dir, component(parts[parts.length - 1]), flags | PathAt.O_NOFOLLOW | PathAt.O_CLOEXEC);
        } finally {
            if (dir != rootFd) PathAt.closeQuietly(dir);
        }
    }

    /** FsRoot hands over resolved paths: an empty or ".." component here would climb or mean nothing. */
    private static String component(String part) {
        if (part.isEmpty() || part.equals("..")) throw new LibcException("not a resolved path component: \"" + part + "\"", PathAt.ENOENT);
        return part;
    }

    @Override
    public Kind kind(String path) {
        int fd;
        try {
            fd = openBeneath(path, PathAt.O_PATH);
        } catch (LibcException e) {
            // ELOOP on the way: a folder swapped for a link after FsRoot resolved it; there is nothing beneath to see
            return Kind.MISSING;
        }
        try {
            return switch (PathAt.statx(fd, "").type()) {
                case LINK -> Kind.LINK;
                case DIR -> Kind.DIR;
                case FILE -> Kind.FILE;
                default -> Kind.SPECIAL;
            };
        } catch (LibcException e) {
            return Kind.MISSING;
        } finally {
            PathAt.closeQuietly(fd);
        }
    }

    @Override
    public String linkTarget(String path) throws IOException {
        int fd = open(path, PathAt.O_PATH);
        try {
            return PathAt.readlinkat(fd, "");
        } catch (LibcException e) {
            throw new IOException(path + ": not a symbolic link (" + Libc.strerror(e.errno()) + ")");
        } finally {
            PathAt.closeQuietly(fd);
        }
    }

    /**
     * At most {@link FileCap#BYTES} of a regular file, or why not.
     *
     * <p>Nothing but a regular file is ever opened for reading ({@link #openRegular}): a FIFO
     * opened even non-blocking lets a writer waiting in its open go on, and a device's open runs
     * its driver, as root (a watchdog arms, a tape rewinds). A regular file whose size is over
     * the cap is not read; /proc and /sys files say 0 or 4096 whatever they hold, so the cap is
     * also kept by reading, never by trusting the size: past the cap the read stops (within one
     * 64 KiB chunk) and says "too large".
     *
     * <p>Not Files.readAllBytes: for a file whose size reads as 0 (all of /proc) it reads one
     * byte first, then the rest from offset 1, and some kernels (this project's dev VM, 6.18)
     * answer a /proc/sys read at a non-zero offset with end of file: "60" read as "6". The first
     * read(2) here asks for 64 KiB, so a sysctl arrives in its first read.
     */
    @Override
    public byte[] read(String path) throws IOException {
        int fd = openRegular(path);
        try {
            Libc.clearNonBlocking(fd);
            return readAtMostCap(fd);
        } catch (LibcException e) {
            throw new IOException(Libc.strerror(e.errno()));
        } finally {
            PathAt.closeQuietly(fd);
        }
    }

    /**
     * A descriptor open for reading (O_NONBLOCK, to be cleared) on the regular file at
     * {@code path}, judged before it is opened. The path is opened beneath the tree with O_PATH,
     * which runs no open of the file itself (no FIFO's, no driver's) and, with O_NOFOLLOW, opens
     * a link as itself; statx of that descriptor decides. Only a regular file within the cap is
     * then opened for reading, through /proc/self/fd/N of the O_PATH descriptor: a magic link to
     * that very inode, with no second lookup of the path, so a FIFO or device swapped in under
     * the name meanwhile is never reached. O_NONBLOCK stays as a belt, and the opened file must
     * still be the one judged (device and inode).
     *
     * <p>Where /proc is not mounted (a bare chroot or container) the path is opened a second time,
     * beneath the tree, O_NONBLOCK | O_NOFOLLOW, and refused unless it is the same file. There a
     * FIFO or device swapped in between the two opens is refused only after its open has run: a
     * FIFO's waiting writer goes on, a driver's open() runs once. /proc is mounted wherever
     * hostside runs as a node's agent.
     */
    private int openRegular(String path) throws IOException {
        int pathFd = open(path, PathAt.O_PATH);
        try {
            PathAt.Stat judged;
            try {
                judged = PathAt.statx(pathFd, "");
            } catch (LibcException e) {
                throw new IOException(Libc.strerror(e.errno()));
            }
            switch (judged.type()) {
                case FILE -> { }
                case DIR -> throw new IOException("is a directory");
                case LINK -> throw new IOException(LINK_APPEARED);
                default -> throw new IOException(FileCap.NOT_REGULAR);
            }
            if (judged.size() > FileCap.BYTES) throw new IOException(FileCap.tooLarge(judged.size()));
            int fd = reopen(pathFd, path);
            PathAt.Stat opened;
            try {
                opened = PathAt.statx(fd, "");
            } catch (LibcException e) {
                PathAt.closeQuietly(fd);
                throw new IOException(Libc.strerror(e.errno()));
            }
            if (!judged.sameFile(opened)) {
                PathAt.closeQuietly(fd);
                throw new IOException("replaced while it was opened: not read");
            }
            return fd;
        } finally {
            PathAt.closeQuietly(pathFd);
        }
    }

    /** The file of the O_PATH descriptor {@code pathFd}, opened for reading (see {@link #openRegular}). */
    private int reopen(int pathFd, String path) throws IOException {
        int flags = PathAt.O_RDONLY | PathAt.O_NONBLOCK | PathAt.O_CLOEXEC;
        try {
            return PathAt.openat(PathAt.AT_FDCWD, "/proc/self/fd/" + pathFd, flags);
        } catch (LibcException e) {
            if (e.errno() == PathAt.EACCES) throw new AccessDeniedException(path);
            if (e.errno() != PathAt.ENOENT) throw new IOException(Libc.strerror(e.errno()));
            // no /proc: by name again, beneath the tree; openRegular checks it is the same file
            return open(path, PathAt.O_RDONLY | PathAt.O_NONBLOCK);
        }
    }

    /** {@link #openBeneath}, its failures as the IOExceptions {@link FsRoot} tells apart. */
    private int open(String path, int flags) throws IOException {
        try {
            return openBeneath(path, flags);
        } catch (LibcException e) {
            throw switch (e.errno()) {
                case PathAt.ENOENT, PathAt.ENOTDIR -> new NoSuchFileException(path);
                case PathAt.EACCES -> new AccessDeniedException(path);
                case PathAt.ELOOP -> new IOException(LINK_APPEARED);
                case PathAt.EXDEV -> new IOException("leads outside " + base + ": not followed");
                case PathAt.ENXIO -> new IOException(FileCap.NOT_REGULAR); // a socket
                default -> new IOException(Libc.strerror(e.errno()));
            };
        }
    }

    private static byte[] readAtMostCap(int fd) throws IOException {
        byte[] out = new byte[0];
        int n = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(CHUNK);
            while (true) {
                // Always a whole chunk, even past the cap: some files take only reads of whole
                // records (/proc/self/pagemap: 8 bytes, EINVAL for 1). Bytes past the cap are
                // never kept: reading stops at most one chunk after it.
                int got = (int) Libc.read(fd, buf, CHUNK);
                if (got == 0) return Arrays.copyOf(out, n);
                if ((long) n + got > FileCap.BYTES) throw new IOException(FileCap.tooLargeRead());
                if (n + got > out.length) out = Arrays.copyOf(out, Math.max(n + got, Math.min(FileCap.BYTES, 2 * out.length)));
                MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, 0, out, n, got);
                n += got;
            }
        }
    }

    @Override
    public List<String> list(String path) throws IOException {
        int fd = open(path, PathAt.O_RDONLY | PathAt.O_DIRECTORY);
        try {
            return PathAt.names(fd, MAX_ENTRIES);
        } catch (LibcException e) {
            throw new IOException(e.getMessage());
        } finally {
            PathAt.closeQuietly(fd);
        }
    }

    @Override
    public String describe() {
        return base.toString();
    }
}
