package hostside.machine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import hostside.core.Evidence;
import hostside.core.Severity;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.bench.NodeCopies;
import hostside.gpu.bench.NodeCopies.NodeDetail;
import hostside.gpu.bench.NodeCopies.Row;
import hostside.harness.Result;

/**
 * What the copies from each NUMA node mean for one GPU: on which node its pinned buffers and its
 * feeding threads belong, with the numactl line that puts them there ({@link GpuRules#COPY_NODE}),
 * and where pageable copies from one node run slower ({@link GpuRules#COPY_NODE_PAGEABLE}). Two
 * figures are compared only when their ranges do not overlap, as every verdict of Module 1 compares
 * them; a node slower beyond them by less than a tenth is said, not acted on.
 */
final class NodeVerdicts {
    private NodeVerdicts() {}

    static List<GpuRules.Judged> of(String gpu, List<Result> rs) {
        Optional<Result> found = rs.stream().filter(r -> r.isOk() && r.detail() instanceof NodeDetail d && !d.rows().isEmpty()).findFirst();
        if (found.isEmpty()) return List.of();
        NodeDetail d = (NodeDetail) found.get().detail();
        if (d.rows().size() == 1) return oneNode(gpu, d.rows().getFirst(), rs);
        List<GpuRules.Judged> v = new ArrayList<>();
        List<Evidence> read = new ArrayList<>(List.of(CopyVerdicts.evidence(found.get())));
        for (Row r : d.rows()) read.add(Evidence.of(NodeCopies.H2D_PINNED, r.h2dPinned().median(), Unit.GB_PER_S));
        // the own node is where the buffers belong, unless another node is faster beyond the spread (then that one is)
        Row best = d.fastest();
        Optional<Row> own = d.own();
        Row home = own.filter(o -> !best.h2dPinned().differsFrom(o.h2dPinned())).orElse(best);
        List<Row> slower = d.rows().stream().filter(r -> r != home && r.h2dPinned().max() < home.h2dPinned().min()).toList();
        if (slower.isEmpty()) {
            String text = String.format(Locale.ROOT, "%s: copies from every node run alike within noise (pinned host to device %s to %s GB/s)", gpu,
                    gbs(d.slowest().h2dPinned().median()), gbs(best.h2dPinned().median()));
            v.add(new GpuRules.Judged(GpuRules.COPY_NODE, Severity.OK, gpu, text, text, read));
        } else {
            List<String> each = new ArrayList<>();
            for (int i = 0; i < slower.size(); i++) {
                Row r = slower.get(i);
                each.add(String.format(Locale.ROOT, "from node %d %s %.0f%% (%s vs %s GB/s)", r.node(), i == 0 ? "its copies run at" : "at",
                        100 * r.h2dPinned().median() / home.h2dPinned().median(), gbs(r.h2dPinned().median()), gbs(home.h2dPinned().median())));
            }
            double worst = slower.stream().mapToDouble(r -> r.h2dPinned().median() / home.h2dPinned().median()).min().orElse(1);
            String figures = String.format(Locale.ROOT, "%s, against node %d%s: %s", gpu, home.node(), whose(d, home), String.join(", ", each));
            String text = String.format(Locale.ROOT, "%s's pinned buffers belong on node %d%s: %s; run its feeders with numactl --cpunodebind=%d --membind=%d",
                    gpu, home.node(), whose(d, home), String.join(", ", each), home.node(), home.node());
            v.add(new GpuRules.Judged(GpuRules.COPY_NODE, worst < GpuRules.NODE_SHARE ? Severity.WARN : Severity.INFO, gpu, figures, text, read));
        }
        pageable(gpu, d, home).ifPresent(v::add);
        return v;
    }

    /** Why the node named is the one: the GPU's own, faster than its own, or the fastest where sysfs names none. */
    private static String whose(NodeDetail d, Row home) {
        if (d.ownNode() == null) return " (the fastest; sysfs does not name the GPU's own node)";
        if (home.node() == d.ownNode()) return " (its own)";
        return d.own().isPresent() ? " (faster than its own node " + d.ownNode() + ")" : " (the fastest; its own node " + d.ownNode() + " was not measured)";
    }

    /**
     * Pageable copies from a node slower than from the home node's, beyond the spread: said as
     * measured. Which part of the driver's staging crosses the sockets (the thread's memcpy, the
     * staging buffer's place, the DMA), this run does not see.
     */
    private static Optional<GpuRules.Judged> pageable(String gpu, NodeDetail d, Row home) {
        List<Row> slower = d.rows().stream().filter(r -> r != home && r.h2dPageable().max() < home.h2dPageable().min()).toList();
        if (slower.isEmpty()) return Optional.empty();
        List<String> each = new ArrayList<>();
        List<Evidence> read = new ArrayList<>(List.of(Evidence.of(NodeCopies.H2D_PAGEABLE, home.h2dPageable().median(), Unit.GB_PER_S)));
        for (int i = 0; i < slower.size(); i++) {
            Row r = slower.get(i);
            each.add(String.format(Locale.ROOT, "from node %d %s %.0f%%%s (%s vs %s GB/s)", r.node(), i == 0 ? "run at" : "at",
                    100 * r.h2dPageable().median() / home.h2dPageable().median(), i == 0 ? " of node " + home.node() + "'s" : "",
                    gbs(r.h2dPageable().median()), gbs(home.h2dPageable().median())));
            read.add(Evidence.of(NodeCopies.H2D_PAGEABLE, r.h2dPageable().median(), Unit.GB_PER_S));
        }
        String figures = gpu + "'s pageable copies " + String.join(", ", each);
        return Optional.of(new GpuRules.Judged(GpuRules.COPY_NODE_PAGEABLE, Severity.INFO, gpu, figures,
                figures + ": keep pageable sources on node " + home.node() + ", or pin them", read));
    }

    /**
     * One node: its row is {@code host_to_device_ce_pinned} again, from registered memory on the node's
     * CPUs; said to be equal only within the spread of both.
     */
    private static List<GpuRules.Judged> oneNode(String gpu, Row r, List<Result> rs) {
        Optional<Result> pinned = CopyVerdicts.ok(rs, "host_to_device_ce_pinned");
        if (pinned.isEmpty()) return List.of();
        Stats p = pinned.get().value(), n = r.h2dPinned();
        List<Evidence> read = List.of(Evidence.of(NodeCopies.H2D_PINNED, n.median(), Unit.GB_PER_S), CopyVerdicts.evidence(pinned.get()));
        String text = !p.differsFrom(n)
                ? String.format(Locale.ROOT, "%s: one NUMA node (%d): its copies from there equal host_to_device_ce_pinned within noise (%s vs %s GB/s)",
                        gpu, r.node(), gbs(n.median()), gbs(p.median()))
                : String.format(Locale.ROOT, "%s: one NUMA node (%d): its copies from there run at %.0f%% of host_to_device_ce_pinned (%s vs %s GB/s),"
                        + " beyond the spread of both: registered memory and a thread pinned to the node's CPUs against cuMemHostAlloc's, not a question of placement",
                        gpu, r.node(), 100 * n.median() / p.median(), gbs(n.median()), gbs(p.median()));
        return List.of(new GpuRules.Judged(GpuRules.COPY_NODE, Severity.INFO, gpu, text, text, read));
    }


    private static String gbs(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
