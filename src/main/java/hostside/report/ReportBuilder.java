package hostside.report;

import java.util.Locale;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import hostside.container.ContainerRun;
import hostside.core.Distribution;
import hostside.core.Units;
import hostside.core.Version;
import hostside.cpu.CpuRun;
import hostside.cpu.measure.LaunchJitter;
import hostside.gpu.peer.PeerCe;
import hostside.gpu.peer.PeerSm;
import hostside.harness.Drill;
import hostside.harness.DrillRun;
import hostside.harness.Result;
import hostside.io.IoRun;
import hostside.io.MeasuredVerdicts;
import hostside.machine.CopyVerdicts;
import hostside.machine.GpuDrill;
import hostside.machine.GpuMatrix;
import hostside.machine.GpuRules;
import hostside.machine.MachineFacts;
import hostside.machine.MachineRun;
import hostside.machine.PciDevice;
import hostside.machine.PciKind;
import hostside.machine.PciLink;
import hostside.machine.PeerPath;
import hostside.machine.Topology;
import hostside.rack.Rack;
import hostside.vm.VmRun;

/** Builds the {@link Report} from what the drills found. */
public final class ReportBuilder {

    private ReportBuilder() {}

    /** What the drills found, one run per module; a null run is a module not asked for. */
    public record Drills(MachineRun machine, VmRun vm, CpuRun cpu, IoRun io,
                         ContainerRun container, Report.Rack rack, List<Other> others) {
        public Drills {
            java.util.Objects.requireNonNull(machine, "Module 1's run: every report has it");
            others = others == null ? List.of() : List.copyOf(others);
        }

        public Drills(MachineRun machine, VmRun vm, CpuRun cpu, IoRun io, ContainerRun container, Report.Rack rack) {
            this(machine, vm, cpu, io, container, rack, List.of());
        }

        /** Module 1 alone. */
        public static Drills machineOnly(MachineRun machine) {
            return new Drills(machine, null, null, null, null, null);
        }
    }

    /** The runs the report's pages are written for, module by module; a registered drill's run of another type gets a section of its own. */
    static final Set<Class<?>> PAGED = Set.of(MachineRun.class, VmRun.class, CpuRun.class, IoRun.class, ContainerRun.class, Rack.RackRun.class);

    /** A drill's run the pages do not name, with what its section is headed by. */
    public record Other(Drill<?, ?> drill, DrillRun run) {}

    /**
     * What surrounds the drills' figures: the machine's name and identity, the 1-minute load as the
     * drills began ({@link Fleet#loadAverage}) and just before each ({@link hostside.process.MachineLoad}),
     * null when not read, each a confounder of every figure; the mode the report was measured in
     * (a quick report skips most cases); and what measuring cost ({@link RunCost}), null where
     * nothing was timed (a test, a lone drill's page).
     */
    public record Circumstances(Report.Machine machine, Double loadAtStart, List<Fleet.DrillLoad> drillLoads, Profile.Mode mode, RunCost cost) {
        public Circumstances {
            java.util.Objects.requireNonNull(machine, "machine");
            java.util.Objects.requireNonNull(mode, "mode");
        }

        public Circumstances(Report.Machine machine, Double loadAtStart, List<Fleet.DrillLoad> drillLoads, Profile.Mode mode) {
            this(machine, loadAtStart, drillLoads, mode, null);
        }

        /** No machine identity read, the load unknown, a full report: what a test or a lone drill has. */
        public static Circumstances unknown(MachineRun run) {
            String host = run.facts().host().name();
            return new Circumstances(new Report.Machine(host, host, null, null, "machine identity not read"), null, null, Profile.Mode.FULL);
        }
    }

    /** Module 1's report alone, in unknown circumstances. */
    public static Report build(MachineRun run, ZonedDateTime now) {
        return build(Drills.machineOnly(run), Circumstances.unknown(run), now);
    }

