package hostside.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

import hostside.libc.PathAt;

/** Makes the files a recording should never hold: FIFOs, sockets, device nodes, sparse giants. */
public final class SpecialFiles {
    /** Set to 1 to let the device-node cases skip where mknod is refused (not root); CI runs as root and must run them. */
    static final String ALLOW = "HOSTSIDE_ALLOW_NO_MKNOD_TEST";

    private SpecialFiles() {}

    public static Path fifo(Path p) throws Exception {
        Files.createDirectories(p.getParent());
        Process mk = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
        String out = new String(mk.getInputStream().readAllBytes());
        if (mk.waitFor() != 0) fail("mkfifo " + p + ": " + out);
        return p;
    }

    /**
     * A thread of this JVM blocked opening {@code fifo} for writing, as a FIFO's writer waits for
     * its reader: whoever opens the FIFO for reading, even non-blocking and for an instant, lets
     * that open return. A FIFO that was never opened leaves it where it was, which is what a test
     * of "never opened" can see. Returned once the thread sleeps in that open (the kernel says so),
     * so a read that comes after cannot have come before the writer.
     */
    public static BlockedWriter blockedWriter(Path fifo) throws Exception {
        CompletableFuture<String> tid = new CompletableFuture<>();
        CountDownLatch opened = new CountDownLatch(1);
        Thread t = Thread.ofPlatform().name("fifo-writer").daemon().start(() -> {
            try {
                tid.complete(Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString());
                try (FileOutputStream out = new FileOutputStream(fifo.toFile())) {
                    opened.countDown();
                }
            } catch (IOException e) {
                tid.completeExceptionally(e); // a no-op once the id is known: then `opened` stays shut and the test says so
            }
        });
        BlockedWriter w = new BlockedWriter(fifo, t, tid.get(SETTLE_SECONDS, TimeUnit.SECONDS), opened);
        for (long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(SETTLE_SECONDS); !w.inTheOpen(); Thread.sleep(10)) {
            if (!t.isAlive() || System.nanoTime() > until) {
                w.close();
                fail("the writer of " + fifo + " never blocked in its open");
            }
        }
        return w;
    }

    /** How long a writer is given to reach its open, or to leave it once released: generous, a hang check, not a timing. */
    private static final long SETTLE_SECONDS = 30;

    /** See {@link #blockedWriter}; closing releases the writer if it still waits. */
    public record BlockedWriter(Path fifo, Thread thread, String tid, CountDownLatch opened) implements AutoCloseable {
        /** How long a writer let go by a reader is given to come out of its open: a few microseconds' work, given seconds. */
        private static final long GRACE_SECONDS = 2;

        /**
         * Sleeping in a FIFO's open: fs/pipe.c's wait_for_partner, where an opener waits for the
         * other end (/proc/.../wchan names it; where wchan says only "0", the openat syscall it
         * sleeps in).
         */
        boolean inTheOpen() {
            Path task = Path.of("/proc/self/task", tid);
            String wchan = firstLine(task.resolve("wchan"));
            if (wchan.equals("wait_for_partner") || wchan.equals("fifo_open")) return true;
            if (!wchan.equals("0") && !wchan.isEmpty()) return false;
            String openat = "aarch64".equals(System.getProperty("os.arch")) ? "56 " : "257 ";
            String stat = firstLine(task.resolve("stat"));
            return firstLine(task.resolve("syscall")).startsWith(openat) && stat.substring(stat.lastIndexOf(')') + 1).startsWith(" S ");
        }

        /** Still waiting for a reader: its open did not return, not within the grace either. */
        public void assertStillBlocked() throws InterruptedException {
            assertThat(opened.await(GRACE_SECONDS, TimeUnit.SECONDS)).as("the writer's open returned: the FIFO was opened for reading").isFalse();
            assertThat(inTheOpen()).as("the writer still sleeps in its open").isTrue();
        }

        /**
         * Opens the FIFO for reading as a reader would (non-blocking: with no writer left the open
         * would otherwise wait for ever) and shows the writer was waiting on it: its open returns.
         */
        public void assertReleasedByAReader() throws InterruptedException {
            release();
            assertThat(opened.await(SETTLE_SECONDS, TimeUnit.SECONDS)).as("a reader let the writer go on").isTrue();
            thread.join(TimeUnit.SECONDS.toMillis(SETTLE_SECONDS));
            assertThat(thread.isAlive()).as("the writer finished").isFalse();
        }

        private void release() throws InterruptedException {
            int fd = PathAt.openat(PathAt.AT_FDCWD, fifo.toString(), PathAt.O_RDONLY | PathAt.O_NONBLOCK | PathAt.O_CLOEXEC);
            try {
                // the writer's open returns once it runs; the read end stays open until then, so its open cannot fail
                opened.await(SETTLE_SECONDS, TimeUnit.SECONDS);
            } finally {
                PathAt.closeQuietly(fd);
            }
        }

        @Override
        public void close() throws InterruptedException {
            if (thread.isAlive()) release();
            thread.join(TimeUnit.SECONDS.toMillis(SETTLE_SECONDS));
        }

        private static String firstLine(Path p) {
            try {
                return Files.readString(p).lines().findFirst().orElse("").strip();
            } catch (IOException e) {
                return "";
            }
        }
    }

    /** A bound unix socket; the channel stays open for the test (closed with it). */
    public static ServerSocketChannel socket(Path p) throws IOException {
        Files.createDirectories(p.getParent());
        ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        s.bind(UnixDomainSocketAddress.of(p));
        return s;
    }

    /** A character device node (mknod needs root, which CI has). */
    public static Path charDevice(Path p, int major, int minor) throws Exception {
        Files.createDirectories(p.getParent());
        Process mk = new ProcessBuilder("mknod", p.toString(), "c", Integer.toString(major), Integer.toString(minor))
                .redirectErrorStream(true).start();
        String out = new String(mk.getInputStream().readAllBytes()).strip();
        if (mk.waitFor() != 0) {
            String why = "mknod " + p + " refused (" + out + "): this test needs root, as CI has; set " + ALLOW + "=1 to skip it elsewhere";
            if ("1".equals(System.getenv(ALLOW))) Assumptions.abort(why);
            fail(why);
        }
        return p;
    }

    /** A file of {@code size} bytes that uses no disk: its size set, nothing written. */
    public static Path sparse(Path p, long size) throws IOException {
        Files.createDirectories(p.getParent());
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
            f.setLength(size);
        }
        return p;
    }
}
