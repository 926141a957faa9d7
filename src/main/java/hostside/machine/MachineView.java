package hostside.machine;

import hostside.core.Finding;

import java.util.Locale;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import hostside.core.CpuSet;
import hostside.core.Style;
import hostside.core.Table;
import hostside.core.Units;

/** The human view of {@link MachineFacts}: compact, aligned, findings in colour. */
public final class MachineView {
    private final MachineFacts f;
    private final GpuDrill.GpuSection gpu;
    private final GpuMatrix matrix;
    private final Style style;

    public MachineView(MachineRun run, Style style) {
        this.f = run.facts();
        this.gpu = run.gpu();
        this.matrix = run.gpuMatrix();
        this.style = style;
    }

    public String render() {
        StringBuilder sb = new StringBuilder();
        Host h = f.host();
        sb.append(style.bold("hostside machine")).append(": ")
                .append(h.name().isEmpty() ? "(unnamed)" : h.name())
                .append(h.kernel().isEmpty() ? "" : ", Linux " + h.kernel())
                .append(h.architecture().isEmpty() ? "" : ", " + h.architecture())
                .append(", virtualization: ").append(h.virtualization())
                .append(h.source().equals("live") ? "" : "\n  recorded machine: " + h.source()).append("\n\n");
        cpu(sb);
        caches(sb);
        numa(sb);
        pci(sb);
        affinity(sb);
        gpuMatrix(sb);
        iommu(sb);
        gpus(sb);
        findings(sb);
        if (!f.unknowns().isEmpty()) {
            sb.append("Unknown\n");
            for (String u : f.unknowns()) sb.append("  ").append(style.dim(u)).append('\n');
        }
        return sb.toString();
    }

    private void cpu(StringBuilder sb) {
        Topology t = f.topology();
        sb.append("CPU     ").append(t.cpuModel().isEmpty() ? "model unknown" : t.cpuModel()).append('\n');
        String perCore = t.cores() > 0 && t.threads() % t.cores() == 0 ? ", " + t.threads() / t.cores() + " per core" : "";
        sb.append("        ").append(plural(t.packages(), "package")).append(", ").append(plural(t.cores(), "core"))
                .append(", ").append(plural(t.threads(), "thread")).append(perCore);
        if (!t.whole().allowedCpus().isEmpty() && t.threads() < hostside.core.CpuSet.parseList(t.whole().onlineCpus()).size()) {
            sb.append(" (in this cpuset; online: ").append(t.whole().onlineCpus()).append(')');
        }
        sb.append('\n');
        if (t.coreKinds().size() > 1) {
            Table k = new Table("core kind", "CPUs", "cores", "threads", "from").right(2, 3);
            for (Topology.CoreKind c : t.coreKinds()) k.row(c.name() + " (" + c.detail() + ")", c.cpus(), c.cores(), c.threads(), c.source());
            sb.append(k.render("        "));
        }
        sb.append('\n');
    }

    private void caches(StringBuilder sb) {
        // One line per level and type: size, count, and how many cores share each.
        Map<String, List<Topology.Cache>> byKind = new LinkedHashMap<>();
        for (Topology.Cache c : f.topology().caches()) {
            String name = "L" + c.level() + (c.type().equals("data") ? "d" : c.type().equals("instruction") ? "i" : "");
            byKind.computeIfAbsent(name, x -> new ArrayList<>()).add(c);
        }
        if (byKind.isEmpty()) return;
        Table t = new Table("cache", "size", "count", "shared by").right(1, 2);
        for (var e : byKind.entrySet()) {
            List<Topology.Cache> cs = e.getValue();
            // null: the kernel gave no size (listed last, shown as "unknown")
            Map<Long, Integer> sizes = new TreeMap<>(java.util.Comparator.nullsLast(java.util.Comparator.naturalOrder()));
            for (Topology.Cache c : cs) sizes.merge(c.sizeBytes(), 1, Integer::sum);
            String size = String.join(" / ", sizes.keySet().stream().map(Units::bytes).toList());
            int cpus = CpuSet.parseList(cs.getFirst().cpus()).size();
            t.row(e.getKey(), size, cs.size(), cpus == 1 ? "1 thread" : cpus + " threads");
        }
        sb.append(t.render("        ").replaceFirst("^        ", "Caches  ")).append('\n');
    }

