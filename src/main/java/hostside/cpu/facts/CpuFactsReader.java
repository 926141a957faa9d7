package hostside.cpu.facts;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import hostside.core.CpuSet;
import hostside.core.GarbageException;
import hostside.cpu.facts.CpuFacts.CmdlineCpus;
import hostside.cpu.facts.CpuFacts.CpuFreq;
import hostside.cpu.facts.CpuFacts.DeviceIrqs;
import hostside.cpu.facts.CpuFacts.Feeder;
import hostside.cpu.facts.CpuFacts.Frequency;
import hostside.cpu.facts.CpuFacts.Idle;
import hostside.cpu.facts.CpuFacts.IdleState;
import hostside.cpu.facts.CpuFacts.Irq;
import hostside.cpu.facts.CpuFacts.Irqs;
import hostside.cpu.facts.CpuFacts.IrqsOnFeeders;
import hostside.cpu.facts.CpuFacts.Isolation;
import hostside.cpu.facts.CpuFacts.Kernel;
import hostside.cpu.facts.CpuFacts.ProcessCpus;
import hostside.cpu.facts.CpuFacts.Sched;
import hostside.cpu.facts.CpuFacts.Share;
import hostside.cpu.facts.CpuFacts.Tunables;
import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.fs.KernelVersion;
import hostside.machine.KernelCmdline;
import hostside.machine.MachineFacts;
import hostside.machine.MachineReader;
import hostside.machine.PciDevice;
import hostside.machine.PciKind;
import hostside.machine.Topology;
import hostside.process.ThisProcess;

/**
 * Reads {@link CpuFacts} through an {@link FsRoot}, with Module 1's {@link MachineFacts} for the
 * GPUs, NICs and NVMe drives and their local CPUs. Facts only, nothing is measured here. Never
 * throws on what it reads: a garbled value becomes null and an "unknown" line naming the file and why.
 */
public final class CpuFactsReader {
    static final String CPU = "/sys/devices/system/cpu";
    static final String KERNEL = "/proc/sys/kernel/";
    static final String DEBUG_SCHED = "/sys/kernel/debug/sched";
    public static final String NO_CPUFREQ = "no cpufreq (VM or firmware-controlled)";

