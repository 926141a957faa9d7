package hostside.cpu.trace;

import java.util.Locale;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code strace -c} summary and the timed trace are two runs of the same workload, seen two
 * ways. Where they count the same thing, their per-syscall counts should agree within
 * {@link #TOLERANCE}; where they do not, each row says why.
 */
public final class CrossCheck {
    /** Counts within 10% of the larger agree. */
    public static final double TOLERANCE = 0.10;
    /** Below this many calls in both runs, a difference says nothing. */
    public static final long MIN_CALLS = 20;

    /** Calls whose number depends on which thread gets where first, and on how much strace slows each. */
    static final Set<String> TIMING = Set.of("futex", "futex_waitv", "sched_yield", "poll", "ppoll", "epoll_wait", "epoll_pwait",
            "epoll_pwait2", "select", "pselect6", "_newselect", "nanosleep", "clock_nanosleep", "restart_syscall", "read", "recvfrom",
            "recvmsg", "wait4", "waitid", "getpid", "gettid", "clock_gettime");
    /** Calls that never return, which strace -c does not count. */
    static final Set<String> NO_RETURN = Set.of("exit", "exit_group", "rt_sigreturn");

    private CrossCheck() {}

    /**
     * One syscall in both runs.
     *
     * @param difference |a - b| / max(a, b), 0..1
     * @param agrees     within {@link #TOLERANCE}
     * @param why        for a row that does not agree (or is too small to say), the likely reason; "" otherwise
     */
    public record Row(String syscall, long summaryCalls, long traceCalls, double difference, boolean agrees, String why) {}

    /**
     * @param rows      every syscall either run made, most calls first
     * @param compared  rows with at least {@link #MIN_CALLS} calls in one of the runs
     * @param agreeing  of those, the ones within {@link #TOLERANCE}
     * @param headline  one line: how many agree, and the share of calls they hold
     */
    public record Result(List<Row> rows, int compared, int agreeing, String headline) {}

    /** Compares a summary run's counts with a timed run's. */
    public static Result compare(Tracer.SummaryRun summary, Tracer.TimedRun timed) {
        return compare(summary.summary().callsByName(), timed.trace().callsByName(), summary.run().partial(), timed.run().partial());
    }

    public static Result compare(StraceSummary summary, TimedTrace trace) {
        return compare(summary.callsByName(), trace.callsByName(), false, false);
    }

    /**
     * @param summaryPartial the summary run was stopped before the command ended
     * @param tracePartial   the timed run was (time limit or file cap)
     */
    public static Result compare(Map<String, Long> summary, Map<String, Long> trace, boolean summaryPartial, boolean tracePartial) {
        Set<String> names = new TreeSet<>(summary.keySet());
        names.addAll(trace.keySet());
        List<Row> rows = new ArrayList<>();
        int compared = 0, agreeing = 0;
        long agreeingCalls = 0, allCalls = 0;
        for (String n : names) {
            long a = summary.getOrDefault(n, 0L), b = trace.getOrDefault(n, 0L);
            long max = Math.max(a, b);
            double diff = max == 0 ? 0 : Math.abs(a - b) / (double) max;
            boolean agrees = diff <= TOLERANCE;
            String why = "";
            if (max < MIN_CALLS) {
                why = agrees ? "" : NO_RETURN.contains(n) && a < b ? why(n, a, b, false, false) : "too few calls to compare";
            } else {
                compared++;
                allCalls += max;
                if (agrees) {
                    agreeing++;
                    agreeingCalls += max;
                } else {
                    why = why(n, a, b, summaryPartial, tracePartial);
                }
            }
            rows.add(new Row(n, a, b, diff, agrees, why));
        }
        rows.sort(Comparator.comparingLong((Row r) -> Math.max(r.summaryCalls(), r.traceCalls())).reversed().thenComparing(Row::syscall));
        String headline = compared == 0
                ? "no syscall made " + MIN_CALLS + " calls or more in either run: nothing to compare"
                : String.format(Locale.ROOT, "%d of %d syscalls agree within %.0f%% between the two runs (%.0f%% of their calls)", agreeing, compared,
                        100 * TOLERANCE, allCalls == 0 ? 0 : 100.0 * agreeingCalls / allCalls);
        return new Result(rows, compared, agreeing, headline);
    }

    static String why(String name, long summary, long trace, boolean summaryPartial, boolean tracePartial) {
        if (NO_RETURN.contains(name) && summary < trace) return "strace -c does not count calls that never return";
        if (tracePartial && trace < summary) return "the timed run was stopped early (time limit or file cap)";
        if (summaryPartial && summary < trace) return "the summary run was stopped at its time limit";
        if (summary == 0) return "only the timed run made it";
        if (trace == 0) return "only the summary run made it";
        if (TIMING.contains(name) || name.startsWith("futex")) {
            return "depends on timing: how often threads wait and wake depends on who gets there first, and the timed trace slows "
                    + "threads more than -c does";
        }
        return "the two runs did different work: a workload that varies between runs (data order, caches, start-up paths)";
    }
}