    private void numa(StringBuilder sb) {
        List<Topology.NumaNode> nodes = f.topology().numaNodes();
        Table t = new Table("node", "CPUs", "memory", "holds", "distances").right(2);
        for (Topology.NumaNode n : nodes) {
            t.row(n.id(), n.cpus().isEmpty() ? "none" : n.cpus(), Units.bytes(n.memTotalBytes()),
                    n.gpuMemory() ? "GPU memory of " + gpuLabel(n.gpu()) : n.cpus().isEmpty() ? "memory only" : "CPUs and memory",
                    String.join(" ", n.distances().stream().map(String::valueOf).toList()));
        }
        sb.append(t.render("        ").replaceFirst("^        ", "NUMA    ")).append('\n');
    }

    private String gpuLabel(String address) {
        return f.pci().stream().filter(d -> d.address().equals(address)).findFirst()
                .map(d -> d.name() + " (" + address + ")").orElse(address);
    }

    private void pci(StringBuilder sb) {
        List<PciDevice> shown = new ArrayList<>(f.gpus());
        shown.addAll(f.nics());
        shown.addAll(f.pci().stream().filter(d -> d.kind().equals("nvme")).toList());
        if (shown.isEmpty()) {
            sb.append("PCIe    no GPU, NIC or NVMe drive found\n\n");
            return;
        }
        Table t = new Table("device", "address", "what", "link now", "max", "GB/s max", "NUMA", "local CPUs").right(5);
        for (PciDevice d : shown) {
            PciLink l = d.link();
            String now = l == null ? "-" : l.current();
            if (l != null && (l.belowMaxWidth() || l.belowMaxSpeed())) now = d.isGpu() && !l.belowMaxWidth() ? style.warn(now) : style.bad(now);
            t.row(d.name().isEmpty() ? "-" : d.name(), d.address(), d.description(), now, l == null ? "-" : l.max(),
                    l == null || l.maxGBs() == 0 ? "-" : String.format(Locale.ROOT, "%.1f", l.maxGBs()),
                    d.numaNode() == null ? "-" : d.numaNode(), d.localCpus().isEmpty() ? "-" : d.localCpus());
        }
        sb.append(t.render("        ").replaceFirst("^        ", "PCIe    "));
        if (shown.stream().anyMatch(d -> d.numaNode() == null)) {
            sb.append("        NUMA \"-\": the kernel says -1 (no affinity known").append(f.host().virtualization().startsWith("VM") ? "; usual in VMs" : "").append(")\n");
        }
        sb.append('\n').append(tree()).append('\n');
    }

    /** The PCIe tree from each host bridge down to the GPUs, NICs and NVMe drives. */
    private String tree() {
        Map<String, PciDevice> byAddress = new HashMap<>();
        for (PciDevice d : f.pci()) byAddress.put(d.address(), d);
        Map<String, List<PciDevice>> children = new HashMap<>();
        java.util.Set<String> keep = new java.util.HashSet<>();
        for (PciDevice d : f.pci()) {
            String parent = d.upstream() != null ? d.upstream() : d.hostBridge() == null ? "(unknown)" : d.hostBridge();
            children.computeIfAbsent(parent, x -> new ArrayList<>()).add(d);
            if (d.isGpu() || d.isNic() || d.kind().equals("nvme")) {
                for (PciDevice x = d; x != null; x = x.upstream() == null ? null : byAddress.get(x.upstream())) keep.add(x.address());
            }
        }
        StringBuilder sb = new StringBuilder("PCIe tree (GPUs, NICs, NVMe and the bridges above them)\n");
        java.util.TreeSet<String> roots = new java.util.TreeSet<>();
        for (PciDevice d : f.pci()) if (keep.contains(d.address()) && d.upstream() == null) roots.add(d.hostBridge() == null ? "(unknown)" : d.hostBridge());
        for (String root : roots) {
            sb.append("  ").append(root.equals("(unknown)") ? "host bridge unknown" : root).append('\n');
            branch(sb, root, "  ", children, keep);
        }
        return sb.toString();
    }

    private void branch(StringBuilder sb, String parent, String indent, Map<String, List<PciDevice>> children, java.util.Set<String> keep) {
        List<PciDevice> kids = children.getOrDefault(parent, List.of()).stream().filter(d -> keep.contains(d.address())).toList();
        for (int i = 0; i < kids.size(); i++) {
            PciDevice d = kids.get(i);
            boolean last = i == kids.size() - 1;
            String label = d.address() + "  " + (d.name().isEmpty() ? "" : d.name() + "  ") + d.description();
            if (d.link() != null) label += "  " + d.link().current() + (d.link().belowMaxSpeed() || d.link().belowMaxWidth() ? " (max " + d.link().max() + ")" : "");
            sb.append(indent).append(last ? "└─ " : "├─ ").append(label).append('\n');
            branch(sb, d.address(), indent + (last ? "   " : "│  "), children, keep);
        }
    }

