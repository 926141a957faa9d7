package hostside.machine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.core.Unit;
import hostside.fs.FsRoot;
import hostside.gpu.nvml.NvmlGpu;
import hostside.gpu.nvml.NvmlP2p;

/**
 * GPU to GPU in {@code nvidia-smi topo -m}'s classes: "NV#" where # active NVLinks join the two,
 * else the PCIe level of {@link Affinity#level} (PIX, PXB, PHB, NODE, SYS). Built by a pure
 * function from the PCIe tree and what NVML says about each GPU's links, so a recorded NVML
 * answer gives the same matrix as the machine did.
 *
 * <p>Links are counted two ways. Directly: a link whose far end is the other GPU (NVLink bridges
 * on PCIe cards, the 4-GPU HGX mesh). Through NVSwitches: on an HGX/DGX board every link of a GPU
 * goes to a switch and any GPU reaches any other over all of them, so nvidia-smi shows each pair
 * as NV&lt;links of a GPU to the switches&gt; (NV18 on an HGX H100 or H200, NV12 on a DGX A100, NV6
 * on a DGX-2: NVIDIA/nccl#1264, #1505, nccl-tests#78). Where the two GPUs' switch links differ (a
 * link down), the pair gets the smaller count: traffic between them cannot use more ports than
 * the poorer GPU has. A far end that NVML does not name (older drivers, VMs that hide the
 * switches) counts as a switch unless it is one of the box's GPUs, as NCCL assumes
 * (NVIDIA/nccl#1182). Links to an IBM NPU reach a POWER9 CPU, not a GPU.
 *
 * <p>A per-pair annotation measured elsewhere (P2P access and copy rates) joins by
 * {@link Pair#key()}; the matrix itself stays what the wiring says.
 *
 * @param gpus   labels in matrix order: the sysfs GPUs in PCI address order, GPU0, GPU1, ...
 * @param matrix matrix[i][j]: "X" on the diagonal, "NV#", or the PCIe level ("?" when unknown)
 * @param pairs  each pair once, in row order (GPU0-GPU1, GPU0-GPU2, ..., GPU1-GPU2, ...)
 * @param links  each GPU's NVLinks as NVML gave them, summed; its {@code unknown} says why not
 * @param notes  lines the reader needs for the matrix: why NVLink is unknown, assumptions made
 * @param peers  per pair, what the driver and the switch ports let peer traffic do ({@link PeerPath}); empty
 *               until {@link #withPeers} joins them
 */
