package hostside.checklist;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

import hostside.core.Better;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.nvml.NvmlActivity;
import hostside.gpu.nvml.NvmlTypes;
import hostside.gpu.nvml.NvmlWatch;

/**
 * Step 6, each GPU through NVML over the window: how busy (mean, least and most of the
 * samples), memory, power against its limit, SM clock against its maximum, what held the clocks
 * down and how often, PCIe traffic, and whether the watched process (or one below it) runs on it.
 *
 * @param notRead null when NVML answered; else why not ("no NVIDIA driver (...)")
 */
public record GpuSection(String notRead, List<GpuUse> gpus) {
    /**
     * The name NVML's idle bit is given in {@link GpuUse#clocksEventReasons}: the clocks of a GPU
     * with nothing to do, no limit. Taken from the one place that names the bits, so that a
     * rule that leaves it out cannot drift from its spelling.
     */
    static final String IDLE_REASON = NvmlActivity.reasonNames(NvmlTypes.nvmlClocksEventReasonGpuIdle).getFirst();

    public GpuSection {
        gpus = List.copyOf(gpus);
    }

    /**
     * @param utilPercent       mean of the samples' kernel-busy share (what the verdicts weigh)
     * @param utilMin           the least of those samples
     * @param utilMax           the most
     * @param utilMedian        their median (the typed figure's value); null without a sample
     * @param utilSamples       how many samples NVML answered for utilisation
     * @param clocksEventReasons each reason seen, with the share of the samples it was set in
     * @param pcieTxKBps        mean of NVML's readings, in NVML's unit (KB/s, 20 ms windows)
     * @param processes         PIDs NVML lists with a compute context on the GPU, over all samples
     * @param usedByProcess     the watched process or one below it is among them
     */
    public record GpuUse(int index, String name, String pciBusId, Double utilPercent, Integer utilMin, Integer utilMax,
                         Double utilMedian, int utilSamples, Double memoryUtilPercent, Long memoryUsedBytes, Long memoryTotalBytes, Double powerWatts,
                         Double powerLimitWatts, Double smClockMhz, Integer smClockMaxMhz, Map<String, Double> clocksEventReasons,
                         Double pcieTxKBps, Double pcieRxKBps, List<Long> processes, boolean usedByProcess) {}

    /** The key of each GPU's utilisation figure: the one reading of this section kept with its spread. */
    static final String UTIL_KEY = "gpu_util_percent";

    /**
     * Each GPU's utilisation over the window as a typed figure: the median of NVML's samples with
     * the least and the most. Only utilisation keeps its samples' spread here (memory use, power,
     * clocks and PCIe are means or last readings), and a GPU read once has no spread to give, so
     * those are no figures. A GPU is scoped by its PCI address; one NVML would not name is the
     * machine's, its index in the key.
     *
     * @param intervalMs how far apart the samples were taken
     */
    List<Figure> figures(long intervalMs) {
        List<Figure> out = new ArrayList<>();
        for (GpuUse g : gpus) {
            if (g.utilSamples() < 2 || g.utilMedian() == null) continue;
            Scope scope = g.pciBusId() == null ? Scope.MACHINE : Scope.gpu(g.pciBusId());
            String key = g.pciBusId() == null ? "gpu" + g.index() + "_util_percent" : UTIL_KEY;
            out.add(new Figure(key, scope, g.utilMedian(), Unit.PERCENT, Better.HIGHER, g.utilMin(), g.utilMax(), g.utilSamples(),
                    "NVML's utilization.gpu (the share of its sample period with a kernel running), read every " + intervalMs
                            + " ms over the window", "nvidia-smi dmon -s u"));
        }
        return out;
    }

    /** @param family the watched PID and the processes below it */
    static GpuSection of(List<NvmlWatch.Gpu> gpus, String notRead, List<Sample> samples, Set<Long> family) {
        if (notRead != null) return new GpuSection(notRead, List.of());
        List<GpuUse> out = new ArrayList<>();
        for (NvmlWatch.Gpu g : gpus) {
            List<NvmlActivity> r = samples.stream().flatMap(s -> s.gpus().stream()).filter(a -> a.index() == g.index()).toList();
            NvmlActivity last = r.isEmpty() ? null : r.getLast();
            List<Integer> util = values(r, NvmlActivity::utilGpuPercent);
            Set<Long> pids = new LinkedHashSet<>();
            for (NvmlActivity a : r) if (a.processes() != null) a.processes().forEach(p -> pids.add(p.pid()));
            Integer limit = last == null ? null : last.powerLimitMilliwatts();
            out.add(new GpuUse(g.index(), g.name(), g.pciBusId(), mean(util), util.stream().min(Integer::compare).orElse(null),
                    util.stream().max(Integer::compare).orElse(null), median(util), util.size(), mean(values(r, NvmlActivity::utilMemoryPercent)),
                    last == null ? null : last.memoryUsedBytes(), last == null ? null : last.memoryTotalBytes(),
                    watts(mean(values(r, NvmlActivity::powerMilliwatts))), limit == null ? null : Rates.round(limit / 1000.0, 1),
                    mean(values(r, NvmlActivity::smClockMhz)), last == null ? null : last.smClockMaxMhz(), reasons(r),
                    mean(values(r, NvmlActivity::pcieTxKBps)), mean(values(r, NvmlActivity::pcieRxKBps)), List.copyOf(pids),
                    pids.stream().anyMatch(family::contains)));
        }
        return new GpuSection(null, out);
    }

    private static List<Integer> values(List<NvmlActivity> r, Function<NvmlActivity, Integer> f) {
        return r.stream().map(f).filter(Objects::nonNull).toList();
    }

    private static Double mean(List<Integer> v) {
        return v.isEmpty() ? null : Rates.round(v.stream().mapToInt(Integer::intValue).average().orElse(0), 1);
    }

    private static Double median(List<Integer> v) {
        return v.isEmpty() ? null : Stats.of(v.stream().mapToDouble(Integer::doubleValue).toArray()).median();
    }

    private static Double watts(Double milliwatts) {
        return milliwatts == null ? null : Rates.round(milliwatts / 1000, 1);
    }

    /** Each reason with the share of the samples that had it set; samples NVML would not answer do not count. */
    private static Map<String, Double> reasons(List<NvmlActivity> r) {
        List<Long> bits = r.stream().map(NvmlActivity::clocksEventReasons).filter(Objects::nonNull).toList();
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (long b : bits) for (String name : NvmlActivity.reasonNames(b)) counts.merge(name, 1, Integer::sum);
        Map<String, Double> out = new LinkedHashMap<>();
        counts.forEach((k, v) -> out.put(k, Rates.round((double) v / bits.size(), 2)));
        return out;
    }
}
