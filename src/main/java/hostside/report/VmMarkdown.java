package hostside.report;

import hostside.core.Units;

import java.util.Locale;
import static hostside.report.MarkdownRenderer.esc;
import static hostside.report.MarkdownRenderer.table;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/** Module 2's part of the report, from the JSON of `hostside vm` alone. */
final class VmMarkdown {
    private VmMarkdown() {}

    static void render(StringBuilder md, JsonNode vm) {
        JsonNode f = vm.path("facts");
        md.append("### Settings\n\n");
        List<List<String>> rows = new ArrayList<>();
        JsonNode p = f.path("pageSize");
        rows.add(List.of("base page", p.path("bytes").isNumber() ? Units.bytes(p.path("bytes").asLong()) + " (" + p.path("source").asText()
                + (p.path("assumed").asBoolean() ? ", assumed" : "") + ")" : "unknown"));
        JsonNode thp = f.path("thp");
        rows.add(List.of("THP", !thp.path("status").asText().equals("available") ? thp.path("status").asText("unknown")
                : "enabled " + sel(thp.path("enabled")) + ", defrag " + sel(thp.path("defrag")) + ", shmem " + sel(thp.path("shmemEnabled"))
                + (thp.path("pmdSizeBytes").isNumber() ? ", huge page " + Units.bytes(thp.path("pmdSizeBytes").asLong()) : "")));
        List<String> pools = new ArrayList<>();
        for (JsonNode h : f.path("hugetlb")) {
            pools.add(Units.bytes(h.path("pageBytes").asLong()) + ": " + h.path("total").asText("?") + " pages (" + h.path("free").asText("?") + " free)");
        }
        rows.add(List.of("hugetlb", pools.isEmpty() ? "no pools" : String.join("; ", pools)));
        JsonNode m = f.path("memory");
        rows.add(List.of("memory", bytes(m, "memTotalBytes") + " total, " + bytes(m, "memAvailableBytes") + " available, AnonHugePages "
                + bytes(m, "anonHugePagesBytes") + ", swap " + bytes(m, "swapTotalBytes")));
        JsonNode s = f.path("sysctl");
        rows.add(List.of("sysctls", "overcommit_memory " + s.path("overcommitMemory").asText("?") + ", swappiness " + s.path("swappiness").asText("?")
                + ", numa_balancing " + s.path("numaBalancing").asText("?") + ", zone_reclaim_mode " + s.path("zoneReclaimMode").asText("?")
                + ", max_map_count " + s.path("maxMapCount").asText("?")));
        JsonNode ml = f.path("process").path("memlock");
        if (ml.isObject()) {
            rows.add(List.of("memlock", (ml.path("softUnlimited").asBoolean() ? "unlimited" : Units.bytes(ml.path("soft").asLong())) + " soft"
                    + (f.path("process").path("capIpcLock").asBoolean() ? " (CAP_IPC_LOCK: not enforced)" : "")));
        }
        table(md, List.of("", ""), rows);

        JsonNode g = vm.path("gpu");
        md.append("### The GPU's view of host memory\n\n");
        if (!g.path("notRun").asText("").isEmpty()) {
            md.append("Not run: ").append(esc(g.path("notRun").asText())).append(".\n\n");
        } else {
            rows = new ArrayList<>();
            for (JsonNode x : g.path("gpus")) {
                List<String> attrs = new ArrayList<>();
                for (JsonNode a : x.path("unifiedMemory")) attrs.add(a.path("name").asText() + " " + (a.path("value").isNull() ? "unknown" : a.path("value").asText()));
                rows.add(List.of("GPU" + x.path("ordinal").asInt() + " " + x.path("name").asText(), x.path("coherence").asText(),
                        x.path("vmmMinimumBytes").isNumber() ? Units.bytes(x.path("vmmMinimumBytes").asLong()) + " / "
                                + Units.bytes(x.path("vmmRecommendedBytes").asLong()) : "unknown: " + x.path("vmmWhy").asText(),
                        String.join(", ", attrs)));
            }
            table(md, List.of("GPU", "coherence", "VMM granularity (min / recommended)", "unified-memory attributes"), rows);
        }

        md.append("### Findings\n\n");
        if (vm.path("findings").isEmpty()) md.append("None.\n\n");
        for (JsonNode x : vm.path("findings")) {
            String sev = x.path("severity").asText();
            md.append("- ").append(sev.equals("bad") ? "**✗** " : sev.equals("warn") ? "**!** " : "").append(esc(x.path("text").asText())).append('\n');
        }
        md.append('\n');

        rows = new ArrayList<>();
        List<JsonNode> results = new ArrayList<>();
        vm.path("host").forEach(results::add);
        g.path("results").forEach(results::add);
        for (JsonNode x : results) {
            if (x.path("status").asText().equals("ok")) {
                JsonNode v = x.path("value");
                JsonNode d = x.path("detail");
                String faults = d.path("faultsPerMiB").isNumber() ? String.format(Locale.ROOT, "%.1f", d.path("faultsPerMiB").asDouble()) : "";
                rows.add(List.of("`" + x.path("key").asText() + "`", Units.figure(v.path("median").asDouble()), Units.figure(v.path("min").asDouble()),
                        Units.figure(v.path("max").asDouble()), x.path("unit").asText(), faults, x.path("method").asText()));
            } else {
                rows.add(List.of("`" + x.path("key").asText() + "`", x.path("status").asText() + ": " + x.path("why").asText(), "", "", "", "", ""));
            }
        }
        java.util.Set<String> whys = new java.util.HashSet<>();
        results.forEach(x -> whys.add(x.path("status").asText().equals("ok") ? "" : x.path("why").asText()));
        if (!results.isEmpty() && whys.size() == 1 && !whys.contains("")) {
            md.append("### Measurements\n\nNot run: ").append(esc(whys.iterator().next())).append(".\n\n");
        } else if (!rows.isEmpty()) {
            md.append("### Measurements\n\nMedian of the samples, with min and max.\n\n");
            table(md, List.of("measurement", "median", "min", "max", "unit", "faults per MiB", "how"), rows);
        }
        tlb(md, results);
        if (!vm.path("verdicts").isEmpty()) {
            md.append("### What it means\n\n");
            for (JsonNode v : vm.path("verdicts")) md.append("- ").append(esc(v.asText())).append('\n');
            md.append('\n');
        }
    }

