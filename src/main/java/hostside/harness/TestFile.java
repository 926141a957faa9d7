package hostside.harness;

import java.util.Locale;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import hostside.core.BadInputException;
import hostside.core.Units;
import hostside.libc.FileIo;

/**
 * A test file of hostside's: the file the read and mmap measurements share (written once by
 * {@link #create}, incompressible and different in every page, see {@link TestData}, and synced
 * so its pages are clean and can be evicted; lengthened by {@link #grow} when a later drill of the
 * same session reads more, see {@link TestFiles}) or the files the write measurement makes one after
 * another ({@link #scratch}, {@link #createNew}).
 * <p>
 * Safe beside other runs and other users: a random name ({@link TestFileName}), created with
 * O_CREAT|O_EXCL|O_NOFOLLOW (a planted link is refused, never followed), and deleted only while
 * the path is still the file we made (its identity, see {@link OwnFiles}). Its lock file marks it
 * as a live run's until it is gone ({@link OwnerLock}); {@link StaleTestFiles} removes a killed
 * run's. Removed when closed, and when the JVM exits (Ctrl-C): after that exit cleanup nothing
 * is made again, so a measurement still running cannot leave a new file behind.
 */
public final class TestFile implements AutoCloseable {
    /** Space left free beside the file, so a drill never fills a disk. */
    public static final long MARGIN = 1L << 30;
    private static final int CHUNK = 1 << 20;
    private final Path path;
    private final OwnerLock lock;
    private final Thread cleanup;
    // guarded by this
    private boolean closed;
    /** Its size: written up to here ({@link #grow} writes on from it). */
    private long bytes;
    /** The data file's channel, which wrote it and writes what {@link #grow} adds; null for scratch files. */
    private FileChannel channel;
    /** The identity of the data file we made; null while there is none. */
    private Object identity;
    /**
     * Its descriptor, kept open until the file is removed: while it is open the inode cannot be
     * freed, so no file made later at this path can have the identity we compare with.
     */
    private AutoCloseable descriptor;

    private TestFile(Path path, long bytes, OwnerLock lock) {
        this.path = path;
        this.bytes = bytes;
        this.lock = lock;
        this.cleanup = new Thread(this::exitCleanup, "hostside-testfile-cleanup");
    }

    public Path path() {
        return path;
    }

    public synchronized long bytes() {
        return bytes;
    }

    /**
     * Checks the folder and the space, then writes the file. A folder that cannot be written and
     * a disk without room are bad input: one line, and nothing is left behind.
     */
    public static TestFile create(Path dir, String drill, long bytes, long usableBytes) {
        return create(dir, drill, bytes, usableBytes, TestFileName.randomId());
    }

    static TestFile create(Path dir, String drill, long bytes, long usableBytes, String id) {
        if (!Files.isDirectory(dir)) throw new BadInputException(dir + ": not a directory (--dir)");
        probeWritable(dir);
        if (!fits(bytes, usableBytes)) {
            throw new BadInputException(String.format(Locale.ROOT, "%s: not enough free space for the %s test file (%s free, %s kept free); use --size or --dir",
                    dir, Units.bytes(bytes), Units.bytes(usableBytes), Units.bytes(MARGIN)));
        }
        TestFile f = null;
        try {
            f = open(dir, drill, bytes, id);
            f.write();
            return f;
        } catch (IOException | RuntimeException e) {
            if (f != null) f.close();
            throw cannotWrite(dir, e);
        }
    }

    /**
     * Whether a file of {@code bytes} leaves {@link #MARGIN} free of {@code usableBytes}. Not
     * {@code bytes + MARGIN <= usableBytes}: a size near 2^63 (--size 9223372036854775807) wraps
     * that sum negative, passes, and the file is written until the disk is full.
     */
    public static boolean fits(long bytes, long usableBytes) {
        return bytes >= 0 && bytes <= usableBytes - MARGIN; // both non-negative: the difference cannot wrap
    }

    /**
     * Test files the caller writes itself (the write measurements), one at a time through
     * {@link #createNew}, named, locked and cleaned up like the others. Only the lock file is
     * made now.
     */
    public static TestFile scratch(Path dir, String drill) {
        return scratch(dir, drill, TestFileName.randomId());
    }

