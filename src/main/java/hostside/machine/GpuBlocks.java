package hostside.machine;

import static hostside.machine.MachineDocument.left;
import static hostside.machine.MachineDocument.right;
import static hostside.machine.MachineDocument.cell;
import static hostside.machine.MachineDocument.row;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.doc.Block.Table.Column;
import hostside.doc.Block;
import hostside.doc.FiguresTable;
import hostside.doc.Text;
import hostside.gpu.bench.AllGpus;
import hostside.gpu.bench.LaunchCost;
import hostside.gpu.bench.NodeCopies;
import hostside.gpu.bench.Sweep;
import hostside.gpu.cuda.CudaFacts;
import hostside.gpu.nvml.ClockLock;
import hostside.gpu.nvml.NvmlFacts;
import hostside.gpu.nvml.NvmlGpu;
import hostside.gpu.peer.PeerDetail;
import hostside.gpu.peer.PeerMatrix;
import hostside.harness.DetailFigures;
import hostside.harness.Result;

/**
 * The GPU half of Module 1: what NVML and the CUDA driver say about each GPU, the copies of all
 * GPUs at once with nvbandwidth's matrices behind their summary lines, and each GPU's own copies
 * with its size sweeps as a plot, the link under load and what the figures mean.
 */
final class GpuBlocks {
    private final MachineFacts facts;
    private final GpuDrill.GpuSection gpu;

    private GpuBlocks(MachineFacts facts, GpuDrill.GpuSection gpu) {
        this.facts = facts;
        this.gpu = gpu;
    }

    static Block of(MachineRun run) {
        return new GpuBlocks(run.facts(), run.gpu()).section();
    }

    private Block section() {
        List<Block> b = new ArrayList<>();
        if (gpu.nvml() != null) b.addAll(nvml(gpu.nvml()));
        if (!gpu.notRun().isEmpty()) {
            b.add(Block.Note.of("Driver facts and copy measurements: not run: " + gpu.notRun()));
            return new Block.Section("GPUs and copies", b);
        }
        b.addAll(cuda(gpu.cuda()));
        allGpus().ifPresent(b::add);
        for (GpuDrill.GpuRun r : gpu.runs()) if (!r.results().isEmpty()) b.add(run(r));
        return new Block.Section("GPUs and copies", b);
    }

    /** NVML's versions, then a row per GPU: links, clocks, ECC, persistence, MIG, NVLink, fabric, addressing; what it could not say, dim. */
    static List<Block> nvml(NvmlFacts n) {
        List<Block> b = new ArrayList<>();
        b.add(new Block.KeyValues(List.of(Block.KeyValues.Entry.of("NVML", n.headline()))));
        if (n.gpus().isEmpty()) return b;
        List<List<Text>> rows = new ArrayList<>();
        for (NvmlGpu g : n.gpus()) {
            rows.add(row("GPU" + g.index(), q(g.name()), q(g.pciBusId()),
                    "Gen" + q(g.pcieGen()) + " x" + q(g.pcieWidth()) + " (max Gen" + q(g.pcieMaxGen()) + " x" + q(g.pcieMaxWidth()) + ")",
                    g.memoryTotalBytes() == null ? "?" : Units.bytes(g.memoryTotalBytes()),
                    q(g.smClockMhz()) + " / " + q(g.smClockMaxMhz()) + " MHz", q(g.memClockMhz()) + " / " + q(g.memClockMaxMhz()) + " MHz",
                    onOff(g.eccEnabled(), g.eccPendingEnabled()), onOff(g.persistenceMode(), null), onOff(g.migEnabled(), g.migPendingEnabled()),
                    g.nvLinks() == null ? "?" : g.nvLinks().stream().filter(NvmlGpu.NvLink::active).count() + "/" + g.nvLinks().size() + " active",
                    g.fabric() == null ? "?" : g.fabric().state() + (g.fabric().error() == null ? "" : " (" + g.fabric().error() + ")"),
                    q(g.addressingMode()), g.numaNode() == null ? "-" : g.numaNode(), g.cpuAffinity() == null ? "?" : g.cpuAffinity().toList(), held(ClockLock.of(g))));
        }
        b.add(new Block.Table(List.of(left("NVML"), left("name"), left("PCI"), left("PCIe now (max)"), right("memory"), left("SM clock / max"),
                left("memory clock / max"), left("ECC"), left("persistence"), left("MIG"), left("NVLinks"), left("fabric"), left("addressing"),
                left("NUMA node"), left("ideal CPUs"), left("clocks held by a setting")), rows));
        List<Text> unknown = n.gpus().stream().flatMap(g -> g.unknowns().stream().map(u -> Text.of("GPU" + g.index() + " " + u))).toList();
        if (!unknown.isEmpty()) b.add(new Block.Note(Text.of("Not known: " + String.join("; ", unknown.stream().map(Text::plainText).toList()))));
        return b;
    }

