package hostside.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.core.CpuSet;
import hostside.core.Json;
import hostside.core.Stats;
import hostside.core.Sweep;
import hostside.core.Unit;
import hostside.gpu.bench.Sweep.Point;
import hostside.gpu.bench.Sweep.SweepDetail;
import hostside.machine.TopologyRules;

/**
 * A report of schema hostside/1 rewritten into today's shape before any reader sees it, so that
 * the records and their readers know one shape only (CONTRACT.md: {@code report --from OLD.json}
 * still renders). The one place that knows what hostside/1 wrote differently:
 * <ul>
 * <li>a finding's ID was its "code", and two of Module 1's codes were words: "link-below-max" and
 *     "idle-link-below-max" are {@link TopologyRules#LINK_BELOW_MAX} and {@link TopologyRules#LINK_IDLE};
 * <li>a result had no "better": it is the way its unit usually is better;
 * <li>a sweep was the detail's "points": the GPU copy sweep's {bytes, copies, gbs}, the TLB reach's
 *     {bytes, ns}; now a {@link Sweep} (and the copy counts beside it);
 * <li>a latency series was {"p50", "p99", "p99.9", "max"} in ns: now a Distribution, whose count is
 *     0 (not kept) and which has no histogram;
 * <li>a detail's CPUs were an array of numbers: now a cpulist ("0-1");
 * <li>Module 2's GPU section named no address: the drill has always measured on the first GPU it lists;
 * <li>an I/O result's fio options were the detail's "fio" (now the result's anchor, "fio OPTIONS"), its
 *     other unit a number ("iops", "gbPerS", now derived from the figure and the block size, so
 *     dropped), its latency p50, p99 and max (now a Distribution whose p99.9 is the max, its upper
 *     bound) and its fsync the median alone (now Stats of that one value).
 * </ul>
 * Its figures list, which hostside/1 did not write, follows from the typed results ({@link ReportReader}).
 */
public final class Upgrade {
    static final String FIRST = "hostside/1";

    /** Module 1's findings as hostside/1 coded them, by today's rule IDs. */
    private static final Map<String, String> MODULE1_CODES = Map.of("link-below-max", TopologyRules.LINK_BELOW_MAX.id(),
            "idle-link-below-max", TopologyRules.LINK_IDLE.id());

    private Upgrade() {}

    /** {@code report} in today's shape: a copy, rewritten, when it is of schema hostside/1; itself otherwise. */
    public static JsonNode report(JsonNode report) {
        if (!FIRST.equals(report.path("schema").asText())) return report;
        JsonNode copy = report.deepCopy();
        for (JsonNode m : copy.path("modules")) {
            if (!(m.get("data") instanceof ObjectNode data)) continue;
            walk(data);
            if (m.path("module").asInt() == 2 && data.get("gpu") instanceof ObjectNode gpu) measuredGpu(gpu);
            if (m.path("module").asInt() == 4) {
                for (JsonNode r : data.path("results")) if (r instanceof ObjectNode o) io(o);
            }
        }
        return copy;
    }

    /** Every finding and result below {@code n}, wherever the module keeps them. */
    private static void walk(JsonNode n) {
        if (n instanceof ObjectNode o) {
            if (o.has("code") && !o.has("id") && o.has("severity")) finding(o);
            if (o.path("key").isTextual() && o.path("status").isTextual()) result(o);
            o.forEach(Upgrade::walk);
        } else if (n instanceof ArrayNode a) {
            a.forEach(Upgrade::walk);
        }
    }

    private static void finding(ObjectNode f) {
        String code = f.remove("code").asText("");
        f.put("id", MODULE1_CODES.getOrDefault(code, code));
    }

    private static void result(ObjectNode r) {
        String unit = r.path("unit").asText("");
        if (!r.has("better") && !unit.isEmpty() && r.path("value").isObject()) {
            try {
                r.put("better", Unit.of(unit).usually.json());
            } catch (IllegalArgumentException e) {
                // no unit hostside knows: the result's reader says so, where it is
            }
        }
        if (!(r.get("detail") instanceof ObjectNode d)) return;
        if (d.get("points") instanceof ArrayNode points && !d.has("sweep")) sweep(d, points);
        for (String name : List.copyOf(iterable(d))) {
            JsonNode v = d.get(name);
            if (v instanceof ObjectNode series && series.has("p99.9") && !series.has("p999")) d.set(name, nsDistribution(series));
            if (v instanceof ArrayNode cpus && (name.equals("cpus") || name.endsWith("Cpus")) && integers(cpus)) d.set(name, cpulist(cpus));
        }
    }

