package hostside.core;

/**
 * One measured figure, typed (docs/contract.md, Typed figures): what a program compares, plots or
 * ranks, never prose parsed back. The report and every drill's --json list them flat.
 *
 * @param key     the test case's key, e.g. "host_to_device_ce_pinned"
 * @param scope   what it is about: the machine, a GPU, a NUMA node, a pair of GPUs, a folder
 * @param value   the median of the samples
 * @param unit    its unit
 * @param better  which way is better
 * @param min     the smallest sample
 * @param max     the largest sample
 * @param samples how many samples the median is of
 * @param method  how it was measured, in a line
 * @param anchor  the established tool's test that measures the same thing the same way
 *                ("nvbandwidth host_to_device_memcpy_ce", "fio --rw=read ..."); null when none does
 */
public record Figure(String key, Scope scope, double value, Unit unit, Better better, double min, double max, int samples,
                     String method, String anchor) {
    public Figure {
        if (samples < 1) throw new IllegalArgumentException(key + ": a figure of " + samples + " samples");
        if (!(min <= value && value <= max)) throw new IllegalArgumentException(key + ": the median " + value + " lies outside " + min + ".." + max);
    }

    /**
     * Whether this figure and {@code other} (the same key and unit) differ by more than their
     * spread: their ranges do not overlap. Only then may a verdict compare them.
     */
    public boolean differsFrom(Figure other) {
        if (unit != other.unit) throw new IllegalArgumentException(key + " in " + unit + " against " + other.key + " in " + other.unit);
        return max < other.min || other.max < min;
    }
}
