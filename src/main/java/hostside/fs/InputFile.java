package hostside.fs;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

import hostside.libc.Libc;
import hostside.libc.LibcException;
import hostside.libc.PathAt;

/**
 * A file the user named (a report for --from or compare, a tarball for --root), opened once and
 * judged by what was opened: a look at the path before the open leaves a race in which a FIFO
 * swapped in makes the open block for ever, a device makes a read never end. So the file is
 * opened with O_NONBLOCK (a FIFO's open returns at once), the descriptor's own statx must say a
 * regular file no larger than the cap, and only then is it read, the cap kept while reading too
 * (a file that grows after the look). Links the user named are followed: the path is theirs.
 */
public final class InputFile extends InputStream {
    private static final int CHUNK = 64 << 10;

    private final Path path;
    private final long cap;
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment buffer = arena.allocate(CHUNK);
    private int fd;
    private long read;

    private InputFile(Path path, int fd, long cap) {
        this.path = path;
        this.fd = fd;
        this.cap = cap;
    }

    /** What stands at a path that is not a regular file, for the caller's message. */
    public static final class NotRegular extends IOException {
        public NotRegular(String what) {
            super(what);
        }
    }

    /** Over the cap when opened or while read. */
    public static final class TooLarge extends IOException {
        public TooLarge(String what) {
            super(what);
        }
    }

    /**
     * The file at {@code path}, open for reading; {@link NoSuchFileException},
     * {@link AccessDeniedException}, {@link NotRegular} or {@link TooLarge} when it cannot be.
     */
    public static InputFile open(Path path, long cap) throws IOException {
        int fd;
        try {
            fd = PathAt.openat(PathAt.AT_FDCWD, path.toString(), PathAt.O_RDONLY | PathAt.O_NONBLOCK | PathAt.O_CLOEXEC);
        } catch (LibcException e) {
            throw switch (e.errno()) {
                case PathAt.ENOENT, PathAt.ENOTDIR -> new NoSuchFileException(path.toString());
                case PathAt.EACCES, PathAt.EPERM -> new AccessDeniedException(path.toString());
                case PathAt.ENXIO -> new NotRegular("a socket");
                default -> new IOException(Libc.strerror(e.errno()));
            };
        }
        try {
            PathAt.Stat s = PathAt.statx(fd, "");
            switch (s.type()) {
                case FILE -> {}
                case DIR -> throw new NotRegular("a folder");
                case FIFO -> throw new NotRegular("a FIFO");
                case CHAR_DEVICE, BLOCK_DEVICE -> throw new NotRegular("a device");
                default -> throw new NotRegular("not a regular file");
            }
            if (s.size() > cap) throw new TooLarge(String.format(Locale.ROOT, "%d bytes, over the %d MiB read at most", s.size(), cap >> 20));
            Libc.clearNonBlocking(fd);
            return new InputFile(path, fd, cap);
        } catch (IOException | RuntimeException e) {
            PathAt.closeQuietly(fd);
            throw e;
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (fd < 0) throw new IOException(path + ": closed");
        if (len == 0) return 0;
        int got;
        try {
            got = (int) Libc.read(fd, buffer, Math.min(len, CHUNK));
        } catch (LibcException e) {
            throw new IOException(Libc.strerror(e.errno()));
        }
        if (got == 0) return -1;
        read += got;
        if (read > cap) throw new TooLarge(String.format(Locale.ROOT, "grew past the %d MiB read at most while it was read", cap >> 20));
        MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, 0, b, off, got);
        return got;
    }

    @Override
    public void close() {
        if (fd < 0) return;
        PathAt.closeQuietly(fd);
        fd = -1;
        arena.close();
    }
}