    private void affinity(StringBuilder sb) {
        Affinity a = f.affinity();
        if (a.devices().isEmpty()) return;
        List<String> header = new ArrayList<>(List.of(""));
        header.addAll(a.devices());
        header.add("CPU affinity");
        header.add("NUMA");
        Table t = new Table(header.toArray(String[]::new));
        List<PciDevice> devices = new ArrayList<>(f.gpus());
        devices.addAll(f.nics());
        for (int i = 0; i < a.devices().size(); i++) {
            List<Object> row = new ArrayList<>();
            row.add(a.devices().get(i));
            row.addAll(a.matrix().get(i));
            PciDevice d = devices.get(i);
            row.add(d.localCpus().isEmpty() ? "-" : d.localCpus());
            row.add(d.numaNode() == null ? "-" : d.numaNode());
            t.row(row.toArray());
        }
        sb.append("Affinity (nvidia-smi topo -m terms: PIX one switch, PXB several, PHB host bridge, NODE same NUMA node, SYS across nodes)\n");
        sb.append(t.render("  "));
        for (String v : a.verdicts()) sb.append("  ").append(v).append('\n');
        sb.append('\n');
    }

    /** GPU to GPU as nvidia-smi topo -m prints it, then what each GPU's NVLinks are. */
    private void gpuMatrix(StringBuilder sb) {
        if (matrix == null || matrix.gpus().size() < 2) return;
        sb.append(text(matrix));
        sb.append('\n');
    }

    /** The matrix, its legend and the NVLink lines: shared with the report's plain-text block. */
    public static String text(GpuMatrix m) {
        StringBuilder sb = new StringBuilder("GPU to GPU (nvidia-smi topo -m)\n");
        List<String> header = new ArrayList<>(List.of(""));
        header.addAll(m.gpus());
        Table t = new Table(header.toArray(String[]::new));
        for (int i = 0; i < m.gpus().size(); i++) {
            List<Object> row = new ArrayList<>(List.of(m.gpus().get(i)));
            row.addAll(m.matrix().get(i));
            t.row(row.toArray());
        }
        sb.append(t.render("  "));
        sb.append("  Legend: ").append(GpuMatrix.LEGEND).append('\n');
        for (String line : linkLines(m)) sb.append("  ").append(line).append('\n');
        for (String line : PeerPath.lines(m.peers())) sb.append("  ").append(line).append('\n');
        for (String n : m.notes()) sb.append("  ").append(n).append('\n');
        return sb.toString();
    }

    /** One line per GPU with NVLinks ("GPU0: 18 NVLinks up (NVLink 4.0), 18 to NVSwitches"); GPUs alike share a line. */
    static List<String> linkLines(GpuMatrix m) {
        Map<String, List<String>> byText = new LinkedHashMap<>();
        for (GpuMatrix.GpuLinks l : m.links()) {
            if (l.unknown() != null || l.active() == null || l.active() + l.inactiveLinks().size() == 0) continue;
            List<String> where = new ArrayList<>();
            if (l.toSwitches() > 0) where.add(l.toSwitches() + " to NVSwitches");
            if (l.toGpus() > 0) where.add(l.toGpus() + " to GPUs");
            if (l.toOther() > 0) where.add(l.toOther() + " to a CPU (IBM NPU)");
            String text = l.active() + " NVLink" + (l.active() == 1 ? "" : "s") + " up"
                    + (l.versions().isEmpty() ? "" : " (NVLink " + String.join(", ", l.versions()) + ")")
                    + (where.isEmpty() ? "" : ", " + String.join(", ", where))
                    + (l.inactiveLinks().isEmpty() ? "" : "; " + l.inactiveLinks().size() + " down");
            byText.computeIfAbsent(text, x -> new ArrayList<>()).add(l.gpu());
        }
        List<String> lines = new ArrayList<>();
        byText.forEach((text, gpus) -> lines.add(String.join(", ", gpus) + ": " + text));
        if (lines.isEmpty() && m.notes().isEmpty()) lines.add("no NVLink: GPUs reach each other over PCIe only");
        return lines;
    }

    private void iommu(StringBuilder sb) {
        Iommu i = f.iommu();
        sb.append("IOMMU   ").append(i.state()).append(": ").append(i.evidence());
        if (!i.cmdline().isEmpty()) sb.append("; command line: ").append(String.join(" ", i.cmdline()));
        sb.append('\n');
        List<KernelCmdline.Item> other = f.kernelCmdline().stream().filter(k -> !k.topic().equals("iommu")).toList();
        if (!other.isEmpty()) {
            Table t = new Table("kernel option", "why it matters");
            for (KernelCmdline.Item k : other) t.row(k.text(), k.why());
            sb.append(t.render("        "));
        }
        sb.append('\n');
    }

