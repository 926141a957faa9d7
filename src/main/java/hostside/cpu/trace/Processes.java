package hostside.cpu.trace;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import hostside.harness.Child;
import hostside.harness.Children;

/** Starting short helper commands ({@link Children}) and reading what they print. */
final class Processes {
    private Processes() {}

    record Output(int exitCode, String stdout, String stderr, boolean timedOut) {}

    /**
     * Runs a command to its end or the timeout, whichever comes first; on the timeout the
     * command and everything it started are killed. {@code env} adds to (or, with a null value,
     * removes from) the inherited environment.
     */
    static Output run(List<String> command, Map<String, String> env, Duration timeout) {
        ProcessBuilder pb = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        if (env != null) {
            env.forEach((k, v) -> {
                if (v == null) pb.environment().remove(k);
                else pb.environment().put(k, v);
            });
        }
        Child child;
        try {
            child = Children.start(pb);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Process p = child.process();
        Tail out = Tail.of(p.getInputStream(), 1 << 16), err = Tail.of(p.getErrorStream(), 1 << 16);
        boolean timedOut = false;
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!p.waitFor(50, TimeUnit.MILLISECONDS)) {
                child.remember();
                if (System.nanoTime() > deadline) {
                    timedOut = true;
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            timedOut = true;
        } finally {
            child.close(); // the command's process group and everything noted below it
        }
        out.join();
        err.join();
        return new Output(timedOut ? -1 : p.exitValue(), out.text(), err.text(), timedOut);
    }

    /** Reads a stream to its end on its own thread, keeping the last {@code max} bytes. */
    static final class Tail {
        private final Thread thread;
        private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
        private final int max;
        private boolean cut;

        private Tail(InputStream in, int max) {
            this.max = max;
            this.thread = Thread.ofPlatform().daemon().name("hostside-strace-output").unstarted(() -> drain(in));
        }

        static Tail of(InputStream in, int max) {
            Tail t = new Tail(in, max);
            t.thread.start();
            return t;
        }

        private void drain(InputStream in) {
            byte[] b = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(b)) > 0) {
                    synchronized (this) {
                        buf.write(b, 0, n);
                        if (buf.size() > 2 * max) compact();
                    }
                }
            } catch (IOException e) {
                // the process went away: what was read is all there is
            }
        }

        private void compact() {
            byte[] all = buf.toByteArray();
            int from = Math.max(0, all.length - max);
            if (from > 0) cut = true;
            buf.reset();
            buf.write(all, from, all.length - from);
        }

        void join() {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        synchronized String text() {
            compact();
            String s = buf.toString(StandardCharsets.UTF_8);
            return cut ? "..." + s : s;
        }
    }
}