    /** "no" means no sign NVML can show (it cannot read an nvidia-smi -lgc range): the report says so beside its confounder. */
    private static String held(ClockLock lock) {
        return lock.locked() == null ? "?" : lock.locked() ? String.join("; ", lock.signs()) : "no";
    }

    private static String q(Object o) {
        return o == null ? "?" : o.toString();
    }

    private static String onOff(Boolean now, Boolean next) {
        String s = now == null ? "?" : now ? "on" : "off";
        return now == null || next == null || now.equals(next) ? s : s + " (pending " + (next ? "on" : "off") + ")";
    }

    /** The driver's version, a row per GPU and each GPU's host-memory attributes. */
    private List<Block> cuda(CudaFacts c) {
        List<Block> b = new ArrayList<>();
        b.add(new Block.KeyValues(List.of(Block.KeyValues.Entry.of("CUDA driver", c.cudaVersion()))));
        List<List<Text>> rows = new ArrayList<>();
        List<Block.KeyValues.Entry> attributes = new ArrayList<>();
        for (CudaFacts.CudaGpu g : c.gpus()) {
            String label = gpu.runs().stream().filter(r -> r.pciAddress().equals(g.pciAddress())).findFirst().map(GpuDrill.GpuRun::gpu)
                    .orElse("cuda" + g.ordinal());
            rows.add(row(label, g.name(), g.pciAddress(), g.computeCapability(), g.smCount() == null ? "?" : g.smCount(), Units.bytes(g.memoryBytes()),
                    coherence(g.coherence()), g.uuid()));
            if (!g.attributes().isEmpty()) {
                attributes.add(Block.KeyValues.Entry.of("cuda" + g.ordinal() + " attributes", String.join(", ", g.attributes().stream()
                        .map(a -> a.name() + " " + (a.value() == null ? "unknown" : a.value())).toList())));
            }
        }
        b.add(new Block.Table(List.of(left("GPU"), left("name"), left("PCI address"), left("compute capability"), right("SMs"), right("memory"),
                left("host memory access"), left("UUID")), rows));
        if (!attributes.isEmpty()) b.add(new Block.KeyValues(attributes));
        return b;
    }

    static String coherence(String c) {
        return switch (c) {
            case "ATS" -> "ATS: any host memory, through the CPU's page tables";
            case "HMM" -> "HMM: any host memory, pages migrated by the kernel";
            case "none" -> "none: pinned or managed memory only";
            default -> c;
        };
    }

    /** The figures' table: median, min, max, unit and samples; a case that did not run says so in its row. */
    static Block figures(String first, List<Result> results, Scope scope, boolean scopeOnly) {
        FiguresTable t = new FiguresTable(first, true);
        for (Result r : results) {
            if (!r.isOk()) {
                t.notRun(r.key(), r.status() + ": " + r.why());
                continue;
            }
            for (Figure f : DetailFigures.of(r, scope)) {
                if (!scopeOnly || f.scope().equals(scope)) t.add(f);
            }
        }
        return t.table();
    }

    /** How each figure was measured, the keys that share a method in one line. */
    static Optional<Block> how(List<Result> results, Scope scope) {
        Map<String, List<String>> byMethod = new LinkedHashMap<>();
        for (Result r : results) {
            for (Figure f : DetailFigures.of(r, scope)) {
                if (f.scope().equals(scope) && !f.method().isEmpty()) byMethod.computeIfAbsent(f.method(), m -> new ArrayList<>()).add(f.key());
            }
        }
        if (byMethod.isEmpty()) return Optional.empty();
        List<Text> items = new ArrayList<>();
        byMethod.forEach((method, keys) -> {
            Text t = Text.of("");
            for (int i = 0; i < keys.size(); i++) t = t.andCode(keys.get(i)).plain(i < keys.size() - 1 ? ", " : "");
            items.add(t.plain(": " + method));
        });
        return Optional.of(new Block.Section("How", List.of(new Block.Bullets(items))));
    }

