package hostside.memory;

import java.util.List;
import java.util.Optional;

import hostside.core.CpuSet;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.harness.Detail;
import hostside.harness.DetailFigures;
import hostside.harness.Result;

/** What the memory cases keep beside their figure. */
public final class MemoryDetails {
    private MemoryDetails() {}

    /**
     * STREAM's other three kernels beside Triad (the result's own figure), and the conditions. A run
     * whose arrays fail STREAM's check after it is a failed result, so a detail means they passed.
     *
     * @param copy       GB/s, c = a; null where Triad ran alone (one thread)
     * @param scale      GB/s, b = 3c; null likewise
     * @param add        GB/s, c = a + b; null likewise
     * @param arrayBytes each of the three arrays
     * @param cpus       one thread pinned to each
     * @param placement  where the arrays' pages are
     * @param sizeNote   why the arrays are smaller than STREAM asks, or where the cache size came from
     *                   when sysfs names none; "" when neither
     * @param sizing     what decided the arrays' size: the rule, the caches and, where they were
     *                   measured, the latency curve; null in a report written before it was kept
     */
    public record Stream(Stats copy, Stats scale, Stats add, long arrayBytes, CpuSet cpus, Placement placement,
                         String sizeNote, ArraySizing sizing) implements DetailFigures {
        @Override
        public List<Figure> figures(Result r, Scope scope) {
            String method = r.method();
            return java.util.stream.Stream.of(figure(r, "copy", copy, scope, method), figure(r, "scale", scale, scope, method), figure(r, "add", add, scope, method))
                    .flatMap(Optional::stream).toList();
        }

        /** A kernel's figure; none for a kernel that did not run (one thread runs Triad alone). */
        private static Optional<Figure> figure(Result r, String kernel, Stats s, Scope scope, String method) {
            if (s == null) return Optional.empty();
            String key = r.key().replace("triad", kernel);
            return Optional.of(new Figure(key, scope, s.median(), Unit.GB_PER_S, r.better(), s.min(), s.max(), s.samples(), method,
                    r.anchor() == null ? null : r.anchor().replace("Triad", Character.toUpperCase(kernel.charAt(0)) + kernel.substring(1))));
        }
    }

    /**
     * @param bytes     the array read
     * @param cpus      one reading thread pinned to each
     * @param placement where its pages are
     */
    public record Read(long bytes, CpuSet cpus, Placement placement) implements Detail {}

    /**
     * @param bytes         the working set
     * @param cpu           the chasing thread's CPU
     * @param loadsPerSample dependent loads timed in each sample
     * @param hugeAsked     whether transparent huge pages were asked for
     * @param hugeBytes     how much of the set sits in huge pages; null when unknown
     * @param placement     where its pages are
     */
    public record Chase(long bytes, int cpu, int loadsPerSample, boolean hugeAsked, Long hugeBytes, Placement placement)
            implements Detail {}
}
