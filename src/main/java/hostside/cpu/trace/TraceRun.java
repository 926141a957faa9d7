package hostside.cpu.trace;

import java.util.ArrayList;
import java.util.List;

import hostside.report.Units;

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
            case SIZE_LIMIT -> n.add(String.format("the trace file reached %s after %.1f s and tracing stopped there: the figures cover that part",
                    Units.bytes(maxFileBytes), wallSeconds));
            case TIME_LIMIT -> {
                if (target instanceof Target.Command) {
                    n.add(String.format("the command ran past the %.0f s limit and was stopped: the figures cover its first %.0f s", limitSeconds, limitSeconds));
                }
            }
            case EXITED -> {
                if (target instanceof Target.Attach) {
                    n.add(String.format("the process ended %.1f s into the %.0f s window: the figures cover that part", wallSeconds, limitSeconds));
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

    private static String abbreviate(String s) {
        return s.length() > 160 ? s.substring(0, 157) + "..." : s;
    }
}
