package hostside.machine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.fs.FsRoot;
import hostside.gpu.nvml.NvmlP2p;
import hostside.gpu.peer.PeerAccess;

/**
 * How peer traffic between two GPUs can flow, beside the wiring of {@link GpuMatrix}: what the
 * CUDA driver allows each way (cuDeviceCanAccessPeer and the P2P attributes) and, for GPUs under
 * one PCIe switch, whether the switch's ports send their peer requests up to the CPU (ACS P2P
 * Request Redirect). The wiring says what the box could do; this says what it will do.
 *
 * @param pair            the pair's key in the matrix, "GPU0-GPU1"
 * @param aToB            the first GPU may map the second's memory; null when the driver was not asked or would not say
 * @param bToA            the other way
 * @param nativeAtomics   every CUDA atomic works natively over the link both ways (NVLink, not PCIe); null unknown
 * @param cudaArrayAccess CUDA arrays can be read over the link both ways; null unknown
 * @param performanceRank the driver's rank of this pair's link among the machine's (0 the best); the worse of the two ways
 * @param acsRedirecting  the switch ports between the two whose ACS sends peer requests up to the root complex
 * @param acsUnknown      why a port between them could not be read (config space needs root), else null
 * @param nvmlAToB        what NVML's nvmlDeviceGetP2PStatus says from the first GPU to the second, per capability
 *                        (read, write, nvlink, atomics, pci) in nvidia-smi topo -p2p's words ("OK", "CNS");
 *                        empty when NVML was not asked
 * @param nvmlBToA        the other way
 */
