package hostside.harness;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The read measurements' test files of one session, lent to each drill that reads one. A drill run
 * alone writes its own ({@link #OWN}); a report's drills share one file per folder ({@link #shared}):
 * Module 2's file cases read a 1 GiB file and Module 4's reads a 2 GiB one, and writing both cost
 * the report 3 GiB of writes and a second wait where 2 GiB do. The first drill to ask makes the file
 * at its size; a later one that reads more lengthens it ({@link TestFile#grow}), one that reads less
 * reads the start of it. Each drill asks from its own target's make(), before its first case, so no
 * byte is written while anything is timed. The session removes its files when closed, on every exit
 * path (the report's try/finally), and each file's exit hook removes it on Ctrl-C, as for a drill's
 * own file; only files this session made, by their identity ({@link OwnFiles}).
 */
public final class TestFiles implements AutoCloseable {
    /**
     * What a cold sequential sample reads of a test file at most, Module 2's and Module 4's alike:
     * 256 MiB, a few hundred milliseconds from a disk, far past readahead's window (a few MiB), so
     * its ramp is a small share, and the same bytes for both drills' cold reads.
     */
    public static final long COLD_SAMPLE_BYTES = 256L << 20;

    /** No sharing: each drill writes its own file and removes it when it is done. */
    public static final TestFiles OWN = new TestFiles(null);

    /** The name the shared files carry in place of a drill's ({@link TestFileName}): they are the session's. */
    static final String SHARED = "shared";

    private final String name;
    // guarded by this; by absolute folder
    private final Map<Path, TestFile> files = new LinkedHashMap<>();
    private boolean closed;

    private TestFiles(String name) {
        this.name = name;
    }

    /** One file per folder for every drill of the session that reads one; close it when the session ends. */
    public static TestFiles shared() {
        return new TestFiles(SHARED);
    }

    /**
     * {@code drill}'s test file of {@code bytes} in {@code dir}, made on first use: its own, or this
     * session's shared one. Its {@link TestFile.Lazy#bytes()} is what the drill reads, from the start.
     */
    public TestFile.Lazy lend(Path dir, String drill, long bytes) {
        return name == null ? new TestFile.Lazy(dir, drill, bytes) : new TestFile.Lazy(dir, drill, bytes, this);
    }

    /**
     * Bytes of this session's file in {@code dir} on disk now: room a drill sizing its file may count as
     * free, since its file grows this one rather than taking room beside it.
     */
    public synchronized long heldIn(Path dir) {
        TestFile f = files.get(key(dir));
        return f == null ? 0 : f.bytes();
    }

    /** The session's file in {@code dir}, at least {@code bytes} long: made now, lengthened now, or as it is. */
    synchronized TestFile atLeast(Path dir, long bytes) {
        if (closed) throw new IllegalStateException(dir + ": the session's test files were removed; none is made again");
        TestFile f = files.get(key(dir));
        if (f == null) {
            f = TestFile.create(dir, name, bytes, TestFile.usableSpace(dir));
            files.put(key(dir), f);
        } else {
            f.grow(bytes, TestFile.usableSpace(dir));
        }
        return f;
    }

    private static Path key(Path dir) {
        return dir.toAbsolutePath().normalize();
    }

    /** Removes every file this session made (a file's exit hook does the same on Ctrl-C). */
    @Override
    public synchronized void close() {
        if (name == null) return; // OWN lends no file of its own to remove, and stays usable
        closed = true;
        for (TestFile f : files.values()) f.close();
        files.clear();
    }
}
