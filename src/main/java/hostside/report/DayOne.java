package hostside.report;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import hostside.core.Figure;
import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.cpu.CpuRun;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;
import hostside.doc.Block;
import hostside.doc.Text;
import hostside.machine.GpuDrill;
import hostside.machine.GpuRules;
import hostside.machine.MachineRun;
import hostside.machine.MemoryRules;
import hostside.machine.TopologyRules;
import hostside.rack.RackCheck;
import hostside.rack.RackItem;
import hostside.rack.RackVerdict;
import hostside.report.platforms.Placement;
import hostside.vm.VmRun;

/**
 * The report's closing day-one checklist (design/compare.md, 2.3): ten lines, each one verdict, each
 * drawn from what the modules already judged (the rack checklist, the modules' findings, the
 * placement's floor, the run's conditions), so that it says nothing the modules do not.
 */
final class DayOne {
    private DayOne() {}

    /** One line: its verdict (the worst of its parts) and what decided it. */
    record Line(int n, String topic, RackVerdict verdict, String detail) {}

    /**
     * Worst first where verdicts are combined: bad, warn, unknown; then "not run", so that a line
     * whose parts were partly not looked at never reads ok; then info, ok; n/a only when nothing
     * else applies.
     */
    static final List<RackVerdict> RANK = List.of(RackVerdict.BAD, RackVerdict.WARN, RackVerdict.UNKNOWN, RackVerdict.NOT_RUN, RackVerdict.INFO, RackVerdict.OK, RackVerdict.NA);