public record PeerPath(String pair, Boolean aToB, Boolean bToA, Boolean nativeAtomics, Boolean cudaArrayAccess,
                       Integer performanceRank, List<String> acsRedirecting, String acsUnknown, Map<String, String> nvmlAToB,
                       Map<String, String> nvmlBToA) {

    public PeerPath {
        // null from a report's JSON written before a field existed (report --from)
        acsRedirecting = acsRedirecting == null ? List.of() : List.copyOf(acsRedirecting);
        nvmlAToB = copy(nvmlAToB);
        nvmlBToA = copy(nvmlBToA);
    }

    private static Map<String, String> copy(Map<String, String> m) {
        return m == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }

    /**
     * NVML's two answers per capability as one reads them: one word where both ways agree, "TNS
     * one way, OK the other" where they differ.
     */
    public Map<String, String> nvml() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String cap : NVML_CAPABILITIES) {
            String x = nvmlAToB.get(cap), y = nvmlBToA.get(cap);
            if (x == null && y == null) continue;
            out.put(cap, Objects.equals(x, y) ? x : (x == null ? "U" : x) + " one way, " + (y == null ? "U" : y) + " the other");
        }
        return out;
    }

    static final List<String> NVML_CAPABILITIES = NvmlP2p.CAPABILITIES.stream().map(Map.Entry::getKey).toList();

    /** The driver refuses peer access at least one way: copies between the two are staged through host memory. */
    public boolean refused() {
        return Boolean.FALSE.equals(aToB) || Boolean.FALSE.equals(bToA);
    }

    /** NVML's reason that peer reads or writes are not possible ("CNS"), or null when it says OK or was not asked. */
    public String nvmlBlock() {
        for (String cap : List.of("read", "write")) {
            for (Map<String, String> way : List.of(nvmlAToB, nvmlBToA)) {
                String s = way.get(cap);
                if (s != null && !s.equals("OK")) return s;
            }
        }
        return null;
    }

    /** Peer traffic between the two cannot go directly: the CUDA driver refuses it, or NVML says why not. */
    public boolean blocked() {
        return refused() || nvmlBlock() != null;
    }

    /**
     * One path per pair of the matrix. {@code access} is the driver's answer per ordered pair
     * (empty without a driver, or with one GPU); ACS is read only for pairs that share a switch
     * (PIX, PXB), the only ones a redirect changes.
     */
    public static List<PeerPath> of(FsRoot fs, GpuMatrix matrix, List<PciDevice> pci, List<PeerAccess> access, List<NvmlP2p> nvml) {
        Map<String, PciDevice> byAddress = new HashMap<>(), byLabel = new HashMap<>();
        for (PciDevice d : pci) {
            byAddress.put(d.address(), d);
            if (d.isGpu()) byLabel.put(d.label(), d);
        }
        Map<String, PeerAccess> byWay = new HashMap<>();
        for (PeerAccess p : access) {
            if (p.fromAddress() != null && p.toAddress() != null) {
                byWay.put(GpuMatrix.canonical(p.fromAddress()) + ">" + GpuMatrix.canonical(p.toAddress()), p);
            }
        }
        Map<String, NvmlP2p> nvmlWay = new HashMap<>();
        for (NvmlP2p p : nvml) {
            if (p.fromBusId() != null && p.toBusId() != null) {
                nvmlWay.put(GpuMatrix.canonical(p.fromBusId()) + ">" + GpuMatrix.canonical(p.toBusId()), p);
            }
        }
        List<PeerPath> out = new ArrayList<>();
        for (GpuMatrix.Pair p : matrix.pairs()) {
            PciDevice a = byLabel.get(p.a()), b = byLabel.get(p.b());
            if (a == null || b == null) continue;
            PeerAccess ab = byWay.get(a.address() + ">" + b.address()), ba = byWay.get(b.address() + ">" + a.address());
            List<String> redirecting = new ArrayList<>();
            String unknown = null;
            if (p.pcie().equals("PIX") || p.pcie().equals("PXB")) {
                for (PciAcs port : PciAcs.between(fs, a, b, byAddress)) {
                    if (port.redirectsPeerRequests()) redirecting.add(port.address());
                    if (port.unknown() != null && unknown == null) unknown = port.address() + ": " + port.unknown();
                }
            }
            out.add(new PeerPath(p.key(), ab == null ? null : ab.canAccessPeer(), ba == null ? null : ba.canAccessPeer(),
                    both(ab, ba, PeerAccess::nativeAtomics), both(ab, ba, PeerAccess::cudaArrayAccess), worse(ab, ba),
                    redirecting, unknown, status(nvmlWay.get(a.address() + ">" + b.address())),
                    status(nvmlWay.get(b.address() + ">" + a.address()))));
        }
        return out;
    }

    private static Map<String, String> status(NvmlP2p way) {
        return way == null ? Map.of() : way.status();
    }

    /** True when both ways say so, false when either says not, null when a way is unknown and none says not. */
    private static Boolean both(PeerAccess ab, PeerAccess ba, java.util.function.Function<PeerAccess, Boolean> f) {
        Boolean x = ab == null ? null : f.apply(ab), y = ba == null ? null : f.apply(ba);
        if (Boolean.FALSE.equals(x) || Boolean.FALSE.equals(y)) return false;
        return x != null && y != null ? true : null;
    }

    private static Integer worse(PeerAccess ab, PeerAccess ba) {
        Integer x = ab == null ? null : ab.performanceRank(), y = ba == null ? null : ba.performanceRank();
        if (x == null) return y;
        if (y == null) return x;
        return Math.max(x, y);
    }

    /**
     * One line per kind of path, naming its pairs, for the matrix's text ("peer access both ways,
     * native atomics: GPU0-GPU1, GPU2-GPU3"); nothing when the driver was not asked.
     */
    public static List<String> lines(List<PeerPath> paths) {
        Map<String, List<String>> byText = new LinkedHashMap<>();
        for (PeerPath p : paths) {
            List<String> parts = new ArrayList<>();
            if (p.aToB() != null || p.bToA() != null) {
                parts.add(p.refused() ? (Boolean.TRUE.equals(p.aToB()) || Boolean.TRUE.equals(p.bToA())
                        ? "peer access one way only" : "no peer access (copies staged through host memory)")
                        : p.aToB() == null || p.bToA() == null ? "peer access one way, the other unknown"
                        : "peer access both ways" + (Boolean.TRUE.equals(p.nativeAtomics()) ? ", native atomics"
                        : Boolean.FALSE.equals(p.nativeAtomics()) ? ", no native atomics (PCIe)" : ""));
            }
            if (!p.nvml().isEmpty()) {
                parts.add("NVML " + (p.nvml().values().stream().allMatch("OK"::equals) ? "OK for " + String.join(", ", p.nvml().keySet())
                        : String.join(", ", p.nvml().entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList())));
            }
            if (!parts.isEmpty()) byText.computeIfAbsent(String.join("; ", parts), x -> new ArrayList<>()).add(p.pair());
        }
        List<String> lines = new ArrayList<>();
        byText.forEach((text, pairs) -> lines.add("P2P " + text + ": " + Finding.some(pairs)));
        return lines;
    }

    /**
     * What the paths cost training: pairs the driver keeps apart (worst where NVLink joins them),
     * and pairs under one switch whose ports send peer traffic up to the CPU.
     */
    public static List<Finding> findings(GpuMatrix matrix, List<PeerPath> paths) {
        List<Finding> f = new ArrayList<>();
        Map<String, GpuMatrix.Pair> pairs = new HashMap<>();
        for (GpuMatrix.Pair p : matrix.pairs()) pairs.put(p.key(), p);
        Predicate<PeerPath> onNvlink = p -> pairs.containsKey(p.pair()) && pairs.get(p.pair()).nvlink();
        List<PeerPath> nvlinkBlocked = paths.stream().filter(p -> p.blocked() && onNvlink.test(p)).toList();
        if (!nvlinkBlocked.isEmpty()) {
            f.add(PeerRules.NVLINK_REFUSED.finding(Severity.BAD, "GPU peers", named(nvlinkBlocked) + ": NVLink joins them but peer"
                    + " access is refused (" + evidence(nvlinkBlocked) + "), so copies between them are staged through host memory at"
                    + " PCIe speed" + reasons(nvlinkBlocked), facts(nvlinkBlocked)));
        }
        List<PeerPath> pcieBlocked = paths.stream().filter(p -> p.blocked() && !onNvlink.test(p)).toList();
        if (!pcieBlocked.isEmpty()) {
            f.add(PeerRules.PEER_NONE.finding(Severity.WARN, "GPU peers", named(pcieBlocked) + ": no peer access ("
                    + evidence(pcieBlocked) + "), so copies between them go through host memory, twice over PCIe"
                    + " (device_to_device_memcpy_staged_ce measures it)" + reasons(pcieBlocked), facts(pcieBlocked)));
        }
        List<PeerPath> redirected = paths.stream().filter(p -> !p.acsRedirecting().isEmpty()).toList();
        if (!redirected.isEmpty()) {
            List<String> ports = redirected.stream().flatMap(p -> p.acsRedirecting().stream()).distinct().toList();
            f.add(PeerRules.ACS.finding(Severity.WARN, "GPU peers", Finding.some(redirected.stream().map(PeerPath::pair).toList())
                    + " share a PCIe switch, but ACS P2P Request Redirect is on at " + Finding.some(ports) + ": their peer requests go up"
                    + " to the CPU's root complex instead of across the switch",
                    ports.stream().map(a -> (Evidence) Evidence.fact("pci." + a + ".acs_ctl", "ReqRedir+")).toList()));
        }
        return f;
    }

    /** The note for the matrix when ACS could not be read for some pair under one switch. */
    public static List<String> notes(List<PeerPath> paths) {
        return paths.stream().map(PeerPath::acsUnknown).filter(Objects::nonNull).findFirst()
                .map(u -> List.of("ACS of the switch ports between GPUs not read (" + u + "): whether peer traffic under a"
                        + " switch is redirected to the CPU is unknown; run as root to read it"))
                .orElse(List.of());
    }

    /** What each pair's driver and NVML said, by pair. */
    private static List<Evidence> facts(List<PeerPath> paths) {
        List<Evidence> e = new ArrayList<>();
        for (PeerPath p : paths) {
            if (p.aToB() != null || p.bToA() != null) {
                e.add(Evidence.fact("cuDeviceCanAccessPeer." + p.pair(), p.aToB() + "/" + p.bToA()));
            }
            if (p.nvmlBlock() != null) e.add(Evidence.fact("nvmlDeviceGetP2PStatus." + p.pair(), p.nvmlBlock()));
        }
        return e;
    }

    /** The pairs, each with NVML's word where it has one: "GPU0-GPU1 (CNS)". */
    private static String named(List<PeerPath> paths) {
        return Finding.some(paths.stream().map(p -> p.pair() + (p.nvmlBlock() == null ? "" : " (" + p.nvmlBlock() + ")")).toList());
    }

    /** Which source said no: the CUDA driver, NVML, or both. */
    private static String evidence(List<PeerPath> paths) {
        boolean cuda = paths.stream().anyMatch(PeerPath::refused), nvml = paths.stream().anyMatch(p -> p.nvmlBlock() != null);
        return cuda && nvml ? "cuDeviceCanAccessPeer is 0; NVML's P2P status is not OK"
                : cuda ? "cuDeviceCanAccessPeer is 0" : "NVML's P2P status for reads or writes is not OK";
    }

    /** "; NVML: CNS: the chipset does not support it (...)" for each distinct reason, or nothing. */
    private static String reasons(List<PeerPath> paths) {
        List<String> words = paths.stream().map(PeerPath::nvmlBlock).filter(Objects::nonNull).distinct().toList();
        return words.isEmpty() ? "" : "; NVML: " + String.join("; ", words.stream().map(w -> w + ": " + NvmlP2p.meaning(w)).toList());
    }
}
