package hostside.harness;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;

import hostside.fs.BadInputException;

/**
 * The file the read and mmap measurements share: written once with incompressible bytes (a
 * virtual disk that compresses or deduplicates zeros would flatter a cold read), synced so its
 * pages are clean and can be evicted, and deleted when closed or when the JVM exits (Ctrl-C).
 */
public final class TestFile implements AutoCloseable {
    /** Space left free beside the file, so a drill never fills a disk. */
    public static final long MARGIN = 1L << 30;
    private final Path path;
    private final long bytes;
    private final Thread cleanup;

    private TestFile(Path path, long bytes) {
        this.path = path;
        this.bytes = bytes;
        this.cleanup = new Thread(this::delete, "hostside-testfile-cleanup");
    }

    public Path path() {
        return path;
    }

    public long bytes() {
        return bytes;
    }

    /**
     * Checks the folder and the space, then writes the file. A folder that cannot be written and
     * a disk without room are bad input: one line, and nothing is left behind.
     */
    public static TestFile create(Path dir, String drill, long bytes, long usableBytes) {
        if (!Files.isDirectory(dir)) throw new BadInputException(dir + ": not a directory (--dir)");
        probeWritable(dir);
        if (bytes + MARGIN > usableBytes) {
            throw new BadInputException(String.format("%s: not enough free space for the %s test file (%s free, %s kept free); use --size or --dir",
                    dir, hostside.report.Units.bytes(bytes), hostside.report.Units.bytes(usableBytes), hostside.report.Units.bytes(MARGIN)));
        }
        Path p = dir.resolve(name(drill));
        TestFile f = new TestFile(p, bytes);
        Runtime.getRuntime().addShutdownHook(f.cleanup);
        try {
            f.write();
        } catch (IOException | RuntimeException e) {
            f.close();
            if (e instanceof AccessDeniedException || (e instanceof FileSystemException fse && fse.getReason() != null
                    && fse.getReason().toLowerCase().contains("read-only"))) {
                throw new BadInputException(dir + ": not writable (" + reason((IOException) e) + "); choose another --dir");
            }
            if (e instanceof IOException io) {
                String why = io.getMessage() == null ? reason(io) : io.getMessage();
                throw new BadInputException(dir + ": cannot write the test file: " + why + "; choose another --dir");
            }
            throw (RuntimeException) e;
        }
        return f;
    }

    /**
     * A file the caller writes itself (the write measurements), named and cleaned up like the
     * others: removed when closed and on Ctrl-C. Nothing is created until the caller does.
     */
    public static TestFile scratch(Path dir, String drill) {
        TestFile f = new TestFile(dir.resolve(name(drill)), 0);
        Runtime.getRuntime().addShutdownHook(f.cleanup);
        return f;
    }

    /** hostside-DRILL-PID.tmp: whose it is, should one ever be left behind. */
    public static String name(String drill) {
        return "hostside-" + drill + "-" + ProcessHandle.current().pid() + ".tmp";
    }

    /**
     * Creates and removes an empty file: the only test that catches a read-only mount, a
     * permission root does not override, and pseudo file systems (/proc) alike.
     */
    public static void probeWritable(Path dir) {
        Path probe = dir.resolve("hostside-probe-" + ProcessHandle.current().pid() + ".tmp");
        try {
            Files.newByteChannel(probe, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
        } catch (IOException e) {
            throw new BadInputException(dir + ": not writable (" + reason(e) + "); choose another --dir");
        } finally {
            try {
                Files.deleteIfExists(probe);
            } catch (IOException e) {
                // nothing was created, or it cannot be removed: both say enough above
            }
        }
    }

    /**
     * Why a file could not be made, in words: the kernel's reason where Java kept it, else what
     * the exception's type means (not its name: a one-line error names no Java class).
     */
    static String reason(IOException e) {
        if (e instanceof FileSystemException fse && fse.getReason() != null) return fse.getReason();
        if (e instanceof AccessDeniedException) return "permission denied";
        // /proc and /sys answer a new name with ENOENT: nothing can be created there
        if (e instanceof java.nio.file.NoSuchFileException) return "no new files can be created there";
        if (e instanceof java.nio.file.FileAlreadyExistsException) return "a file of that name is in the way";
        return e.getMessage() == null ? "I/O error" : e.getMessage();
    }

    public static long usableSpace(Path dir) {
        try {
            return Files.getFileStore(dir).getUsableSpace();
        } catch (IOException e) {
            throw new BadInputException(dir + ": cannot read its free space (" + e.getMessage() + ")");
        }
    }

    private void write() throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
        SplittableRandom rnd = new SplittableRandom(42);
        while (chunk.remaining() >= 8) chunk.putLong(rnd.nextLong());
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            long written = 0;
            while (written < bytes) {
                chunk.clear();
                chunk.limit((int) Math.min(chunk.capacity(), bytes - written));
                while (chunk.hasRemaining()) written += ch.write(chunk);
            }
            ch.force(true); // clean pages: posix_fadvise(DONTNEED) cannot drop dirty ones
        }
    }

    /** Removes the file now (it may be made again); the exit hook stays until {@link #close}. */
    public void delete() {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // best effort on the way out; the name says what it is
        }
    }

    @Override
    public void close() {
        delete();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException e) {
            // already shutting down: the hook runs anyway
        }
    }

    /** Made on first use, so that a run without file measurements writes nothing. */
    public static final class Lazy implements AutoCloseable {
        private final Path dir;
        private final String drill;
        private final long bytes;
        private TestFile file;

        public Lazy(Path dir, String drill, long bytes) {
            this.dir = dir;
            this.drill = drill;
            this.bytes = bytes;
        }

        /** The size the file will have. */
        public long bytes() {
            return bytes;
        }

        public synchronized TestFile get() {
            if (file == null) file = create(dir, drill, bytes, usableSpace(dir));
            return file;
        }

        @Override
        public synchronized void close() {
            if (file != null) file.close();
        }
    }
}
