package hostside.report;

import java.util.Locale;

import hostside.core.Units;
import hostside.libc.Libc;
import hostside.libc.LibcException;

/**
 * What a report cost the machine it ran on: how long it took and the most memory it held. A
 * platform team drains a node to run it, so both are part of the answer. The peaks are the
 * kernel's high-water marks (getrusage(2), ru_maxrss): this process's (the JVM, STREAM's arrays,
 * every buffer and mapped file of the drills), and the largest child's (the DataLoader's Python
 * workers, the CUDA fork-or-spawn probe), which are processes of their own. GNU time -v prints the
 * larger of the two as its "Maximum resident set size".
 *
 * @param seconds              from the first drill's start to the report's pages built
 * @param peakRssBytes         this process's most resident memory; null where libc could not be called
 * @param childrenPeakRssBytes the largest child's, among those waited for; 0 when none ran, null where libc could not be called
 */
public record RunCost(double seconds, Long peakRssBytes, Long childrenPeakRssBytes) {

    /** The cost since {@code startNanos} (System.nanoTime), with the peaks so far. */
    static RunCost since(long startNanos) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        if (!Libc.available()) return new RunCost(seconds, null, null);
        try {
            return new RunCost(seconds, Libc.peakRssBytes(Libc.RUSAGE_SELF), Libc.peakRssBytes(Libc.RUSAGE_CHILDREN));
        } catch (LibcException e) {
            return new RunCost(seconds, null, null);
        }
    }

    /**
     * "took 1 min 52 s; peak memory 612 MiB (STREAM's arrays 384 MiB, 228 MiB besides), 210 MiB
     * in the largest child process", with STREAM's three arrays named when Module 1 ran them
     * ({@code streamArraysBytes}, null when it did not): a report's peak is stated against them.
     */
    String text(Long streamArraysBytes) {
        StringBuilder s = new StringBuilder("took ").append(duration(seconds));
        if (peakRssBytes == null) return s.append("; peak memory not read").toString();
        s.append("; peak memory ").append(Units.bytes(peakRssBytes));
        if (streamArraysBytes != null && streamArraysBytes > 0) {
            s.append(" (STREAM's arrays ").append(Units.bytes(streamArraysBytes)).append(", ")
                    .append(Units.bytes(Math.max(0, peakRssBytes - streamArraysBytes))).append(" besides)");
        }
        if (childrenPeakRssBytes != null && childrenPeakRssBytes > 0) {
            s.append(", ").append(Units.bytes(childrenPeakRssBytes)).append(" in the largest child process");
        }
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
