package hostside.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.function.Consumer;

import hostside.core.Printable;

/**
 * A private folder for the temporary files a drill hands to other programs: strace's output,
 * the Python scripts and what they print. Named and locked like the test files
 * ({@code hostside-DRILL-ID.d} beside {@code hostside-DRILL-ID.lock}, see {@link TestFileName} and
 * {@link OwnerLock}), so that a run killed by SIGKILL, which leaves the folder in /tmp, has it
 * removed by the next run that makes one there ({@link StaleTestFiles}). Made with mkdir(2), mode
 * 0700: it never exists before we make it, and nobody else can plant a link inside. Removed, with
 * what is in it, when closed and at JVM exit; only the folder this process made, and nothing a
 * link inside it points to.
 */
public final class ScratchFolder implements AutoCloseable {
    private final Path path;
    private final Object identity;
    private final OwnerLock lock;
    private final Thread cleanup;
    private boolean closed; // guarded by this

    private ScratchFolder(Path path, Object identity, OwnerLock lock) {
        this.path = path;
        this.identity = identity;
        this.lock = lock;
        this.cleanup = new Thread(this::close, "hostside-scratch-cleanup");
    }

    /** A fresh folder in the JVM's temporary folder (java.io.tmpdir, /tmp by default). */
    public static ScratchFolder create(String drill) {
        return create(Path.of(System.getProperty("java.io.tmpdir")), drill, line -> System.err.println("hostside: " + Printable.of(line)));
    }

    /**
     * A fresh folder in {@code dir}, after removing what killed runs left there (said through
     * {@code say}). Unchecked on failure: the drills report a folder they cannot write as their
     * own failure, with this message.
     */
    public static ScratchFolder create(Path dir, String drill, Consumer<String> say) {
        StaleTestFiles.sweep(dir, say);
        String id = TestFileName.randomId();
        OwnerLock lock;
        try {
            lock = OwnerLock.create(dir.resolve(TestFileName.lock(drill, id)), drill);
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": cannot make a temporary folder there: " + TestFile.reason(e), e);
        }
        Path path = dir.resolve(TestFileName.folder(drill, id));
        try {
            Files.createDirectory(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Object identity = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
            ScratchFolder f = new ScratchFolder(path, identity, lock);
            Runtime.getRuntime().addShutdownHook(f.cleanup);
            return f;
        } catch (IOException | IllegalStateException e) {
            lock.close();
            throw new UncheckedIOException(dir + ": cannot make a temporary folder there: "
                    + (e instanceof IOException io ? TestFile.reason(io) : "hostside is exiting"), e instanceof IOException io ? io : new IOException(e));
        }
    }

    public Path path() {
        return path;
    }

    /** A file of this folder (not made here: the program given the path makes it). */
    public Path file(String name) {
        if (name.contains("/") || name.startsWith(".")) throw new IllegalArgumentException("not a plain file name: " + name);
        return path.resolve(name);
    }

    /** Removes the folder and what is in it, then the lock; the exit hook does the same. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        removeFolder(path, identity);
        lock.close();
        if (!Thread.currentThread().equals(cleanup)) {
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException e) {
                // already shutting down: the hook finds it closed
            }
        }
    }

    /**
     * Removes a folder of ours: only while {@code folder} is still the directory of that identity,
     * and its entries without following links (a link is removed itself, never its target). Our
     * folders hold plain files only; a subfolder someone made in one is left, and so is the folder.
     * Returns the bytes removed, or empty when the folder was not ours or not wholly removed.
     */
    static Optional<Long> removeFolder(Path folder, Object identity) {
        try {
            BasicFileAttributes a = OwnFiles.lstat(folder);
            if (!a.isDirectory() || identity == null || !identity.equals(a.fileKey())) return Optional.empty();
            long bytes = 0;
            try (var entries = Files.newDirectoryStream(folder)) {
                for (Path p : entries) {
                    BasicFileAttributes e = OwnFiles.lstat(p);
                    if (e.isDirectory()) return Optional.empty();
                    bytes += e.isRegularFile() ? e.size() : 0;
                    Files.delete(p);
                }
            }
            Files.delete(folder);
            return Optional.of(bytes);
        } catch (IOException e) {
            return Optional.empty(); // gone already, or not ours to empty: the lock file says whose it was
        }
    }
}
