package hostside.fs;

import hostside.core.BadInputException;

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
import java.util.Locale;
import java.util.Set;

/**
 * Every file hostside leaves for the user (a report's .json and .md, a snapshot) is written
 * here: into a fresh temporary file beside the target, then renamed into place.
 *
 * <p>Why each step. The temporary file has a random name and is created with
 * {@code O_CREAT|O_EXCL|O_NOFOLLOW} ({@code CREATE_NEW} with {@code NOFOLLOW_LINKS}): a
 * symlink planted at any name we might use is never followed, and two runs writing the same
 * target at once never share a temporary file (with a fixed {@code .part} name, one run's JSON
 * ended with another's tail). The rename is {@code rename(2)}: readers see the old file or the
 * new one, never half of one; a symlink at the target is replaced, not written through. The
 * bytes are forced to the disk before the rename, so a crash cannot leave a renamed empty file.
 * Ctrl-C while writing removes the temporary file, and only when it is still the file this
 * process created (same device and inode), since hostside never deletes a file it did not make.
 */
public final class OutputFile {
    /** What a writer puts into the file. The stream is buffered; closing it only flushes (the file is closed by {@link #write}, after it is synced). */
    @FunctionalInterface
    public interface Body {
        void writeTo(OutputStream out) throws IOException;
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
        Path dir = target.toAbsolutePath().getParent();
        if (dir == null) throw new IOException(target + ": no folder to write into");
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) throw new FileSystemException(target.toString(), null, "is a folder");
        Path tmp = dir.resolve(temporaryName(target.getFileName().toString()));
        try (FileChannel ch = create(tmp)) {
            Object key = Files.readAttributes(tmp, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
            Thread cleanup = new Thread(() -> deleteIfOurs(tmp, key), "hostside-output-cleanup");
            Runtime.getRuntime().addShutdownHook(cleanup);
            boolean moved = false;
            try {
                OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16);
                body.writeTo(new FilterOutputStream(out) {
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
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
                moved = true;
            } finally {
                if (!moved) deleteIfOurs(tmp, key);
                try {
                    Runtime.getRuntime().removeShutdownHook(cleanup);
                } catch (IllegalStateException e) {
                    // already shutting down: the hook runs and finds the file gone or still ours
                }
            }
        }
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

    /**
     * Checks, before any work is done, that {@code dir} can take outputs: it exists or can be
     * made, a file can be created there (the only test that catches a read-only mount, /proc, or
     * a permission root does not override), and at least {@code bytes} are free. Bad input
     * otherwise, named after {@code option}: the user learns it in a second, not after minutes.
     */
    public static void checkFolder(Path dir, String option, long bytes) {
        Path abs = dir.toAbsolutePath();
        if (Files.exists(abs) && !Files.isDirectory(abs)) throw new BadInputException(option + " " + dir + ": is a file, not a folder");
        try {
            Files.createDirectories(abs);
        } catch (IOException e) {
            throw new BadInputException(option + " " + dir + ": cannot create the folder (" + reason(e) + ")");
        }
        Path probe = abs.resolve(temporaryName("probe"));
        try {
            Files.newByteChannel(probe, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)).close();
            Object key = Files.readAttributes(probe, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
            deleteIfOurs(probe, key);
        } catch (IOException e) {
            throw new BadInputException(option + " " + dir + ": cannot write there (" + reason(e) + ")");
        }
        long free;
        try {
            free = Files.getFileStore(abs).getUsableSpace();
        } catch (IOException e) {
            throw new BadInputException(option + " " + dir + ": cannot read its free space (" + reason(e) + ")");
        }
        if (free < bytes) {
            throw new BadInputException(String.format(Locale.ROOT, "%s %s: only %d bytes free, %d needed", option, dir, free, bytes));
        }
    }

    /** ".NAME.RANDOM.part": hidden, says whose it is, and never the same twice. */
    static String temporaryName(String name) {
        byte[] r = new byte[8];
        RANDOM.nextBytes(r);
        return "." + name + "." + HexFormat.of().formatHex(r) + ".part";
    }

    /** Deletes {@code p} only while it is the file this process created ({@code key}: device and inode). */
    private static void deleteIfOurs(Path p, Object key) {
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
