package hostside.fs;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import hostside.core.BadInputException;
import hostside.libc.Libc;
import hostside.libc.LibcException;
import hostside.libc.PathAt;

/**
 * Every file hostside leaves for the user (a report's .json, .md and .html, a snapshot, a bundle)
 * is written here: into a fresh temporary file beside the target, then moved into place.
 *
 * <p>Why each step. The temporary file has a random name and is created with
 * {@code O_CREAT|O_EXCL|O_NOFOLLOW} ({@code CREATE_NEW} with {@code NOFOLLOW_LINKS}): a
 * symlink planted at any name we might use is never followed, and two runs writing the same
 * target at once never share a temporary file (with a fixed {@code .part} name, one run's JSON
 * ended with another's tail). The bytes are forced to the disk before the move, so a crash
 * cannot leave a renamed empty file. Ctrl-C while writing removes the temporary file, and only
 * when it is still the file this process created (same device and inode), since hostside never
 * deletes a file it did not make.
 *
 * <p>The target must be a new name or a regular file. Anything else (a device such as
 * /dev/null, a FIFO, a socket, a folder, a symbolic link such as /dev/stdout) is refused in one
 * line and left as it was: run as root, a rename over /dev/null replaces the system's device with
 * a file. The check is not a separate look before the rename, which a race could defeat: a new
 * name is taken with renameat2's RENAME_NOREPLACE, and an existing one is swapped with the new
 * file by RENAME_EXCHANGE, then what was swapped out is looked at; anything but a regular file
 * is swapped back at once. Where a file system has neither flag (NFS, older kernels), the target
 * is looked at and then renamed over, and that race is left open.
 *
 * <p>A set of files ({@link #writeSet}: a report's three) is written whole or not at all: every
 * temporary file is written and synced first, then each is moved into place keeping the file it
 * replaced, and only when all are in place are the replaced files removed; a failure on the way
 * puts back every file already replaced. Readers never see this run's JSON beside the last run's
 * HTML.
 */
public final class OutputFile {
    /** What a writer puts into the file. The stream is buffered; closing it only flushes (the file is closed by {@link #write}, after it is synced). */
    @FunctionalInterface
    public interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    /** One file of a set: where it goes and what it holds. */
    public record Part(Path target, Body body) {}

    /** A target that is there and is not a regular file: refused, left untouched. */
    public static final class NotARegularFile extends FileSystemException {
        public NotARegularFile(Path target, String what) {
            super(target.toString(), null, what + "; hostside writes only to a regular file or a new name");
        }
    }

    /** Outputs are for reading by others on the machine; umask may narrow this further. */
    private static final Set<java.nio.file.attribute.PosixFilePermission> MODE = PosixFilePermissions.fromString("rw-r--r--");
    private static final SecureRandom RANDOM = new SecureRandom();

    private OutputFile() {}

    /** Writes {@code text} as UTF-8 to {@code target}, atomically. */
    public static void writeString(Path target, String text) throws IOException {
        write(target, out -> out.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    /** Writes what {@code body} writes to {@code target}, atomically (see the class comment). */
    public static void write(Path target, Body body) throws IOException {
        writeSet(List.of(new Part(target, body)));
    }

    /** Writes every part, then moves them all into place, or leaves every target as it was (see the class comment). */
    public static void writeSet(List<Part> parts) throws IOException {
        for (Part p : parts) refuseUnlessRegularOrNew(p.target());
        List<Staged> staged = new ArrayList<>();
        try {
            for (Part p : parts) staged.add(stage(p));
            List<Placed> placed = new ArrayList<>();
            try {
                for (Staged s : staged) placed.add(place(s));
            } catch (IOException | RuntimeException e) {
                for (Placed p : placed.reversed()) p.undo();
                throw e;
            }
            for (Placed p : placed) p.dropReplaced();
        } finally {
            for (Staged s : staged) s.close();
        }
    }

    /**
     * Bad input when {@code target} is there and is not a regular file: what a command checks
     * before it measures anything, so that a refused output costs a second, not a run.
     */
    public static void checkTarget(Path target, String option) {
        try {
            refuseUnlessRegularOrNew(target);
        } catch (IOException e) {
            throw new BadInputException(option + " " + target + ": " + reason(e));
        }
    }

    private static void refuseUnlessRegularOrNew(Path target) throws IOException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return;
        }
        if (!a.isRegularFile()) throw new NotARegularFile(target, whatIsAt(target, a));
    }

