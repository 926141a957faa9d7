package hostside.vm.explain;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The terminal in raw mode while a stepper waits for keys: no line buffering and no echo, so q acts without Enter.
 * Through stty on /dev/tty rather than termios through java.lang.foreign: struct termios differs between x86-64 and
 * arm64 (c_cc's size, the speed fields), stty knows it on every Linux, and it also gives the exact settings back
 * (stty -g). The settings are restored on close and, through a shutdown hook, when Ctrl-C (ISIG stays on) or
 * anything else ends the JVM while raw.
 */
final class RawTerminal implements AutoCloseable {
    private static final File TTY = new File("/dev/tty");

    private final String saved;
    private final Thread hook;
    private boolean restored;

    private RawTerminal(String saved) {
        this.saved = saved;
        this.hook = new Thread(this::restore, "hostside-terminal-restore");
    }

    /** Raw mode, or empty when there is no terminal or no stty: the caller then reads lines. */
    static Optional<RawTerminal> enter() {
        Optional<String> saved = stty(List.of("-g"));
        if (saved.isEmpty() || saved.get().isBlank()) return Optional.empty();
        RawTerminal t = new RawTerminal(saved.get().strip());
        Runtime.getRuntime().addShutdownHook(t.hook);
        if (stty(List.of("-icanon", "-echo", "min", "1", "time", "0")).isEmpty()) {
            t.close();
            return Optional.empty();
        }
        return Optional.of(t);
    }

    @Override
    public void close() {
        restore();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run: it restores (restore is idempotent)
        }
    }

    private synchronized void restore() {
        if (restored) return;
        restored = true;
        stty(List.of(saved));
    }

    /** stty with the terminal as its stdin; its stdout, or empty when it could not run or failed. */
    private static Optional<String> stty(List<String> args) {
        List<String> cmd = new java.util.ArrayList<>(List.of("stty"));
        cmd.addAll(args);
        try {
            Process p = new ProcessBuilder(cmd).redirectInput(TTY).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor() == 0 ? Optional.of(out) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
