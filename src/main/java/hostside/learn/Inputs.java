package hostside.learn;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;

import hostside.container.ContainerFacts;
import hostside.core.Figure;
import hostside.core.Rule;
import hostside.core.Scope;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.machine.MachineRun;
import hostside.report.Fleet;
import hostside.report.MeasuredBy;
import hostside.report.Report;
import hostside.report.platforms.HostLink;
import hostside.report.platforms.Nics;
import hostside.vm.VmRun;
import hostside.vm.measure.TlbReach;

/**
 * What the steppers are told about the machine: its report's figures (by the report's own keys)
 * and a few facts (page size, THP, host link, GPU, container limits). A stepper asks for a figure
 * with a typical value beside it; what it gets says whether it is this machine's (measured or
 * read here) or the typical one, and the frame says so. Without a report (a machine not yet
 * measured) every figure is the typical one, and the facts are what could be read.
 *
 * @param machine  where the figures come from: "vm-3f2a (report of 2026-12-04)", or "typical figures"
 * @param findings the report's findings ({@link Report#findings()}), as page one and compare read them;
 *                 none without a report. A stepper that teaches what a rule judges quotes the report's
 *                 finding of that rule ({@link #finding}) rather than judge the figures itself, so that
 *                 the course never says what the report does not (a figure measured busy, or within
 *                 noise, is one the report did not judge)
 */
public record Inputs(String machine, Map<String, Value> values, Map<String, Fact> facts, List<Report.Concluded> findings) {
    public Inputs {
        values = Map.copyOf(values);
        facts = Map.copyOf(facts);
        findings = findings == null ? List.of() : List.copyOf(findings);
    }

    /** Figures and facts without a report's findings: typical inputs, or a machine's edited for a lesson. */
    public Inputs(String machine, Map<String, Value> values, Map<String, Fact> facts) {
        this(machine, values, facts, List.of());
    }

    /**
     * The report's finding of {@code rule}, the worst where it drew several (one per GPU, say: the
     * course's frame is about the machine, and a bad GPU is what a reader must not miss); empty
     * where the report drew none (no report, or one from before its findings were typed).
     */
    public Optional<Report.Concluded> finding(Rule rule) {
        // Severity's order is worst first
        return findings.stream().filter(c -> c.id().equals(rule.id())).min(java.util.Comparator.comparing(Report.Concluded::severity));
    }

    /**
     * The report's finding of {@code rule} where it is about the figures {@code about}: none where
     * any of them is a typical figure, since the report judged this machine's, not the ones shown.
     */
    public Optional<Report.Concluded> finding(Rule rule, Value... about) {
        for (Value v : about) if (v == null || !v.mine()) return Optional.empty();
        return finding(rule);
    }

    /** Where a figure or fact came from. */
    public enum Source {
        MEASURED("measured here"),
        /** Measured as a drill that began on a busy machine: the report judges none of its findings, and the course says so beside the figure. */
        MEASURED_BUSY("measured here while the machine was busy: maybe slower and noisier than its best"),
        READ("read here"), TYPICAL("typical, not this machine");

        public final String words;

        Source(String words) {
            this.words = words;
        }
    }

    /**
     * A figure with its unit and its source; {@code note} names the typical machine when it is one;
     * {@code min} and {@code max} its samples' range where it was measured (NaN for a typical figure);
     * {@code per} what the figure is counted per, after its unit ("per GPU", or for a {@link Unit#COUNT}
     * its noun, "cores per GPU"), empty for a plain figure.
     */
    public record Value(String key, double value, Unit unit, @JsonInclude(JsonInclude.Include.NON_EMPTY) String per, Source source, String note, double min, double max) {
        public Value {
            per = per == null ? "" : per;
        }

        public Value(String key, double value, Unit unit, Source source, String note, double min, double max) {
            this(key, value, unit, "", source, note, min, max);
        }

        public Value(String key, double value, Unit unit, Source source, String note) {
            this(key, value, unit, "", source, note, Double.NaN, Double.NaN);
        }

