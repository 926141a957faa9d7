package hostside.cpu.dataloader;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import hostside.harness.Child;
import hostside.harness.Children;

/**
 * A bundled script running under python3 as a child of hostside, for as long as the cases that
 * share it need: its commands go to its stdin, its events come from its stdout (read as they
 * come, {@link EventStream}), its stderr goes to a file in the script's own scratch folder.
 * Closing it ends the script and everything it started, and removes the folder.
 */
final class ScriptProcess implements AutoCloseable {
    /** How long a script whose stdin was closed is given to end by itself before it is killed. */
    static final Duration QUIT_WAIT = Duration.ofSeconds(1);

    private final Python.Script script;
    private final Child tree;
    private final EventStream events;
    private final Writer commands;
    private final Path stderr;

    private ScriptProcess(Python.Script script, Child tree, Path stderr) {
        this.script = script;
        this.tree = tree;
        this.stderr = stderr;
        this.events = new EventStream(tree.process().getInputStream());
        this.commands = new OutputStreamWriter(tree.process().getOutputStream(), StandardCharsets.UTF_8);
    }

    /**
     * Starts {@code python name args}, with {@code modules}, the bundled scripts it imports, beside it.
     *
     * @throws RunFailed when the scripts cannot be copied out or python3 cannot be started
     */
    static ScriptProcess start(String python, String name, List<String> modules, List<String> args) {
        Python.Script s;
        try {
            s = Python.Script.extract(name, modules);
        } catch (UncheckedIOException | IllegalStateException e) {
            throw new RunFailed(e.getMessage());
        }
        try {
            Path err = s.scratch("stderr.txt");
            ProcessBuilder pb = new ProcessBuilder(Python.command(python, s.file(), args.toArray(String[]::new))).redirectError(err.toFile());
            pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
            return new ScriptProcess(s, Children.start(pb), err);
        } catch (IOException | RuntimeException e) {
            s.close();
            throw new RunFailed("cannot start " + python + ": " + e.getMessage());
        }
    }

    Child tree() {
        return tree;
    }

    Process process() {
        return tree.process();
    }

    /** Its events, as they come. */
    EventStream events() {
        return events;
    }

    /** One command line; a script that no longer reads (it ended) is a failure, with its stderr's last lines. */
    void send(String command) {
        try {
            commands.write(command + "\n");
            commands.flush();
        } catch (IOException e) {
            throw new RunFailed("the script stopped reading commands (" + e.getMessage() + ")" + stderrTail());
        }
    }

    /** Its exit status once it has ended, within {@code timeout}; null while it still runs. */
    Integer exit(Duration timeout) throws InterruptedException {
        return tree.process().waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS) ? tree.process().exitValue() : null;
    }

    /** Its whole stderr so far. */
    String stderr() {
        try {
            return Files.exists(stderr) ? Files.readString(stderr, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "";
        }
    }

    /** ": " and the last three non-blank lines of its stderr, for a message; "" when there are none. */
    String stderrTail() {
        List<String> lines = new ArrayList<>(stderr().lines().filter(l -> !l.isBlank()).toList());
        if (lines.isEmpty()) return "";
        return ": " + String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
    }

    /**
     * Closes its stdin, which every bundled script takes as the end (a serving script ends its
     * loop, a waiting one stops waiting), gives it {@link #QUIT_WAIT} to end by itself (none on an
     * interrupted thread), then kills what is left of its tree and removes its folder.
     */
    @Override
    public void close() {
        try {
            try {
                commands.close();
            } catch (IOException e) {
                // it has ended already
            }
            // an interrupted caller wants it gone now: no wait
            if (!Thread.currentThread().isInterrupted()) {
                try {
                    tree.process().waitFor(QUIT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        } finally {
            try {
                tree.close();
            } finally {
                script.close();
            }
        }
    }
}
