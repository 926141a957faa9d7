package hostside.machine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import hostside.core.Stats;
import hostside.core.Units;
import hostside.doc.Block.KeyValues.Entry;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;
import hostside.doc.Block;
import hostside.doc.Document;
import hostside.doc.Text;

/**
 * Module 1 said once: how the box is wired (CPUs, caches, NUMA nodes, the PCIe tree, affinity,
 * GPU to GPU, the IOMMU and kernel options), what each GPU's driver says and what its copies
 * measured, then the findings. The terminal view of {@code hostside machine} and the report's
 * Module 1 are renderings of this one document, so they can no longer drift apart.
 */
public final class MachineDocument {
    private MachineDocument() {}

    public static Document of(MachineRun run) {
        MachineFacts f = run.facts();
        Host h = f.host();
        String subtitle = (h.kernel().isEmpty() ? "" : "Linux " + h.kernel() + ", ") + (h.architecture().isEmpty() ? "" : h.architecture() + ", ")
                + "virtualization: " + h.virtualization() + (h.live() ? "" : "; recorded machine: " + h.source());
        List<Block> blocks = new ArrayList<>();
        blocks.add(cpuAndMemory(f));
        blocks.add(pcie(f));
        affinity(f).ifPresent(blocks::add);
        GpuMatrixBlocks.of(run.gpuMatrix()).ifPresent(blocks::add);
        blocks.add(iommu(f));
        if (run.memory() != null) blocks.add(MemoryBlocks.of(run.memory()));
        if (run.gpu() != null) blocks.add(GpuBlocks.of(run));
        blocks.add(new Block.Section("Findings", List.of(new Block.Findings(f.findings(), "none"))));
        if (!f.unknowns().isEmpty()) {
            blocks.add(new Block.Section("Not known", List.of(new Block.Bullets(f.unknowns().stream().map(Text::of).toList()))));
        }
        return new Document("hostside machine: " + (h.name().isEmpty() ? "(unnamed)" : h.name()), subtitle, blocks);
    }

    static Column left(String header) {
        return new Column(header, Align.LEFT);
    }

    static Column right(String header) {
        return new Column(header, Align.RIGHT);
    }

    /** Cells of plain text. */
    static List<Text> row(Object... cells) {
        List<Text> r = new ArrayList<>();
        for (Object c : cells) r.add(c instanceof Text t ? t : Text.of(String.valueOf(c)));
        return r;
    }

    /** "55.4 (55.0-55.6)": the median and the range of the samples. */
    static String cell(Stats s) {
        return Units.withRange(s.median(), s.min(), s.max());
    }

    /** The CPU's model and counts, its core kinds, caches and NUMA nodes. */
    static Block cpuAndMemory(MachineFacts f) {
        Topology t = f.topology();
        List<Block> b = new ArrayList<>();
        String perCore = t.cores() > 0 && t.threads() % t.cores() == 0 ? ", " + t.threads() / t.cores() + " per core" : "";
        String counts = Units.plural(t.packages(), "package") + ", " + Units.plural(t.cores(), "core") + ", " + Units.plural(t.threads(), "thread") + perCore;
        if (!t.whole().allowedCpus().isEmpty() && t.threads() < t.whole().onlineCpus().size()) {
            counts += " (in this cpuset; online: " + t.whole().onlineCpus() + ")";
        }
        b.add(new Block.KeyValues(List.of(Entry.of("CPU", t.cpuModel().isEmpty() ? "model unknown" : t.cpuModel()), Entry.of("counts", counts))));
        if (t.coreKinds().size() > 1) {
            List<List<Text>> rows = t.coreKinds().stream().map(c -> row(c.name() + " (" + c.detail() + ")", c.cpus(), c.cores(), c.threads(), c.source())).toList();
            b.add(new Block.Table(List.of(left("core kind"), left("CPUs"), right("cores"), right("threads"), left("from")), rows));
        }
        caches(t).ifPresent(b::add);
        List<List<Text>> nodes = new ArrayList<>();
        for (Topology.NumaNode n : t.numaNodes()) {
            nodes.add(row(n.id(), n.cpus().isEmpty() ? "none" : n.cpus(), Units.bytes(n.memTotalBytes()),
                    holds(n, f),
                    String.join(" ", n.distances().stream().map(String::valueOf).toList())));
        }
        b.add(new Block.Table(List.of(right("NUMA node"), left("CPUs"), right("memory"), left("holds"), left("distances")), nodes));
        return new Block.Section("CPU and memory", b);
    }

    /** One row per level and type: its sizes, how many there are, and how many threads share each. */
    static java.util.Optional<Block> caches(Topology t) {
        Map<String, List<Topology.Cache>> byKind = new LinkedHashMap<>();
        for (Topology.Cache c : t.caches()) {
            String name = "L" + c.level() + (c.type().equals("data") ? "d" : c.type().equals("instruction") ? "i" : "");
            byKind.computeIfAbsent(name, x -> new ArrayList<>()).add(c);
        }
        if (byKind.isEmpty()) return java.util.Optional.empty();
        List<List<Text>> rows = new ArrayList<>();
        for (var e : byKind.entrySet()) {
            List<Topology.Cache> cs = e.getValue();
            // null: the kernel gave no size (listed last, shown as "unknown")
            Map<Long, Integer> sizes = new TreeMap<>(Comparator.nullsLast(Comparator.naturalOrder()));
            for (Topology.Cache c : cs) sizes.merge(c.sizeBytes(), 1, Integer::sum);
            int cpus = cs.getFirst().cpus().size();
            rows.add(row(e.getKey(), String.join(" / ", sizes.keySet().stream().map(Units::bytes).toList()), cs.size(),
                    cpus == 1 ? "1 thread" : cpus + " threads"));
        }
        return java.util.Optional.of(new Block.Table(List.of(left("cache"), right("size"), right("count"), left("shared by")), rows));
    }