        /** A figure counted per something: 100 Gb/s per GPU, 16 cores per GPU (a count's unit is its noun). */
        public Value(String key, double value, Unit unit, String per, Source source, String note) {
            this(key, value, unit, per, source, note, Double.NaN, Double.NaN);
        }

        /** The same figure in {@code to}, where the two units convert (ns and us, bytes and GiB); else as it is. */
        public Value in(Unit to) {
            if (to == unit || !unit.convertsTo(to)) return this;
            return new Value(key, unit.convert(value, to), to, per, source, note, min, max);
        }

        /** What follows the number: "GB/s", "Gb/s per GPU", "cores per GPU". */
        public String units() {
            if (unit == Unit.COUNT && !per.isEmpty()) return per;
            return per.isEmpty() ? unit.symbol : unit.symbol + " " + per;
        }

        /**
         * Whether this figure and {@code other}, both measured here, overlap in their samples'
         * ranges: the report's rule (Figure.differsFrom) says they cannot be told apart, so no
         * stepper may explain their difference by a cause.
         */
        public boolean withinSpreadOf(Value other) {
            boolean ranges = !Double.isNaN(min) && !Double.isNaN(max) && !Double.isNaN(other.min) && !Double.isNaN(other.max);
            return mine() && other.mine() && ranges && !(max < other.min || other.max < min);
        }

        /** "55.3 GB/s (measured here)". */
        public String shown() {
            return (unlimited() ? "no limit" : Units.sig3(value) + " " + units()) + " (" + source.words + (note == null || note.isEmpty() ? "" : ": " + note) + ")";
        }

        /** A limit the kernel writes as "max" or "unlimited" (pids.max, RLIMIT_MEMLOCK): kept as positive infinity, never drawn as a number. */
        public boolean unlimited() {
            return value == Double.POSITIVE_INFINITY;
        }

        public boolean mine() {
            return source != Source.TYPICAL;
        }
    }

    /** A fact in words ("4 KiB", "madvise", "PCIe Gen5 x16"), with its source. */
    public record Fact(String key, String value, Source source) {
        public boolean mine() {
            return source != Source.TYPICAL;
        }
    }

    /**
     * The machine's figure {@code key} (the report's figure keys: host_to_device_ce_pinned,
     * syscall_getppid, ...), the machine-wide one first, else the first GPU's or folder's; else
     * {@code typical} in {@code unit}, said to be typical of {@code typicalOf}.
     */
    public Value value(String key, double typical, Unit unit, String typicalOf) {
        Value v = values.get(key);
        return v != null ? v : new Value(key, typical, unit, Source.TYPICAL, typicalOf);
    }

    /** The fact {@code key}, else {@code typical}. */
    public Fact fact(String key, String typical) {
        Fact f = facts.get(key);
        return f != null ? f : new Fact(key, typical, Source.TYPICAL);
    }

    /** This machine's base page in bytes, as its report's hardware class or Module 2 read it. */
    public static final String PAGE_SIZE_BYTES = "page_size_bytes";
    /** The GPUs and the CPU cores the hardware class counts. */
    public static final String GPU_COUNT = "gpu_count", CORES = "cores";
    /** The working set (bytes) where the report's TLB walks took their figures: 1 GiB alone, less inside a report's memory budget. */
    public static final String TLB_WALK_AT = "tlb_walk_at_bytes";
    /** The container's /dev/shm size, its RLIMIT_MEMLOCK (soft) and its cgroup's pids.max; the last two may be unlimited. */
    public static final String SHM_BYTES = "shm_bytes", MEMLOCK_BYTES = "memlock_bytes", PIDS_MAX = "pids_max";

    /** x86-64's base page: the typical one where the machine's is not known. */
    public static final long TYPICAL_PAGE = 4096;

