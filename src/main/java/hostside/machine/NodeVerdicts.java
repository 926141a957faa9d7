package hostside.machine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import hostside.core.Stats;
import hostside.gpu.bench.NodeCopies.NodeDetail;
import hostside.gpu.bench.NodeCopies.Row;
import hostside.harness.Result;

/**
 * What the copies from each NUMA node mean for one GPU: on which node its pinned buffers and its
 * feeding threads belong, with the numactl line that puts them there. Two figures are compared only
 * when their ranges do not overlap, as every verdict of Module 1 compares them.
 */
final class NodeVerdicts {
    private NodeVerdicts() {}

    static List<String> of(String gpu, List<Result> rs) {
        Optional<NodeDetail> found = rs.stream().filter(r -> r.isOk() && r.detail() instanceof NodeDetail d && !d.rows().isEmpty())
                .map(r -> (NodeDetail) r.detail()).findFirst();
        if (found.isEmpty()) return List.of();
        NodeDetail d = found.get();
        if (d.rows().size() == 1) return oneNode(gpu, d.rows().getFirst(), rs);
        List<String> v = new ArrayList<>();
        // the own node is where the buffers belong, unless another node is faster beyond the spread (then that one is)
        Row best = d.fastest();
        Optional<Row> own = d.own();
        Row home = own.filter(o -> !best.h2dPinned().differsFrom(o.h2dPinned())).orElse(best);
        List<Row> slower = d.rows().stream().filter(r -> r != home && r.h2dPinned().max() < home.h2dPinned().min()).toList();
        if (slower.isEmpty()) {
            v.add(String.format(Locale.ROOT, "%s: copies from every node run alike within noise (pinned host to device %s to %s GB/s)", gpu,
                    gbs(d.slowest().h2dPinned().median()), gbs(best.h2dPinned().median())));
        } else {
            List<String> each = new ArrayList<>();
            for (int i = 0; i < slower.size(); i++) {
                Row r = slower.get(i);
                each.add(String.format(Locale.ROOT, "from node %d %s %.0f%% (%s vs %s GB/s)", r.node(), i == 0 ? "its copies run at" : "at",
                        100 * r.h2dPinned().median() / home.h2dPinned().median(), gbs(r.h2dPinned().median()), gbs(home.h2dPinned().median())));
            }
            v.add(String.format(Locale.ROOT, "%s's pinned buffers belong on node %d%s: %s; run its feeders with numactl --cpunodebind=%d --membind=%d",
                    gpu, home.node(), whose(d, home), String.join(", ", each), home.node(), home.node()));
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

    /** Pageable copies from a far node, whose staging memcpy reads across the sockets: named when slower beyond the spread. */
    private static Optional<String> pageable(String gpu, NodeDetail d, Row home) {
        List<Row> slower = d.rows().stream().filter(r -> r != home && r.h2dPageable().max() < home.h2dPageable().min()).toList();
        if (slower.isEmpty()) return Optional.empty();
        List<String> each = new ArrayList<>();
        for (int i = 0; i < slower.size(); i++) {
            Row r = slower.get(i);
            each.add(String.format(Locale.ROOT, "from node %d %s %.0f%%%s (%s vs %s GB/s)", r.node(), i == 0 ? "run at" : "at",
                    100 * r.h2dPageable().median() / home.h2dPageable().median(), i == 0 ? " of node " + home.node() + "'s" : "",
                    gbs(r.h2dPageable().median()), gbs(home.h2dPageable().median())));
        }
        return Optional.of(gpu + "'s pageable copies " + String.join(", ", each)
                + ": the driver stages them with a memcpy that reads the far node's memory");
    }

    /**
     * One node: its row is {@code host_to_device_ce_pinned} again, from registered memory on the node's
     * CPUs; said to be equal only within the spread of both.
     */
    private static List<String> oneNode(String gpu, Row r, List<Result> rs) {
        Optional<Stats> pinned = rs.stream().filter(x -> x.isOk() && x.key().equals("host_to_device_ce_pinned")).map(Result::value).findFirst();
        if (pinned.isEmpty()) return List.of();
        Stats p = pinned.get(), n = r.h2dPinned();
        if (!p.differsFrom(n)) {
            return List.of(String.format(Locale.ROOT, "%s: one NUMA node (%d): its copies from there equal host_to_device_ce_pinned within noise (%s vs %s GB/s)",
                    gpu, r.node(), gbs(n.median()), gbs(p.median())));
        }
        return List.of(String.format(Locale.ROOT, "%s: one NUMA node (%d): its copies from there run at %.0f%% of host_to_device_ce_pinned (%s vs %s GB/s),"
                        + " beyond the spread of both: registered memory and a thread pinned to the node's CPUs against cuMemHostAlloc's, not a question of placement",
                gpu, r.node(), 100 * n.median() / p.median(), gbs(n.median()), gbs(p.median())));
    }


    private static String gbs(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
