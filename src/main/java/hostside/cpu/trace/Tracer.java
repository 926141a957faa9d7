package hostside.cpu.trace;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import hostside.core.BadInputException;
import hostside.core.Printable;
import hostside.fs.FsRoot;
import hostside.harness.Child;
import hostside.harness.Children;
import hostside.harness.ScratchFolder;

/**
 * Runs strace, the two ways Module 3 asks for, over the same workload:
 * <ul>
 * <li>{@link #summary}: {@code strace -f -c -w -o FILE}, strace's own table of calls and wall
 * time per syscall;</li>
 * <li>{@link #timed}: {@code strace -f -tt -T -o FILE}, every call with its time stamp and
 * duration, which hostside sums by group and by thread.</li>
 * </ul>
 * Each is bounded in time ({@link TraceLimits#duration()}) and the timed one in file size too.
 * Whatever happens (the limit, an error, an exception, the JVM exiting on Ctrl-C) strace, the
 * command and everything it started are killed, and strace's output file is deleted: by the
 * time a method returns or throws, nothing of the run is left. An attached process (--pid) is
 * let go of, never killed.
 */
public final class Tracer {
    static final String[] SUMMARY_OPTIONS = {"-f", "-c", "-w"};
    static final String[] TIMED_OPTIONS = {"-f", "-tt", "-T"};
    private static final long POLL_MS = 100;

    private final Strace strace;
    private final Path tempDir;