public record GpuMatrix(List<String> gpus, List<List<String>> matrix, List<Pair> pairs, List<GpuLinks> links,
                        List<String> notes, List<PeerPath> peers) {

    public static final String LEGEND = "NV# = # active NVLinks (direct, or each GPU's links to the NVSwitches), "
            + "PIX = one PCIe switch, PXB = several switches, PHB = the CPU's host bridge, "
            + "NODE = host bridges of one NUMA node, SYS = across NUMA nodes";

    public GpuMatrix {
        gpus = List.copyOf(gpus);
        matrix = matrix.stream().map(List::copyOf).toList();
        pairs = List.copyOf(pairs);
        links = List.copyOf(links);
        notes = List.copyOf(notes);
        peers = List.copyOf(peers);
    }

    /**
     * Two GPUs.
     *
     * @param pcie          the PCIe level between them, whatever NVLink does
     * @param nvlinks       active NVLinks between them (direct plus through switches); 0 none; null unknown
     * @param via           "direct", "NVSwitch", "direct and NVSwitch"; "" without NVLink or when unknown
     * @param versions      the NVLink versions of those links, as nvml.h names them ("4.0"); empty when unknown
     * @param link          what the matrix shows: "NV#" or {@code pcie}
     * @param nvlinkUnknown null when known, else "NVLink unknown: why"
     */
    public record Pair(String a, String b, String pcie, Integer nvlinks, String via, List<String> versions, String link,
                       String nvlinkUnknown) {
        public Pair {
            versions = List.copyOf(versions);
        }

        /** "GPU0-GPU1": the join key for annotations of a pair. */
        public String key() {
            return a + "-" + b;
        }

        public boolean nvlink() {
            return nvlinks != null && nvlinks > 0;
        }
    }

    /**
     * One GPU's NVLinks. Counts are null when NVML could not read the links.
     *
     * @param inactiveLinks the numbers of the links NVML lists as inactive
     * @param toGpus        active links whose far end is a GPU
     * @param toSwitches    active links to an NVSwitch (or to a far end NVML does not name, see the class comment)
     * @param toOther       active links to something else (an IBM NPU: a POWER9 CPU)
     */
    public record GpuLinks(String gpu, String address, Integer active, List<Integer> inactiveLinks, Integer toGpus,
                           Integer toSwitches, Integer toOther, List<String> versions, String unknown) {
        public GpuLinks {
            inactiveLinks = List.copyOf(inactiveLinks);
            versions = List.copyOf(versions);
        }
    }

    /** The matrix of a run: the facts' PCIe tree and what the GPU drill's NVML read said, or why it could not. */
    public static GpuMatrix of(MachineFacts facts, GpuDrill.GpuSection gpu) {
        String unknown = gpu == null ? "NVML not asked"
                : gpu.nvml() == null ? (gpu.notRun().isEmpty() ? "NVML not asked" : gpu.notRun())
                : gpu.nvml().ran() ? null : gpu.nvml().notRun();
        return of(facts.pci(), facts.topology(), unknown == null ? gpu.nvml().gpus() : List.of(), unknown);
    }

    /** The matrix of a live run or a recording, with each pair's {@link PeerPath}: the driver's answers and the switch ports' ACS. */
    public static GpuMatrix of(FsRoot fs, MachineFacts facts, GpuDrill.GpuSection gpu) {
        GpuMatrix m = of(facts, gpu);
        List<NvmlP2p> nvml = gpu == null || gpu.nvml() == null ? List.of() : gpu.nvml().p2p();
        return m.withPeers(PeerPath.of(fs, m, facts.pci(), gpu == null ? List.of() : gpu.peers(), nvml));
    }

    /** This matrix with its pairs' peer paths, and the note when ACS could not be read. */
    public GpuMatrix withPeers(List<PeerPath> paths) {
        List<String> more = new ArrayList<>(notes);
        more.addAll(PeerPath.notes(paths));
        return new GpuMatrix(gpus, matrix, pairs, links, more, paths);
    }

    /**
     * The matrix of the GPUs in {@code pci}.
     *
     * @param nvml        NVML's GPUs, in any order (joined by PCI address); ignored when {@code nvmlUnknown} is set
     * @param nvmlUnknown why NVML could not be asked ("recorded machine: ...", "no NVIDIA driver ..."), else null
     */
    public static GpuMatrix of(List<PciDevice> pci, Topology topology, List<NvmlGpu> nvml, String nvmlUnknown) {
        Map<String, PciDevice> byAddress = new HashMap<>();
        for (PciDevice d : pci) byAddress.put(d.address(), d);
        List<PciDevice> gpus = pci.stream().filter(PciDevice::isGpu).toList();
        int cpuNodes = (int) topology.numaNodes().stream().filter(n -> !n.cpus().isEmpty()).count();
        Map<String, String> labelOf = new LinkedHashMap<>();
        for (PciDevice g : gpus) labelOf.put(canonical(g.address()), g.label());

        List<String> notes = new ArrayList<>();
        Map<String, NvmlGpu> nvmlOf = new HashMap<>();
        if (nvmlUnknown != null) {
            notes.add("NVLink unknown: " + nvmlUnknown);
        } else {
            for (NvmlGpu n : nvml) if (n.pciBusId() != null) nvmlOf.put(canonical(n.pciBusId()), n);
        }

        // each GPU's links, sorted by what is at the far end
        List<GpuLinks> links = new ArrayList<>();
        List<Map<String, List<NvmlGpu.NvLink>>> direct = new ArrayList<>(); // far GPU's address -> links
        List<List<NvmlGpu.NvLink>> switched = new ArrayList<>();
        boolean assumedSwitches = false;
        for (PciDevice g : gpus) {
            String unknown = nvmlUnknown;
            NvmlGpu n = nvmlOf.get(canonical(g.address()));
            if (unknown == null && n == null) unknown = "NVML does not list " + g.address();
            if (unknown == null && n.nvLinks() == null) {
                unknown = n.unknowns().stream().filter(u -> u.startsWith("nvLinks")).findFirst().orElse("NVML could not read its links");
            }
            Map<String, List<NvmlGpu.NvLink>> toGpu = new LinkedHashMap<>();
            List<NvmlGpu.NvLink> toSwitch = new ArrayList<>();
            direct.add(toGpu);
            switched.add(toSwitch);
            if (unknown != null) {
                links.add(new GpuLinks(g.label(), g.address(), null, List.of(), null, null, null, List.of(), unknown));
                if (nvmlUnknown == null) notes.add("NVLink unknown for " + g.label() + ": " + unknown);
                continue;
            }
            int active = 0, other = 0, gpuLinks = 0;
            List<Integer> inactive = new ArrayList<>();
            for (NvmlGpu.NvLink l : n.nvLinks()) {
                if (!l.active()) {
                    inactive.add(l.link());
                    continue;
                }
                active++;
                String far = l.remotePciBusId() == null ? null : canonical(l.remotePciBusId());
                String type = l.remoteType();
                if ("NVSwitch".equals(type)) {
                    toSwitch.add(l);
                } else if ("IBM NPU".equals(type)) {
                    other++;
                } else if ("GPU".equals(type) || (far != null && labelOf.containsKey(far))) {
                    gpuLinks++;
                    if (far != null) toGpu.computeIfAbsent(far, x -> new ArrayList<>()).add(l);
                } else {
                    toSwitch.add(l);
                    assumedSwitches = true;
                }
            }
            links.add(new GpuLinks(g.label(), g.address(), active, inactive, gpuLinks, toSwitch.size(), other,
                    versions(n.nvLinks().stream().filter(NvmlGpu.NvLink::active).toList()), null));
        }
        if (assumedSwitches) {
            notes.add("links whose far end NVML does not name and that reach no GPU of this box are counted as NVSwitch links, as NCCL counts them");
        }

        List<Pair> pairs = new ArrayList<>();
        List<List<String>> matrix = new ArrayList<>();
        for (int i = 0; i < gpus.size(); i++) matrix.add(new ArrayList<>(java.util.Collections.nCopies(gpus.size(), "X")));
        for (int i = 0; i < gpus.size(); i++) {
            for (int j = i + 1; j < gpus.size(); j++) {
                PciDevice a = gpus.get(i), b = gpus.get(j);
                String pcie = Affinity.level(a, b, byAddress, cpuNodes);
                Pair p = pair(a, b, pcie, links.get(i), links.get(j), direct.get(i).getOrDefault(canonical(b.address()), List.of()),
                        direct.get(j).getOrDefault(canonical(a.address()), List.of()), switched.get(i), switched.get(j),
                        sameFabric(nvmlOf.get(canonical(a.address())), nvmlOf.get(canonical(b.address()))));
                pairs.add(p);
                matrix.get(i).set(j, p.link());
                matrix.get(j).set(i, p.link());
            }
        }
        return new GpuMatrix(gpus.stream().map(PciDevice::label).toList(), matrix, pairs, links, notes, List.of());
    }

    private static Pair pair(PciDevice a, PciDevice b, String pcie, GpuLinks la, GpuLinks lb, List<NvmlGpu.NvLink> ab,
                             List<NvmlGpu.NvLink> ba, List<NvmlGpu.NvLink> sa, List<NvmlGpu.NvLink> sb, boolean sameFabric) {
        // a link either end reports active is a link: one side may be unreadable
        int directLinks = Math.max(ab.size(), ba.size());
        boolean bothKnown = la.unknown() == null && lb.unknown() == null;
        int switchLinks = bothKnown && sameFabric ? Math.min(sa.size(), sb.size()) : 0;
        int total = directLinks + switchLinks;
        List<NvmlGpu.NvLink> used = new ArrayList<>(ab.size() >= ba.size() ? ab : ba);
        if (switchLinks > 0) {
            used.addAll(sa);
            used.addAll(sb);
        }
        String via = directLinks > 0 && switchLinks > 0 ? "direct and NVSwitch" : directLinks > 0 ? "direct" : switchLinks > 0 ? "NVSwitch" : "";
        if (total == 0 && !bothKnown) {
            String why = la.unknown() != null ? la.unknown() : lb.unknown();
            return new Pair(a.label(), b.label(), pcie, null, "", List.of(), pcie, "NVLink unknown: " + why);
        }
        return new Pair(a.label(), b.label(), pcie, total, via, versions(used), total > 0 ? "NV" + total : pcie, null);
    }

    /** GPUs whose fabric probes name different NVLink domains share no switch (racks of several boxes). */
    private static boolean sameFabric(NvmlGpu a, NvmlGpu b) {
        if (a == null || b == null || a.fabric() == null || b.fabric() == null) return true;
        String x = a.fabric().clusterUuid(), y = b.fabric().clusterUuid();
        return x == null || y == null || x.equals(y);
    }

    private static List<String> versions(List<NvmlGpu.NvLink> links) {
        return links.stream().map(NvmlGpu.NvLink::version).filter(Objects::nonNull).collect(Collectors.toCollection(TreeSet::new))
                .stream().toList();
    }

    private static final Pattern BUS_ID = Pattern.compile("([0-9a-fA-F]{1,8}):([0-9a-fA-F]{1,2}):([0-9a-fA-F]{1,2})\\.([0-7])");

    /**
     * One spelling for a PCI address: NVML writes "00000000:1A:00.0" (32-bit domain, upper case),
     * sysfs "0000:1a:00.0". Anything else is kept as it is, in lower case.
     */
    static String canonical(String busId) {
        Matcher m = BUS_ID.matcher(busId.strip());
        if (!m.matches()) return busId.strip().toLowerCase(Locale.ROOT);
        return String.format(Locale.ROOT, "%04x:%02x:%02x.%s", Long.parseLong(m.group(1), 16),
                Integer.parseInt(m.group(2), 16), Integer.parseInt(m.group(3), 16), m.group(4));
    }

    /** The pair of two labels, in either order. */
    public java.util.Optional<Pair> pair(String a, String b) {
        return pairs.stream().filter(p -> p.a().equals(a) && p.b().equals(b) || p.a().equals(b) && p.b().equals(a)).findFirst();
    }

    /**
     * What the wiring costs training: pairs whose peer traffic crosses the CPU with no NVLink
     * (one finding per level, naming the pairs), GPUs with some NVLinks down, and what the peer
     * paths add (pairs the driver keeps apart, switch ports that redirect peer traffic to the CPU).
     */
    public List<Finding> findings() {
        List<Finding> f = new ArrayList<>();
        for (String level : List.of("SYS", "NODE", "PHB")) {
            List<String> crossing = pairs.stream().filter(p -> p.pcie().equals(level) && Integer.valueOf(0).equals(p.nvlinks()))
                    .map(Pair::key).toList();
            if (crossing.isEmpty()) continue;
            String which = crossing.size() <= 6 ? String.join(", ", crossing)
                    : String.join(", ", crossing.subList(0, 6)) + " and " + (crossing.size() - 6) + " more pairs";
            List<Evidence> e = crossing.stream().map(k -> Evidence.fact("gpu_matrix." + k, level)).toList();
            f.add(PeerRules.PCIE_PATH.finding(Severity.WARN, "GPU peers", switch (level) {
                case "SYS" -> which + ": no NVLink, and their PCIe path crosses the link between CPU sockets (SYS): peer traffic"
                        + " crosses both sockets' root complexes and the CPU interconnect, or NCCL stages it through host memory";
                case "NODE" -> which + ": no NVLink, and their PCIe paths meet only between host bridges of one NUMA node (NODE):"
                        + " peer traffic goes through the CPU, or NCCL stages it through host memory";
                default -> which + ": no NVLink, and peer traffic goes up through the CPU's host bridge (PHB): NCCL uses P2P"
                        + " through it only where the CPU allows it, else stages through host memory";
            }, e));
        }
        for (GpuLinks l : links) {
            if (l.active() == null || l.active() == 0 || l.inactiveLinks().isEmpty()) continue;
            int all = l.active() + l.inactiveLinks().size();
            f.add(PeerRules.NVLINK_DOWN.finding(Severity.WARN, l.gpu(), String.format(Locale.ROOT,
                    "%s has %d of its %d NVLinks down (link%s %s) while %d are up: it has %d%% of its NVLink bandwidth, and every GPU"
                            + " in a ring or tensor-parallel group with it slows to that",
                    l.gpu(), l.inactiveLinks().size(), all, l.inactiveLinks().size() == 1 ? "" : "s",
                    l.inactiveLinks().stream().map(String::valueOf).collect(Collectors.joining(", ")), l.active(),
                    Math.round(100.0 * l.active() / all)),
                    Evidence.of("nvlink_active." + l.gpu(), l.active(), Unit.COUNT),
                    Evidence.of("nvlink_inactive." + l.gpu(), l.inactiveLinks().size(), Unit.COUNT)));
        }
        f.addAll(PeerPath.findings(this, peers));
        return f;
    }
}
