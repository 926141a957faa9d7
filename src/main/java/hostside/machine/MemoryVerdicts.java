package hostside.machine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import hostside.core.Figure;
import hostside.core.Finding;
import hostside.core.Scope;
import hostside.memory.MemoryCases;
import hostside.memory.MemoryDetails;
import hostside.memory.Placement;

/**
 * What the memory figures mean for feeding GPUs, as findings: a far node's memory, a thread on a
 * small core, one thread's ceiling, host memory against the GPUs' copies, and the measurements that
 * did not measure what they say (pages not where they were bound, a chase without huge pages). Two
 * figures are compared only when their ranges do not overlap ({@link Figure#differsFrom}); within
 * noise the finding says they are even.
 */
public final class MemoryVerdicts {
    /** Below this share of the huge pages asked for, the chase mostly ran on base pages. */
    static final double HUGE_ENOUGH = 0.5;

    private MemoryVerdicts() {}

    public static List<Finding> of(MemoryDrill.MemorySection memory, GpuDrill.GpuSection gpu) {
        List<Finding> out = new ArrayList<>();
        if (memory == null || memory.results().isEmpty()) return out;
        List<Figure> figures = memory.figures();
        out.addAll(farNodes(memory.plan(), figures));
        out.addAll(coreKinds(memory.plan(), figures));
        oneThread(figures).ifPresent(out::add);
        gpusAtOnce(figures, gpu).ifPresent(out::add);
        out.addAll(misplaced(memory));
        return out;
    }

    static Optional<Figure> find(List<Figure> figures, String key, Scope scope) {
        return figures.stream().filter(f -> f.key().equals(key) && f.scope().equals(scope)).findFirst();
    }

    /**
     * Each CPU node against every other node's memory: read bandwidth and latency from the far node
     * beside the node's own, with the numactl line that keeps a job's memory at home.
     */
    static List<Finding> farNodes(MemoryPlan plan, List<Figure> figures) {
        List<Finding> out = new ArrayList<>();
        for (MemoryPlan.Pair p : plan.pairs()) {
            if (p.cpuNode() == p.memoryNode()) continue;
            Optional<Figure> local = find(figures, MemoryCases.READ, Scope.nodes(p.cpuNode(), p.cpuNode()));
            Optional<Figure> far = find(figures, MemoryCases.READ, Scope.nodes(p.cpuNode(), p.memoryNode()));
            if (local.isEmpty() || far.isEmpty()) continue;
            Optional<Figure> localNs = find(figures, MemoryCases.LATENCY, Scope.nodes(p.cpuNode(), p.cpuNode()));
            Optional<Figure> farNs = find(figures, MemoryCases.LATENCY, Scope.nodes(p.cpuNode(), p.memoryNode()));
            String latency = localNs.isPresent() && farNs.isPresent()
                    ? String.format(Locale.ROOT, ", %.0f ns a load against %.0f", farNs.get().value(), localNs.get().value()) : "";
            String subject = "node " + p.cpuNode();
            if (!far.get().differsFrom(local.get())) {
                out.add(Finding.info(subject, String.format(Locale.ROOT, "CPUs of node %d read node %d's memory (%s) as fast as their own within noise (%.1f against %.1f GB/s%s)",
                        p.cpuNode(), p.memoryNode(), p.memoryRole(), far.get().value(), local.get().value(), latency)));
                continue;
            }
            double share = far.get().value() / local.get().value();
            if (share >= 1) continue; // a far node faster than home: a GPU's HBM on Grace; said by the matrix itself
            String text = String.format(Locale.ROOT, "CPUs of node %d read node %d's memory (%s) at %.0f%% of their own node's (%.1f against %.1f GB/s%s): "
                            + "keep a process's memory on its CPUs' node (numactl --cpunodebind=%d --membind=%d), and pinned buffers on the GPU's node",
                    p.cpuNode(), p.memoryNode(), p.memoryRole(), 100 * share, far.get().value(), local.get().value(), latency, p.cpuNode(), p.cpuNode());
            out.add(share < 0.75 ? Finding.warn(subject, text) : Finding.info(subject, text));
        }
        return out;
    }

    /** One thread on each kind of core: the small ones against the big one, bandwidth and latency. */
    static List<Finding> coreKinds(MemoryPlan plan, List<Figure> figures) {
        List<Finding> out = new ArrayList<>();
        if (plan.kinds().size() < 2) return out;
        MemoryPlan.Kind big = plan.kinds().stream().filter(k -> k.cpu() == plan.oneThreadCpu()).findFirst().orElse(plan.kinds().get(0));
        Optional<Figure> bigGbs = find(figures, MemoryCases.TRIAD_ONE_THREAD, Scope.cpus(hostside.core.CpuSet.of(big.cpu())));
        if (bigGbs.isEmpty()) return out;
        for (MemoryPlan.Kind k : plan.kinds()) {
            if (k == big) continue;
            Optional<Figure> gbs = find(figures, MemoryCases.TRIAD_ONE_THREAD, Scope.cpus(hostside.core.CpuSet.of(k.cpu())));
            if (gbs.isEmpty()) continue;
            String subject = k.name();
            if (!gbs.get().differsFrom(bigGbs.get())) {
                out.add(Finding.info(subject, String.format(Locale.ROOT, "one thread on a %s (CPU %d) moves as much memory as on a %s (CPU %d) within noise (%.1f against %.1f GB/s)",
                        k.name(), k.cpu(), big.name(), big.cpu(), gbs.get().value(), bigGbs.get().value())));
                continue;
            }
            double share = gbs.get().value() / bigGbs.get().value();
            if (share >= 1) continue;
            out.add(Finding.warn(subject, String.format(Locale.ROOT, "one thread on a %s (CPU %d) moves %.0f%% of what it moves on a %s (CPU %d): %.1f against %.1f GB/s; "
                            + "keep the GPU's feeder threads (DataLoader's main loop, the copy thread) on %s cores (taskset -c with their CPUs)",
                    k.name(), k.cpu(), 100 * share, big.name(), big.cpu(), gbs.get().value(), bigGbs.get().value(), big.name())));
        }
        return out;
    }

