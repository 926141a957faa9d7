package hostside.machine;

import hostside.core.Finding;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import hostside.gpu.bench.AllGpus;
import hostside.gpu.bench.Copies;
import hostside.gpu.peer.PeerCe;
import hostside.gpu.peer.PeerMatrix;
import hostside.harness.Result;

/**
 * What the measurements between GPUs say about the wiring the matrix describes: NVLink pairs
 * whose copies run no faster than PCIe (the traffic is not on NVLink), or far below what their
 * links carry, and GPUs that get less of the host than the others when all copy at once (they
 * share a PCIe switch, a root port or a NUMA node's memory). Findings, like the matrix's own,
 * so they reach the report's findings and the fleet comparison.
 */
final class PeerVerdicts {
    /** A GPU getting less than this share of the best GPU's figure under all-at-once load is uneven. */
    static final double UNEVEN = 0.8;
    /** All GPUs at once below this share of the sum of each alone: the host is the limit. */
    static final double SHARED = 0.8;
    /** An NVLink pair below this share of its links' rate is degraded (copies reach 85-90% on healthy boards). */
    static final double DEGRADED = 0.5;
    static final List<String> PEER_COPIES = List.of(new PeerCe.Unidirectional(true).key(), new PeerCe.Unidirectional(false).key());
    static final String STAGED = new PeerCe.Staged().key();
    /** Direct peer copies within this factor of staged ones are not direct (healthy PCIe P2P beats staging about 2x). */
    static final double VIA_HOST = 1.2;

    private PeerVerdicts() {}

    static List<Finding> of(MachineFacts facts, GpuDrill.GpuSection gpu, GpuMatrix matrix) {
        if (gpu == null || gpu.allGpus().isEmpty()) return List.of();
        Map<String, PciDevice> byAddress = new HashMap<>(), byLabel = new HashMap<>();
        for (PciDevice d : facts.pci()) {
            byAddress.put(d.address(), d);
            if (d.isGpu()) byLabel.put(d.label(), d);
        }
        List<Finding> f = new ArrayList<>(nvlinkSpeed(gpu.allGpus(), matrix, byLabel));
        f.addAll(switchPeersViaHost(gpu.allGpus(), matrix, byLabel));
        for (Result r : gpu.allGpus()) {
            if (r.isOk() && r.detail() instanceof AllGpus.AllGpusDetail d) {
                f.addAll(hostShare(r, d.perGpu(), gpu.runs(), matrix, byAddress));
            }
        }
        return f;
    }

    /** NVLink's rate per link and direction by version: 20 GB/s for 1.0, 25 for 2.x-4.0, 50 for 5.0. */
    static Optional<Double> perLinkGBs(List<String> versions) {
        if (versions.size() != 1) return Optional.empty(); // none known, or a mix: no single rate to expect
        return switch (versions.getFirst().charAt(0)) {
            case '1' -> Optional.of(20.0);
            case '2', '3', '4' -> Optional.of(25.0);
            case '5' -> Optional.of(50.0);
            default -> Optional.empty();
        };
    }