    /**
     * The copies of all GPUs at once (host to all, all to host, and between GPUs): the summary
     * lines, the cases that did not run grouped by why, and behind each summary the figures it
     * hides (each GPU's share, each pair's matrix), as nvbandwidth prints them.
     */
    private Optional<Block> allGpus() {
        if (gpu.allGpus().isEmpty()) return Optional.empty();
        List<Block> b = new ArrayList<>();
        List<Result> ran = gpu.allGpus().stream().filter(Result::isOk).toList();
        if (!ran.isEmpty()) {
            b.add(figures("all GPUs at once", ran, Scope.MACHINE, true));
            how(ran, Scope.MACHINE).ifPresent(b::add);
        }
        // cases that did not run share their reason (one GPU: all eight peer cases)
        Map<String, List<String>> without = new LinkedHashMap<>();
        for (Result x : gpu.allGpus()) if (!x.isOk()) without.computeIfAbsent(x.status() + ": " + x.why(), k -> new ArrayList<>()).add(x.key());
        without.forEach((why, keys) -> {
            Text t = Text.of("");
            for (int i = 0; i < keys.size(); i++) t = t.andCode(keys.get(i)).plain(i < keys.size() - 1 ? ", " : "");
            b.add(new Block.Note(t.plain(": " + why)));
        });
        for (Result x : ran) {
            perGpu(x).ifPresent(b::add);
            if (x.detail() instanceof PeerDetail d) b.add(peerMatrix(x, d));
        }
        return Optional.of(new Block.Section("All GPUs at once", b));
    }

    /** host_to_all / all_to_host: each GPU's copy while the others copied too; with one GPU its figure is the sum already shown. */
    private Optional<Block> perGpu(Result x) {
        if (!(x.detail() instanceof AllGpus.AllGpusDetail d) || d.perGpu().size() < 2) return Optional.empty();
        List<List<Text>> rows = new ArrayList<>();
        for (AllGpus.PerGpu p : d.perGpu()) {
            rows.add(row(label(p.pciAddress(), p.pciAddress()), Units.figure(p.gbs().median()), Units.figure(p.gbs().min()),
                    Units.figure(p.gbs().max()), p.gbs().samples()));
        }
        return Optional.of(new Block.Section(x.key() + ", each GPU while all copy (" + x.unit() + ")", List.of(
                new Block.Table(List.of(left("GPU"), right("median"), right("min"), right("max"), right("n")), rows))));
    }