    /** "is a character device", "is a symbolic link (to /proc/self/fd/1)": what stands at a refused target. */
    private static String whatIsAt(Path target, BasicFileAttributes a) {
        if (a.isSymbolicLink()) return whatIsAt(target, PathAt.Stat.Type.LINK);
        if (a.isDirectory()) return whatIsAt(target, PathAt.Stat.Type.DIR);
        PathAt.Stat s = statOrNull(target);
        return whatIsAt(target, s == null ? PathAt.Stat.Type.UNKNOWN : s.type());
    }

    private static String whatIsAt(Path target, PathAt.Stat.Type type) {
        return switch (type) {
            case LINK -> {
                try {
                    yield "is a symbolic link (to " + Files.readSymbolicLink(target) + ")";
                } catch (IOException e) {
                    yield "is a symbolic link";
                }
            }
            case DIR -> "is a folder";
            case CHAR_DEVICE -> "is a character device";
            case BLOCK_DEVICE -> "is a block device";
            case FIFO -> "is a FIFO";
            case SOCKET -> "is a socket";
            default -> "is not a regular file";
        };
    }

    private static PathAt.Stat statOrNull(Path p) {
        try {
            return PathAt.statx(PathAt.AT_FDCWD, p.toString());
        } catch (LibcException e) {
            return null;
        }
    }