    /**
     * Each NVLink pair's best copy-engine figure (read or write, either way) against the slower of
     * its two PCIe links at their maximum, and against what its links carry.
     */
    static List<Finding> nvlinkSpeed(List<Result> all, GpuMatrix matrix, Map<String, PciDevice> byLabel) {
        List<PeerMatrix> measured = matrices(all, PEER_COPIES);
        if (measured.isEmpty()) return List.of();
        List<String> atPcie = new ArrayList<>(), degraded = new ArrayList<>();
        for (GpuMatrix.Pair p : matrix.pairs()) {
            PciDevice a = byLabel.get(p.a()), b = byLabel.get(p.b());
            if (!p.nvlink() || a == null || b == null) continue;
            Double best = best(measured, a, b);
            if (best == null) continue;
            double pcie = a.link() == null || b.link() == null ? 0 : Math.min(a.link().maxGBs(), b.link().maxGBs());
            Optional<Double> perLink = perLinkGBs(p.versions());
            if (pcie > 0 && best <= pcie) {
                atPcie.add(String.format(Locale.ROOT, "%s (%s, %.0f GB/s; PCIe %.0f GB/s)", p.key(), p.link(), best, pcie));
            } else if (perLink.isPresent() && best < DEGRADED * p.nvlinks() * perLink.get()) {
                double rate = p.nvlinks() * perLink.get();
                degraded.add(String.format(Locale.ROOT, "%s (%.0f GB/s, %.0f%% of %s's %.0f GB/s)", p.key(), best, 100 * best / rate,
                        p.link(), rate));
            }
        }
        List<Finding> f = new ArrayList<>();
        if (!atPcie.isEmpty()) {
            f.add(Finding.bad("GPU peers", Finding.some(atPcie) + ": NVLink joins them, but their peer copies run no faster than"
                    + " their PCIe links could: the traffic is not on NVLink (links down or untrained, the fabric manager not"
                    + " running, P2P staged through the host); all-reduce and tensor-parallel exchanges between them run at PCIe"
                    + " speed: check nvidia-smi nvlink -s and nvidia-smi -q's Fabric state"));
        }
        if (!degraded.isEmpty()) {
            f.add(Finding.warn("GPU peers", Finding.some(degraded) + ": peer copies reach less than half of what the pair's NVLinks carry"
                    + " (healthy boards reach 85-90%): an all-reduce through them is that much slower; check for links running"
                    + " at reduced width, errors in nvidia-smi nvlink -e, or another job on those GPUs"));
        }
        return f;
    }

    /**
     * Pairs under one PCIe switch (PIX, PXB) without NVLink whose peer copies are no faster than
     * the same copy staged through host memory: their P2P traffic is going up through the CPU
     * (ACS redirect, an IOMMU in translation mode, a BIOS setting), which the switch exists to avoid.
     * The measured side of what {@link PeerPath} reads from ACS, for when that needs root.
     */
    static List<Finding> switchPeersViaHost(List<Result> all, GpuMatrix matrix, Map<String, PciDevice> byLabel) {
        List<PeerMatrix> peer = matrices(all, PEER_COPIES), staged = matrices(all, List.of(STAGED));
        if (peer.isEmpty() || staged.isEmpty()) return List.of();
        List<String> slow = new ArrayList<>();
        for (GpuMatrix.Pair p : matrix.pairs()) {
            PciDevice a = byLabel.get(p.a()), b = byLabel.get(p.b());
            if (p.nvlink() || a == null || b == null || !(p.pcie().equals("PIX") || p.pcie().equals("PXB"))) continue;
            Double direct = best(peer, a, b), host = best(staged, a, b);
            if (direct != null && host != null && direct <= VIA_HOST * host) {
                slow.add(String.format(Locale.ROOT, "%s (%s: %.1f GB/s direct, %.1f staged through host memory)", p.key(), p.pcie(), direct, host));
            }
        }
        if (slow.isEmpty()) return List.of();
        return List.of(Finding.warn("GPU peers", Finding.some(slow) + ": they share a PCIe switch, yet peer copies run no faster"
                + " than staging through host memory, so their P2P traffic goes up through the CPU (ACS P2P redirect on the"
                + " switch ports, the IOMMU translating peer addresses, or a BIOS setting): NCCL between them gets host-copy"
                + " bandwidth; check ACS with lspci -vvv (ACSCtl) as root and the IOMMU mode"));
    }

    /** The first matrix of each measured result among {@code keys}. */
    private static List<PeerMatrix> matrices(List<Result> all, List<String> keys) {
        return all.stream().filter(r -> r.isOk() && keys.contains(r.key()) && r.detail() instanceof hostside.gpu.peer.PeerDetail)
                .map(r -> ((hostside.gpu.peer.PeerDetail) r.detail()).main()).toList();
    }

    /** The pair's best figure over the matrices, either way; null when none measured it. */
    private static Double best(List<PeerMatrix> matrices, PciDevice a, PciDevice b) {
        Double best = null;
        for (PeerMatrix m : matrices) {
            for (Double v : new Double[] {m.at(a.address(), b.address()), m.at(b.address(), a.address())}) {
                if (v != null && (best == null || v > best)) best = v;
            }
        }
        return best;
    }