    /**
     * A peer case's matrix as nvbandwidth prints it: row GPU, column GPU, N/A where nothing was
     * measured, the SUM line for bandwidths. A bidirectional case's one-direction matrices stay in
     * the JSON, so that an 8-GPU page is not three screens long.
     */
    private Block peerMatrix(Result x, PeerDetail d) {
        PeerMatrix m = d.main();
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < m.addresses().size(); i++) labels.add(label(m.addresses().get(i), "cuda" + i));
        List<Column> columns = new ArrayList<>(List.of(left("")));
        for (String l : labels) columns.add(right(l));
        List<List<Text>> rows = new ArrayList<>();
        for (int r = 0; r < labels.size(); r++) {
            List<Text> cells = new ArrayList<>(row(labels.get(r)));
            for (Double v : m.values().get(r)) cells.add(Text.of(v == null ? "N/A" : Units.figure(v)));
            rows.add(cells);
        }
        List<Block> b = new ArrayList<>();
        b.add(Block.Paragraph.of("Row: " + m.rows() + "; column: " + m.columns() + "."));
        b.add(new Block.Table(columns, rows));
        if (d.sum() != null) b.add(new Block.Paragraph(Text.of("SUM ").andCode(x.key()).plain(" ").andStrong(Units.figure(d.sum()))));
        if (!d.notMeasured().isEmpty()) {
            b.add(Block.Note.of("Not measured: " + String.join("; ", d.notMeasured().stream().map(p -> p.named(labels)).toList()) + "."));
        }
        if (!d.others().isEmpty()) b.add(Block.Note.of("One direction at a time (" + String.join(", ", d.others()) + "): in the JSON."));
        return new Block.Section(x.key() + " (" + x.unit() + ")", b);
    }

    /**
     * A GPU by hostside's name for it, as the PCIe table and the GPU-to-GPU matrix call it; a GPU
     * the PCIe tree does not hold by its CUDA ordinal, as the drill names it; else {@code fallback}.
     */
    private String label(String address, String fallback) {
        return facts.pci().stream().filter(d -> d.address().equalsIgnoreCase(address)).findFirst().map(PciDevice::label)
                .or(() -> gpu.cuda() == null ? Optional.empty() : gpu.cuda().gpus().stream()
                        .filter(g -> g.pciAddress().equalsIgnoreCase(address)).findFirst().map(g -> "cuda" + g.ordinal()))
                .orElse(fallback);
    }

    /** One GPU's copies: the figures, the sweeps as a plot, the link under load, what it means. */
    private Block run(GpuDrill.GpuRun r) {
        Scope scope = Scope.gpu(r.pciAddress());
        List<Block> b = new ArrayList<>();
        b.add(Block.Note.of("Median of the samples, with min and max."));
        // the figures about this GPU; those per NUMA node are in their own table below
        b.add(figures("measurement", r.results(), scope, true));
        how(r.results(), scope).ifPresent(b::add);
        SweepPlot.of(r).ifPresent(b::addAll);
        nodeCopies(r).ifPresent(b::add);
        launchCosts(r).ifPresent(b::add);
        if (r.linkUnderLoad() != null) {
            b.add(new Block.KeyValues(List.of(Block.KeyValues.Entry.of("link under copy load", r.linkUnderLoad().current() + " of " + r.linkUnderLoad().max()))));
        }
        if (!r.verdicts().isEmpty()) b.add(new Block.Findings(r.verdicts(), ""));
        return new Block.Section(r.gpu() + " (" + r.pciAddress() + ")", b);
    }

    /**
     * The copies from each NUMA node: a row per node (the GPU's own marked), the four copies as
     * median (min-max), and the pinned host-to-device copy as a share of the own node's (of the
     * fastest node's where sysfs names none).
     */
    static Optional<Block> nodeCopies(GpuDrill.GpuRun r) {
        Optional<NodeCopies.NodeDetail> found = r.results().stream().filter(x -> x.isOk() && x.detail() instanceof NodeCopies.NodeDetail)
                .map(x -> (NodeCopies.NodeDetail) x.detail()).filter(d -> !d.rows().isEmpty()).findFirst();
        if (found.isEmpty()) return Optional.empty();
        NodeCopies.NodeDetail d = found.get();
        List<List<Text>> rows = new ArrayList<>();
        List<String> unbound = new ArrayList<>(), misplaced = new ArrayList<>();
        for (NodeCopies.Row x : d.rows()) {
            String node = "node " + x.node() + (d.ownNode() != null && x.node() == d.ownNode() ? " (GPU's own)" : "");
            rows.add(row(node, x.cpus().toString(), cell(x.h2dPinned()), cell(x.d2hPinned()), cell(x.h2dPageable()), cell(x.d2hPageable()),
                    String.format(Locale.ROOT, "%.0f%%", d.percentOf(x))));
            if (!x.unbound().isEmpty()) unbound.add("node " + x.node() + ": " + x.unbound());
            if (x.onNode() != null && x.onNode() < 1) misplaced.add(String.format(Locale.ROOT, "node %d: %.0f%%", x.node(), 100 * x.onNode()));
        }
        String against = d.own().isPresent() ? "share of own" : "share of fastest";
        List<Block> b = new ArrayList<>();
        b.add(Block.Paragraph.of(String.format(Locale.ROOT,
                "GB/s, median (min-max) of the samples: the buffer bound to the node (pinned: %s, registered in place; pageable: %s), the feeding thread on its CPUs.%s",
                Units.bytes(d.pinnedBufferBytes()), Units.bytes(d.pageableBufferBytes()),
                d.ownNode() == null ? " sysfs does not name the GPU's own node: shares are of the fastest node's." : "")));
        b.add(new Block.Table(List.of(left("node"), left("CPUs"), right("H2D pinned"), right("D2H pinned"), right("H2D pageable"),
                right("D2H pageable"), right(against)), rows));
        Text keys = Text.of("Figures per node: ");
        List<String> each = List.of(NodeCopies.H2D_PINNED, NodeCopies.D2H_PINNED, NodeCopies.H2D_PAGEABLE, NodeCopies.D2H_PAGEABLE);
        for (int i = 0; i < each.size(); i++) keys = keys.andCode(each.get(i)).plain(i < each.size() - 1 ? ", " : "");
        b.add(new Block.Paragraph(keys.plain(", each about ").andCode("gpunode:" + r.pciAddress() + ",NODE").plain(".")));
        if (!unbound.isEmpty()) b.add(Block.Note.of("Not bound (pages placed by first touch on the node's CPUs): " + String.join("; ", unbound) + "."));
        if (!misplaced.isEmpty()) b.add(Block.Note.of("Sampled pages found on the node: " + String.join("; ", misplaced) + "; the rest lay elsewhere."));
        return Optional.of(new Block.Section("Copies from each NUMA node", b));
    }

    /**
     * The launch and copy submission costs from each kind of core: a row per core (kind, CPU), each
     * call's host time as median (min-max). The figures per core are named under the table.
     */
    static Optional<Block> launchCosts(GpuDrill.GpuRun r) {
        Optional<LaunchCost.LaunchDetail> found = r.results().stream().filter(x -> x.isOk() && x.detail() instanceof LaunchCost.LaunchDetail)
                .map(x -> (LaunchCost.LaunchDetail) x.detail()).filter(d -> !d.rows().isEmpty()).findFirst();
        if (found.isEmpty()) return Optional.empty();
        LaunchCost.LaunchDetail d = found.get();
        List<List<Text>> rows = new ArrayList<>();
        for (LaunchCost.Row x : d.rows()) rows.add(row(x.kind(), x.cpu(), cell(x.launchNs()), cell(x.submitNs())));
        List<Block> b = new ArrayList<>();
        b.add(Block.Paragraph.of(String.format(Locale.ROOT,
                "ns of host time per call, median (min-max) of the samples: an empty kernel's launch and a %s copy's submission from pinned memory,"
                        + " %d calls a sample timed %d at a time on a thread pinned to the CPU, the stream synchronized between batches.",
                Units.bytes(d.copyBytes()), d.callsPerSample(), d.batch())));
        b.add(new Block.Table(List.of(left("kind"), right("CPU"), right("launch"), right("copy submission")), rows));
        b.add(new Block.Paragraph(Text.of("Figures per core: ").andCode(LaunchCost.LAUNCH).plain(", ").andCode(LaunchCost.SUBMIT)
                .plain(", each about ").andCode("cpu:CPU").plain(".")));
        return Optional.of(new Block.Section("Launch and copy submission from each kind of core", b));
    }


    /** The sweeps of one GPU: GB/s against copy size, pinned and pageable as two curves with their spread, and what each sweep ran with. */
    static final class SweepPlot {
        private SweepPlot() {}

        static Optional<List<Block>> of(GpuDrill.GpuRun r) {
            List<Block.LinePlot.Series> series = new ArrayList<>();
            List<Block.KeyValues.Entry> copies = new ArrayList<>();
            for (Result x : r.results()) {
                if (!x.isOk() || !(x.detail() instanceof Sweep.SweepDetail d)) continue;
                String name = x.key().endsWith("_pinned") ? "pinned" : x.key().endsWith("_pageable") ? "pageable" : x.key();
                List<Block.LinePlot.Point> points = new ArrayList<>();
                List<String> each = new ArrayList<>();
                for (int i = 0; i < d.sweep().points().size(); i++) {
                    hostside.core.Sweep.Point p = d.sweep().points().get(i);
                    points.add(new Block.LinePlot.Point(p.bytes(), p.value().median(), p.value().min(), p.value().max()));
                    // no-break spaces: a size and its count stay on one line
                    each.add((Units.bytes(p.bytes()) + " x" + d.copies().get(i)).replace(' ', '\u00a0'));
                }
                series.add(new Block.LinePlot.Series(name, points));
                copies.add(Block.KeyValues.Entry.of(name, "peak " + Units.figure(x.value().median()) + " GB/s at " + Units.bytes(d.peakAtBytes())
                        + ", half of it from " + Units.bytes(d.halfPeakBytes()) + "; copies per sample: " + String.join(", ", each)));
            }
            if (series.isEmpty()) return Optional.empty();
            Block plot = new Block.LinePlot("Host to device by copy size (" + r.gpu() + ")",
                    new Block.Axis("copy size", Unit.BYTES, true), new Block.Axis("bandwidth", Unit.GB_PER_S, false), series);
            return Optional.of(List.of(plot, new Block.KeyValues(copies)));
        }
    }
}
