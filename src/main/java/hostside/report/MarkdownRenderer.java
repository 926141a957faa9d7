package hostside.report;

import hostside.core.Units;

import java.util.Locale;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.machine.PciLink;

/**
 * Renders a report from its JSON alone, so that results/&lt;host&gt;.md and .json can never
 * disagree, and an old .json can be rendered again ({@code hostside report --from}).
 */
public final class MarkdownRenderer {
    private final StringBuilder md = new StringBuilder();

    public static String render(JsonNode report) {
        return new MarkdownRenderer().doRender(report);
    }

    private String doRender(JsonNode r) {
        JsonNode t = r.path("title");
        String host = t.path("host").asText("");
        md.append("# hostside report: ").append(host.isEmpty() ? "unnamed machine" : esc(host)).append("\n\n");
        table(List.of("", ""), List.of(
                List.of("CPU", t.path("cpu").asText("unknown")),
                List.of("GPUs", t.path("gpus").isEmpty() ? "none found" : String.join("<br>", strings(t.path("gpus")))),
                List.of("NVIDIA driver", t.path("driver").asText("").isEmpty() ? "not loaded" : t.path("driver").asText()),
                List.of("kernel", t.path("kernel").asText("unknown")),
                List.of("virtualization", t.path("virtualization").asText("")),
                List.of("date", t.path("date").asText()),
                List.of("hostside", t.path("hostsideVersion").asText()),
                List.of("read from", t.path("source").asText().equals("live") ? "this machine, live" : "recording " + t.path("source").asText())));

        md.append("## The four questions\n\n");
        int i = 1;
        for (JsonNode q : r.path("questions")) {
            md.append(i++).append(". **").append(esc(q.path("axis").asText())).append("**: ").append(esc(q.path("question").asText()))
                    .append("  \n   ").append(esc(q.path("answer").asText()));
            if (!q.path("status").asText().equals("answered")) md.append(" _(").append(esc(q.path("status").asText())).append(")_");
            if (!q.path("evidence").asText().isEmpty()) md.append("  \n   _Evidence: ").append(esc(q.path("evidence").asText())).append("_");
            md.append("\n");
        }
        md.append("\n## Headline numbers\n\n");
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode h : r.path("headlines")) rows.add(List.of(h.path("name").asText(), h.path("value").asText(), h.path("source").asText()));
        table(List.of("figure", "value", "from"), rows);