    /**
     * Under all-at-once host copies: GPUs well below the best one (naming what they share), and
     * the host giving all GPUs together much less than each gets alone.
     */
    static List<Finding> hostShare(Result r, List<AllGpus.PerGpu> each, List<GpuDrill.GpuRun> runs, GpuMatrix matrix,
                                   Map<String, PciDevice> byAddress) {
        if (each.size() < 2) return List.of();
        boolean toDevice = r.key().equals(new AllGpus(true).key());
        String direction = toDevice ? "host to GPU" : "GPU to host";
        String aloneKey = new Copies.CePinned(toDevice).key();
        double best = each.stream().mapToDouble(g -> g.gbs().median()).max().orElse(0);
        List<String> slow = new ArrayList<>(), slowLabels = new ArrayList<>();
        double atOnce = 0, alone = 0;
        boolean allAlone = true;
        for (AllGpus.PerGpu g : each) {
            String label = byAddress.containsKey(g.pciAddress()) ? byAddress.get(g.pciAddress()).label() : g.pciAddress();
            Double solo = runs.stream().filter(x -> x.pciAddress().equals(g.pciAddress())).findFirst()
                    .flatMap(x -> Result.median(x.results(), aloneKey)).orElse(null);
            atOnce += g.gbs().median();
            if (solo == null) allAlone = false;
            else alone += solo;
            if (g.gbs().median() < UNEVEN * best) {
                slowLabels.add(label);
                slow.add(String.format(Locale.ROOT, "%s %.1f GB/s%s", label, g.gbs().median(),
                        solo == null ? "" : String.format(Locale.ROOT, " (%.1f alone)", solo)));
            }
        }
        List<Finding> f = new ArrayList<>();
        if (!slow.isEmpty()) {
            f.add(Finding.warn("GPU host links", String.format(Locale.ROOT,
                    "%s copies with every GPU copying at once (%s): %s against %.1f GB/s for the best GPU; %s. Every rank's"
                            + " input copy at the start of a step, or a checkpoint offload, waits for the slowest GPU, so the"
                            + " whole job runs at its pace: spread the GPUs over root ports, or stagger the copies",
                    direction, r.key(), Finding.some(slow), best, why(slowLabels, matrix))));
        }
        if (allAlone && alone > 0 && atOnce < SHARED * alone) {
            f.add(Finding.warn("GPU host links", String.format(Locale.ROOT,
                    "%s copies: all %d GPUs at once move %.0f GB/s, %.0f%% of the %.0f GB/s they reach one at a time: the host"
                            + " (shared PCIe switches, root complexes or memory bandwidth) is the limit, so data loading or"
                            + " offload for all ranks together gets %.0f GB/s, not the sum of the GPUs' links",
                    direction, each.size(), atOnce, 100 * atOnce / alone, alone, atOnce)));
        }
        return f;
    }

    /** What the slow GPUs share, from the matrix's PCIe levels: a switch, a host bridge, a NUMA node. */
    static String why(List<String> slow, GpuMatrix matrix) {
        for (String level : List.of("PIX", "PXB", "PHB", "NODE")) {
            List<String> sharing = matrix.pairs().stream().filter(p -> p.pcie().equals(level)
                    && (slow.contains(p.a()) || slow.contains(p.b()))).map(GpuMatrix.Pair::key).toList();
            if (sharing.isEmpty()) continue;
            return switch (level) {
                case "PIX", "PXB" -> "they share a PCIe switch with another GPU (" + Finding.some(sharing) + "), whose one uplink to the CPU carries both";
                case "PHB" -> "they share a CPU host bridge with another GPU (" + Finding.some(sharing) + ")";
                default -> "they share a NUMA node's root complex and memory with another GPU (" + Finding.some(sharing) + ")";
            };
        }
        return "the PCIe tree shows nothing they share that the others do not: look at the links' speed under load and at other traffic on the host";
    }
}
