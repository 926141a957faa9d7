package hostside.report;

import hostside.core.Units;

import java.util.Locale;
import static hostside.report.MarkdownRenderer.esc;
import static hostside.report.MarkdownRenderer.table;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/** Module 4's part of the report, from the JSON of `hostside io` alone. */
final class IoMarkdown {
    private IoMarkdown() {}

    static void render(StringBuilder md, JsonNode io) {
        container(md, io.path("container"));
        facts(md, io.path("facts"));
        md.append("### Findings\n\n");
        if (io.path("findings").isEmpty()) md.append("None.\n\n");
        for (JsonNode x : io.path("findings")) {
            String sev = x.path("severity").asText();
            md.append("- ").append(sev.equals("bad") ? "**✗** " : sev.equals("warn") ? "**!** " : "").append(esc(x.path("text").asText())).append('\n');
        }
        if (!io.path("findings").isEmpty()) md.append('\n');

        JsonNode results = io.path("results");
        java.util.Set<String> whys = new java.util.HashSet<>();
        results.forEach(x -> whys.add(x.path("status").asText().equals("ok") ? "" : x.path("why").asText()));
        if (results.size() > 0 && whys.size() == 1 && !whys.contains("")) {
            md.append("### Reads and writes\n\nNot run: ").append(esc(whys.iterator().next())).append(".\n\n");
            return;
        }
        if (results.size() > 0) {
            JsonNode f = io.path("file");
            md.append("### Reads and writes\n\n");
            if (f.isObject()) {
                md.append("Of `").append(esc(f.path("path").asText())).append("` (").append(Units.bytes(f.path("bytes").asLong())).append(", ")
                        .append(esc(f.path("filesystem").asText())).append("). ");
            }
            md.append("Median of the samples, with min and max; each row names the fio job that measures the same thing.\n\n");
            List<List<String>> rows = new ArrayList<>();
            for (JsonNode x : results) {
                String key = "`" + x.path("key").asText() + "`";
                if (!x.path("status").asText().equals("ok")) {
                    rows.add(List.of(key, x.path("status").asText() + ": " + x.path("why").asText(), "", "", "", ""));
                    continue;
                }
                JsonNode v = x.path("value");
                boolean iops = x.path("unit").asText().equals("IOPS");
                rows.add(List.of(key, figure(v.path("median").asDouble(), iops), figure(v.path("min").asDouble(), iops), figure(v.path("max").asDouble(), iops),
                        x.path("unit").asText(), "`" + fioJob(x) + "`"));
            }
            table(md, List.of("measurement", "median", "min", "max", "unit", "fio job"), rows);
        }
        if (!io.path("verdicts").isEmpty()) {
            md.append("### What it means\n\n");
            for (JsonNode v : io.path("verdicts")) md.append("- ").append(esc(v.asText())).append('\n');
            md.append('\n');
        }
    }

