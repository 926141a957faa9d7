package hostside.machine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import hostside.core.CpuSet;
import hostside.core.Evidence;
import hostside.core.Figure;
import hostside.core.Finding;
import hostside.core.Scope;
import hostside.core.Severity;
import hostside.core.Units;
import hostside.harness.Result;
import hostside.memory.MemoryCases;
import hostside.memory.MemoryDetails;
import hostside.memory.Placement;
import hostside.process.MachineLoad;

/**
 * What the memory figures mean for feeding GPUs, as findings of {@link MemoryRules}' rules: a far
 * node's memory, a thread on a small core, one thread's ceiling, host memory against the GPUs'
 * copies, and the measurements that did not measure what they say (pages not where they were
 * bound, a chase without huge pages). Two figures are compared only when their ranges do not
 * overlap ({@link Figure#differsFrom}); within noise the finding says they are even. On a machine
 * that was busy as the drill began, each finding drawn from timings is unknown, its figures said.
 */
public final class MemoryVerdicts {
    private MemoryVerdicts() {}

    /** Every finding; {@code load} is the machine's as the drill began (null: not read, a recording's). */
    public static List<Finding> of(MemoryDrill.MemorySection memory, GpuDrill.GpuSection gpu, MachineLoad load) {
        List<Finding> out = new ArrayList<>();
        if (memory == null || memory.results().isEmpty()) return out;
        List<Figure> figures = memory.figures();
        List<GpuRules.Judged> judged = new ArrayList<>(farNodes(memory.plan(), figures));
        judged.addAll(coreKinds(memory.plan(), figures));
        oneThread(figures).ifPresent(judged::add);
        gpusAtOnce(figures, gpu).ifPresent(judged::add);
        out.addAll(GpuRules.Judged.findings(judged, MachineLoad.busyReasons(load)));
        // where pages were is read from the kernel, not timed: a busy machine does not move them
        out.addAll(misplaced(memory));
        return out;
    }

    static Optional<Figure> find(List<Figure> figures, String key, Scope scope) {
        return figures.stream().filter(f -> f.key().equals(key) && f.scope().equals(scope)).findFirst();
    }

    static Evidence evidence(Figure f) {
        return Evidence.of(f.key(), f.value(), f.unit());
    }

    /**
     * Each CPU node against every other node's memory: read bandwidth and latency from the far node
     * beside the node's own, with the numactl line that keeps a job's memory at home.
     */
    static List<GpuRules.Judged> farNodes(MemoryPlan plan, List<Figure> figures) {
        List<GpuRules.Judged> out = new ArrayList<>();
        for (MemoryPlan.Pair p : plan.pairs()) {
            if (p.cpuNode() == p.memoryNode()) continue;
            Optional<Figure> local = find(figures, MemoryCases.READ, Scope.nodes(p.cpuNode(), p.cpuNode()));
            Optional<Figure> far = find(figures, MemoryCases.READ, Scope.nodes(p.cpuNode(), p.memoryNode()));
            if (local.isEmpty() || far.isEmpty()) continue;
            Optional<Figure> localNs = find(figures, MemoryCases.LATENCY, Scope.nodes(p.cpuNode(), p.cpuNode()));
            Optional<Figure> farNs = find(figures, MemoryCases.LATENCY, Scope.nodes(p.cpuNode(), p.memoryNode()));
            String latency = localNs.isPresent() && farNs.isPresent()
                    ? String.format(Locale.ROOT, ", %.0f ns a load against %.0f", farNs.get().value(), localNs.get().value()) : "";
            List<Evidence> read = new ArrayList<>(List.of(evidence(far.get()), evidence(local.get())));
            if (!latency.isEmpty()) read.addAll(List.of(evidence(farNs.get()), evidence(localNs.get())));
            String subject = "node " + p.cpuNode();
            if (!far.get().differsFrom(local.get())) {
                String text = String.format(Locale.ROOT, "CPUs of node %d read node %d's memory (%s) as fast as their own within noise (%.1f against %.1f GB/s%s)",
                        p.cpuNode(), p.memoryNode(), p.memoryRole(), far.get().value(), local.get().value(), latency);
                out.add(new GpuRules.Judged(MemoryRules.FAR_NODE, Severity.INFO, subject, text, text, read));
                continue;
            }
            double share = far.get().value() / local.get().value();
            if (share >= 1) continue; // a far node faster than home: a GPU's HBM on Grace; said by the matrix itself
            String figures1 = String.format(Locale.ROOT, "CPUs of node %d read node %d's memory (%s) at %.0f%% of their own node's (%.1f against %.1f GB/s%s)",
                    p.cpuNode(), p.memoryNode(), p.memoryRole(), 100 * share, far.get().value(), local.get().value(), latency);
            String text = figures1 + String.format(Locale.ROOT, ": keep a process's memory on its CPUs' node (numactl --cpunodebind=%d --membind=%d),"
                    + " and pinned buffers on the GPU's node", p.cpuNode(), p.cpuNode());
            out.add(new GpuRules.Judged(MemoryRules.FAR_NODE, share < MemoryRules.FAR_SHARE ? Severity.WARN : Severity.INFO, subject, figures1, text, read));
        }
        return out;
    }