    static List<Line> of(Report r) {
        Map<RackItem, RackCheck> rack = new EnumMap<>(RackItem.class);
        Report.Rack rk = r.module(Report.Rack.class);
        if (rk != null) for (RackCheck c : rk.checklist()) rack.put(c.item(), c);
        MachineRun m = r.module(MachineRun.class);
        Report.Storage st = r.module(Report.Storage.class);
        VmRun vm = r.module(VmRun.class);
        List<Line> out = new ArrayList<>();
        int gpus = r.hardwareClass() == null ? 0 : r.hardwareClass().gpuCount();
        String driver = r.software() == null ? null : r.software().driver();

        // 1. the driver, persistence, the GPUs counted
        if (gpus == 0) {
            out.add(new Line(1, "driver, persistence, GPUs counted", RackVerdict.NA, "no NVIDIA GPU on the PCI bus"));
        } else {
            List<Part> p = new ArrayList<>();
            p.add(driver == null || driver.isEmpty() ? new Part(RackVerdict.BAD, "the NVIDIA driver is not loaded") : new Part(RackVerdict.OK, "driver " + driver));
            p.add(part(rack.get(RackItem.PERSISTENCE), "persistence"));
            p.add(new Part(RackVerdict.INFO, gpus + " GPU" + (gpus == 1 ? "" : "s") + " on the PCI bus"));
            out.add(line(1, "driver, persistence, GPUs counted", p));
        }
        // 2. the fabric: fabric manager on HGX, fabric state and readiness on NVLink racks
        out.add(line(2, "NVLink fabric", List.of(part(rack.get(RackItem.FABRIC_MANAGER), "fabric manager"), part(rack.get(RackItem.FABRIC_STATE), "fabric state"),
                part(rack.get(RackItem.IMEX), "IMEX"), part(rack.get(RackItem.FABRIC_READINESS), "readiness"))));
        // 3. the host link: at its maximum, copies at 0.75 of the class or better (hostside's own floor, not DCGM's), C2C up
        {
            List<Part> p = new ArrayList<>();
            if (m != null) {
                List<Finding> link = m.facts().findings().stream()
                        .filter(f -> f.id().equals(TopologyRules.LINK_BELOW_MAX.id())
                                || f.id().equals(TopologyRules.LINK_IDLE.id()) && f.severity() == Severity.WARN).toList();
                if (gpus > 0) p.add(link.isEmpty() ? new Part(RackVerdict.OK, "no link below its maximum") : new Part(RackVerdict.WARN, link.getFirst().text()));
            }
            Double h2d = Placements.median(r, Placements.HOST_TO_DEVICE);
            java.util.Optional<Report.Concluded> floor = r.findings().stream().filter(c -> c.id().equals(Placement.CLASS_FLOOR.id())).findFirst();
            if (floor.isPresent()) {
                Report.Concluded c = floor.get();
                p.add(new Part(RackVerdict.of(c.severity()), c.text() + " [" + c.id() + "]"));
            } else if (gpus > 0) {
                p.add(new Part(RackVerdict.NOT_RUN, h2d == null ? "copies not measured" : "no reference figure for this class"));
            }
            p.add(part(rack.get(RackItem.C2C_LINK), "C2C"));
            moduleOne(m, "Module 1's copies", GpuRules.LINK_SHARE, GpuRules.GPU_UNUSED).ifPresent(p::add);
            out.add(gpus == 0 ? new Line(3, "host link", RackVerdict.NA, "no GPU") : line(3, "host link", p));
        }
        // 4. NUMA: balancing off, page size, THP, NUMA or CDMM, a binding line per GPU; and what Module 2 measured of pages
        {
            List<Part> p = new ArrayList<>(List.of(part(rack.get(RackItem.NUMA_BALANCING), "NUMA balancing"), part(rack.get(RackItem.BASE_PAGE_SIZE), "pages"),
                    part(rack.get(RackItem.THP), "THP"), part(rack.get(RackItem.GPU_MEMORY_MODE), "GPU memory"), part(rack.get(RackItem.BINDING), "binding")));
            // the settings are the rack items' already; the measured findings (slow first touches, huge pages not forming) are Module 2's own
            if (vm != null && !vm.verdicts().isEmpty()) p.add(worst(vm.verdicts(), "Module 2's measurements"));
            // where each GPU's copies and each node's memory are fastest from is Module 1's measured placement
            moduleOne(m, "Module 1's placement", GpuRules.COPY_NODE, MemoryRules.FAR_NODE, MemoryRules.PAGES_PLACED).ifPresent(p::add);
            out.add(line(4, "NUMA, pages and binding", p));
        }
        // 5. CPU: governor, isolation and the feeder's jitter (Module 3)
        {
            List<Part> p = new ArrayList<>(List.of(part(rack.get(RackItem.CPU_GOVERNOR), "governor")));
            CpuRun cpu = r.module(CpuRun.class);
            if (cpu != null) {
                List<Finding> all = new ArrayList<>(cpu.findings());
                all.addAll(cpu.verdicts()); // the measured findings: a missed tick or a slow syscall is Module 3's as much as a governor
                p.add(worst(all, "Module 3"));
            }
            moduleOne(m, "Module 1's kinds of core", GpuRules.LAUNCH_CORES, MemoryRules.SMALL_CORE).ifPresent(p::add);
            Double p99 = r.figures() == null ? null : r.figures().stream().filter(f -> f.key().equals("launch_jitter_quiet_p99")).map(Figure::value).findFirst().orElse(null);
            if (p99 != null) p.add(new Part(RackVerdict.INFO, String.format(Locale.ROOT, "launch jitter p99 %.1f us quiet", p99)));
            out.add(line(5, "CPU feeding the GPUs", p));
        }
        // 6. memory: bandwidth against its floor, memlock
        {
            List<Part> p = new ArrayList<>(List.of(part(rack.get(RackItem.MEMORY_BANDWIDTH), "memory bandwidth")));
            moduleOne(m, "Module 1's memory", MemoryRules.HOST_VS_COPIES, MemoryRules.ONE_THREAD).ifPresent(p::add);
            if (vm != null && vm.facts().process() != null && vm.facts().process().memlock() != null) {
                var ml = vm.facts().process().memlock();
                boolean unlimited = ml.softUnlimited() || Boolean.TRUE.equals(vm.facts().process().capIpcLock());
                p.add(new Part(unlimited ? RackVerdict.OK : RackVerdict.WARN, unlimited ? "memlock unlimited (or CAP_IPC_LOCK)" : "memlock limited: RDMA registrations beyond it fail (NCCL over InfiniBand stops at init)"));
            }
            out.add(line(6, "host memory", p));
        }
        // 7. beyond the box: NICs, GPUDirect, and what Module 4's reads and writes found (the checkpoint's path, saving)
        {
            List<Part> p = new ArrayList<>(List.of(part(rack.get(RackItem.GPUDIRECT), "GPUDirect RDMA"),
                    new Part(RackVerdict.INFO, "NICs " + (r.hardwareClass() == null ? "unknown" : r.hardwareClass().nics()))));
            if (st != null && st.io() != null && !st.io().verdicts().isEmpty()) p.add(worst(st.io().verdicts(), "Module 4's reads and writes"));
            out.add(line(7, "beyond the box", p));
        }
        // 8. containers: shm, memlock, pids, CAP_IPC_LOCK (Module 4's preflight)
        out.add(st == null || st.container() == null ? new Line(8, "container limits", RackVerdict.NOT_RUN, "Module 4 did not run")
                : line(8, "container limits", List.of(worst(st.container().findings(), "Module 4's container preflight"))));
        // 9. the clocks' state, so that comparisons are fair
        Boolean locked = r.confounders() == null ? null : r.confounders().clocksLocked();
        out.add(new Line(9, "GPU clocks recorded", locked == null ? (gpus == 0 ? RackVerdict.NA : RackVerdict.UNKNOWN) : RackVerdict.OK,
                locked == null ? (gpus == 0 ? "no GPU" : "not read (no NVML)") : locked ? "locked or capped: compare only with runs locked alike" : "no sign of a lock: compare with unlocked runs"));
        // 10. what to do next with this report
        out.add(new Line(10, "compare", RackVerdict.INFO, "run hostside report on every node of the class, then hostside compare over the folder; two runs of one node first, for its noise floor"));
        return out;
    }