    private static final Pattern RELEASE = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})(?:\\D.*)?");

    private final FsRoot fs;
    private final MachineFacts machine;
    private final List<String> unknowns = new ArrayList<>();
    private final FactReads reads;
    private CpuSet online = CpuSet.EMPTY;

    private CpuFactsReader(FsRoot fs, MachineFacts machine) {
        this.fs = fs;
        this.reads = new FactReads(fs, unknowns);
        this.machine = machine;
    }

    /** Reads Module 1's facts too. */
    public static CpuFacts read(FsRoot fs) {
        return read(fs, MachineReader.read(fs));
    }

    /** @param machine Module 1's facts of the same root (read anew when null) */
    public static CpuFacts read(FsRoot fs, MachineFacts machine) {
        return new CpuFactsReader(fs, machine == null ? MachineReader.read(fs) : machine).readAll();
    }

    private CpuFacts readAll() {
        online = guard("online CPUs", this::online, () -> CpuSet.EMPTY);
        Map<String, String> cmdline = guard("/proc/cmdline", this::cmdline, Map::of);
        Kernel kernel = guard("kernel", () -> kernel(cmdline), () -> new Kernel(null, null, null, null, null, "unknown"));
        Sched sched = guard("scheduler sysctls", this::sched, () -> null);
        Isolation isolation = guard("isolation", this::isolation, () -> null);
        ProcessCpus process = guard("process CPUs", this::process, () -> null);
        Frequency frequency = guard("cpufreq", this::frequency, () -> null);
        Idle idle = guard("cpuidle", this::idle, () -> null);
        Irqs irqs = guard("interrupts", () -> new IrqReader(fs, machine, reads, unknowns).read(), () -> null);
        List<Feeder> feeders = guard("feeder CPUs", () -> feeders(isolation, process, irqs), List::of);
        Integer cores = machine.topology() != null && machine.topology().cores() > 0 ? machine.topology().cores() : null;
        return new CpuFacts(kernel, sched, isolation, process, frequency, idle, irqs, feeders, online, cores,
                List.copyOf(unknowns));
    }

    /** A last line of defence: a section that throws becomes an unknown, never an exception. */
    private <T> T guard(String what, Supplier<T> section, Supplier<T> fallback) {
        try {
            return section.get();
        } catch (RuntimeException e) {
            unknowns.add(what + ": could not be read (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + shown(e.getMessage())) + ")");
            return fallback.get();
        }
    }

    // ---- online CPUs and the command line ----

    private CpuSet online() {
        Topology t = machine.topology();
        if (t != null && t.whole() != null && !t.whole().onlineCpus().isEmpty()) {
            return t.whole().onlineCpus();
        }
        return cpuList(CPU + "/online", true);
    }

    /** The kernel's part of /proc/cmdline (up to "--"): the last value of each key, "" for bare flags. */
    private Map<String, String> cmdline() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String token : text("/proc/cmdline", true).orElse("").split("\\s+")) {
            if (token.equals("--")) break;
            if (token.isEmpty()) continue;
            int eq = token.indexOf('=');
            out.put(eq < 0 ? token : token.substring(0, eq), eq < 0 ? "" : token.substring(eq + 1));
        }
        return out;
    }

    // ---- kernel, scheduler, preemption ----

    private Kernel kernel(Map<String, String> cmdline) {
        KernelVersion files = KernelVersion.read(fs);
        Optional<String> version = reads.text(files.version(), true);
        reads.text(files.osrelease(), true); // said unknown when it cannot be read, though /proc/version may still name the release
        String release = files.release().orElse(null);
        Integer major = null, minor = null;
        if (release != null) {
            Matcher m = RELEASE.matcher(release);
            if (m.matches()) {
                major = Integer.parseInt(m.group(1));
                minor = Integer.parseInt(m.group(2));
            } else {
                garbage(KERNEL + "osrelease", "not a kernel release", release);
                release = shown(release);
            }
        }
        String scheduler = major == null ? null : schedulerOf(major, minor);
        PreemptionModel preemption = PreemptionModel.decide(fs.text(DEBUG_SCHED + "/preempt"), version.orElse(null), cmdline.get("preempt"), major, minor);
        return new Kernel(release, major, minor, scheduler, preemption.model(), preemption.source());
    }

    /** "EEVDF" from 6.6 on, "CFS" before; null when the release does not parse. */
    public static String schedulerOf(String release) {
        if (release == null) return null;
        Matcher m = RELEASE.matcher(release.strip());
        return m.matches() ? schedulerOf(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))) : null;
    }

    static String schedulerOf(int major, int minor) {
        return major > 6 || major == 6 && minor >= 6 ? "EEVDF" : "CFS";
    }

    private Sched sched() {
        return new Sched(integer(KERNEL + "sched_autogroup_enabled", false), signed(KERNEL + "sched_rt_runtime_us", true),
                signed(KERNEL + "sched_rt_period_us", true), integer(KERNEL + "sched_child_runs_first", false),
                integer(KERNEL + "sched_energy_aware", false), integer(KERNEL + "numa_balancing", false), tunables());
    }

    private Tunables tunables() {
        if (fs.isDirectory(DEBUG_SCHED)) {
            String d = DEBUG_SCHED + "/";
            Tunables t = new Tunables(DEBUG_SCHED, signed(d + "base_slice_ns", false), signed(d + "min_granularity_ns", false),
                    signed(d + "latency_ns", false), signed(d + "wakeup_granularity_ns", false),
                    signed(d + "migration_cost_ns", false), signed(d + "nr_migrate", false));
            if (t.baseSliceNs() != null || t.minGranularityNs() != null || t.migrationCostNs() != null) return t;
        }
        // before 5.13 they were sysctls
        Long min = signed(KERNEL + "sched_min_granularity_ns", false);
        if (min != null) {
            return new Tunables("/proc/sys/kernel (before 5.13)", null, min, signed(KERNEL + "sched_latency_ns", false),
                    signed(KERNEL + "sched_wakeup_granularity_ns", false), signed(KERNEL + "sched_migration_cost_ns", false),
                    signed(KERNEL + "sched_nr_migrate", false));
        }
        return new Tunables("not visible: " + DEBUG_SCHED + " needs a mounted debugfs and root", null, null, null, null, null, null);
    }

    // ---- isolation ----

    private Isolation isolation() {
        CmdlineCpus isolcpus = cmdlineCpus("isolcpus", true);
        CmdlineCpus nohz = cmdlineCpus("nohz_full", false);
        CmdlineCpus nocbs = cmdlineCpus("rcu_nocbs", false);
        CmdlineCpus irqaff = cmdlineCpus("irqaffinity", false);
        Optional<CpuSet> isolated = optionalCpuList(CPU + "/isolated");
        Optional<CpuSet> nohzEff = optionalCpuList(CPU + "/nohz_full");
        CpuSet off = isolated.orElse(CmdlineCpuLists.domainIsolated(isolcpus)).or(nohzEff.orElse(cpus(nohz)));
        return new Isolation(isolcpus, nohz, nocbs, irqaff, isolated.orElse(null), nohzEff.orElse(null),
                online.isEmpty() ? null : online.andNot(off));
    }

    private static CpuSet cpus(CmdlineCpus c) {
        return c == null || c.cpus() == null ? CpuSet.EMPTY : c.cpus();
    }

    /** A CPU-list parameter as Module 1 found it on the command line (the last one wins, as in the kernel). */
    private CmdlineCpus cmdlineCpus(String key, boolean flags) {
        List<KernelCmdline.Item> items = machine.kernelCmdline() == null ? List.of() : machine.kernelCmdline();
        String text = null;
        for (KernelCmdline.Item i : items) {
            if (i.text().equals(key) || i.text().startsWith(key + "=")) text = i.text();
        }
        if (text == null) return null;
        CmdlineCpus c = CmdlineCpuLists.parse(text, flags, online.isEmpty() ? -1 : online.stream().max().orElse(0));
        if (c.cpus() == null) unknowns.add("kernel command line " + shown(text) + ": not a CPU list");
        return c;
    }

    // ---- this process and its cgroup ----

    /** The CPUs and nodes this process may use: {@link ThisProcess}, the one reader of them. */
    private ProcessCpus process() {
        ThisProcess p = ThisProcess.read(fs);
        CpuSet cpus = p.cpusAllowed(reads, unknowns), mems = p.memsAllowed(reads, unknowns);
        return new ProcessCpus(p.pid() == null ? null : p.pid().toString(), cpus,
                cpus == null ? null : cpus.size(), mems, guard("cgroup", () -> new CgroupCpuReader(fs, machine, reads, unknowns).read(), () -> null));
    }

    // ---- frequency and idle ----

    private Frequency frequency() {
        List<CpuFreq> cpus = new ArrayList<>();
        for (int cpu : online.stream().toArray()) {
            String d = CPU + "/cpu" + cpu + "/cpufreq/";
            if (!fs.isDirectory(d.substring(0, d.length() - 1))) continue;
            cpus.add(new CpuFreq(cpu, text(d + "scaling_governor", true).orElse(null),
                    text(d + "scaling_driver", true).orElse(null), text(d + "energy_performance_preference", false).orElse(null),
                    signed(d + "cpuinfo_max_freq", false), signed(d + "scaling_max_freq", false),
                    signed(d + "scaling_cur_freq", false)));
        }
        Boolean turbo = null;
        String turboSource = null;
        Integer noTurbo = integer(CPU + "/intel_pstate/no_turbo", false);
        Integer boost = integer(CPU + "/cpufreq/boost", false);
        if (noTurbo != null) {
            turbo = noTurbo == 0;
            turboSource = CPU + "/intel_pstate/no_turbo";
        } else if (boost != null) {
            turbo = boost != 0;
            turboSource = CPU + "/cpufreq/boost";
        }
        if (cpus.isEmpty()) return new Frequency(NO_CPUFREQ, List.of(), List.of(), List.of(), turbo, turboSource, List.of());
        return new Frequency("cpufreq", shares(cpus, CpuFreq::governor), shares(cpus, CpuFreq::driver),
                shares(cpus, CpuFreq::epp), turbo, turboSource, List.copyOf(cpus));
    }

    private static List<Share> shares(List<CpuFreq> cpus, java.util.function.Function<CpuFreq, String> value) {
        Map<String, CpuSet> by = new LinkedHashMap<>();
        for (CpuFreq c : cpus) {
            String v = value.apply(c);
            if (v != null) by.merge(v, CpuSet.of(c.cpu()), CpuSet::or);
        }
        return by.entrySet().stream().sorted(java.util.Map.Entry.comparingByValue())
                .map(e -> new Share(e.getKey(), e.getValue(), e.getValue().size())).toList();
    }

    private Idle idle() {
        String driver = text(CPU + "/cpuidle/current_driver", false).orElse(null);
        String governor = text(CPU + "/cpuidle/current_governor_ro", false)
                .or(() -> text(CPU + "/cpuidle/current_governor", false)).orElse(null);
        if (online.isEmpty()) return new Idle(driver, governor, null, List.of());
        int cpu = online.first();
        String dir = CPU + "/cpu" + cpu + "/cpuidle";
        List<IdleState> states = new ArrayList<>();
        for (String s : fs.list(dir)) {
            if (!s.matches("state\\d{1,3}")) continue;
            String d = dir + "/" + s + "/";
            Integer disable = integer(d + "disable", false);
            states.add(new IdleState(text(d + "name", false).orElse(s), signed(d + "latency", false),
                    disable == null ? null : disable != 0));
        }
        return new Idle(driver, governor, cpu, List.copyOf(states));
    }

    // ---- per GPU: the CPUs that feed it ----

    private List<Feeder> feeders(Isolation isolation, ProcessCpus process, Irqs irqs) {
        List<Feeder> out = new ArrayList<>();
        CpuSet isolated = CpuSet.EMPTY;
        if (isolation != null) {
            isolated = isolation.isolated() != null ? isolation.isolated() : CmdlineCpuLists.domainIsolated(isolation.isolcpus());
        }
        CpuSet allowed = process == null ? null : process.cpusAllowed();
        for (PciDevice gpu : machine.gpus()) {
            CpuSet local = CpuSet.EMPTY;
            try {
                local = gpu.localCpus();
            } catch (GarbageException e) {
                // Module 1 keeps only parsed lists; nothing to add
            }
            if (!online.isEmpty()) local = local.and(online);
            if (local.isEmpty()) local = online;
            CpuSet feeders = local.andNot(isolated);
            List<IrqsOnFeeders> on = new ArrayList<>();
            if (irqs != null) {
                for (DeviceIrqs d : irqs.devices()) {
                    if (d.kind() == PciKind.GPU) continue;
                    CpuSet cpus = CpuSet.EMPTY;
                    int count = 0, active = 0;
                    long total = 0;
                    for (Irq i : d.irqs()) {
                        if (!placed(i)) continue;
                        CpuSet hit = i.routedTo().and(feeders);
                        if (hit.isEmpty()) continue;
                        cpus = cpus.or(hit);
                        count++;
                        if (i.total() > 0) active++;
                        total += i.total();
                    }
                    if (count > 0) on.add(new IrqsOnFeeders(d.device(), d.kind(), count, active, cpus, total));
                }
            }
            out.add(new Feeder(gpu.label(), gpu.address(), gpu.numaNode(), local, local.and(isolated),
                    feeders, allowed == null ? null : feeders.and(allowed), List.copyOf(on)));
        }
        return List.copyOf(out);
    }

    /**
     * Whether the IRQ's CPUs are known from where it is handled (effective affinity) or has been
     * (counts), not merely from where it may be (an smp_affinity of every CPU says little).
     */
    static boolean placed(Irq i) {
        return i.effectiveAffinity() != null && !i.effectiveAffinity().isEmpty() || !i.landedOn().isEmpty();
    }

    // ---- typed reads ----

    private Optional<String> text(String path, boolean expected) {
        return reads.text(path, expected);
    }

    private Long signed(String path, boolean expected) {
        return reads.signed(path, expected);
    }

    private Integer integer(String path, boolean expected) {
        return reads.integer(path, expected, true);
    }

    private CpuSet cpuList(String path, boolean expected) {
        Optional<String> t = text(path, expected);
        if (t.isEmpty()) return CpuSet.EMPTY;
        try {
            return CpuSet.parseList(t.get());
        } catch (GarbageException e) {
            garbage(path, "not a CPU list", t.get());
            return CpuSet.EMPTY;
        }
    }

    /** An optional CPU list file; "(null)" (no mask allocated, older kernels) is the empty set. */
    private Optional<CpuSet> optionalCpuList(String path) {
        Optional<String> t = text(path, false);
        if (t.isEmpty()) return Optional.empty();
        if (t.get().equals("(null)")) return Optional.of(CpuSet.EMPTY);
        try {
            return Optional.of(CpuSet.parseList(t.get()));
        } catch (GarbageException e) {
            garbage(path, "not a CPU list", t.get());
            return Optional.empty();
        }
    }

    private void garbage(String path, String what, String text) {
        reads.garbage(path, what, text);
    }

    static String shown(String s) {
        return FactReads.shown(s);
    }
}