    /** What a node holds: GPU memory, CPUs and memory, one of them, or nothing (a placeholder the firmware declares). */
    static String holds(Topology.NumaNode n, MachineFacts f) {
        boolean mem = n.memTotalBytes() != null && n.memTotalBytes() > 0;
        if (n.gpuMemory()) return "GPU memory of " + gpuLabel(f, n.gpu());
        // unread (a recording's size past any machine's, an unreadable meminfo): unknown is not "none"
        if (n.memTotalBytes() == null) return n.cpus().isEmpty() ? "memory of unknown size" : "CPUs, memory of unknown size";
        if (n.cpus().isEmpty()) return mem ? "memory only" : "nothing (empty)";
        return mem ? "CPUs and memory" : "CPUs, no memory";
    }

    static String gpuLabel(MachineFacts f, String address) {
        return f.pci().stream().filter(d -> d.address().equals(address)).findFirst().map(d -> d.name() + " (" + address + ")").orElse(address);
    }

    /** The GPUs, NICs and NVMe drives with their links, then the tree of bridges above them. */
    static Block pcie(MachineFacts f) {
        List<PciDevice> shown = new ArrayList<>(f.gpus());
        shown.addAll(f.nics());
        shown.addAll(f.pci().stream().filter(d -> d.kind() == PciKind.NVME).toList());
        if (shown.isEmpty()) return new Block.Section("PCIe", List.of(Block.Paragraph.of("No GPU, NIC or NVMe drive found.")));
        List<List<Text>> rows = new ArrayList<>();
        for (PciDevice d : shown) {
            PciLink l = d.link();
            // a link below its maximum is what the eye should find: strong (an idle GPU's may be power saving, the findings say)
            Text now = l == null ? Text.of("-") : l.belowMaxWidth() || l.belowMaxSpeed() ? Text.strong(l.current()) : Text.of(l.current());
            rows.add(row(d.name().isEmpty() ? "-" : d.name(), d.address(), d.description(), now, l == null ? "-" : l.max(),
                    l == null || l.maxGBs() == 0 ? "-" : String.format(Locale.ROOT, "%.1f", l.maxGBs()),
                    d.numaNode() == null ? "-" : d.numaNode(), d.localCpus().isEmpty() ? "-" : d.localCpus()));
        }
        List<Block> b = new ArrayList<>();
        b.add(new Block.Table(List.of(left("device"), left("address"), left("what"), left("link now"), left("max"), right("max GB/s per direction"),
                left("NUMA node"), left("local CPUs")), rows));
        if (shown.stream().anyMatch(d -> d.numaNode() == null)) {
            b.add(Block.Note.of("NUMA node \"-\": the kernel says -1 (no affinity known" + (f.host().virtualization().startsWith("VM") ? "; usual in VMs" : "") + ")."));
        }
        b.add(PcieTree.of(f.pci()));
        return new Block.Section("PCIe", b);
    }

    /** nvidia-smi topo -m's matrix for GPUs and NICs, from sysfs: with each device's CPUs and NUMA node, and what it means. */
    static java.util.Optional<Block> affinity(MachineFacts f) {
        Affinity a = f.affinity();
        if (a == null || a.devices().isEmpty()) return java.util.Optional.empty();
        List<Column> columns = new ArrayList<>(List.of(left("")));
        for (String d : a.devices()) columns.add(left(d));
        columns.add(left("CPU affinity"));
        columns.add(left("NUMA node"));
        List<PciDevice> devices = new ArrayList<>(f.gpus());
        devices.addAll(f.nics());
        List<List<Text>> rows = new ArrayList<>();
        for (int i = 0; i < a.devices().size(); i++) {
            List<Text> r = new ArrayList<>(row(a.devices().get(i)));
            for (String level : a.matrix().get(i)) r.add(Text.of(level));
            PciDevice d = i < devices.size() ? devices.get(i) : null;
            r.add(Text.of(d == null || d.localCpus().isEmpty() ? "-" : d.localCpus().toList()));
            r.add(Text.of(d == null || d.numaNode() == null ? "-" : String.valueOf(d.numaNode())));
            rows.add(r);
        }
        List<Block> b = new ArrayList<>();
        b.add(new Block.Paragraph(Text.of("In ").andCode("nvidia-smi topo -m").plain(" terms: PIX one PCIe switch, PXB several, PHB the host bridge,"
                + " NODE the same NUMA node, SYS across NUMA nodes.")));
        b.add(new Block.Table(columns, rows));
        if (!a.verdicts().isEmpty()) b.add(new Block.Findings(a.verdicts(), ""));
        return java.util.Optional.of(new Block.Section("GPU and NIC affinity", b));
    }

    /** The IOMMU's state and evidence, and every kernel option that matters with why. */
    static Block iommu(MachineFacts f) {
        Iommu i = f.iommu();
        List<Block> b = new ArrayList<>();
        Text state = Text.strong(i.state()).plain(": " + i.evidence());
        if (!i.cmdline().isEmpty()) state = state.plain("; command line: ").andCode(String.join(" ", i.cmdline()));
        b.add(new Block.KeyValues(List.of(new Entry("IOMMU", state))));
        if (!f.kernelCmdline().isEmpty()) {
            List<List<Text>> rows = f.kernelCmdline().stream().map(k -> row(Text.code(k.text()), k.why())).toList();
            b.add(new Block.Table(List.of(left("kernel option"), left("why it matters")), rows));
        }
        return new Block.Section("IOMMU and kernel options", b);
    }
}