    /**
     * What stands at {@code p}, following a link (a folder given through one is a folder): "a
     * regular file", "a character device", "a FIFO"..., or "missing"; for messages about a
     * folder that is not one.
     */
    public static String kindOf(Path p) {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            if (a.isRegularFile()) return "a regular file";
            if (a.isDirectory()) return "a folder";
        } catch (IOException e) {
            return Files.isSymbolicLink(p) ? "a symbolic link that leads nowhere" : "missing";
        }
        Path real;
        try {
            real = p.toRealPath();
        } catch (IOException e) {
            real = p;
        }
        PathAt.Stat s = statOrNull(real);
        return whatIsAt(real, s == null ? PathAt.Stat.Type.UNKNOWN : s.type()).replaceFirst("^is ", "");
    }

    /** A part written to its temporary file and synced, not yet in place. */
    private static final class Staged implements AutoCloseable {
        final Path target, tmp;
        final Object key;
        final Thread cleanup;

        Staged(Path target, Path tmp, Object key) {
            this.target = target;
            this.tmp = tmp;
            this.key = key;
            this.cleanup = new Thread(() -> deleteIfOurs(tmp, key), "hostside-output-cleanup");
            Runtime.getRuntime().addShutdownHook(cleanup);
        }

        /** Removes the temporary file if it is still ours (after a move it holds the replaced file, or is gone). */
        @Override
        public void close() {
            deleteIfOurs(tmp, key);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException e) {
                // already shutting down: the hook runs and finds the file gone or no longer ours
            }
        }
    }

    private static Staged stage(Part part) throws IOException {
        Path target = part.target().toAbsolutePath();
        Path dir = target.getParent();
        if (dir == null) throw new IOException(part.target() + ": no folder to write into");
        Path tmp = dir.resolve(temporaryName(target.getFileName().toString()));
        try (FileChannel ch = create(tmp)) {
            Object key = Files.readAttributes(tmp, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
            Staged staged = new Staged(target, tmp, key);
            try {
                OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16);
                part.body().writeTo(new FilterOutputStream(out) {
                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        out.write(b, off, len); // FilterOutputStream's own writes a byte at a time
                    }

                    @Override
                    public void close() throws IOException {
                        out.flush();
                    }
                });
                out.flush();
                ch.force(true);
                return staged;
            } catch (IOException | RuntimeException | Error e) {
                staged.close();
                throw e;
            }
        }
    }

    /** A part moved into place; {@code replaced} is where the file it replaced now is (the temporary name), or null. */
    private record Placed(Staged staged, Path replaced) {
        /** Puts back what was at the target: the replaced file, or no file at all. */
        void undo() {
            try {
                if (replaced != null) {
                    PathAt.renameat2(PathAt.AT_FDCWD, replaced.toString(), PathAt.AT_FDCWD, staged.target.toString(), PathAt.RENAME_EXCHANGE);
                } else {
                    deleteIfOurs(staged.target, staged.key);
                }
            } catch (LibcException e) {
                // the target changed under us meanwhile: leave it as it is now
            }
        }

        /** Removes the regular file that the new one replaced: what a rename over it would have done. */
        void dropReplaced() {
            if (replaced == null) return;
            try {
                PathAt.Stat s = PathAt.statx(PathAt.AT_FDCWD, replaced.toString());
                if (s.type() == PathAt.Stat.Type.FILE) PathAt.unlinkat(PathAt.AT_FDCWD, replaced.toString());
            } catch (LibcException e) {
                // gone already
            }
        }
    }

    private static Placed place(Staged s) throws IOException {
        String tmp = s.tmp.toString(), target = s.target.toString();
        try {
            PathAt.renameat2(PathAt.AT_FDCWD, tmp, PathAt.AT_FDCWD, target, PathAt.RENAME_NOREPLACE);
            return new Placed(s, null);
        } catch (LibcException e) {
            if (e.errno() != PathAt.EEXIST) {
                if (!flagsUnsupported(e)) throw failed(s.target, e);
                return placeByPlainRename(s);
            }
        }
        try {
            PathAt.renameat2(PathAt.AT_FDCWD, tmp, PathAt.AT_FDCWD, target, PathAt.RENAME_EXCHANGE);
        } catch (LibcException e) {
            if (!flagsUnsupported(e)) throw failed(s.target, e);
            return placeByPlainRename(s);
        }
        PathAt.Stat was = statOrNull(s.tmp);
        if (was == null || was.type() != PathAt.Stat.Type.FILE) {
            // looked at where it lies now (the temporary name), before it goes back
            String what = was == null ? "is not a regular file" : whatIsAt(s.tmp, was.type());
            try {
                PathAt.renameat2(PathAt.AT_FDCWD, tmp, PathAt.AT_FDCWD, target, PathAt.RENAME_EXCHANGE);
            } catch (LibcException e) {
                throw new IOException(target + ": was swapped for something else while being written, and could not be put back (" + Libc.strerror(e.errno()) + ")");
            }
            throw new NotARegularFile(s.target, what);
        }
        return new Placed(s, s.tmp);
    }

    /** EINVAL from a file system without renameat2's flags; ENOSYS from a kernel before 3.15. */
    private static boolean flagsUnsupported(LibcException e) {
        return e.errno() == PathAt.EINVAL || e.errno() == PathAt.ENOSYS || e.errno() == PathAt.EOPNOTSUPP;
    }

    /** Where the flags are missing: look, then rename over a regular file or into a new name (the race stays open here). */
    private static Placed placeByPlainRename(Staged s) throws IOException {
        refuseUnlessRegularOrNew(s.target);
        Files.move(s.tmp, s.target, StandardCopyOption.ATOMIC_MOVE);
        return new Placed(s, null);
    }

    private static IOException failed(Path target, LibcException e) {
        return new FileSystemException(target.toString(), null, Libc.strerror(e.errno()));
    }

    /** O_CREAT|O_EXCL|O_NOFOLLOW, mode 0644 where the file system has modes. */
    private static FileChannel create(Path tmp) throws IOException {
        Set<java.nio.file.OpenOption> options = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        try {
            return FileChannel.open(tmp, options, PosixFilePermissions.asFileAttribute(MODE));
        } catch (UnsupportedOperationException e) {
            return FileChannel.open(tmp, options); // not a POSIX file system (a FAT stick): no mode to set
        }
    }

    /** ".NAME.RANDOM.part": hidden, says whose it is, and never the same twice. */
    static String temporaryName(String name) {
        byte[] r = new byte[8];
        RANDOM.nextBytes(r);
        return "." + name + "." + HexFormat.of().formatHex(r) + ".part";
    }

    /** Deletes {@code p} only while it is the file this process created ({@code key}: device and inode). */
    static void deleteIfOurs(Path p, Object key) {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (a.isRegularFile() && key != null && key.equals(a.fileKey())) Files.delete(p);
        } catch (IOException e) {
            // gone already, or replaced by someone else's: either way not ours to remove
        }
    }

    /** Why, in words, without a Java class name. */
    public static String reason(IOException e) {
        if (e instanceof FileSystemException fse && fse.getReason() != null) return fse.getReason();
        if (e instanceof AccessDeniedException) return "permission denied";
        if (e instanceof NoSuchFileException) return "no such file or folder";
        if (e instanceof FileAlreadyExistsException) return "a file of that name is in the way";
        return e.getMessage() == null ? "I/O error" : e.getMessage().lines().findFirst().orElse("I/O error");
    }
}