    /** One thread on each kind of core: the small ones against the big one. */
    static List<GpuRules.Judged> coreKinds(MemoryPlan plan, List<Figure> figures) {
        List<GpuRules.Judged> out = new ArrayList<>();
        if (plan.kinds().size() < 2) return out;
        MemoryPlan.Kind big = plan.kinds().stream().filter(k -> k.cpu() == plan.oneThreadCpu()).findFirst().orElse(plan.kinds().get(0));
        Optional<Figure> bigGbs = find(figures, MemoryCases.TRIAD_ONE_THREAD, Scope.cpus(CpuSet.of(big.cpu())));
        if (bigGbs.isEmpty()) return out;
        for (MemoryPlan.Kind k : plan.kinds()) {
            if (k == big) continue;
            Optional<Figure> gbs = find(figures, MemoryCases.TRIAD_ONE_THREAD, Scope.cpus(CpuSet.of(k.cpu())));
            if (gbs.isEmpty()) continue;
            String subject = k.name();
            List<Evidence> read = List.of(evidence(gbs.get()), evidence(bigGbs.get()));
            if (!gbs.get().differsFrom(bigGbs.get())) {
                String text = String.format(Locale.ROOT, "one thread on a %s (CPU %d) moves as much memory as on a %s (CPU %d) within noise (%.1f against %.1f GB/s)",
                        k.name(), k.cpu(), big.name(), big.cpu(), gbs.get().value(), bigGbs.get().value());
                out.add(new GpuRules.Judged(MemoryRules.SMALL_CORE, Severity.INFO, subject, text, text, read));
                continue;
            }
            double share = gbs.get().value() / bigGbs.get().value();
            if (share >= 1) continue;
            String figures1 = String.format(Locale.ROOT, "one thread on a %s (CPU %d) moves %.0f%% of what it moves on a %s (CPU %d): %.1f against %.1f GB/s",
                    k.name(), k.cpu(), 100 * share, big.name(), big.cpu(), gbs.get().value(), bigGbs.get().value());
            boolean keepOff = share < MemoryRules.SMALL_SHARE;
            String text = figures1 + (keepOff ? String.format(Locale.ROOT, "; keep the GPU's feeder threads (DataLoader's main loop, the copy thread) on %s"
                    + " cores (taskset -c with their CPUs)", big.name()) : String.format(Locale.ROOT, ": less than a %.0f%% loss, the feeders lose little there",
                    100 * (1 - MemoryRules.SMALL_SHARE)));
            out.add(new GpuRules.Judged(MemoryRules.SMALL_CORE, keepOff ? Severity.WARN : Severity.INFO, subject, figures1, text, read));
        }
        return out;
    }

    /** One thread's share of the machine: the ceiling of anything single-threaded that copies memory (a loader's collate in the main process). */
    static Optional<GpuRules.Judged> oneThread(List<Figure> figures) {
        Optional<Figure> one = find(figures, MemoryCases.TRIAD_ONE_THREAD, Scope.MACHINE), all = find(figures, MemoryCases.TRIAD, Scope.MACHINE);
        if (one.isEmpty() || all.isEmpty()) return Optional.empty();
        String figures1 = String.format(Locale.ROOT, "one thread moves %.1f GB/s, %.0f%% of the %.1f GB/s of every CPU together (STREAM Triad)",
                one.get().value(), 100 * one.get().value() / all.get().value(), all.get().value());
        return Optional.of(new GpuRules.Judged(MemoryRules.ONE_THREAD, Severity.INFO, "memory", figures1, figures1
                + ": host memory work done on one thread (a collate in the main process, a loader with num_workers=0) is bounded near that;"
                + " spread such work over threads or workers", List.of(evidence(one.get()), evidence(all.get()))));
    }