    static TestFile scratch(Path dir, String drill, String id) {
        try {
            return open(dir, drill, 0, id);
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": cannot make a test file's lock file: " + reason(e), e);
        }
    }

    private static TestFile open(Path dir, String drill, long bytes, String id) throws IOException {
        OwnerLock lock = OwnerLock.create(dir.resolve(TestFileName.lock(drill, id)), drill);
        TestFile f = new TestFile(dir.resolve(TestFileName.data(drill, id)), bytes, lock);
        try {
            Runtime.getRuntime().addShutdownHook(f.cleanup);
        } catch (IllegalStateException e) {
            lock.close(); // the JVM is exiting already: no new test file
            throw new IOException("hostside is exiting");
        }
        return f;
    }

    private static RuntimeException cannotWrite(Path dir, Exception e) {
        if (e instanceof AccessDeniedException || (e instanceof FileSystemException fse && fse.getReason() != null
                && fse.getReason().toLowerCase(java.util.Locale.ROOT).contains("read-only"))) {
            return new BadInputException(dir + ": not writable (" + reason((IOException) e) + "); choose another --dir");
        }
        if (e instanceof IOException io) {
            String why = io.getMessage() == null || io instanceof FileSystemException ? reason(io) : io.getMessage();
            return new BadInputException(dir + ": cannot write the test file: " + why + "; choose another --dir");
        }
        return (RuntimeException) e;
    }

    /**
     * Makes the data file, empty, for the caller to write through the descriptor returned; the
     * descriptor stays this object's (closed by {@link #delete}). O_EXCL|O_NOFOLLOW: never through
     * a link, never over a file already there. Refused once the file was closed or the exit cleanup
     * ran, so a write measurement interrupted by Ctrl-C cannot re-create what the cleanup removed.
     */
    public synchronized int createNew() {
        refuseIfClosed();
        if (identity != null) throw new IllegalStateException(path + ": made already; delete() it first");
        int fd = FileIo.open(path.toString(), FileIo.O_WRONLY | FileIo.O_CREAT | FileIo.O_EXCL | FileIo.O_NOFOLLOW | FileIo.O_CLOEXEC, 0600);
        try {
            identity = OwnFiles.identity(path);
        } catch (IOException e) {
            FileIo.close(fd);
            throw new UncheckedIOException(e);
        }
        descriptor = () -> FileIo.close(fd);
        return fd;
    }

    private void refuseIfClosed() {
        if (closed) throw new IllegalStateException(path + ": the test files were removed (hostside is exiting, or done with them); none is made again");
    }

    /** Writes the read measurements' file: outside the monitor, so an exit cleanup meanwhile removes it at once. */
    private void write() throws IOException {
        long to;
        synchronized (this) {
            refuseIfClosed();
            FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            try {
                identity = OwnFiles.identity(path);
            } catch (IOException e) {
                ch.close();
                throw e;
            }
            descriptor = ch;
            channel = ch;
            to = bytes;
        }
        writeRange(0, to);
    }

    /**
     * Makes the read measurements' file {@code newBytes} long, writing only what it lacks (the same
     * kind of bytes, {@link TestData}, synced): a session's drills share one file, and the drill that
     * reads more than the one before it adds the rest rather than writing a file of its own
     * ({@link TestFiles}). A file as long already is left as it is. A disk without room for the
     * rest beside {@link #MARGIN} of {@code usableBytes} is bad input, and the file stays as it was.
     */
    public void grow(long newBytes, long usableBytes) {
        long from;
        synchronized (this) {
            refuseIfClosed();
            if (channel == null) throw new IllegalStateException(path + ": a scratch file, not the read measurements' file");
            from = bytes;
        }
        if (newBytes <= from) return;
        if (!fits(newBytes - from, usableBytes)) {
            throw new BadInputException(String.format(Locale.ROOT, "%s: not enough free space to make the test file %s (%s free, %s kept free); use --size or --dir",
                    path.getParent(), Units.bytes(newBytes), Units.bytes(usableBytes), Units.bytes(MARGIN)));
        }
        try {
            writeRange(from, newBytes);
        } catch (IOException | RuntimeException e) {
            throw cannotWrite(path.getParent(), e);
        }
        synchronized (this) {
            bytes = newBytes;
        }
    }

    /** Writes bytes {@code from} to {@code to} of the data file, then syncs it. */
    private void writeRange(long from, long to) throws IOException {
        FileChannel ch;
        synchronized (this) {
            refuseIfClosed();
            ch = channel;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment chunk = arena.allocate(CHUNK, TestData.PAGE);
            TestData data = new TestData(chunk);
            ByteBuffer buffer = chunk.asByteBuffer();
            long written = from;
            while (written < to) {
                data.stamp(written);
                buffer.clear();
                buffer.limit((int) Math.min(CHUNK, to - written));
                while (buffer.hasRemaining()) written += ch.write(buffer, written);
            }
        }
        ch.force(true); // clean pages: posix_fadvise(DONTNEED) cannot drop dirty ones
    }

    /**
     * Removes the data file now, if the path is still the file we made (another may be made with
     * {@link #createNew}); the lock and the exit hook stay until {@link #close}.
     */
    public synchronized void delete() {
        if (identity != null) OwnFiles.deleteIfSame(path, identity);
        identity = null;
        if (descriptor != null) {
            try {
                descriptor.close();
            } catch (Exception e) {
                // a failed close of a file being removed loses nothing
            }
            descriptor = null;
            channel = null;
        }
    }

    /**
     * What the JVM's exit hook runs: from now on nothing is made, and the data file and the lock
     * file are removed. Descriptors stay open (the process ends soon and closes them): another
     * thread may still be writing through one, and a number closed under it could be handed to a
     * file opened meanwhile.
     */
    public synchronized void exitCleanup() {
        closed = true;
        if (identity != null) OwnFiles.deleteIfSame(path, identity);
        lock.deleteFile();
    }

    @Override
    public synchronized void close() {
        closed = true;
        delete();
        lock.close();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException e) {
            // already shutting down: the hook runs anyway
        }
    }

    /**
     * Creates and removes an empty file: the only test that catches a read-only mount, a
     * permission root does not override, and pseudo file systems (/proc) alike.
     */
    public static void probeWritable(Path dir) {
        probeWritable(dir, TestFileName.randomId());
    }

    static void probeWritable(Path dir, String id) {
        Path probe = dir.resolve(TestFileName.probe(id));
        Object identity;
        try {
            Files.newByteChannel(probe, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS).close();
        } catch (IOException e) {
            throw new BadInputException(dir + ": not writable (" + reason(e) + "); choose another --dir");
        }
        try {
            identity = OwnFiles.identity(probe);
        } catch (IOException e) {
            return; // replaced at once by someone else: not ours to remove
        }
        OwnFiles.deleteIfSame(probe, identity);
    }

    /**
     * Where a drill's test file goes by default: /var/tmp, on disk on most distributions, where /tmp
     * is often tmpfs (no cold reads there); the JVM's temporary folder where /var/tmp cannot be written.
     */
    public static Path defaultDir() {
        Path varTmp = Path.of("/var/tmp");
        if (Files.isDirectory(varTmp) && Files.isWritable(varTmp)) return varTmp;
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    /**
     * A test file's default size: {@code preferred}, cut to {@code memoryCap} (a warm read must fit in
     * the page cache) and to half the disk's room beyond {@link #MARGIN}, in whole MiB; never below
     * {@code min}, where readahead and caches would be most of the figure.
     */
    public static long fittedSize(long preferred, long min, long memoryCap, long usableDisk) {
        long room = Math.max(0, usableDisk - MARGIN) / 2;
        return Math.max(min, Math.min(preferred, Math.min(memoryCap, room)) & ~((1L << 20) - 1));
    }

    /**
     * Why a file could not be made, in words: the kernel's reason where Java kept it, else what
     * the exception's type means (not its name: a one-line error names no Java class).
     */
    static String reason(IOException e) {
        if (e instanceof java.nio.file.FileAlreadyExistsException) return "a file of that name is in the way";
        if (e instanceof FileSystemException fse && fse.getReason() != null) return fse.getReason();
        if (e instanceof AccessDeniedException) return "permission denied";
        // /proc and /sys answer a new name with ENOENT: nothing can be created there
        if (e instanceof java.nio.file.NoSuchFileException) return "no new files can be created there";
        return e.getMessage() == null ? "I/O error" : e.getMessage();
    }

    public static long usableSpace(Path dir) {
        try {
            return Files.getFileStore(dir).getUsableSpace();
        } catch (IOException e) {
            throw new BadInputException(dir + ": cannot read its free space (" + e.getMessage() + ")");
        }
    }

    /**
     * Made on first use, so that a run without file measurements writes nothing: a drill's own file,
     * or the one a session's drills share ({@link TestFiles#lend}), which the session removes.
     */
    public static final class Lazy implements AutoCloseable {
        private final Path dir;
        private final String drill;
        private final long bytes;
        private final TestFiles lender;
        private TestFile file;

        /** A drill's own file, removed when this is closed. */
        public Lazy(Path dir, String drill, long bytes) {
            this(dir, drill, bytes, null);
        }

        Lazy(Path dir, String drill, long bytes, TestFiles lender) {
            this.dir = dir;
            this.drill = drill;
            this.bytes = bytes;
            this.lender = lender;
        }

        /** The size asked for: the bytes this drill reads, from the start of the file (a shared one may be longer). */
        public long bytes() {
            return bytes;
        }

        public synchronized TestFile get() {
            if (file == null) file = lender != null ? lender.atLeast(dir, bytes) : create(dir, drill, bytes, usableSpace(dir));
            return file;
        }

        /** Removes a drill's own file; a shared one stays for the drills after, and goes when its session closes. */
        @Override
        public synchronized void close() {
            if (file != null && lender == null) file.close();
        }
    }
}