    public static Report build(Drills drills, Circumstances around, ZonedDateTime now) {
        MachineRun run = drills.machine();
        VmRun vm = drills.vm();
        CpuRun cpu = drills.cpu();
        IoRun io = drills.io();
        ContainerRun container = drills.container();
        Report.Rack rack = drills.rack();
        Report.Machine machine = around.machine();
        Double loadAtStart = around.loadAtStart();
        List<Fleet.DrillLoad> drillLoads = around.drillLoads();
        Profile.Mode mode = around.mode();
        MachineFacts m = run.facts();
        List<PciDevice> gpus = m.gpus();
        Report.Title title = new Report.Title(m.host().name(), m.host().kernel(), m.topology().cpuModel(),
                gpus.stream().map(g -> g.label() + ": " + g.description() + " (" + g.address() + ")").toList(),
                m.host().nvidiaDriver(), now.withNano(0).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME), Version.of(),
                m.host().source(), m.host().virtualization(), around.cost());
        List<Report.Section> modules = new ArrayList<>();
        modules.add(new Report.Section(1, "How the box is wired", "hostside machine", Report.SectionStatus.RUN,
                m.host().live() ? "facts read from this machine" : "facts read from a recording: nothing measured",
                run));
        if (vm == null) {
            modules.add(new Report.Section(2, "Virtual memory", "hostside vm", Report.SectionStatus.NOT_RUN, "not asked for", null));
        } else {
            modules.add(new Report.Section(2, "Virtual memory", "hostside vm", Report.SectionStatus.RUN,
                    m.host().live() ? "settings read from this machine, then measured" : "settings read from a recording: nothing measured",
                    vm));
        }
        if (cpu == null) {
            modules.add(new Report.Section(3, "The CPU that feeds the GPU", "hostside cpu", Report.SectionStatus.NOT_RUN, "not asked for", null));
        } else {
            modules.add(new Report.Section(3, "The CPU that feeds the GPU", "hostside cpu", Report.SectionStatus.RUN,
                    m.host().live() ? "read from this machine, then measured" : "read from a recording: nothing measured",
                    cpu));
        }
        if (io == null) {
            modules.add(new Report.Section(4, "I/O, networks and containers", "hostside io", Report.SectionStatus.NOT_RUN, "not asked for", null));
        } else {
            var data = new Report.Storage(io, container);
            modules.add(new Report.Section(4, "I/O, networks and containers", "hostside io, hostside container", Report.SectionStatus.RUN,
                    m.host().live() ? "read from this machine, then measured" : "read from a recording: nothing measured", data));
        }
        if (rack == null) {
            modules.add(new Report.Section(5, "Coherent superchips and NVLink racks", "hostside rack", Report.SectionStatus.NOT_RUN, "not asked for", null));
        } else {
            modules.add(new Report.Section(5, "Coherent superchips and NVLink racks", "hostside rack", Report.SectionStatus.RUN,
                    m.host().live() ? "read from this machine; the fabric readiness test run where a GPU is" : "read from a recording: the items only a live machine answers say so",
                    rack));
        }
        for (Other o : drills.others()) {
            modules.add(new Report.Section(o.drill().module(), o.drill().title(), "hostside " + o.drill().key(), Report.SectionStatus.RUN,
                    m.host().live() ? "read from this machine, then measured" : "read from a recording: nothing measured", o.run()));
        }
        modules.add(new Report.Section(6, "The profile and its comparison", "hostside compare", Report.SectionStatus.NOT_RUN,
                "a comparison needs other reports: page one places this machine among the reference platforms with its offload math, and hostside compare sets this report beside others", null));
        List<Report.Headline> heads = Headlines.of(m, run.gpu());
        if (vm != null) heads.addAll(Headlines.vm(vm));
        Long pageSize = vm == null || vm.facts().pageSize() == null ? null : vm.facts().pageSize().bytes();
        Fleet.Confounders confounders = new Fleet.Confounders(Fleet.clockLock(run).locked(),
                vm == null || vm.facts().sysctl() == null ? null : vm.facts().sysctl().numaBalancing(),
                vm == null || vm.facts().thp() == null || vm.facts().thp().enabled() == null ? null : vm.facts().thp().enabled().selected(),
                loadAtStart, drillLoads == null ? null : List.copyOf(drillLoads), mode.word);
        Fleet.HardwareClass hw = RackAnswers.hostLink(Fleet.hardwareClass(run, pageSize), rack);
        return new Report(MachineFacts.SCHEMA, "report", machine, hw, Fleet.software(run), confounders, title,
                withColdReads(questions(m, run.gpu(), run.gpuMatrix(), cpu, io, rack), vm, io), heads, Figures.of(run, vm, cpu, io), modules);
    }

    /** The "Beyond the box" answer, with what {@link ColdReads} says where Module 2's and Module 4's cold reads disagree. */
    static List<Report.Answer> withColdReads(List<Report.Answer> answers, VmRun vm, IoRun io) {
        Optional<String> said = ColdReads.disagreement(vm, io);
        if (said.isEmpty()) return answers;
        return answers.stream().map(a -> a.axis().equals("Beyond the box")
                ? new Report.Answer(a.axis(), a.question(), a.status(), a.answer() + said.get(), a.evidence()) : a).toList();
    }

    static List<Report.Answer> questions(MachineFacts m, GpuDrill.GpuSection gpu, GpuMatrix matrix,
                                         CpuRun cpu, IoRun io) {
        return questions(m, gpu, matrix, cpu, io, null);
    }


    static List<Report.Answer> questions(MachineFacts m, GpuDrill.GpuSection gpu, GpuMatrix matrix,
                                         CpuRun cpu, IoRun io, Report.Rack rack) {
        List<Report.Answer> a = new ArrayList<>();
        Topology t = m.topology();
        List<PciDevice> gpus = m.gpus();
        int n = gpus.size();

        String isolation = m.kernelCmdline().stream().filter(k -> k.text().startsWith("isolcpus") || k.text().startsWith("nohz_full"))
                .map(k -> k.text()).collect(Collectors.joining(" "));
        String nodes = gpus.stream().map(g -> g.label() + " on NUMA node " + (g.numaNode() == null ? "unknown (kernel: -1)" : g.numaNode()))
                .collect(Collectors.joining(", "));
        if (n == 0) {
            a.add(new Report.Answer("CPU", "How much CPU feeds each GPU?", "answered",
                    "no GPU found: " + t.cores() + " cores, " + t.threads() + " threads in all; " + jitter(cpu),
                    plural(t.packages(), "package") + ", " + plural(t.numaNodes().size(), "NUMA node")));
        } else {
            String share = n == 1 ? String.format(Locale.ROOT, "%d cores, %d threads for its one GPU", t.cores(), t.threads())
                    : String.format(Locale.ROOT, "%s cores, %s threads per GPU (%d cores, %d threads for %d GPUs)",
                    per(t.cores(), n), per(t.threads(), n), t.cores(), t.threads(), n);
            long cpuNodes = t.numaNodes().stream().filter(x -> !x.cpus().isEmpty()).count();
            a.add(new Report.Answer("CPU", "How much CPU feeds each GPU?", "answered",
                    share + "; isolation: " + (isolation.isEmpty() ? "none on the kernel command line" : isolation)
                            + "; " + jitter(cpu),
                    nodes + (cpuNodes == 1 ? "; one NUMA node holds every CPU, so all are local" : "")));
        }

        if (n == 0) {
            a.add(new Report.Answer("Link", "How fast does host memory reach each GPU, and is it coherent?", "not measured", "no GPU found", ""));
        } else {
            List<String> links = new ArrayList<>();
            boolean measured = false;
            for (PciDevice g : gpus) {
                PciLink l = g.link();
                boolean c2c = rack != null && rack.platform().c2c();
                String link = l == null || l.maxGBs() == 0 ? (c2c ? "NVLink-C2C" : "PCIe link unknown")
                        : c2c ? "NVLink-C2C, coherent (the PCIe " + l.max() + " link sysfs shows for the GPU is not the copy path)"
                        : String.format(Locale.ROOT, "PCIe %s (%.1f GB/s per direction at most)", l.belowMaxWidth() ? l.current() : l.max(),
                        l.belowMaxWidth() ? l.currentGBs() : l.maxGBs());
                Optional<GpuDrill.GpuRun> run = gpu.runs().stream().filter(r -> r.pciAddress().equals(g.address())).findFirst();
                Optional<Double> pinned = run.flatMap(r -> Result.median(r.results(), "host_to_device_ce_pinned"));
                Optional<Double> pageable = run.flatMap(r -> Result.median(r.results(), "host_to_device_ce_pageable"));
                String coherence = gpu.cuda() == null ? "coherence not read" : gpu.cuda().gpus().stream()
                        .filter(c -> c.pciAddress().equals(g.address())).findFirst().map(c -> "coherence: " + c.coherence()).orElse("coherence not read");
                if (pinned.isPresent()) {
                    measured = true;
                    // the seconds divide by the copy's rate: none where it is no rate (a report's checks refuse a 0)
                    double gbs = pinned.get();
                    String moves = gbs > 0 && Double.isFinite(gbs) ? String.format(Locale.ROOT, ", so 10 GB moves in %.2f s", CopyVerdicts.OFFLOAD_BYTES / (gbs * 1e9)) : "";
                    links.add(String.format(Locale.ROOT, "%s: %s; pinned %.1f GB/s%s%s; %s", g.label(), link, gbs,
                            pageable.map(p -> String.format(Locale.ROOT, ", pageable %.1f GB/s", p)).orElse(""), moves, coherence));
                } else {
                    double gbs = l == null || c2c ? 0 : l.belowMaxWidth() ? l.currentGBs() : l.maxGBs();
                    links.add(g.label() + ": " + link + (gbs > 0 ? String.format(Locale.ROOT, ", so 10 GB moves in no less than %.2f s", CopyVerdicts.OFFLOAD_BYTES / (gbs * 1e9)) : "")
                            + "; copies not measured (" + (gpu.notRun().isEmpty() ? "not selected" : gpu.notRun()) + "); " + coherence);
                }
            }
            a.add(new Report.Answer("Link", "How fast does host memory reach each GPU, and is it coherent?", measured ? "measured" : "answered",
                    String.join("; ", links),
                    measured ? "host-to-device copies through the copy engine, timed as nvbandwidth does; link from sysfs"
                            : "link speed and width from sysfs; GB/s after line encoding, before packet overhead (" + GpuRules.HEALTHY_SHARES + ")"));
        }

        if (n == 0) {
            a.add(new Report.Answer("Fabric", "How far does the fast GPU-to-GPU domain reach?", "answered", "no GPU found", ""));
        } else if (n == 1) {
            a.add(new Report.Answer("Fabric", "How far does the fast GPU-to-GPU domain reach?", "answered",
                    "one GPU: no GPU-to-GPU domain in this box", "PCI devices of this machine"));
        } else {
            boolean unknown = matrix.pairs().stream().anyMatch(p -> p.nvlinkUnknown() != null);
            a.add(new Report.Answer("Fabric", "How far does the fast GPU-to-GPU domain reach?", "answered",
                    n + " GPUs; " + fabric(matrix) + peers(matrix, gpu),
                    (unknown ? "PCIe tree from sysfs; " + String.join("; ", matrix.notes()) : "PCIe tree from sysfs, NVLinks from NVML")
                            + (gpu != null && gpu.allGpus().stream().anyMatch(r -> r.isOk() && r.key().startsWith("device_to_device"))
                            ? "; peer copies timed as nvbandwidth does" : "")));
        }

        List<String> nics = new ArrayList<>();
        for (PciDevice d : m.nics()) {
            nics.add(d.label() + " (" + d.description() + ", " + (d.netSpeedMbps() == null ? "speed unknown" : d.netSpeedMbps() / 1000.0 + " Gb/s")
                    + (d.rdma() ? ", RDMA" : ", no RDMA") + ")");
        }
        long nvme = m.pci().stream().filter(d -> d.kind() == PciKind.NVME).count();
        a.add(new Report.Answer("Beyond the box", "What lies past that domain?", "answered",
                (nics.isEmpty() ? "no PCI NIC" : String.join(", ", nics)) + "; " + nvme + " NVMe drive" + (nvme == 1 ? "" : "s")
                        + "; " + storage(io),
                "PCI devices and /sys/class/net"));
        return rack == null ? a : RackAnswers.withRack(a, rack);
    }

    /**
     * The GPU matrix in a line: each class with its pairs ("NV18 between all 28 pairs (through
     * NVSwitches, NVLink 4.0)", "NV12 for GPU0-GPU1, GPU2-GPU3; SYS for 4 pairs").
     */
    static String fabric(GpuMatrix matrix) {
        java.util.Map<String, List<GpuMatrix.Pair>> byLink = new java.util.LinkedHashMap<>();
        matrix.pairs().stream().sorted(java.util.Comparator.comparing((GpuMatrix.Pair p) -> !p.nvlink())
                        .thenComparing(p -> p.nvlink() ? -p.nvlinks() : 0))
                .forEach(p -> byLink.computeIfAbsent(p.link(), x -> new ArrayList<>()).add(p));
        List<String> parts = new ArrayList<>();
        byLink.forEach((link, pairs) -> {
            String which = pairs.size() == matrix.pairs().size() ? "between all " + plural(pairs.size(), "pair")
                    : pairs.size() <= 3 ? "for " + pairs.stream().map(GpuMatrix.Pair::key).collect(Collectors.joining(", "))
                    : "for " + pairs.size() + " pairs";
            java.util.Set<String> via = new java.util.TreeSet<>(), versions = new java.util.TreeSet<>();
            for (var p : pairs) {
                if (!p.via().isEmpty()) via.add(p.via().equals("NVSwitch") ? "through NVSwitches" : p.via());
                versions.addAll(p.versions());
            }
            List<String> how = new ArrayList<>(via);
            if (!versions.isEmpty()) how.add("NVLink " + String.join(", ", versions));
            parts.add(link + " " + which + (how.isEmpty() ? "" : " (" + String.join(", ", how) + ")"));
        });
        boolean anyNvlink = matrix.pairs().stream().anyMatch(GpuMatrix.Pair::nvlink);
        boolean unknown = matrix.pairs().stream().anyMatch(p -> p.nvlinkUnknown() != null);
        String tail = anyNvlink ? "" : unknown ? "; NVLink unknown, so these are the PCIe paths" : "; no NVLink: peer traffic rides PCIe";
        return "GPU to GPU: " + String.join("; ", parts) + tail;
    }

    /**
     * What peer traffic gets: pairs kept apart (by the CUDA driver or NVML), and the measured copies between GPUs
     * (median over the pairs, with the slowest and fastest), with peer access and without.
     */
    static String peers(GpuMatrix matrix, GpuDrill.GpuSection gpu) {
        StringBuilder s = new StringBuilder();
        long blocked = matrix.peers().stream().filter(PeerPath::blocked).count();
        if (blocked > 0) s.append("; no peer access for ").append(plural((int) blocked, "pair")).append(" (CUDA or NVML says no)");
        if (gpu == null) return s.toString();
        for (String[] c : new String[][] {{new PeerCe.Unidirectional(true).key(), "peer copies"},
                {new PeerCe.Staged().key(), "with peer access off (staged through host memory)"},
                {new PeerSm.Latency().key(), "one load across"}}) {
            gpu.allGpus().stream().filter(r -> r.key().equals(c[0]) && r.isOk()).findFirst().ifPresent(r -> s.append(String.format(
                    java.util.Locale.ROOT, "; %s %s %s (%s to %s over %d ordered pairs)", c[1], Units.figure(r.value().median()), r.unit(),
                    Units.figure(r.value().min()), Units.figure(r.value().max()), r.value().samples())));
        }
        return s.toString();
    }

    /** How quiet the feeding CPU is, from Module 3's launch jitter, or its timer jitter where no launch ran (no GPU). */
    static String jitter(CpuRun cpu) {
        if (cpu == null) return "jitter not measured (Module 3 not asked for)";
        List<Result> rs = cpu.measured().results();
        boolean launched = jitterOk(rs, "launch_jitter_quiet").isPresent();
        Optional<Result> quiet = jitterOk(rs, launched ? "launch_jitter_quiet" : "timer_jitter_quiet");
        if (quiet.isEmpty()) {
            return "jitter not measured (" + rs.stream().filter(r -> r.key().equals("timer_jitter_quiet") || r.key().equals("launch_jitter_quiet")).findFirst()
                    .map(Result::why).orElse("not selected") + ")";
        }
        // a report from before the timer conditions ran launch_jitter_quiet on the timer alone without a GPU: no launch times then
        String what = ((LaunchJitter.Detail) quiet.get().detail()).launchNs() != null ? "launches" : "timer wake-ups";
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%s late by %.0f us at p99 quiet", what, p(quiet.get(), Distribution::p99) / 1e3));
        jitterOk(rs, launched ? "launch_jitter_noisy" : "timer_jitter_noisy").ifPresent(n -> {
            LaunchJitter.Detail d = (LaunchJitter.Detail) n.detail();
            s.append(String.format(Locale.ROOT, ", %.0f us at p99 and %.0f us at p99.9 with a hog on every core", d.lateNs().p99() / 1e3, d.lateNs().p999() / 1e3));
            if (n.value() != null) s.append(String.format(Locale.ROOT, " (%.1f%% of ticks missed)", 100 * d.missedShare(n.value().samples())));
        });
        return s.toString();
    }

    /** The jitter result of {@code key} that ran, with its detail. */
    private static Optional<Result> jitterOk(List<Result> rs, String key) {
        return rs.stream().filter(r -> r.key().equals(key) && r.isOk() && r.detail() instanceof LaunchJitter.Detail).findFirst();
    }

    /** The lateness of a jitter result in ns, at quantile {@code q}. */
    private static double p(Result r, java.util.function.ToDoubleFunction<Distribution> q) {
        return q.applyAsDouble(((LaunchJitter.Detail) r.detail()).lateNs());
    }

    /** The local storage tier, from Module 4's reads and writes. */
    static String storage(IoRun io) {
        if (io == null) return "storage not measured (Module 4 not asked for)";
        return tiers(io) + gpuDirect(io);
    }

    /** GPUDirect RDMA and Storage, where the modules could be read. */
    static String gpuDirect(IoRun io) {
        if (io.facts() == null || io.facts().gpuDirect() == null) return "";
        var g = io.facts().gpuDirect();
        if (g.peermem() == null && g.nvidiaFs() == null) return "; GPUDirect unknown (" + g.modulesSource() + ")";
        return "; GPUDirect RDMA " + (Boolean.TRUE.equals(g.peermem()) ? "on (" + g.peermemModule() + ")" : "off (no nvidia_peermem)")
                + ", GPUDirect Storage " + (Boolean.TRUE.equals(g.nvidiaFs()) ? "on (nvidia_fs)" : "off (no nvidia_fs)");
    }

    private static String tiers(IoRun io) {
        Optional<Result> cold = io.results().stream().filter(r -> r.key().equals("seq_read_cold_qd1") && r.isOk()).findFirst();
        Optional<Result> synced = io.results().stream().filter(r -> r.key().equals("write_fsync") && r.isOk()).findFirst();
        if (cold.isEmpty() && synced.isEmpty()) {
            return "storage not measured (" + io.results().stream().map(Result::why).filter(w -> !w.isEmpty()).findFirst().orElse("not selected") + ")";
        }
        StringBuilder s = new StringBuilder("storage");
        if (io.file() != null) s.append(" under ").append(io.file().path().replaceFirst("/[^/]*$", "")).append(" (").append(io.file().filesystem()).append(")");
        s.append(":");
        cold.ifPresent(c -> s.append(String.format(Locale.ROOT, " a checkpoint reads at %.2f GB/s cold (Module 4, %s)", c.value().median(), c.key())));
        // 32 in flight slower than one at a time is a figure in doubt (M4-LOAD-PATH): quoted, never without saying so
        boolean doubt = MeasuredVerdicts.deeperQueueSlower(io.results());
        io.results().stream().filter(r -> r.key().equals("seq_read_direct_uring_qd32") && r.isOk()).findFirst()
                .ifPresent(u -> s.append(String.format(Locale.ROOT, ", %.2f GB/s with O_DIRECT and 32 in flight", u.value().median()))
                        .append(doubt ? " (slower than one at a time: in doubt, not judged; M4-LOAD-PATH)" : ""));
        synced.ifPresent(w -> s.append(cold.isPresent() ? "," : "").append(String.format(Locale.ROOT, " writes %.2f GB/s with fsync", w.value().median())));
        return s.toString();
    }

    static String plural(int n, String what) {
        return Units.plural(n, what);
    }

    private static String per(int total, int gpus) {
        double v = (double) total / gpus;
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
