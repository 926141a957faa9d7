package hostside.checklist;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import hostside.process.LoadAvg;
import hostside.process.Pressure;

/**
 * Step 1 of the checklist, load and pressure: the load averages, the runnable threads against
 * the CPUs, and PSI for CPU, memory and I/O.
 *
 * @param cpus         online CPUs (the cpuN lines of /proc/stat)
 * @param procsRunning runnable threads over the samples (vmstat's "r"; it counts the reader too)
 * @param procsBlocked threads in uninterruptible sleep, most seen (vmstat's "b")
 * @param pressure     by resource; absent where the kernel has no PSI
 */
public record LoadSection(LoadAvg loadavg, Integer cpus, Spread procsRunning, Long procsBlocked, Map<Pressure.Resource, PressureUse> pressure) {

    public LoadSection {
        pressure = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(pressure)); // cpu, memory, io in that order
    }

    /** A count seen over the samples: the last, the mean and the most. */
    public record Spread(long last, double mean, long max) {
        static Spread of(List<Long> values) {
            List<Long> v = values.stream().filter(Objects::nonNull).toList();
            if (v.isEmpty()) return null;
            return new Spread(v.getLast(), Rates.round(v.stream().mapToLong(Long::longValue).average().orElse(0), 2),
                    v.stream().mapToLong(Long::longValue).max().orElse(0));
        }
    }

    /**
     * One resource's pressure: the kernel's 10-second averages at the end, and the share of the
     * window itself from the growth of the stall totals (null without two samples).
     */
    public record PressureUse(double someAvg10, Double fullAvg10, Double someWindowPercent, Double fullWindowPercent) {}

    static LoadSection of(List<Sample> samples) {
        Sample first = samples.getFirst(), last = samples.getLast();
        double seconds = Rates.seconds(first, last);
        Map<Pressure.Resource, PressureUse> psi = new LinkedHashMap<>();
        for (Pressure.Resource r : Pressure.Resource.values()) {
            Pressure end = last.pressure().get(r), start = first.pressure().get(r);
            if (end == null) continue;
            Double some = null, full = null;
            if (start != null && seconds > 0) {
                some = Rates.round(windowShare(start.some(), end.some(), seconds), 2);
                if (start.full() != null && end.full() != null) full = Rates.round(windowShare(start.full(), end.full(), seconds), 2);
            }
            psi.put(r, new PressureUse(end.some().avg10(), end.full() == null ? null : end.full().avg10(), some, full));
        }
        Integer cpus = last.stat() == null ? null : last.stat().cpus().size();
        Spread running = Spread.of(samples.stream().map(s -> s.stat() == null ? null : s.stat().procsRunning()).toList());
        Long blocked = samples.stream().map(s -> s.stat() == null ? null : s.stat().procsBlocked()).filter(Objects::nonNull)
                .max(Long::compare).orElse(null);
        return new LoadSection(last.load(), cpus, running, blocked, psi);
    }

    /** Stall microseconds over window microseconds, in percent. */
    private static double windowShare(Pressure.Line start, Pressure.Line end, double seconds) {
        return Math.min(100, Math.max(0, end.totalUs() - start.totalUs()) / (seconds * 1e6) * 100);
    }
}
