package hostside.machine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Severity;
import hostside.core.Unit;
import hostside.gpu.bench.AllGpus;
import hostside.gpu.bench.Copies;
import hostside.gpu.peer.PeerCe;
import hostside.gpu.peer.PeerDetail;
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
    static final List<String> PEER_COPIES = List.of(new PeerCe.Unidirectional(true).key(), new PeerCe.Unidirectional(false).key());
    static final String STAGED = new PeerCe.Staged().key();
    private PeerVerdicts() {}

    static List<Finding> of(MachineFacts facts, GpuDrill.GpuSection gpu, GpuMatrix matrix) {
        return of(facts, gpu, matrix, List.of());
    }

    /** ... where {@code busy} names what made the machine busy (process.MachineLoad): then each finding is unknown, its figures said. */
    static List<Finding> of(MachineFacts facts, GpuDrill.GpuSection gpu, GpuMatrix matrix, List<String> busy) {
        if (gpu == null || gpu.allGpus().isEmpty()) return List.of();
        Map<String, PciDevice> byAddress = new HashMap<>(), byLabel = new HashMap<>();
        for (PciDevice d : facts.pci()) {
            byAddress.put(d.address(), d);
            if (d.isGpu()) byLabel.put(d.label(), d);
        }
        List<Finding> f = new ArrayList<>(nvlinkSpeed(gpu.allGpus(), matrix, byLabel, busy));
        f.addAll(switchPeersViaHost(gpu.allGpus(), matrix, byLabel, busy));
        for (Result r : gpu.allGpus()) {
            if (r.isOk() && r.detail() instanceof AllGpus.AllGpusDetail d) {
                f.addAll(hostShare(r, d.perGpu(), gpu.runs(), matrix, byAddress, busy));
            }
        }
        return f;
    }

    /**
     * Each NVLink pair's best copy-engine figure (read or write, either way) against the slower of
     * its two PCIe links at their maximum, and against what its links carry.
     */
    static List<Finding> nvlinkSpeed(List<Result> all, GpuMatrix matrix, Map<String, PciDevice> byLabel, List<String> busy) {
        List<PeerMatrix> measured = matrices(all, PEER_COPIES);
        if (measured.isEmpty()) return List.of();
        List<String> atPcie = new ArrayList<>(), degraded = new ArrayList<>();
        List<Evidence> atPcieE = new ArrayList<>(), degradedE = new ArrayList<>();
        for (GpuMatrix.Pair p : matrix.pairs()) {
            PciDevice a = byLabel.get(p.a()), b = byLabel.get(p.b());
            if (!p.nvlink() || a == null || b == null) continue;
            Double best = best(measured, a, b);
            if (best == null) continue;
            double pcie = a.link() == null || b.link() == null ? 0 : Math.min(a.link().maxGBs(), b.link().maxGBs());
            Optional<Double> perLink = PeerRules.perLinkGBs(p.versions(), a.description());
            if (pcie > 0 && best <= pcie) {
                atPcie.add(String.format(Locale.ROOT, "%s (%s, %.0f GB/s; PCIe %.0f GB/s)", p.key(), p.link(), best, pcie));
                atPcieE.add(Evidence.of("peer_copy_best." + p.key(), best, Unit.GB_PER_S));
                atPcieE.add(Evidence.of("pcie_max." + p.key(), pcie, Unit.GB_PER_S));
            } else if (perLink.isPresent() && best < PeerRules.DEGRADED * p.nvlinks() * perLink.get()) {
                double rate = p.nvlinks() * perLink.get();
                degraded.add(String.format(Locale.ROOT, "%s (%.0f GB/s, %.0f%% of %s's %.0f GB/s)", p.key(), best, 100 * best / rate,
                        p.link(), rate));
                degradedE.add(Evidence.of("peer_copy_best." + p.key(), best, Unit.GB_PER_S));
                degradedE.add(Evidence.of("nvlink_rate." + p.key(), rate, Unit.GB_PER_S));
            }
        }
        List<Finding> f = new ArrayList<>();
        if (!atPcie.isEmpty()) {
            String figures = Finding.some(atPcie);
            f.add(PeerRules.NVLINK_AT_PCIE.measured(Severity.BAD, "GPU peers", figures + ": NVLink joins them, but their peer copies run"
                    + " no faster than their PCIe links could, so their exchanges run at PCIe speed", figures, atPcieE, busy));
        }
        if (!degraded.isEmpty()) {
            String figures = Finding.some(degraded);
            f.add(PeerRules.NVLINK_DEGRADED.measured(Severity.WARN, "GPU peers", figures + ": peer copies reach less than half of what"
                    + " the pair's NVLinks carry, so an all-reduce through them is that much slower", figures, degradedE, busy));
        }
        return f;
    }

    /**
     * Pairs under one PCIe switch (PIX, PXB) without NVLink whose peer copies are no faster than
     * the same copy staged through host memory: their P2P traffic is going up through the CPU
     * (ACS redirect, an IOMMU in translation mode, a BIOS setting), which the switch exists to avoid.
     * The measured side of what {@link PeerPath} reads from ACS, for when that needs root.
     */
    static List<Finding> switchPeersViaHost(List<Result> all, GpuMatrix matrix, Map<String, PciDevice> byLabel, List<String> busy) {
        List<PeerMatrix> peer = matrices(all, PEER_COPIES), staged = matrices(all, List.of(STAGED));
        if (peer.isEmpty() || staged.isEmpty()) return List.of();
        List<String> slow = new ArrayList<>();
        List<Evidence> e = new ArrayList<>();
        for (GpuMatrix.Pair p : matrix.pairs()) {
            PciDevice a = byLabel.get(p.a()), b = byLabel.get(p.b());
            if (p.nvlink() || a == null || b == null || !(p.pcie().equals("PIX") || p.pcie().equals("PXB"))) continue;
            Double direct = best(peer, a, b), host = best(staged, a, b);
            if (direct != null && host != null && direct <= PeerRules.VIA_HOST * host) {
                e.add(Evidence.of("peer_copy_best." + p.key(), direct, Unit.GB_PER_S));
                e.add(Evidence.of(STAGED + "." + p.key(), host, Unit.GB_PER_S));
                slow.add(String.format(Locale.ROOT, "%s (%s: %.1f GB/s direct, %.1f staged through host memory)", p.key(), p.pcie(), direct, host));
            }
        }
        if (slow.isEmpty()) return List.of();
        String figures = Finding.some(slow);
        return List.of(PeerRules.VIA_HOST_RULE.measured(Severity.WARN, "GPU peers", figures + ": they share a PCIe switch, yet peer"
                + " copies run no faster than staging through host memory, so their P2P traffic goes up through the CPU", figures, e, busy));
    }

    /** The first matrix of each measured result among {@code keys}. */
    private static List<PeerMatrix> matrices(List<Result> all, List<String> keys) {
        return all.stream().filter(r -> r.isOk() && keys.contains(r.key()) && r.detail() instanceof PeerDetail)
                .map(r -> ((PeerDetail) r.detail()).main()).toList();
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
                                   Map<String, PciDevice> byAddress, List<String> busy) {
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
            if (g.gbs().median() < PeerRules.UNEVEN * best) {
                slowLabels.add(label);
                slow.add(String.format(Locale.ROOT, "%s %.1f GB/s%s", label, g.gbs().median(),
                        solo == null ? "" : String.format(Locale.ROOT, " (%.1f alone)", solo)));
            }
        }
        List<Finding> f = new ArrayList<>();
        List<Evidence> e = new ArrayList<>();
        for (AllGpus.PerGpu g : each) e.add(Evidence.of(r.key() + "." + g.pciAddress(), g.gbs().median(), Unit.GB_PER_S));
        if (!slow.isEmpty()) {
            String figures = String.format(Locale.ROOT, "%s copies with every GPU copying at once (%s): %s against %.1f GB/s for the best GPU",
                    direction, r.key(), Finding.some(slow), best);
            f.add(PeerRules.HOST_UNEVEN.measured(Severity.WARN, "GPU host links", figures + "; " + why(slowLabels, matrix)
                    + ", and every rank's copy waits for the slowest", figures, e, busy));
        }
        if (allAlone && alone > 0 && atOnce < PeerRules.SHARED * alone) {
            String figures = String.format(Locale.ROOT, "%s copies: all %d GPUs at once move %.0f GB/s, %.0f%% of the %.0f GB/s they reach"
                    + " one at a time", direction, each.size(), atOnce, 100 * atOnce / alone, alone);
            List<Evidence> sums = List.of(Evidence.of(r.key(), atOnce, Unit.GB_PER_S), Evidence.of("sum_alone." + aloneKey, alone, Unit.GB_PER_S));
            f.add(PeerRules.HOST_SHARED.measured(Severity.WARN, "GPU host links", figures + ": the host is the limit, so all ranks"
                    + String.format(Locale.ROOT, " together get %.0f GB/s, not the sum of their links", atOnce), figures, sums, busy));
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
