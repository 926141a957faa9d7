package hostside.cpu.trace;

import java.util.Locale;
import java.util.ArrayList;
import java.util.List;

import hostside.core.Units;

/**
 * How one traced run went, whatever it traced.
 *
 * @param target        what was traced
 * @param straceCommand the strace command line (with the temporary output file, since deleted)
 * @param ending        why tracing stopped
 * @param exitCode      strace's exit status: the command's own when it ran to its end
 * @param wallSeconds   from strace's start to its end, as hostside timed it
 * @param stderrTail    the end of what strace and the command wrote to standard error
 * @param processesSeen PIDs of strace and everything it started, all gone when the run returns
 * @param fileBytes     size of strace's output file when it was read
 * @param maxFileBytes  the cap that file had
 * @param limitSeconds  the time limit (or window) it had
 */
public record TraceRun(Target target, List<String> straceCommand, Ending ending, int exitCode, double wallSeconds, String stderrTail,
                       List<Long> processesSeen, long fileBytes, long maxFileBytes, double limitSeconds) {
    public TraceRun {
        straceCommand = List.copyOf(straceCommand);
        processesSeen = List.copyOf(processesSeen);
    }

    public enum Ending {
        /** The command exited (or the attached process did). */
        EXITED,
        /** The time limit (for --pid, the window asked for) ran out: strace was stopped. */
        TIME_LIMIT,
        /** The trace file passed its cap: strace was stopped. */
        SIZE_LIMIT
    }

    /** True when the figures cover only part of what was asked for. */
    public boolean partial() {
        return ending == Ending.SIZE_LIMIT || (ending == Ending.TIME_LIMIT && target instanceof Target.Command);
    }

    /** Lines to print under the figures: where they stop short, and a failed command. */
    public List<String> notes() {
        List<String> n = new ArrayList<>();
        switch (ending) {
            case SIZE_LIMIT -> n.add(String.format(Locale.ROOT, "the trace file reached %s after %.1f s and tracing stopped there: the figures cover that part",
                    Units.bytes(maxFileBytes), wallSeconds));
            case TIME_LIMIT -> {
                if (target instanceof Target.Command) {
                    n.add(String.format(Locale.ROOT, "the command ran past the %.0f s limit and was stopped: the figures cover its first %.0f s", limitSeconds, limitSeconds));
                }
            }
            case EXITED -> {
                if (target instanceof Target.Attach) {
                    n.add(String.format(Locale.ROOT, "the process ended %.1f s into the %.0f s window: the figures cover that part", wallSeconds, limitSeconds));
                } else if (exitCode != 0) {
                    // the last line that says something: not strace's, not a stack frame
                    String last = stderrTail.lines().filter(l -> !l.isBlank() && !l.startsWith("strace: ") && !l.startsWith("+++ ")
                            && !l.matches("\\s+at .*|\\s*\\.\\.\\. \\d+ more|\\s+File \".*|\\s{4}.*")).reduce((a, b) -> b).orElse("");
                    n.add("the command exited with status " + exitCode + (last.isEmpty() ? "" : " (" + abbreviate(last.strip()) + ")"));
                }
            }
        }
        return n;
    }

    /**
     * How a started command ended, as the report gives it: its exit status when it ran to its end
     * (information about the command, not a failure of hostside's: hostside still exits 0), or
     * null when hostside stopped it at a limit.
     *
     * @param status the command's exit status (128 + N where signal N killed it, as a shell says it), or null
     * @param text   one line for the report
     */
    public record CommandExit(Integer status, String text) {}

    /** How the started command ended; empty for an attached process (not ours: it runs on). */
    public java.util.Optional<CommandExit> commandExit() {
        if (!(target instanceof Target.Command)) return java.util.Optional.empty();
        return java.util.Optional.of(switch (ending) {
            case TIME_LIMIT -> new CommandExit(null, String.format(java.util.Locale.ROOT, "the command was stopped at the %.0f s limit: no exit status of its own", limitSeconds));
            case SIZE_LIMIT -> new CommandExit(null, "the command was stopped when the trace file reached its cap: no exit status of its own");
            case EXITED -> new CommandExit(exitCode, "the command exited with status " + exitCode + signal(exitCode));
        });
    }

    /** " (killed by signal 9, SIGKILL)" for a status above 128: strace ends itself with the signal that killed the command. */
    static String signal(int status) {
        if (status <= 128 || status > 128 + 64) return "";
        int n = status - 128;
        String name = switch (n) {
            case 1 -> "SIGHUP";
            case 2 -> "SIGINT";
            case 3 -> "SIGQUIT";
            case 4 -> "SIGILL";
            case 6 -> "SIGABRT";
            case 7 -> "SIGBUS";
            case 8 -> "SIGFPE";
            case 9 -> "SIGKILL";
            case 11 -> "SIGSEGV";
            case 13 -> "SIGPIPE";
            case 15 -> "SIGTERM";
            default -> "";
        };
        return " (killed by signal " + n + (name.isEmpty() ? "" : ", " + name) + ", or an exit with that status)";
    }

    private static String abbreviate(String s) {
        return s.length() > 160 ? s.substring(0, 157) + "..." : s;
    }
}