        for (JsonNode s : r.path("modules")) {
            md.append("## Module ").append(s.path("module").asInt()).append(": ").append(esc(s.path("title").asText()))
                    .append(" (`").append(s.path("command").asText()).append("`)\n\n");
            if (!s.path("status").asText().equals("run")) {
                md.append("_").append(esc(s.path("status").asText())).append(": ").append(esc(s.path("why").asText())).append("._\n\n");
                continue;
            }
            md.append("_").append(esc(s.path("why").asText())).append("._\n\n");
            if (s.path("module").asInt() == 1) module1(s.path("data"));
            if (s.path("module").asInt() == 2) VmMarkdown.render(md, s.path("data"));
            if (s.path("module").asInt() == 3) CpuMarkdown.render(md, s.path("data"));
            if (s.path("module").asInt() == 4) IoMarkdown.render(md, s.path("data"));
        }
        return md.toString();
    }

    private void module1(JsonNode f) {
        JsonNode t = f.path("topology");
        md.append("### CPU and memory\n\n");
        md.append(plural(t.path("packages").asInt(), "package")).append(", ").append(plural(t.path("cores").asInt(), "core"))
                .append(", ").append(plural(t.path("threads").asInt(), "thread")).append('.');
        if (t.path("coreKinds").size() > 1) {
            List<String> kinds = new ArrayList<>();
            for (JsonNode k : t.path("coreKinds")) {
                kinds.add(k.path("cores").asInt() + " " + k.path("name").asText() + " (CPUs " + k.path("cpus").asText() + ")");
            }
            md.append(" Core kinds: ").append(esc(String.join(", ", kinds))).append('.');
        }
        md.append("\n\n");
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode c : t.path("caches")) {
            String type = c.path("type").asText();
            rows.add(List.of("L" + c.path("level").asInt() + (type.equals("data") ? "d" : type.equals("instruction") ? "i" : ""),
                    (c.path("sizeBytes").isNumber() ? Units.bytes(c.path("sizeBytes").asLong()) : "unknown"), c.path("cpus").asText()));
        }
        if (!rows.isEmpty()) table(List.of("cache", "size", "CPUs sharing it"), collapse(rows));
        rows = new ArrayList<>();
        for (JsonNode n : t.path("numaNodes")) {
            rows.add(List.of(n.path("id").asText(), n.path("cpus").asText().isEmpty() ? "none" : n.path("cpus").asText(),
                    n.path("memTotalBytes").isNull() ? "unknown" : Units.bytes(n.path("memTotalBytes").asLong()),
                    n.path("gpuMemory").asBoolean() ? "GPU memory of " + n.path("gpu").asText() : "",
                    String.join(" ", strings(n.path("distances")))));
        }
        table(List.of("NUMA node", "CPUs", "memory", "holds", "distances"), rows);

        md.append("### PCIe\n\n");
        rows = new ArrayList<>();
        for (JsonNode d : f.path("pci")) {
            String kind = d.path("kind").asText();
            if (!kind.equals("gpu") && !kind.equals("nic") && !kind.equals("nvme")) continue;
            JsonNode l = d.path("link");
            String now = l.isNull() || l.isMissingNode() ? "-" : PciLink.describe(num(l, "speedGTs"), integer(l, "width"));
            String max = l.isNull() || l.isMissingNode() ? "-" : PciLink.describe(num(l, "maxSpeedGTs"), integer(l, "maxWidth"));
            String gbs = l.isNull() || l.isMissingNode() ? "-" : String.format(Locale.ROOT, "%.1f", PciLink.gbPerSecond(num(l, "maxSpeedGTs"), integer(l, "maxWidth")));
            rows.add(List.of(d.path("name").asText().isEmpty() ? d.path("address").asText() : d.path("name").asText(),
                    d.path("address").asText(), d.path("description").asText(), now, max, gbs,
                    d.path("numaNode").isNull() ? "unknown (-1)" : d.path("numaNode").asText(),
                    d.path("localCpus").asText().isEmpty() ? "-" : d.path("localCpus").asText()));
        }
        if (rows.isEmpty()) md.append("No GPU, NIC or NVMe drive found.\n\n");
        else table(List.of("device", "address", "what", "link now", "max", "max GB/s per direction", "NUMA node", "local CPUs"), rows);

        JsonNode a = f.path("affinity");
        if (a.path("devices").size() > 0) {
            md.append("### GPU and NIC affinity\n\nIn `nvidia-smi topo -m` terms: PIX one PCIe switch, PXB several, PHB the host bridge, NODE the same NUMA node, SYS across NUMA nodes.\n\n");
            List<String> header = new ArrayList<>(List.of(""));
            header.addAll(strings(a.path("devices")));
            rows = new ArrayList<>();
            int k = 0;
            for (JsonNode row : a.path("matrix")) {
                List<String> cells = new ArrayList<>(List.of(a.path("devices").get(k++).asText()));
                cells.addAll(strings(row));
                rows.add(cells);
            }
            table(header, rows);
            for (JsonNode v : a.path("verdicts")) md.append("- ").append(esc(v.asText())).append('\n');
            md.append('\n');
        }
        gpuMatrix(f.path("gpuMatrix"));
        JsonNode io = f.path("iommu");
        md.append("### IOMMU and kernel options\n\nIOMMU **").append(io.path("state").asText()).append("**: ")
                .append(esc(io.path("evidence").asText())).append(".\n\n");
        rows = new ArrayList<>();
        for (JsonNode k : f.path("kernelCmdline")) rows.add(List.of("`" + k.path("text").asText() + "`", k.path("why").asText()));
        if (!rows.isEmpty()) table(List.of("kernel option", "why it matters"), rows);

        GpuMarkdown.render(md, f.path("gpu"), f.path("pci"));
        md.append("### Findings\n\n");
        if (f.path("findings").isEmpty()) md.append("None.\n\n");
        for (JsonNode x : f.path("findings")) {
            String sev = x.path("severity").asText();
            md.append("- ").append(sev.equals("bad") ? "**✗** " : sev.equals("warn") ? "**!** " : "").append(esc(x.path("text").asText())).append('\n');
        }
        if (!f.path("unknowns").isEmpty()) {
            md.append("\nNot known:\n\n");
            for (JsonNode u : f.path("unknowns")) md.append("- ").append(esc(u.asText())).append('\n');
        }
        md.append('\n');
    }

    /** GPU to GPU as nvidia-smi topo -m shows it, when there are two GPUs or more. */
    private void gpuMatrix(JsonNode m) {
        if (m.path("gpus").size() < 2) return;
        md.append("### GPU to GPU\n\nIn `nvidia-smi topo -m` terms: ").append(esc(hostside.machine.GpuMatrix.LEGEND)).append(".\n\n");
        List<String> header = new ArrayList<>(List.of(""));
        header.addAll(strings(m.path("gpus")));
        List<List<String>> rows = new ArrayList<>();
        int k = 0;
        for (JsonNode row : m.path("matrix")) {
            List<String> cells = new ArrayList<>(List.of(m.path("gpus").get(k++).asText()));
            cells.addAll(strings(row));
            rows.add(cells);
        }
        table(header, rows);
        // pairs alike share a row: an 8-GPU board is one row, not 28
        java.util.Map<List<String>, List<String>> alike = new java.util.LinkedHashMap<>();
        for (JsonNode p : m.path("pairs")) {
            if (p.path("nvlinks").asInt(0) == 0) continue;
            alike.computeIfAbsent(List.of(p.path("nvlinks").asText(), p.path("via").asText(), String.join(", ", strings(p.path("versions")))),
                    x -> new ArrayList<>()).add(p.path("a").asText() + "-" + p.path("b").asText());
        }
        rows = new ArrayList<>();
        int pairs = m.path("pairs").size();
        for (var e : alike.entrySet()) {
            List<String> keys = e.getValue();
            rows.add(List.of(keys.size() == pairs ? "all " + pairs : keys.size() <= 4 ? String.join(", ", keys) : keys.size() + " pairs",
                    e.getKey().get(0), e.getKey().get(1), e.getKey().get(2)));
        }
        if (!rows.isEmpty()) table(List.of("pairs", "NVLinks", "path", "NVLink version"), rows);
        List<String> peerLines = !m.path("peers").isArray() ? List.of() : hostside.machine.PeerPath.lines(
                hostside.core.Json.MAPPER.convertValue(m.path("peers"), new com.fasterxml.jackson.core.type.TypeReference<List<hostside.machine.PeerPath>>() {}));
        for (String line : peerLines) md.append("- ").append(esc(line)).append('\n');
        if (!peerLines.isEmpty()) md.append('\n');
        for (JsonNode n : m.path("notes")) md.append("- ").append(esc(n.asText())).append('\n');
        if (!m.path("notes").isEmpty()) md.append('\n');
    }

    /** Caches: one row per level and size, with the count, rather than one per instance. */
    private static List<List<String>> collapse(List<List<String>> rows) {
        java.util.LinkedHashMap<String, List<String>> by = new java.util.LinkedHashMap<>();
        java.util.Map<String, Integer> count = new java.util.HashMap<>();
        for (List<String> r : rows) {
            String key = r.get(0) + "|" + r.get(1);
            by.putIfAbsent(key, r);
            count.merge(key, 1, Integer::sum);
        }
        List<List<String>> out = new ArrayList<>();
        for (var e : by.entrySet()) {
            int c = count.get(e.getKey());
            out.add(List.of(e.getValue().get(0), e.getValue().get(1) + (c > 1 ? " x" + c : ""),
                    c > 1 ? sharing(hostside.core.CpuSet.parseList(e.getValue().get(2)).size()) : e.getValue().get(2)));
        }
        return out;
    }

    private static String plural(int n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }

    private static String sharing(int cpus) {
        return cpus == 1 ? "one per CPU" : "each shared by " + cpus + " CPUs";
    }

    private static Double num(JsonNode n, String f) {
        return n.path(f).isNumber() ? n.path(f).asDouble() : null;
    }

    private static Integer integer(JsonNode n, String f) {
        return n.path(f).isNumber() ? n.path(f).asInt() : null;
    }

    private static List<String> strings(JsonNode array) {
        List<String> s = new ArrayList<>();
        for (JsonNode x : array) s.add(x.asText());
        return s;
    }

    private void table(List<String> header, List<List<String>> rows) {
        table(md, header, rows);
    }

    /** A GitHub table; cells that are code (`x`) or hold line breaks are taken as they are. */
    static void table(StringBuilder md, List<String> header, List<List<String>> rows) {
        md.append('|');
        for (String h : header) md.append(' ').append(esc(h)).append(" |");
        md.append("\n|");
        for (int i = 0; i < header.size(); i++) md.append("---|");
        md.append('\n');
        for (List<String> r : rows) {
            md.append('|');
            for (String c : r) md.append(' ').append(c.contains("<br>") || c.startsWith("`") ? c : esc(c)).append(" |");
            md.append('\n');
        }
        md.append('\n');
    }

    /** Escapes what GitHub's Markdown would take as table or emphasis syntax. */
    static String esc(String s) {
        return s.replace("|", "\\|").replace("*", "\\*").replace("_", "\\_").replace("<", "&lt;");
    }
}