    private void gpus(StringBuilder sb) {
        if (gpu == null) return;
        if (gpu.nvml() != null) {
            sb.append("NVML    ").append(gpu.nvml().headline()).append('\n');
            for (String line : gpu.nvml().gpuLines()) sb.append("        ").append(line).append('\n');
            for (var g : gpu.nvml().gpus()) for (String u : g.unknowns()) sb.append("        ").append(style.dim(u)).append('\n');
            sb.append('\n');
        }
        if (!gpu.notRun().isEmpty()) {
            sb.append("GPUs    driver facts and copy measurements: not run: ").append(gpu.notRun()).append("\n\n");
            return;
        }
        sb.append("GPUs    CUDA ").append(gpu.cuda().cudaVersion()).append(" driver\n");
        Table t = new Table("GPU", "name", "CC", "SMs", "memory", "host memory access", "UUID").right(3, 4);
        for (var g : gpu.cuda().gpus()) {
            String label = gpu.runs().stream().filter(r -> r.pciAddress().equals(g.pciAddress())).findFirst()
                    .map(GpuDrill.GpuRun::gpu).orElse("cuda" + g.ordinal());
            t.row(label, g.name(), g.computeCapability(), g.smCount(), Units.bytes(g.memoryBytes()),
                    coherence(g.coherence()), g.uuid());
        }
        sb.append(t.render("        "));
        for (var g : gpu.cuda().gpus()) {
            StringBuilder a = new StringBuilder();
            for (var x : g.attributes()) {
                a.append(a.isEmpty() ? "" : ", ").append(x.name()).append(' ').append(x.value() == null ? "unknown" : x.value());
            }
            sb.append("        cuda").append(g.ordinal()).append(" attributes: ").append(a).append('\n');
        }
        sb.append('\n');
        together(sb);
        for (GpuDrill.GpuRun r : gpu.runs()) {
            if (r.results().isEmpty()) continue;
            sb.append("Copies  ").append(r.gpu()).append(" (").append(r.pciAddress()).append("), median of the samples with min and max\n");
            Table m = new Table("measurement", "median", "min", "max", "unit", "n").right(1, 2, 3, 5);
            for (var x : r.results()) {
                if (x.isOk()) {
                    m.row(x.key(), Units.figure(x.value().median()), Units.figure(x.value().min()), Units.figure(x.value().max()), x.unit(), x.value().samples());
                } else {
                    m.row(x.key(), x.status() + ": " + x.why(), "", "", "", "");
                }
            }
            sb.append(m.render("        "));
            for (var x : r.results()) {
                if (!(x.isOk() && x.detail() instanceof hostside.gpu.bench.Sweep.SweepDetail d)) continue;
                Table p = new Table(x.key(), "GB/s", "min", "max", "copies").right(0, 1, 2, 3, 4);
                for (int i = 0; i < d.sweep().points().size(); i++) {
                    var pt = d.sweep().points().get(i);
                    p.row(Units.bytes(pt.bytes()), Units.figure(pt.value().median()), Units.figure(pt.value().min()), Units.figure(pt.value().max()), d.copies().get(i));
                }
                sb.append('\n').append(p.render("        "));
            }
            if (r.linkUnderLoad() != null) {
                sb.append("  link under copy load: ").append(r.linkUnderLoad().current()).append(" of ").append(r.linkUnderLoad().max()).append('\n');
            }
            for (String v : r.verdicts()) sb.append("  ").append(v).append('\n');
            sb.append('\n');
        }
    }

    private void together(StringBuilder sb) {
        if (gpu.allGpus().isEmpty()) return;
        Table m = new Table("all GPUs at once", "median", "min", "max", "unit").right(1, 2, 3);
        // cases that did not run share their reason (one GPU: all eight peer cases), below the figures not in them
        Map<String, List<String>> without = new LinkedHashMap<>();
        for (var x : gpu.allGpus()) {
            if (x.isOk()) m.row(x.key(), Units.figure(x.value().median()), Units.figure(x.value().min()), Units.figure(x.value().max()), x.unit());
            else without.computeIfAbsent(x.status() + ": " + x.why(), k -> new ArrayList<>()).add(x.key());
        }
        if (gpu.allGpus().stream().anyMatch(hostside.harness.Result::isOk)) sb.append(m.render("        "));
        without.forEach((why, keys) -> {
            sb.append("        ").append(why).append(":\n");
            for (String line : wrap(keys, 100)) sb.append("          ").append(line).append('\n');
        });
        sb.append('\n');
        // the summary line hides which GPU or pair is slow: the figures behind it, as nvbandwidth prints them
        for (var x : gpu.allGpus()) {
            if (!x.isOk()) continue;
            perGpu(sb, x);
            peerMatrix(sb, x);
        }
    }