    /** One thread's share of the machine: the ceiling of anything single-threaded that copies memory (pageable copies' staging, a loader's collate). */
    static Optional<Finding> oneThread(List<Figure> figures) {
        Optional<Figure> one = find(figures, MemoryCases.TRIAD_ONE_THREAD, Scope.MACHINE), all = find(figures, MemoryCases.TRIAD, Scope.MACHINE);
        if (one.isEmpty() || all.isEmpty()) return Optional.empty();
        return Optional.of(Finding.info("memory", String.format(Locale.ROOT,
                "one thread moves %.1f GB/s, %.0f%% of the %.1f GB/s of every CPU together (STREAM Triad): a single-threaded copy of host memory "
                        + "(a pageable copy's staging, a collate in the main process) cannot go faster; spread such work over threads or workers",
                one.get().value(), 100 * one.get().value() / all.get().value(), all.get().value())));
    }

    /**
     * Host memory against the GPUs' copies all at once: each pinned host-to-device copy reads host
     * memory at its own rate, so the GPUs together need their sum, beside what STREAM measures.
     */
    static Optional<Finding> gpusAtOnce(List<Figure> figures, GpuDrill.GpuSection gpu) {
        Optional<Figure> all = find(figures, MemoryCases.TRIAD, Scope.MACHINE);
        if (all.isEmpty() || gpu == null || gpu.runs().isEmpty()) return Optional.empty();
        double need = 0;
        int gpus = 0;
        for (GpuDrill.GpuRun r : gpu.runs()) {
            Optional<Double> h2d = hostside.harness.Result.median(r.results(), "host_to_device_ce_pinned");
            if (h2d.isEmpty()) continue;
            need += h2d.get();
            gpus++;
        }
        if (gpus == 0) return Optional.empty();
        double have = all.get().value();
        String text = String.format(Locale.ROOT, "memory bandwidth is %.1f GB/s (STREAM Triad, every CPU), %.1f GB/s per GPU; %s read %.1f GB/s of it",
                have, have / gpu.runs().size(), gpus == 1 ? "the GPU's pinned host-to-device copies" : "pinned host-to-device copies to " + gpus + " GPUs at once", need);
        if (need > have * 0.5) {
            return Optional.of(Finding.warn("memory", text + String.format(Locale.ROOT, " (%.0f%%): a DataLoader's own memory traffic competes with the copies; "
                    + "stagger the GPUs' transfers or keep batches small", 100 * need / have)));
        }
        return Optional.of(Finding.info("memory", text + String.format(Locale.ROOT, " (%.0f%%): room left for the loaders' own work", 100 * need / have)));
    }

    /** Measurements whose pages were not where they were bound, or whose chase got few huge pages: their figures are not what they say. */
    static List<Finding> misplaced(MemoryDrill.MemorySection memory) {
        List<Finding> out = new ArrayList<>();
        for (MemoryDrill.Measured m : memory.results()) {
            if (!m.result().isOk()) continue;
            Placement p = switch (m.result().detail()) {
                case MemoryDetails.Stream s -> s.placement();
                case MemoryDetails.Read r -> r.placement();
                case MemoryDetails.Chase c -> c.placement();
                case null, default -> null;
            };
            if (p != null && !p.asBound()) {
                out.add(Finding.warn("memory", String.format(Locale.ROOT, "%s, %s: %d of %d sampled pages are not on node %d, where they were bound: the figure mixes nodes "
                                + "(a full node, or a cpuset that excludes it)",
                        m.result().key(), m.label(), p.sampled() - p.byNode().getOrDefault(p.node(), 0), p.sampled(), p.node())));
            }
            if (m.result().detail() instanceof MemoryDetails.Chase c && c.hugeAsked() && c.hugeBytes() != null && c.hugeBytes() < HUGE_ENOUGH * c.bytes()) {
                out.add(Finding.info("memory", String.format(Locale.ROOT, "%s, %s: only %s of the %s set sat in huge pages: the latency includes page walks (THP defrag or fragmented memory)",
                        m.result().key(), m.label(), hostside.core.Units.bytes(c.hugeBytes()), hostside.core.Units.bytes(c.bytes()))));
            }
        }
        return out;
    }
}
