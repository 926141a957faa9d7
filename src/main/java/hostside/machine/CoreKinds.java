package hostside.machine;

import java.util.Locale;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntFunction;

import hostside.core.CpuSet;
import hostside.fs.FsRoot;
import hostside.core.GarbageException;

/**
 * Tells big cores from small ones. The sources, most trusted first: Intel's hybrid PMUs
 * (/sys/devices/cpu_core, cpu_atom), the scheduler's cpu_capacity, Arm's MIDR part numbers,
 * and Intel's per-core base frequency (what hwloc falls back to as well).
 */
final class CoreKinds {
    private final FsRoot fs;
    private final CpuInfo cpuinfo;

    CoreKinds(FsRoot fs, CpuInfo cpuinfo) {
        this.fs = fs;
        this.cpuinfo = cpuinfo;
    }

    List<Topology.CoreKind> read(CpuSet counted, TreeSet<CpuSet> cores) {
        Optional<CpuSet> pcore = list("/sys/devices/cpu_core/cpus");
        Optional<CpuSet> ecore = list("/sys/devices/cpu_atom/cpus");
        if (pcore.isPresent() && ecore.isPresent()) {
            List<Topology.CoreKind> kinds = new ArrayList<>();
            kinds.add(kind("P-core", pcore.get().and(counted), cores, "cpu_core/cpu_atom PMUs", "performance cores"));
            kinds.add(kind("E-core", ecore.get().and(counted), cores, "cpu_core/cpu_atom PMUs", "efficiency cores"));
            kinds.removeIf(k -> k.threads() == 0);
            return kinds;
        }
        List<Topology.CoreKind> byCapacity = group(counted, cores, "cpu_capacity",
                cpu -> fs.text(cpuDir(cpu) + "cpu_capacity").orElse(null), v -> "capacity " + v, true);
        if (byCapacity.size() > 1) return byCapacity;
        List<Topology.CoreKind> byPart = group(counted, cores, "MIDR", this::armPart, v -> v, false);
        if (byPart.size() > 1) return byPart;
        List<Topology.CoreKind> byBase = group(counted, cores, "base frequency",
                cpu -> fs.text(cpuDir(cpu) + "cpufreq/base_frequency").orElse(null),
                v -> "base " + mhz(v), true);
        if (byBase.size() > 1) return byBase;
        String name = counted.isEmpty() ? "none" : "uniform";
        return List.of(kind(name, counted, cores, "", counted.isEmpty() ? "" : "all cores alike"));
    }

    private static String cpuDir(int cpu) {
        return "/sys/devices/system/cpu/cpu" + cpu + "/";
    }

    private static String mhz(String khz) {
        if (khz.contains("-")) return String.join("-", java.util.Arrays.stream(khz.split("-")).map(CoreKinds::mhz).toList());
        try {
            return String.format(Locale.ROOT, "%.1f GHz", Long.parseLong(khz) / 1e6);
        } catch (NumberFormatException e) {
            return khz;
        }
    }

    /**
     * Values within this fraction of a kind's largest are the same kind: the scheduler's
     * cpu_capacity of identical cores differs by firmware's measurement (Grace: 996 to 1013 over its
     * 72 Neoverse V2 cores, hwloc#634, which hwloc answers with a single kind), while real hybrids
     * differ by a quarter or more (GB10: 997 and 718; Alder Lake: 1024 and about 600).
     */
    static final double SAME_KIND = 0.05;

    /**
     * Groups CPUs by a per-CPU value; with {@code numeric} the biggest value is the "big" kind, and
     * values within {@link #SAME_KIND} of a kind's largest join it. Returns one kind per group, or a
     * single kind when the value is missing anywhere.
     */
    private List<Topology.CoreKind> group(CpuSet counted, TreeSet<CpuSet> cores, String source,
                                          IntFunction<String> value, java.util.function.Function<String, String> detail,
                                          boolean numeric) {
        Map<String, CpuSet> by = new TreeMap<>(numeric ? (a, b) -> Long.compare(num(b), num(a)) : String::compareTo);
        for (int cpu : counted.stream().toArray()) {
            String v = value.apply(cpu);
            if (v == null || v.isEmpty()) return List.of();
            by.merge(v, CpuSet.of(cpu), CpuSet::or);
        }
        // each group: its values (largest first) and CPUs
        List<List<String>> values = new ArrayList<>();
        List<CpuSet> cpus = new ArrayList<>();
        for (var e : by.entrySet()) {
            int last = values.size() - 1;
            if (numeric && last >= 0 && num(e.getKey()) >= num(values.get(last).get(0)) * (1 - SAME_KIND)) {
                values.get(last).add(e.getKey());
                cpus.set(last, cpus.get(last).or(e.getValue()));
            } else {
                values.add(new ArrayList<>(List.of(e.getKey())));
                cpus.add(e.getValue());
            }
        }
        List<Topology.CoreKind> kinds = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            List<String> v = values.get(i);
            String name = numeric ? (i == 0 ? "big" : i == values.size() - 1 ? "small" : "medium") : v.get(0);
            String shown = v.size() == 1 ? v.get(0) : v.get(v.size() - 1) + "-" + v.get(0);
            kinds.add(kind(name, cpus.get(i), cores, source, detail.apply(shown)));
        }
        return kinds;
    }

    private static long num(String s) {
        try {
            return Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            return Long.MIN_VALUE;
        }
    }

    private static Topology.CoreKind kind(String name, CpuSet cpus, TreeSet<CpuSet> cores, String source, String detail) {
        int n = (int) cores.stream().filter(c -> c.intersects(cpus)).count();
        return new Topology.CoreKind(name, cpus, n, cpus.size(), source, detail);
    }

    private Optional<CpuSet> list(String path) {
        try {
            return fs.text(path).map(CpuSet::parseList);
        } catch (GarbageException e) {
            return Optional.empty();
        }
    }

    /** The Arm part from midr_el1 (bits 31:24 implementer, 15:4 part) or /proc/cpuinfo's "CPU part". */
    private String armPart(int cpu) {
        Optional<String> midr = fs.text(cpuDir(cpu) + "regs/identification/midr_el1");
        int implementer, part;
        try {
            if (midr.isPresent()) {
                long v = Long.decode(midr.get());
                implementer = (int) ((v >> 24) & 0xff);
                part = (int) ((v >> 4) & 0xfff);
            } else {
                Optional<String> p = cpuinfo.field(cpu, "CPU part");
                Optional<String> imp = cpuinfo.field(cpu, "CPU implementer");
                if (p.isEmpty()) return null;
                part = Integer.decode(p.get());
                implementer = imp.map(Integer::decode).orElse(0x41);
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return ArmParts.name(implementer, part);
    }
}