    /**
     * Module 1's measured findings of {@code rules} as one part (the host memory's sit among the
     * facts' findings, each GPU's in its run); none where no finding of them was drawn, so that a
     * machine that measured nothing of them says nothing of them.
     */
    private static java.util.Optional<Part> moduleOne(MachineRun m, String what, Rule... rules) {
        if (m == null) return java.util.Optional.empty();
        java.util.Set<String> ids = java.util.Arrays.stream(rules).map(Rule::id).collect(java.util.stream.Collectors.toSet());
        List<Finding> all = new ArrayList<>(m.facts().findings());
        if (m.gpu() != null) for (GpuDrill.GpuRun g : m.gpu().runs()) all.addAll(g.verdicts());
        List<Finding> mine = all.stream().filter(f -> ids.contains(f.id())).toList();
        return mine.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(worst(mine, what));
    }

    /** One part of a line: a verdict and what it is about. */
    record Part(RackVerdict verdict, String text) {}

    private static Part part(RackCheck c, String what) {
        if (c == null) return new Part(RackVerdict.NOT_RUN, what + " not judged");
        return new Part(c.verdict(), what + " " + (c.verdict() == RackVerdict.NA || c.verdict() == RackVerdict.NOT_RUN ? c.verdict().toString() : c.value()));
    }

    /** A module's findings as one part: its worst severity (bad, warn, unknown) and that finding's subject and rule. */
    private static Part worst(List<Finding> findings, String module) {
        Finding w = findings == null ? null : findings.stream().filter(f -> f.severity().toFix() || f.severity() == Severity.UNKNOWN)
                .min(java.util.Comparator.comparing(Finding::severity)).orElse(null);
        if (w == null) return new Part(RackVerdict.OK, module + ": nothing bad or doubtful");
        RackVerdict v = RackVerdict.of(w.severity()); // bad, warn or unknown: the others were filtered out
        String rule = Rule.ID.matcher(w.id()).matches() ? " (" + w.id() + ")" : "";
        return new Part(v, module + ": " + w.subject() + rule + (v == RackVerdict.UNKNOWN ? " not judged (busy, within noise, or figures in doubt)" : ""));
    }

    private static Line line(int n, String topic, List<Part> parts) {
        RackVerdict v = parts.stream().map(Part::verdict).min(java.util.Comparator.comparingInt(RANK::indexOf)).orElse(RackVerdict.NOT_RUN);
        // a line of which nothing was judged says why, not "ok"
        List<String> shown = parts.stream().filter(x -> x.verdict() != RackVerdict.NA || parts.stream().allMatch(y -> y.verdict() == RackVerdict.NA)).map(Part::text).toList();
        return new Line(n, topic, v, String.join("; ", shown));
    }

    static Block block(Report r) {
        List<List<Text>> rows = new ArrayList<>();
        for (Line l : of(r)) rows.add(List.of(Text.of(String.valueOf(l.n())), Text.of(l.topic()), Text.strong(l.verdict().toString()), Text.of(l.detail())));
        return new Block.Section("Day one", List.of(
                Block.Paragraph.of("Ten checks for a new machine, each from what the modules above judged."),
                new Block.Table(List.of(new Column("", Align.RIGHT), new Column("check", Align.LEFT), new Column("verdict", Align.LEFT), new Column("what decided it", Align.LEFT)), rows)));
    }
}