    /** The limits a container puts on training, from `hostside container --json`. */
    static void container(StringBuilder md, JsonNode c) {
        if (!c.isObject()) return;
        JsonNode f = c.path("facts");
        md.append("### Container\n\n").append(esc(c.path("verdict").asText())).append(".\n\n");
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("memory limit", limit(f.path("memory").path("limit"), true)));
        JsonNode cpu = f.path("cpu");
        rows.add(List.of("CPUs", (cpu.path("quotaCpus").isNumber() ? String.format(Locale.ROOT, "quota %.1f CPUs", cpu.path("quotaCpus").asDouble()) : "no quota")
                + ", " + cpu.path("visibleCpus").asText("?") + " visible (" + cpu.path("visibleList").asText("?") + ")"));
        rows.add(List.of("pids", limit(f.path("pids").path("max"), false)));
        JsonNode shm = f.path("shm");
        rows.add(List.of("/dev/shm", shm.path("sizeBytes").isNumber() ? Units.bytes(shm.path("sizeBytes").asLong()) + " (" + shm.path("source").asText() + ")" : "unknown"));
        JsonNode memlock = f.path("limits").path("memlock");
        rows.add(List.of("memlock", memlock.path("softUnlimited").asBoolean() ? "unlimited"
                : memlock.path("soft").isNumber() ? Units.bytes(memlock.path("soft").asLong()) : "unknown"));
        JsonNode dev = f.path("devices");
        JsonNode onBus = dev.path("pciGpus");
        rows.add(List.of("GPU device nodes", dev.path("deviceNodes").size() + " ("
                + (onBus.isNumber() ? onBus.asInt() + (onBus.asInt() == 1 ? " GPU" : " GPUs") : "? GPUs") + " on the PCI bus)"));
        table(md, List.of("", ""), rows);
        for (JsonNode x : c.path("findings")) md.append("- ").append(esc(x.path("text").asText())).append('\n');
        if (!c.path("findings").isEmpty()) md.append('\n');
    }

    private static String limit(JsonNode l, boolean bytes) {
        if (l.path("unlimited").asBoolean()) return "none";
        if (!l.path("value").isNumber()) return "unknown";
        return (bytes ? Units.bytes(l.path("value").asLong()) : l.path("value").asText()) + " (" + l.path("source").asText() + ")";
    }

    /** Where the data lives, the disks and NICs under it, and GPUDirect: the tiers beyond the box. */
    static void facts(StringBuilder md, JsonNode f) {
        if (f.isMissingNode() || f.isNull()) return;
        md.append("### Storage and network\n\n");
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode d : f.path("dataDirs")) {
            JsonNode fs = d.path("filesystem");
            rows.add(List.of("`" + d.path("path").asText() + "`", fs.path("type").asText("unknown"), fs.path("storage").asText("unknown"),
                    fs.path("mountPoint").asText("-"), d.path("disks").isEmpty() ? d.path("blockDevice").asText("-") : join(d.path("disks")),
                    d.path("readAheadKb").isNumber() ? Units.bytes(d.path("readAheadKb").asLong() * 1024) : "-"));
        }
        if (!rows.isEmpty()) table(md, List.of("data folder", "file system", "storage", "mounted at", "disks", "read-ahead"), rows);
        rows = new ArrayList<>();
        for (JsonNode b : f.path("blockDevices")) {
            JsonNode link = b.path("controller").path("link");
            rows.add(List.of(b.path("name").asText(), b.path("kind").asText("-"), b.path("sizeBytes").isNumber() ? Units.bytes(b.path("sizeBytes").asLong()) : "-",
                    b.path("rotational").isBoolean() ? (b.path("rotational").asBoolean() ? "yes" : "no") : "-", b.path("queue").path("scheduler").asText("-"),
                    link.isObject() && link.path("speedGTs").isNumber() ? link.path("speedGTs").asText() + " GT/s x" + link.path("width").asText() : "-"));
        }
        if (!rows.isEmpty()) table(md, List.of("block device", "kind", "size", "rotational", "scheduler", "PCIe link"), rows);
        rows = new ArrayList<>();
        for (JsonNode n : f.path("nics")) {
            rows.add(List.of(n.path("name").asText(), n.path("driver").asText("-"),
                    n.path("speedMbps").isNumber() ? String.format(Locale.ROOT, "%.0f Gb/s", n.path("speedMbps").asDouble() / 1000) : "unknown",
                    n.path("mtu").asText("-"), n.path("numaNode").asText("unknown"), n.path("rdmaDevices").isEmpty() ? "no" : join(n.path("rdmaDevices"))));
        }
        if (!rows.isEmpty()) table(md, List.of("NIC", "driver", "speed", "MTU", "NUMA node", "RDMA"), rows);
        JsonNode g = f.path("gpuDirect");
        if (g.isObject()) {
            md.append("GPUDirect RDMA: ").append(loaded(g.path("peermem"), g.path("peermemModule").asText("nvidia_peermem")))
                    .append("; GPUDirect Storage: ").append(loaded(g.path("nvidiaFs"), "nvidia_fs"))
                    .append("; `/etc/cufile.json` ").append(g.path("cufile").path("present").asBoolean() ? "present" : "absent").append(".\n\n");
        }
    }

    private static String loaded(JsonNode flag, String module) {
        return flag.isBoolean() ? module + (flag.asBoolean() ? " loaded" : " not loaded") : "unknown";
    }

    private static String join(JsonNode list) {
        List<String> s = new ArrayList<>();
        list.forEach(x -> s.add(x.asText()));
        return String.join(", ", s);
    }

    /** The result's anchor, or in a report of schema hostside/1 (no anchors) the options its detail kept under "fio". */
    static String fioJob(JsonNode result) {
        if (result.path("anchor").isTextual()) return result.get("anchor").asText();
        return "fio " + result.path("detail").path("fio").asText();
    }

    private static String figure(double v, boolean iops) {
        return iops ? String.format(Locale.ROOT, "%,.0f", v) : Units.figure(v);
    }
}
