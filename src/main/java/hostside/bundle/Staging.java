package hostside.bundle;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import hostside.harness.Child;
import hostside.harness.Children;

/**
 * The folder a bundle is put together in (the linked runtime, the jar, the start-up cache) and
 * the programs that fill it (jlink, the training run). Made beside the output, so that one check
 * of free space covers both, with a random hidden name and mode 0700 ({@code mkdir}: it never
 * existed before, and nobody else can plant a link inside). Removed with all it holds on every
 * way out: a normal end, an exception, Ctrl-C or SIGTERM (a shutdown hook). A program still
 * running is killed first, so that it cannot write into the folder while it is being removed.
 * Only this folder is removed, identified by device and inode, and nothing a link inside points
 * to. A SIGKILL of hostside leaves it: {@code .NAME.NUMBER} beside the output.
 */
final class Staging implements AutoCloseable {
    private final Path path;
    private final Object identity;
    private final Thread hook;
    // guarded by this: a program is started and recorded under the lock, so close() either sees it or stops it being started
    private Child running;
    private boolean closed;

    private Staging(Path path, Object identity) {
        this.path = path;
        this.identity = identity;
        this.hook = new Thread(this::close, "hostside-bundle-cleanup");
    }

    /** A fresh folder in {@code dir}, named after the output {@code name}. */
    static Staging create(Path dir, String name) throws IOException {
        // createTempDirectory makes it with mode 0700 on a POSIX file system, under a name no one had
        Path p = Files.createTempDirectory(dir, "." + name + ".");
        Staging s = new Staging(p, Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey());
        try {
            Runtime.getRuntime().addShutdownHook(s.hook);
        } catch (IllegalStateException e) {
            s.remove();
            throw new IOException("hostside is exiting");
        }
        return s;
    }

    Path path() {
        return path;
    }

    Path resolve(String name) {
        return path.resolve(name);
    }

    /**
     * Runs {@code command} to its end, its output (both streams) into {@code log}, its working
     * folder this one and {@code unset} removed from its environment. Killed, with whatever it
     * started, past {@code limit} (an exit code of -1 then), on Ctrl-C, or when hostside dies
     * ({@link Children}).
     */
    int run(List<String> command, Path log, Duration limit, List<String> unset) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(path.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        unset.forEach(env::remove);
        Child c;
        synchronized (this) {
            if (closed) throw new IOException("hostside is exiting");
            c = Children.start(pb);
            running = c;
        }
        try (c) {
            boolean ended = c.process().waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
            return ended ? c.process().exitValue() : -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        } finally {
            synchronized (this) {
                if (running == c) running = null;
            }
        }
    }

    /** Stops a program still running, then removes the folder and all it holds. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        if (running != null) running.kill(); // its own lock: kill() waits until the processes are gone
        remove();
        if (!Thread.currentThread().equals(hook)) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down: the hook finds the folder closed
            }
        }
    }

    /** Removes the folder, while it is still the one made here; links inside are removed, never followed. */
    private void remove() {
        try {
            BasicFileAttributes top = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!top.isDirectory() || identity == null || !identity.equals(top.fileKey())) return;
            // walkFileTree does not follow links: a link is visited as a file and deleted as one
            Files.walkFileTree(path, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            // gone already, or a file we cannot remove (someone else's, made in our folder as root): left as it is
        }
    }
}