    /**
     * The copy sweep's points (bytes, copies, gbs) or the TLB reach's (bytes, ns), as today's sweep;
     * points that are not whole are left for the detail's reader to refuse.
     */
    private static void sweep(ObjectNode d, ArrayNode points) {
        boolean copies = !points.isEmpty() && points.get(0).has("gbs");
        for (JsonNode p : points) {
            if (!p.path("bytes").isIntegralNumber() || !p.path(copies ? "gbs" : "ns").isObject() || copies && !p.path("copies").isIntegralNumber()) return;
        }
        d.remove("points");
        if (copies) {
            List<Point> read = new ArrayList<>();
            for (JsonNode p : points) read.add(Json.MAPPER.convertValue(p, Point.class));
            SweepDetail built = SweepDetail.of(d.path("gpu").asText(""), read);
            d.set("sweep", Json.MAPPER.valueToTree(built.sweep()));
            d.set("copies", Json.MAPPER.valueToTree(built.copies()));
            return;
        }
        List<Sweep.Point> read = new ArrayList<>();
        for (JsonNode p : points) read.add(new Sweep.Point(p.path("bytes").asLong(), Json.MAPPER.convertValue(p.get("ns"), Stats.class)));
        d.set("sweep", Json.MAPPER.valueToTree(new Sweep(Unit.NS, read)));
    }

    private static ObjectNode nsDistribution(ObjectNode old) {
        return distribution(old, Unit.NS, old.get("p99.9"));
    }

    /** A hostside/1 percentile record as today's distribution: no count and no histogram were kept, {@code p999} where it stood. */
    private static ObjectNode distribution(ObjectNode old, Unit unit, JsonNode p999) {
        ObjectNode n = old.objectNode();
        n.put("unit", unit.symbol());
        n.put("count", 0);
        n.set("p50", old.get("p50"));
        n.set("p99", old.get("p99"));
        n.set("p999", p999);
        n.set("max", old.get("max"));
        n.putArray("histogram");
        return n;
    }

    private static boolean integers(ArrayNode a) {
        for (JsonNode x : a) if (!x.isIntegralNumber() || x.asInt() < 0) return false;
        return true;
    }

    private static JsonNode cpulist(ArrayNode a) {
        int[] cpus = new int[a.size()];
        for (int i = 0; i < cpus.length; i++) cpus[i] = a.get(i).asInt();
        return Json.MAPPER.valueToTree(CpuSet.of(cpus));
    }

    /** Module 2 measured on the first GPU it lists, which hostside/1 did not name. */
    private static void measuredGpu(ObjectNode gpu) {
        if (gpu.has("measuredPciAddress")) return;
        boolean measured = !gpu.path("results").isEmpty() && !gpu.path("gpus").isEmpty();
        gpu.put("measuredPciAddress", measured ? gpu.path("gpus").get(0).path("pciAddress").asText("") : "");
    }

    /** An I/O result's detail as hostside/1 wrote it, in today's shape. */
    private static void io(ObjectNode result) {
        if (!(result.get("detail") instanceof ObjectNode d)) return;
        if (d.path("fio").isTextual()) {
            if (!result.path("anchor").isTextual()) result.put("anchor", "fio " + d.get("fio").asText());
            d.remove("fio");
        }
        if (d.path("iops").isNumber()) d.remove("iops");
        if (d.path("gbPerS").isNumber()) d.remove("gbPerS");
        if (d.get("latencyUs") instanceof ObjectNode lat && !lat.has("unit")) {
            d.set("latencyUs", distribution(lat, Unit.US, lat.get("max"))); // hostside/1 kept no p99.9 of a read: its max stands there
        }
        if (d.path("fsyncMs").isNumber()) {
            JsonNode ms = d.get("fsyncMs");
            ObjectNode stats = d.objectNode();
            stats.set("median", ms);
            stats.set("min", ms);
            stats.set("max", ms);
            stats.put("samples", 1);
            d.set("fsyncMs", stats);
        }
    }

    private static List<String> iterable(ObjectNode o) {
        List<String> names = new ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