    /**
     * The base page: this machine's where it was read and is a power of two (a page-table layout and
     * a page count need one), else x86-64's 4 KiB, said to be typical.
     */
    public Value basePage() {
        Value v = values.get(PAGE_SIZE_BYTES);
        boolean whole = v != null && v.value() >= 1 && v.value() < 0x1p62 && v.value() == Math.rint(v.value());
        if (whole && Long.bitCount((long) v.value()) == 1) return v;
        return new Value(PAGE_SIZE_BYTES, TYPICAL_PAGE, Unit.BYTES, Source.TYPICAL, "x86-64's base page");
    }

    /** {@link #basePage()} in bytes. */
    public long basePageBytes() {
        return (long) basePage().value();
    }

    /** This machine's base page as a figure read here. */
    public static Value basePage(long bytes) {
        return new Value(PAGE_SIZE_BYTES, bytes, Unit.BYTES, Source.READ, "");
    }

    /** The machine's count {@code key} ({@link #GPU_COUNT}, {@link #CORES}) as it was read; empty where it was not. */
    public Optional<Integer> count(String key) {
        Value v = values.get(key);
        return v == null || !v.mine() ? Optional.empty() : Optional.of((int) v.value());
    }

    /** The host link's words, as the hardware class writes them ({@link HostLink#toString()}). */
    public static final String HOST_LINK = "host_link";

