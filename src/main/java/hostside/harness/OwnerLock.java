package hostside.harness;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The lock file beside a test file ({@code hostside-DRILL-ID.lock}): its owner holds an exclusive
 * fcntl lock on it ({@link FileChannel#tryLock()}) for as long as the test file may exist. The
 * kernel drops that lock when the owner dies, SIGKILL included, so a later run that can take the
 * lock knows the test file beside it is a dead run's and may remove it (see {@link StaleTestFiles}).
 * <p>
 * The lock is on a companion file, not on the test file itself: fcntl locks belong to the process,
 * and closing any descriptor of a file drops all of the process's locks on it, and the
 * measurements open and close the test file many times. For the same reason a sweep in this JVM
 * never opens a lock file this JVM holds ({@link #heldHere}). fcntl rather than flock(2) because a
 * forked child does not inherit it: a child process that outlives hostside cannot keep a dead
 * run's files looking alive.
 * <p>
 * Shared storage: fcntl locks are seen by every client on NFSv4 (and NFSv3 with lockd), so a run
 * on one host does not remove the files of a live run on another host; a mount with
 * {@code nolock} or {@code local_lock=posix} keeps locks local to each client, and there another
 * host's live files would look stale.
 */
final class OwnerLock implements AutoCloseable {
    /** Lock files held by this JVM, by absolute path. */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private final Path path;
    private final Object identity;
    private final FileChannel channel;
    private final FileLock lock;

    private OwnerLock(Path path, Object identity, FileChannel channel, FileLock lock) {
        this.path = path;
        this.identity = identity;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Creates the lock file (O_CREAT|O_EXCL|O_NOFOLLOW: a planted link is refused, never followed),
     * locks it, then writes a line into it. The line marks a finished setup: a sweep that finds the
     * file empty knows its owner may be between the create and the lock, and leaves it.
     */
    static OwnerLock create(Path path, String drill) throws IOException {
        Path abs = path.toAbsolutePath().normalize();
        // registered before it exists: a sweep on another thread must never open it, even before we lock it
        if (!HELD.add(abs)) throw new IOException(abs + ": this JVM holds that lock file already");
        FileChannel ch;
        try {
            ch = FileChannel.open(abs, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | RuntimeException e) {
            HELD.remove(abs);
            throw e;
        }
        Object identity = null;
        try {
            identity = OwnFiles.identity(abs);
            FileLock lock = null;
            // a sweep may hold it for a moment (it sees the file empty and lets go)
            for (int i = 0; i < 200 && lock == null; i++) {
                lock = ch.tryLock();
                if (lock == null) sleep();
            }
            if (lock == null) throw new IOException(abs + ": locked by another process as soon as it was made");
            String line = "hostside " + drill + " test file lock, pid " + ProcessHandle.current().pid() + "\n";
            ch.write(ByteBuffer.wrap(line.getBytes(StandardCharsets.US_ASCII)));
            return new OwnerLock(abs, identity, ch, lock);
        } catch (IOException | RuntimeException e) {
            if (identity != null) OwnFiles.deleteIfSame(abs, identity);
            ch.close();
            HELD.remove(abs);
            throw e;
        }
    }

    private static void sleep() throws IOException {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while locking a test file");
        }
    }

    static boolean heldHere(Path lockFile) {
        return HELD.contains(lockFile.toAbsolutePath().normalize());
    }

    Path path() {
        return path;
    }

    /** Removes the lock file but keeps the lock (the exit hook: the kernel lets go when the process ends). */
    void deleteFile() {
        OwnFiles.deleteIfSame(path, identity);
    }

    /** Removes the lock file, then lets go of the lock: a sweep that opened it meanwhile finds it still held. */
    @Override
    public void close() {
        deleteFile();
        try {
            if (lock.isValid()) lock.release();
            channel.close();
        } catch (IOException e) {
            // closing drops the lock anyway, and so does the end of the process
        } finally {
            HELD.remove(path);
        }
    }
}