    /** Comma-separated lines of at most {@code width} characters (a longer item gets a line of its own). */
    static List<String> wrap(List<String> items, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < items.size(); i++) {
            String item = items.get(i) + (i < items.size() - 1 ? "," : "");
            if (!line.isEmpty() && line.length() + 1 + item.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            line.append(line.isEmpty() ? "" : " ").append(item);
        }
        if (!line.isEmpty()) lines.add(line.toString());
        return lines;
    }

    /** host_to_all / all_to_host: each GPU's copy while the others copied too. */
    private void perGpu(StringBuilder sb, hostside.harness.Result x) {
        // with one GPU its figure is the sum above
        if (!(x.detail() instanceof hostside.gpu.bench.AllGpus.AllGpusDetail d) || d.perGpu().size() < 2) return;
        sb.append("        ").append(x.key()).append(", each GPU while all copy (").append(x.unit()).append(")\n");
        Table t = new Table("GPU", "median", "min", "max", "n").right(1, 2, 3, 4);
        for (var p : d.perGpu()) {
            t.row(peerLabel(p.pciAddress(), p.pciAddress()), Units.figure(p.gbs().median()), Units.figure(p.gbs().min()),
                    Units.figure(p.gbs().max()), p.gbs().samples());
        }
        sb.append(t.render("          ")).append('\n');
    }

    /**
     * A peer test case's matrix as nvbandwidth prints it: row GPU, column GPU, N/A where nothing
     * was measured, and the SUM line for bandwidths. Bidirectional cases hold three matrices; the
     * first (both directions added) is the one the summary line describes, the others stay in --json
     * so that an 8-GPU page is not three screens long.
     */
    private void peerMatrix(StringBuilder sb, hostside.harness.Result x) {
        if (!(x.detail() instanceof hostside.gpu.peer.PeerDetail d)) return;
        hostside.gpu.peer.PeerMatrix m = d.main();
        List<String> names = d.others();
        sb.append("        ").append(x.key()).append(" (").append(x.unit()).append("), row: ").append(m.rows())
                .append("; column: ").append(m.columns()).append('\n');
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < m.addresses().size(); i++) labels.add(peerLabel(m.addresses().get(i), "cuda" + i));
        List<String> header = new ArrayList<>(List.of(""));
        header.addAll(labels);
        Table t = new Table(header.toArray(String[]::new)).right(java.util.stream.IntStream.rangeClosed(1, labels.size()).toArray());
        for (int r = 0; r < labels.size(); r++) {
            List<Object> row = new ArrayList<>(List.of(labels.get(r)));
            for (Double v : m.values().get(r)) row.add(v == null ? "N/A" : Units.figure(v));
            t.row(row.toArray());
        }
        sb.append(t.render("          "));
        if (d.sum() != null) sb.append("          SUM ").append(x.key()).append(' ').append(Units.figure(d.sum())).append('\n');
        if (!d.notMeasured().isEmpty()) {
            sb.append("          not measured: ").append(String.join("; ", d.notMeasured().stream().map(p -> p.named(labels)).toList())).append('\n');
        }
        if (!names.isEmpty()) sb.append("          one direction at a time (").append(String.join(", ", names)).append("): in --json\n");
        sb.append('\n');
    }

    /**
     * A GPU by hostside's name for it, as the PCIe table and the GPU-to-GPU matrix call it; a GPU
     * the PCIe tree does not hold by its CUDA ordinal, as the drill names it; else {@code fallback}.
     */
    private String peerLabel(String address, String fallback) {
        return f.pci().stream().filter(d -> d.address().equalsIgnoreCase(address)).findFirst().map(PciDevice::label)
                .or(() -> gpu.cuda() == null ? java.util.Optional.empty() : gpu.cuda().gpus().stream()
                        .filter(g -> g.pciAddress().equalsIgnoreCase(address)).findFirst().map(g -> "cuda" + g.ordinal()))
                .orElse(fallback);
    }

    private static String coherence(String c) {
        return switch (c) {
            case "ATS" -> "ATS: any host memory, through the CPU's page tables";
            case "HMM" -> "HMM: any host memory, pages migrated by the kernel";
            case "none" -> "pinned or managed memory only";
            default -> c;
        };
    }

    private void findings(StringBuilder sb) {
        hostside.core.FindingLines.render(sb, f.findings(), style);
    }

    private static String plural(int n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }
}
