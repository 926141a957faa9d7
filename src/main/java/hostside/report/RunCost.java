package hostside.report;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import hostside.core.Units;
import hostside.libc.Libc;
import hostside.libc.LibcException;

/**
 * What a report cost the machine it ran on: how long it took and the most memory it held. A
 * platform team drains a node to run it, so both are part of the answer. The peak is this
 * process's high-water mark (getrusage(2) RUSAGE_SELF ru_maxrss, the kernel's VmHWM): the JVM,
 * STREAM's arrays, every buffer and mapped file of the drills; what GNU time -v prints as
 * "Maximum resident set size" for the report.
 *
 * <p>Not RUSAGE_CHILDREN: the kernel folds the parent's high-water mark into each child's at
 * exec (fs/exec.c, exec_mmap: setmax_mm_hiwater_rss(&tsk->signal->maxrss, old_mm), the old mm
 * being the JVM's for a vfork-style posix_spawn and a copy of it for fork), so the children's
 * ru_maxrss is at least the JVM's own RSS when it spawned them: on the dev VM a Python holding
 * 500 MiB that ran {@code true} read 513 MiB for its child. The children that hold memory of
 * their own, the DataLoader's Python processes, are stated from their own VmHWM, which Module 3
 * reads ({@code CowDetail.peakRssBytes}).
 *
 * @param seconds      from the first drill's start to the report's pages built
 * @param peakRssBytes this process's most resident memory; null where libc could not be called
 * @param drills       the drills that took a tenth of a second or more, in order, each with the
 *                     time its cases took: what a node drained for the report spends where; null
 *                     in a report from before it was kept
 */
public record RunCost(double seconds, Long peakRssBytes, List<Spent> drills) {
    /**
     * One drill's time: from its start to its end, and of that the time its cases took (the rest is
     * its facts, what is left of its load window, its test file, its GPU's start).
     */
    public record Spent(String drill, double seconds, double inCases) {}

    /** A cost without the drills' times (a report from before they were kept, a test). */
    public RunCost(double seconds, Long peakRssBytes) {
        this(seconds, peakRssBytes, null);
    }

    /** The cost since {@code startNanos} (System.nanoTime), with the peak so far. */
    static RunCost since(long startNanos, List<Spent> drills) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        if (!Libc.available()) return new RunCost(seconds, null, drills);
        try {
            return new RunCost(seconds, Libc.peakRssBytes(Libc.RUSAGE_SELF), drills);
        } catch (LibcException e) {
            return new RunCost(seconds, null, drills);
        }
    }

    /**
     * "took 1 min 52 s; peak memory 612 MiB (STREAM's arrays 384 MiB, 228 MiB besides); the
     * DataLoader's Python processes 96 MiB at most", with STREAM's three arrays named when
     * Module 1 ran them ({@code streamArraysBytes}, null when it did not): a report's peak is
     * stated against them; {@code pythonPeakBytes} null when the DataLoader cases did not run.
     */
    String text(Long streamArraysBytes, Long pythonPeakBytes) {
        StringBuilder s = new StringBuilder("took ").append(duration(seconds));
        if (drills != null && !drills.isEmpty()) {
            double inCases = drills.stream().mapToDouble(Spent::inCases).sum();
            s.append(" (").append(drills.stream().map(d -> d.drill() + " " + duration(d.seconds())).collect(Collectors.joining(", ")))
                    .append("; ").append(duration(inCases)).append(" of it in the measurements themselves)");
        }
        if (peakRssBytes == null) s.append("; peak memory not read");
        else {
            s.append("; peak memory ").append(Units.bytes(peakRssBytes));
            if (streamArraysBytes != null && streamArraysBytes > 0) {
                s.append(" (STREAM's arrays ").append(Units.bytes(streamArraysBytes)).append(", ")
                        .append(Units.bytes(Math.max(0, peakRssBytes - streamArraysBytes))).append(" besides)");
            }
        }
        if (pythonPeakBytes != null) s.append("; the DataLoader's Python processes ").append(Units.bytes(pythonPeakBytes)).append(" at most");
        return s.toString();
    }

    /** 8.4 s, 52 s, 1 min 52 s. */
    static String duration(double seconds) {
        if (seconds < 10) return String.format(Locale.ROOT, "%.1f s", seconds);
        long whole = Math.round(seconds);
        if (whole < 60) return whole + " s";
        return String.format(Locale.ROOT, "%d min %d s", whole / 60, whole % 60);
    }
}