    /**
     * Host memory against the GPUs' copies all at once: each pinned host-to-device copy reads host
     * memory at its own rate, so the GPUs together would read the sum of their rates, each measured
     * alone, beside what STREAM measures.
     */
    static Optional<GpuRules.Judged> gpusAtOnce(List<Figure> figures, GpuDrill.GpuSection gpu) {
        Optional<Figure> all = find(figures, MemoryCases.TRIAD, Scope.MACHINE);
        if (all.isEmpty() || gpu == null || gpu.runs().isEmpty()) return Optional.empty();
        double need = 0;
        int gpus = 0;
        List<Evidence> read = new ArrayList<>(List.of(evidence(all.get())));
        for (GpuDrill.GpuRun r : gpu.runs()) {
            Optional<Result> h2d = CopyVerdicts.ok(r.results(), "host_to_device_ce_pinned");
            if (h2d.isEmpty()) continue;
            need += h2d.get().value().median();
            gpus++;
            read.add(CopyVerdicts.evidence(h2d.get()));
        }
        if (gpus == 0) return Optional.empty();
        double have = all.get().value();
        String figures1 = String.format(Locale.ROOT, "memory bandwidth is %.1f GB/s (STREAM Triad, every CPU), %.1f GB/s per GPU; %s %.1f GB/s of it (%.0f%%)",
                have, have / gpu.runs().size(), gpus == 1 ? "the GPU's pinned host-to-device copies read"
                        : "pinned host-to-device copies to " + gpus + " GPUs at once, each at its own rate measured alone, would read", need, 100 * need / have);
        if (need > have * MemoryRules.COPIES_SHARE) {
            return Optional.of(new GpuRules.Judged(MemoryRules.HOST_VS_COPIES, Severity.WARN, "memory", figures1, figures1
                    + ": more than host memory delivered, so they cannot all copy at their measured rates at once, and a DataLoader's own memory traffic competes"
                    + " with them", read));
        }
        return Optional.of(new GpuRules.Judged(MemoryRules.HOST_VS_COPIES, Severity.INFO, "memory", figures1, figures1
                + (need > have / 2 ? ": within what host memory delivers, the rest left to the loaders' own work" : ": room left for the loaders' own work"), read));
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
            Evidence figure = Evidence.of(m.result().key(), m.result().value().median(), m.result().unit());
            if (p != null && !p.asBound()) {
                int away = p.sampled() - p.byNode().getOrDefault(p.node(), 0);
                // MPOL_BIND allocates on no other node (mbind(2)): pages elsewhere mean the binding did not hold, for a reason this run cannot see
                out.add(MemoryRules.PAGES_PLACED.unknown("memory", String.format(Locale.ROOT, "%s, %s: %d of %d sampled pages are not on node %d, where they"
                                + " were bound, so the figure mixes nodes and is not judged; check the process's cpuset (grep Mems_allowed_list /proc/self/status)"
                                + " and measure again", m.result().key(), m.label(), away, p.sampled(), p.node()),
                        List.of(figure, Evidence.fact("move_pages", away + " of " + p.sampled() + " sampled pages off node " + p.node()))));
            }
            if (m.result().detail() instanceof MemoryDetails.Chase c && c.hugeAsked() && c.hugeBytes() != null && c.hugeBytes() < MemoryRules.HUGE_ENOUGH * c.bytes()) {
                out.add(MemoryRules.CHASE_PAGES.finding(Severity.INFO, "memory", String.format(Locale.ROOT, "%s, %s: only %s of the %s set sat in huge pages:"
                                + " the latency includes TLB misses that huge pages would have spared", m.result().key(), m.label(),
                        Units.bytes(c.hugeBytes()), Units.bytes(c.bytes())), figure,
                        Evidence.fact("/proc/self/smaps AnonHugePages", Units.bytes(c.hugeBytes()))));
            }
        }
        return out;
    }
}