    public Tracer(Strace strace) {
        this(strace, Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** Writes strace's output files to {@code tempDir} (deleted again before each call returns). */
    public Tracer(Strace strace, Path tempDir) {
        this.strace = strace;
        this.tempDir = tempDir;
    }

    /** A run of {@code strace -f -c -w} with its table read back. */
    public record SummaryRun(TraceRun run, StraceSummary summary) {}

    /** A run of {@code strace -f -tt -T} with its lines summed. */
    public record TimedRun(TraceRun run, TimedTrace trace) {}

    public SummaryRun summary(Target target, TraceLimits limits) {
        return run(target, limits, SUMMARY_OPTIONS, (file, seed) -> {
            String text = Files.readString(file, StandardCharsets.ISO_8859_1);
            // empty only where no call finished in an attached window (checkFailures lets nothing else through)
            return text.isBlank() ? StraceSummary.none() : StraceSummary.parse(text);
        }, FdSeed.NONE, SummaryRun::new);
    }

    /**
     * The timed trace. For --pid, the process's open descriptors and thread names are read from
     * /proc first; a started command begins with the standard streams hostside gave it.
     */
    public TimedRun timed(Target target, TraceLimits limits) {
        FdSeed seed = target instanceof Target.Attach a ? FdSeed.fromProc(FsRoot.live(), a.pid()) : FdSeed.standardStreams(limits.showOutput());
        return timed(target, limits, seed);
    }

    public TimedRun timed(Target target, TraceLimits limits, FdSeed seed) {
        return run(target, limits, TIMED_OPTIONS, TraceParser::parse, seed, TimedRun::new);
    }

    @FunctionalInterface
    private interface Reader<T> {
        T read(Path file, FdSeed seed) throws IOException;
    }

    @FunctionalInterface
    private interface Result<T, R> {
        R of(TraceRun run, T parsed);
    }

    private <T, R> R run(Target target, TraceLimits limits, String[] options, Reader<T> reader, FdSeed seed, Result<T, R> result) {
        boolean attach = target instanceof Target.Attach;
        if (target instanceof Target.Attach(long pid)) {
            if (pid == ProcessHandle.current().pid()) throw new BadInputException("--pid " + pid + ": that is hostside itself");
            if (ProcessHandle.of(pid).isEmpty()) throw new BadInputException("--pid " + pid + ": no such process");
        }
        // a folder of our own, locked: a SIGKILLed run's trace (it can be large) is removed by the next run
        ScratchFolder scratch;
        try {
            Files.createDirectories(tempDir);
            scratch = ScratchFolder.create(tempDir, "strace", line -> System.err.println("hostside: " + Printable.of(line)));
        } catch (IOException | UncheckedIOException e) {
            throw new BadInputException(tempDir + ": cannot write strace's output file there (" + e.getMessage() + ")");
        }
        Path file = scratch.file("trace.txt");
        List<String> cmd = new ArrayList<>();
        cmd.add(strace.executable().toString());
        cmd.addAll(List.of(options));
        cmd.add("-o");
        cmd.add(file.toString());
        switch (target) {
            case Target.Attach a -> {
                cmd.add("-p");
                cmd.add(Long.toString(a.pid()));
            }
            case Target.Command c -> {
                cmd.add("--");
                cmd.addAll(c.argv());
            }
        }
        Guard guard = new Guard(scratch, !attach);
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(limits.showOutput() ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.DISCARD);
            Process p;
            try {
                p = guard.start(pb);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Processes.Tail err = Processes.Tail.of(p.getErrorStream(), 1 << 16);
            long t0 = System.nanoTime();
            long deadline = t0 + limits.duration().toNanos();
            TraceRun.Ending ending = TraceRun.Ending.EXITED;
            while (!p.waitFor(POLL_MS, TimeUnit.MILLISECONDS)) {
                guard.watch();
                if (System.nanoTime() > deadline) {
                    ending = TraceRun.Ending.TIME_LIMIT;
                    break;
                }
                if (size(file) > limits.maxFileBytes()) {
                    ending = TraceRun.Ending.SIZE_LIMIT;
                    break;
                }
            }
            if (ending != TraceRun.Ending.EXITED) guard.stop();
            double wall = (System.nanoTime() - t0) / 1e9;
            guard.killTree();
            err.join();
            // strace names itself as it was called ("/usr/bin/strace: Can't stat ..."): say "strace: " as everyone does
            String stderr = err.text().replace(strace.executable() + ": ", "strace: ");
            int exit = p.isAlive() ? -1 : p.exitValue();
            if (!quietWindow(target, ending, stderr, file)) checkFailures(target, stderr, file, exit);
            long bytes = size(file);
            T parsed = reader.read(file, seed);
            TraceRun run = new TraceRun(target, cmd, ending, exit, wall, stderr, guard.pids(), bytes, limits.maxFileBytes(),
                    limits.duration().toNanos() / 1e9);
            return result.of(run, parsed);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TraceInterruptedException("tracing was interrupted");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            guard.close();
        }
    }

    /**
     * An attached process that finished no system call in the window: strace attached (it says
     * so), the window ran out, and the file is empty (strace -c prints no table for no calls;
     * the timed trace has at most a "&lt;detached ...&gt;" line per thread, the call it was blocked
     * in). A normal result: the process was blocked, or computing, the whole time.
     */
    static boolean quietWindow(Target target, TraceRun.Ending ending, String stderr, Path file) {
        return target instanceof Target.Attach && ending == TraceRun.Ending.TIME_LIMIT && !Strace.ptraceDenied(stderr)
                && stderr.contains(" attached") && size(file) == 0;
    }

    /** strace's errors that leave nothing to read, as one line each. */
    private static void checkFailures(Target target, String stderr, Path file, int exit) {
        boolean attach = target instanceof Target.Attach;
        if (Strace.ptraceDenied(stderr)) throw new TraceUnavailableException(Strace.ptraceAdvice(stderr, attach, FsRoot.live()));
        if (size(file) > 0) return;
        String first = stderr.lines().filter(l -> l.startsWith("strace: ")).findFirst().orElse("").strip();
        if (target instanceof Target.Command c && first.contains("Can't stat")) {
            throw new BadInputException(c.argv().getFirst() + ": command not found (" + first + ")");
        }
        if (target instanceof Target.Attach a && first.contains("No such process")) {
            throw new BadInputException("--pid " + a.pid() + ": no such process (" + first + ")");
        }
        throw new UnreadableTraceException("strace wrote nothing (exit status " + exit + ")"
                + (first.isEmpty() ? "" : ": " + first));
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * Everything one run starts and writes, released exactly once: by the run itself, or by the
     * shutdown hook when the JVM exits mid-run.
     */
    static final class Guard implements AutoCloseable {
        /** How long strace has to detach from an attached process (SIGTERM) before it is forced. */
        static final Duration DETACH_GRACE = Duration.ofSeconds(5);
        private final ScratchFolder scratch;
        private final boolean ownsTree;
        private final AtomicBoolean closed = new AtomicBoolean();
        private final Thread hook;
        private volatile Child strace;

        Guard(ScratchFolder scratch, boolean ownsTree) {
            this.scratch = scratch;
            this.ownsTree = ownsTree;
            this.hook = new Thread(this::release, "hostside-strace-cleanup");
            Runtime.getRuntime().addShutdownHook(hook);
        }

        /**
         * strace in a process group of its own, with the command it starts: killed with hostside,
         * even by SIGKILL ({@link Children}). strace 6.1 has no --kill-on-exit, and it would be
         * wrong for --pid anyway (the attached process is the user's, never ours to kill: when
         * strace dies the kernel detaches from it), so the group does that for a started command.
         */
        Process start(ProcessBuilder pb) throws IOException {
            strace = Children.start(pb, ownsTree ? Duration.ZERO : DETACH_GRACE);
            return strace.process();
        }

        /** Remembers strace's descendants now, so that one orphaned later is still killed. */
        void watch() {
            Child c = strace;
            if (c != null && ownsTree) c.remember();
        }

        /**
         * Ends tracing early, so that strace still writes its summary. A started command is
         * ended: strace ignores fatal signals while it runs one ({@code -I 3}, its default with
         * {@code -o FILE PROG}), so the command and everything it started get SIGTERM, then
         * SIGKILL, and strace ends with them. An attached process is let go of: strace detaches
         * on SIGTERM. Either way strace itself is forced after a few seconds.
         */
        void stop() throws InterruptedException {
            Child c = strace;
            if (c == null) return;
            Process p = c.process();
            if (ownsTree) {
                c.terminateBelow();
                if (!p.waitFor(2, TimeUnit.SECONDS)) c.killBelow();
            } else {
                p.destroy();
            }
            if (!p.waitFor(DETACH_GRACE.toSeconds(), TimeUnit.SECONDS)) {
                watch();
                p.destroyForcibly();
                p.waitFor(2, TimeUnit.SECONDS);
            }
        }

        /**
         * Kills strace's group: strace and, for a started command, everything it started (orphans
         * included). For --pid the group is strace alone, SIGTERM first so that it detaches.
         */
        void killTree() {
            Child c = strace;
            if (c != null) c.close();
        }

        List<Long> pids() {
            Child c = strace;
            return c == null ? List.of() : c.pids();
        }

        private void release() {
            if (closed.getAndSet(true)) return;
            try {
                killTree();
            } finally {
                scratch.close();
            }
        }

        @Override
        public void close() {
            release();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down: the hook runs anyway and finds the work done
            }
        }
    }
}