    /** The host link as its record, where the inputs name one in the class's words; empty where they name none, or words it does not read. */
    public Optional<HostLink> hostLink() {
        Fact f = facts.get(HOST_LINK);
        if (f == null) return Optional.empty();
        try {
            return Optional.ofNullable(HostLink.parse(f.value()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The figure the placement's NIC axis reads: the fastest NICs' Gb/s per GPU, as a report's placement reads them. */
    public static final String NIC_PER_GPU = "nic_per_gpu";

    /** The NICs' Gb/s per GPU ({@link Nics#gbpsPerGpu}) as a figure, its note naming the NICs; empty where no speed is known or no GPU. */
    public static Optional<Value> nicPerGpu(Nics nics, int gpus, Source source) {
        Double perGpu = nics == null ? null : nics.gbpsPerGpu(gpus);
        if (perGpu == null) return Optional.empty();
        return Optional.of(new Value(NIC_PER_GPU, perGpu, Unit.GBIT_PER_S, "per GPU", source,
                "NICs " + nics + " over " + gpus + " GPU" + (gpus == 1 ? "" : "s")));
    }

    /** No report: typical figures throughout, and the facts given. */
    public static Inputs typical(Map<String, Fact> facts) {
        return typical(Map.of(), facts);
    }

    /** No report: typical figures but for what could be read without measuring (the base page), and the facts given. */
    public static Inputs typical(Map<String, Value> read, Map<String, Fact> facts) {
        return new Inputs("typical figures (no report)", read, facts);
    }

    /** A report's figures and facts. */
    public static Inputs from(Report r) {
        Map<String, Value> values = new LinkedHashMap<>();
        java.util.List<String> busy = r.confounders() == null ? java.util.List.of() : r.confounders().busyDrills();
        for (Figure f : r.figures()) {
            // the machine's own figure wins over a GPU's or a folder's of the same key; among those, the first
            boolean underLoad = MeasuredBy.drill(f.key()).map(busy::contains).orElse(false);
            Value v = new Value(f.key(), f.value(), f.unit(), underLoad ? Source.MEASURED_BUSY : Source.MEASURED, "", f.min(), f.max());
            if (f.scope().kind() == Scope.Kind.MACHINE) values.put(f.key(), v);
            else values.putIfAbsent(f.key(), v);
        }
        VmRun vm = r.module(VmRun.class);
        if (vm != null && vm.host() != null) {
            vm.host().stream().filter(x -> x.key().equals("tlb_reach_base") && x.isOk() && x.detail() instanceof TlbReach.TlbDetail).findFirst()
                    .ifPresent(x -> TlbReach.figureAt((TlbReach.TlbDetail) x.detail())
                            .ifPresent(b -> values.put(TLB_WALK_AT, new Value(TLB_WALK_AT, b, Unit.BYTES, Source.MEASURED, ""))));
        }
        Map<String, Fact> facts = new LinkedHashMap<>();
        Report.Machine m = r.machine();
        String name = m == null || m.name() == null ? "this machine" : m.name();
        var c = r.hardwareClass();
        // a first-schema report has no class of its own: it follows from its Module 1 facts, as its figures do
        MachineRun machineRun = r.module(MachineRun.class);
        if (c == null && machineRun != null && machineRun.facts() != null) c = Fleet.hardwareClass(machineRun, null);
        if (c != null) {
            put(facts, "gpu", c.gpuCount() == 0 ? "none" : c.gpuCount() + "x " + c.gpu());
            values.put(GPU_COUNT, new Value(GPU_COUNT, c.gpuCount(), Unit.COUNT, "GPUs", Source.READ, ""));
            put(facts, "cpu", c.cpuModel() + ", " + c.cores() + " cores");
            values.put(CORES, new Value(CORES, c.cores(), Unit.COUNT, "cores", Source.READ, ""));
            put(facts, HOST_LINK, c.hostLink());
            put(facts, "fabric", c.fabric());
            put(facts, "nics", c.nics() == null ? null : c.nics().toString());
            nicPerGpu(c.nics(), c.gpuCount(), Source.READ).ifPresent(v -> values.put(v.key(), v));
            if (c.pageSize() != null) put(facts, "page_size", Units.bytes(c.pageSize()));
            if (c.pageSize() != null) values.put(PAGE_SIZE_BYTES, basePage(c.pageSize()));
        }
        var conf = r.confounders();
        if (conf != null && conf.thp() != null) put(facts, "thp", conf.thp());
        if (conf != null && conf.numaBalancing() != null) put(facts, "numa_balancing", String.valueOf(conf.numaBalancing()));
        Report.Storage storage = r.module(Report.Storage.class);
        if (storage != null && storage.container() != null) containerFacts(facts, values, storage.container().facts());
        String date = r.title() == null || r.title().date() == null ? "" : " (report of " + r.title().date().substring(0, Math.min(10, r.title().date().length())) + ")";
        return new Inputs(name + date, values, facts, r.findings());
    }

    private static void containerFacts(Map<String, Fact> facts, Map<String, Value> values, ContainerFacts c) {
        if (c == null) return;
        if (c.runtime() != null) put(facts, "container", c.runtime().inContainer() ? (c.runtime().runtime() == null ? "a container" : c.runtime().runtime()) : "none");
        if (c.shm() != null && c.shm().sizeBytes() != null) values.put(SHM_BYTES, new Value(SHM_BYTES, c.shm().sizeBytes(), Unit.BYTES, Source.READ, ""));
        if (c.pids() != null && c.pids().max() != null && (c.pids().max().unlimited() || c.pids().max().value() != null)) {
            double max = c.pids().max().unlimited() ? Double.POSITIVE_INFINITY : c.pids().max().value();
            values.put(PIDS_MAX, new Value(PIDS_MAX, max, Unit.COUNT, "tasks", Source.READ, ""));
        }
        if (c.limits() != null && c.limits().memlock() != null) {
            var l = c.limits().memlock();
            // a soft limit neither unlimited nor read is no figure: the typical one stands in, said to be typical
            if (l.softUnlimited()) values.put(MEMLOCK_BYTES, new Value(MEMLOCK_BYTES, Double.POSITIVE_INFINITY, Unit.BYTES, Source.READ, ""));
            else if (l.soft() != null) values.put(MEMLOCK_BYTES, new Value(MEMLOCK_BYTES, l.soft(), Unit.BYTES, Source.READ, ""));
        }
        if (c.capabilities() != null && c.capabilities().ipcLock() != null) put(facts, "cap_ipc_lock", String.valueOf(c.capabilities().ipcLock()));
    }

    private static void put(Map<String, Fact> facts, String key, String value) {
        if (value != null && !value.isEmpty()) facts.put(key, new Fact(key, value, Source.READ));
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s: %d figures, %d facts", machine, values.size(), facts.size());
    }
}