    private static void tlb(StringBuilder md, List<JsonNode> results) {
        List<double[]> base = points(results, "tlb_reach_base"), huge = points(results, "tlb_reach_huge");
        if (base == null) return;
        List<List<String>> rows = new ArrayList<>();
        for (double[] b : base) {
            double[] h = null;
            if (huge != null) for (double[] x : huge) if (x[0] == b[0]) h = x;
            rows.add(List.of(Units.bytes((long) b[0]), String.format(Locale.ROOT, "%.1f", b[1]),
                    h == null ? "" : String.format(Locale.ROOT, "%.1f", h[1]),
                    h == null ? "" : String.format(Locale.ROOT, "%.2fx", b[1] / h[1])));
        }
        md.append("TLB reach: random dependent loads, one per base page (ns per access).\n\n");
        table(md, List.of("working set", "base pages", "huge pages", "base / huge"), rows);
    }

    /**
     * The walk's curve as {bytes, median ns} pairs: detail.sweep.points[] {bytes, value} from
     * hostside/2 on, detail.points[] {bytes, ns} in hostside/1; null when the walk did not run.
     */
    private static List<double[]> points(List<JsonNode> results, String key) {
        for (JsonNode r : results) {
            if (!r.path("key").asText().equals(key) || !r.path("status").asText().equals("ok")) continue;
            JsonNode sweep = r.path("detail").path("sweep").path("points"), old = r.path("detail").path("points");
            JsonNode points = sweep.isArray() ? sweep : old.isArray() ? old : null;
            if (points == null) return null;
            String figure = sweep.isArray() ? "value" : "ns";
            List<double[]> out = new ArrayList<>();
            for (JsonNode p : points) out.add(new double[] {p.path("bytes").asLong(), p.path(figure).path("median").asDouble()});
            return out;
        }
        return null;
    }

    private static String sel(JsonNode setting) {
        return setting.path("selected").asText("unknown");
    }

    private static String bytes(JsonNode n, String field) {
        return n.path(field).isNumber() ? Units.bytes(n.path(field).asLong()) : "unknown";
    }
}
