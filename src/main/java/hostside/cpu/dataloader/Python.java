package hostside.cpu.dataloader;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import hostside.harness.Child;
import hostside.harness.Children;
import hostside.harness.ScratchFolder;

/** The python3 the measurements run: found on PATH, its scripts copied out of the jar, short runs bounded in time. */
public final class Python {
    private Python() {}

    private static final java.util.Map<String, Optional<String>> FOUND = new java.util.concurrent.ConcurrentHashMap<>();

    /** The first executable python3 on PATH. */
    public static Optional<String> onPath() {
        return onPath(System.getenv("PATH"));
    }

    /**
     * python3 from PATH, resolved to the interpreter itself ({@code sys.executable}): a pyenv or
     * asdf shim is a shell script that costs half a second or more on every start, and the
     * measurements start python many times. The shim's own path when it cannot be resolved.
     */
    public static Optional<String> find() {
        String path = System.getenv("PATH");
        return FOUND.computeIfAbsent(path == null ? "" : path, p -> onPath(p).map(Python::resolve));
    }

    static String resolve(String python) {
        try {
            Outcome o = run(List.of(python, "-c", "import sys; print(sys.executable)"), Duration.ofSeconds(30));
            String exe = o.stdout().strip();
            if (o.ok() && !exe.isEmpty() && !exe.contains("\n") && Files.isExecutable(Path.of(exe))) return exe;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return python;
    }

    static Optional<String> onPath(String path) {
        if (path == null || path.isBlank()) return Optional.empty();
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path p = Path.of(dir, "python3");
            if (Files.isRegularFile(p) && Files.isExecutable(p)) return Optional.of(p.toString());
        }
        return Optional.empty();
    }

    /**
     * A bundled script copied into a fresh {@link ScratchFolder} (its own, mode 0700, locked),
     * removed again by {@link Script#close()}, or at JVM exit (Ctrl-C, SIGTERM) when the run never
     * got there; after a SIGKILL, by the next run that makes a scratch folder in /tmp.
     */
    public record Script(ScratchFolder folder, Path file) implements AutoCloseable {
        /** A file of the run's own in the folder (the script's stderr), removed with it. */
        public Path scratch(String name) {
            return folder.file(name);
        }

        /** What every script imports: how a child dies with hostside (Python puts the script's folder first on its path). */
        static final String CHILD_MODULE = "hostside_child.py";

        /** {@code name} and the module it imports, copied into a fresh scratch folder. */
        public static Script extract(String name) {
            return extract(name, List.of());
        }

        /** {@code name}, the module every script imports and {@code modules} (bundled scripts it imports too), copied into a fresh scratch folder. */
        public static Script extract(String name, List<String> modules) {
            ScratchFolder folder = ScratchFolder.create("python");
            try {
                copy(CHILD_MODULE, folder);
                for (String m : modules) copy(m, folder);
                return new Script(folder, copy(name, folder));
            } catch (IOException | RuntimeException e) {
                folder.close();
                if (e instanceof IOException io) throw new UncheckedIOException("cannot copy " + name + " to a temporary folder: " + io.getMessage(), io);
                throw (RuntimeException) e;
            }
        }

        private static Path copy(String name, ScratchFolder folder) throws IOException {
            try (InputStream in = Python.class.getResourceAsStream(name)) {
                if (in == null) throw new IllegalStateException("script " + name + " is missing from the build");
                Path f = folder.file(name);
                Files.write(f, in.readAllBytes(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
                return f;
            }
        }

        @Override
        public void close() {
            folder.close();
        }
    }

    /** What a short run gave. {@code exit} is -1 when it timed out (and was killed). */
    public record Outcome(int exit, String stdout, String stderr, boolean timedOut) {
        public boolean ok() {
            return exit == 0 && !timedOut;
        }

        /** The last non-blank line of stderr: where Python puts the exception. */
        public String lastErrorLine() {
            List<String> lines = stderr.lines().filter(l -> !l.isBlank()).toList();
            return lines.isEmpty() ? "" : lines.getLast().strip();
        }
    }

    /**
     * Runs a command to its end, or kills it and everything it started after {@code timeout}.
     * An interrupt kills it too, and is passed on. Its output goes to temporary files (no reader
     * threads to race with the process's exit), removed afterwards.
     */
    public static Outcome run(List<String> command, Duration timeout) throws InterruptedException {
        ScratchFolder folder = null;
        try {
            folder = ScratchFolder.create("python");
            Path out = folder.file("stdout.txt"), err = folder.file("stderr.txt");
            ProcessBuilder pb = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
            try (Child tree = Children.start(pb)) {
                long end = System.nanoTime() + timeout.toNanos();
                boolean done = false;
                while (!done && System.nanoTime() < end) {
                    tree.remember(); // its children, so that they can be found once orphaned
                    done = tree.process().waitFor(Math.min(100_000_000L, end - System.nanoTime()), TimeUnit.NANOSECONDS);
                }
                tree.kill(); // on a timeout, or anything it left running behind it
                return new Outcome(done ? tree.process().exitValue() : -1, new String(Files.readAllBytes(out), StandardCharsets.UTF_8),
                        new String(Files.readAllBytes(err), StandardCharsets.UTF_8), !done);
            }
        } catch (IOException | UncheckedIOException e) {
            return new Outcome(127, "", command.getFirst() + ": " + e.getMessage(), false);
        } finally {
            if (folder != null) folder.close();
        }
    }

    static List<String> command(String python, Path script, String... args) {
        List<String> c = new ArrayList<>(List.of(python, script.toString()));
        c.addAll(List.of(args));
        return c;
    }
}
