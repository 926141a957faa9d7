package hostside.harness;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A small shell process that outlives hostside by a moment: hostside writes "+PGID" for each
 * process group it starts and "-PGID" once that group is gone; when its stdin reaches end of
 * file (hostside exited, however: a SIGKILL included, since the kernel closes the pipe) it sends
 * SIGKILL to every group still listed. It covers the grandchildren that the parent-death signal
 * does not reach (a command strace started, workers forked by a script that did not set one).
 *
 * <p>It runs in a session of its own (setsid where there is one), so that a terminal's SIGINT or
 * SIGHUP does not end it before hostside has finished; it ignores them too. Only this JVM holds
 * the pipe's write end: the JVM closes every other descriptor in the children it starts. A group
 * is listed only while its leader lives or has just been killed by hostside's death, so a pid
 * that named a group of ours is not yet reused when the watchdog signals it.
 */
final class Watchdog {
    /** POSIX sh, builtins only; a group is removed from the list without forking. */
    static final String SCRIPT = "trap '' INT HUP TERM; gs=' '; "
            + "while IFS= read -r l; do case $l in "
            + "+*) gs=\"$gs${l#+} \";; "
            + "-*) g=${l#-}; case $gs in *\" $g \"*) gs=\"${gs%%\" $g \"*} ${gs#*\" $g \"}\";; esac;; "
            + "esac; done; "
            + "for g in $gs; do kill -KILL -$g 2>/dev/null; done";

    private final Process process;
    private final OutputStream in;

    private Watchdog(Process process) {
        this.process = process;
        this.in = process.getOutputStream();
    }

    /** Started from the launcher thread, not wrapped (it must survive hostside), or null when no shell can be started. */
    static Watchdog start() {
        Children.Wrap w = Children.wrap();
        java.util.List<String> cmd = new java.util.ArrayList<>();
        if (w != Children.Wrap.NONE) cmd.add(Children.tool("setsid"));
        cmd.addAll(java.util.List.of("/bin/sh", "-c", SCRIPT, "hostside-watchdog"));
        try {
            return new Watchdog(Children.onLauncher(() -> new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start()));
        } catch (IOException | RuntimeException e) {
            return null; // no /bin/sh: the parent-death signal and the shutdown hook remain
        }
    }

    boolean alive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    void tell(String line) {
        try {
            in.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
            in.flush();
        } catch (IOException e) {
            // the watchdog is gone: the next child starts a new one
        }
    }

    /** Closes its stdin: it signals the groups still listed (none, when every child was closed) and exits; waited for so it is reaped. */
    void stop() {
        try {
            in.close();
        } catch (IOException e) {
            // already closed
        }
        try {
            if (!process.waitFor(2, TimeUnit.SECONDS)) process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
