package hostside.fs;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import hostside.libc.Libc;
import hostside.libc.LibcException;

/** A tree on disk: "/" for the live machine, or a folder holding a recorded sys/ and proc/. */
final class DirectoryTree implements Tree {
    private static final int ENOENT = 2, ENXIO = 6, EACCES = 13, ENOTDIR = 20, ELOOP = 40;
    /** The first read(2) asks for this much: a sysctl arrives whole in it (see {@link #read}). */
    private static final int CHUNK = 64 << 10;

    private final Path base;

    DirectoryTree(Path base) {
        this.base = base;
    }

    private Path at(String path) {
        return base.resolve(path.substring(1));
    }

    @Override
    public Kind kind(String path) {
        try {
            BasicFileAttributes a = Files.readAttributes(at(path), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (a.isSymbolicLink()) return Kind.LINK;
            if (a.isDirectory()) return Kind.DIR;
            if (a.isRegularFile()) return Kind.FILE;
            return Kind.SPECIAL;
        } catch (IOException e) {
            return Kind.MISSING;
        }
    }

    @Override
    public String linkTarget(String path) throws IOException {
        return Files.readSymbolicLink(at(path)).toString();
    }

    /**
     * At most {@link FileCap#BYTES} of a regular file, or why not.
     *
     * <p>The file is opened with {@code O_NOFOLLOW} ({@link FsRoot} has resolved every link, so a
     * link at the last component was swapped in after that: it is refused, not followed) and
     * {@code O_NONBLOCK}, so that a FIFO swapped in after {@link #kind} said FILE cannot hang
     * the open. The opened file's own attributes then decide: anything but a regular file is
     * closed unread (a FIFO's writer or a device's driver never sees a read), a regular file
     * whose size is over the cap is closed unread, and only then is O_NONBLOCK cleared and the
     * file read. /proc and /sys files say 0 or 4096 whatever they hold, so the cap is kept by
     * reading, never by trusting the size: past the cap the read stops (within one 64 KiB
     * chunk) and says "too large".
     *
     * <p>Not Files.readAllBytes: for a file whose size reads as 0 (all of /proc) it reads one
     * byte first, then the rest from offset 1, and some kernels (this project's dev VM, 6.18)
     * answer a /proc/sys read at a non-zero offset with end of file: "60" read as "6". The first
     * read(2) here asks for 64 KiB, so a sysctl arrives in its first read.
     */
    @Override
    public byte[] read(String path) throws IOException {
        Path file = at(path);
        int fd = open(file);
        try {
            BasicFileAttributes a = attributesOf(fd, file);
            if (a.isDirectory()) throw new IOException("is a directory");
            if (!a.isRegularFile()) throw new IOException(FileCap.NOT_REGULAR);
            if (a.size() > FileCap.BYTES) throw new IOException(FileCap.tooLarge(a.size()));
            Libc.clearNonBlocking(fd);
            return readAtMostCap(fd);
        } catch (LibcException e) {
            throw new IOException(Libc.strerror(e.errno()));
        } finally {
            Libc.close(fd);
        }
    }

    private static int open(Path file) throws IOException {
        try {
            return Libc.open(file.toString(), Libc.O_RDONLY | Libc.O_NONBLOCK | Libc.O_NOFOLLOW | Libc.O_CLOEXEC);
        } catch (LibcException e) {
            throw switch (e.errno()) {
                case ENOENT, ENOTDIR -> new NoSuchFileException(file.toString());
                case EACCES -> new AccessDeniedException(file.toString());
                case ELOOP -> new IOException("a symbolic link that appeared after the path was resolved: not followed");
                case ENXIO -> new IOException(FileCap.NOT_REGULAR); // a socket
                default -> new IOException(Libc.strerror(e.errno()));
            };
        }
    }

    /**
     * The open file's attributes: stat(2) of /proc/self/fd/N is fstat(2) of the descriptor, the
     * file actually opened, whatever the path names now (without a struct stat layout per
     * architecture). Where /proc is not mounted, the path's own attributes (lstat) are used:
     * O_NONBLOCK and O_NOFOLLOW still keep a swapped-in FIFO or link from hanging or leading out.
     */
    private static BasicFileAttributes attributesOf(int fd, Path file) throws IOException {
        try {
            return Files.readAttributes(Path.of("/proc/self/fd/" + fd), BasicFileAttributes.class);
        } catch (IOException e) {
            return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
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
        List<String> names = new ArrayList<>();
        try (var stream = Files.newDirectoryStream(at(path))) {
            for (Path p : stream) names.add(p.getFileName().toString());
        }
        return names;
    }

    @Override
    public String describe() {
        return base.toString();
    }
}
