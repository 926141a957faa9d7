package hostside.report;

import hostside.core.Units;

import java.util.Locale;
import static hostside.report.MarkdownRenderer.esc;
import static hostside.report.MarkdownRenderer.table;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/** Module 3's part of the report, from the JSON of `hostside cpu` alone. */
final class CpuMarkdown {
    private CpuMarkdown() {}

    static void render(StringBuilder md, JsonNode cpu) {
        JsonNode f = cpu.path("facts");
        md.append("### Scheduler, isolation, IRQs\n\n");
        List<List<String>> rows = new ArrayList<>();
        JsonNode k = f.path("kernel");
        rows.add(List.of("kernel", k.path("release").asText("unknown") + ": " + k.path("scheduler").asText("unknown") + " scheduler, preemption "
                + k.path("preemption").asText("unknown")));
        rows.add(List.of("CPUs", f.path("onlineCpus").asText("unknown") + " online, " + f.path("cores").asText("?") + " cores"));
        JsonNode iso = f.path("isolation");
        rows.add(List.of("isolation", "isolcpus " + iso.path("isolcpus").path("cpus").asText("-") + ", nohz_full " + iso.path("nohzFull").path("cpus").asText("-")
                + ", isolated now " + (iso.path("isolated").asText("").isEmpty() ? "none" : iso.path("isolated").asText())));
        JsonNode p = f.path("process");
        rows.add(List.of("this process", "may run on " + p.path("cpusAllowed").asText("unknown")
                + (p.path("cgroup").path("quotaCpus").isNumber() ? String.format(Locale.ROOT, ", CPU quota %.1f", p.path("cgroup").path("quotaCpus").asDouble()) : ", no CPU quota")));
        List<String> gov = new ArrayList<>();
        for (JsonNode s : f.path("frequency").path("governors")) gov.add(s.path("value").asText() + " on " + s.path("cpus").asText());
        rows.add(List.of("frequency", f.path("frequency").path("status").asText("unknown") + (gov.isEmpty() ? "" : ": " + String.join(", ", gov))));
        table(md, List.of("", ""), rows);
        rows = new ArrayList<>();
        for (JsonNode d : f.path("irqs").path("devices")) {
            rows.add(List.of(d.path("device").asText(), d.path("kind").asText(), String.valueOf(d.path("irqs").size()), d.path("routedTo").asText("unknown"),
                    d.path("landedOn").asText("unknown"), d.path("total").asText()));
        }
        if (!rows.isEmpty()) table(md, List.of("device", "kind", "IRQs", "routed to", "landed on", "interrupts"), rows);

        md.append("### Findings\n\n");
        if (cpu.path("findings").isEmpty()) md.append("None.\n\n");
        for (JsonNode x : cpu.path("findings")) {
            String sev = x.path("severity").asText();
            md.append("- ").append(sev.equals("bad") ? "**✗** " : sev.equals("warn") ? "**!** " : "").append(esc(x.path("text").asText())).append('\n');
        }
        md.append('\n');

        JsonNode m = cpu.path("measured");
        java.util.Set<String> whys = new java.util.HashSet<>();
        m.path("results").forEach(x -> whys.add(x.path("status").asText().equals("ok") ? "" : x.path("why").asText()));
        if (m.path("results").size() > 0 && whys.size() == 1 && !whys.contains("")) {
            md.append("### Measurements\n\nNot run: ").append(esc(whys.iterator().next())).append(".\n\n");
            return;
        }
        rows = new ArrayList<>();
        List<List<String>> jitter = new ArrayList<>();
        for (JsonNode x : m.path("results")) {
            boolean ok = x.path("status").asText().equals("ok");
            String key = x.path("key").asText();
            if (key.startsWith("launch_jitter_")) {
                if (!ok) {
                    jitter.add(List.of(key.substring(14), x.path("status").asText() + ": " + x.path("why").asText(), "", "", "", "", "", ""));
                    continue;
                }
                JsonNode late = x.path("detail").path("lateNs"), launch = x.path("detail").path("launchNs");
                JsonNode missed = x.path("detail").path("missedTicks");
                jitter.add(List.of(key.substring(14), us(late, "p50"), us(late, "p99"), us(late, "p999"), us(late, "max"),
                        missed.isNumber() ? missed.asText() : "-", us(launch, "p50"), us(launch, "p99")));
                continue;
            }
            JsonNode v = x.path("value");
            rows.add(ok ? List.of("`" + key + "`", Units.figure(v.path("median").asDouble()), Units.figure(v.path("min").asDouble()),
                    Units.figure(v.path("max").asDouble()), x.path("unit").asText())
                    : List.of("`" + key + "`", x.path("status").asText() + ": " + x.path("why").asText(), "", "", ""));
        }
        if (!rows.isEmpty()) {
            md.append("### What the scheduler charges\n\nMedian of the samples, with min and max.\n\n");
            table(md, List.of("measurement", "median", "min", "max", "unit"), rows);
        }
        if (!jitter.isEmpty()) {
            md.append("### Launch jitter\n\n").append(m.path("gpu").asText("").isEmpty()
                    ? "No GPU" + (m.path("noGpu").asText("").isEmpty() ? "" : " (" + esc(m.path("noGpu").asText()) + ")") + ": a timer-driven feeder, cyclictest's method."
                    : "Empty kernels on " + esc(m.path("gpu").asText()) + ", one per tick.").append(" Lateness of each wake-up and time of each launch call, us;"
                    + " missed: ticks already passed on waking, skipped as cyclictest skips them.\n\n");
            table(md, List.of("condition", "late p50", "p99", "p99.9", "max", "missed ticks", "launch p50", "launch p99"), jitter);
        }
        rows = new ArrayList<>();
        for (JsonNode x : cpu.path("dataloader")) {
            JsonNode v = x.path("value");
            rows.add(x.path("status").asText().equals("ok")
                    ? List.of("`" + x.path("key").asText() + "`", Units.figure(v.path("median").asDouble()), Units.figure(v.path("min").asDouble()),
                    Units.figure(v.path("max").asDouble()), x.path("unit").asText(),
                    x.path("detail").path("datasetBytes").isNumber() ? Units.bytes(x.path("detail").path("datasetBytes").asLong()) : "",
                    x.path("detail").path("workers").asText(""))
                    : List.of("`" + x.path("key").asText() + "`", x.path("status").asText() + ": " + x.path("why").asText(), "", "", "", "", ""));
        }
        if (!rows.isEmpty()) {
            md.append("### DataLoader workers\n\nForked Python workers reading a dataset: each worker's private memory (USS) growth as a share of the dataset;"
                    + " fork vs spawn of a process that has initialised CUDA.\n\n");
            table(md, List.of("measurement", "median", "min", "max", "unit", "dataset", "workers"), rows);
        }
        if (!cpu.path("verdicts").isEmpty()) {
            md.append("### What it means\n\n");
            for (JsonNode v : cpu.path("verdicts")) md.append("- ").append(esc(v.asText())).append('\n');
            md.append('\n');
        }
    }

    /** A quantile in ns as us; p99.9 is "p999" in a Distribution and was "p99.9" in reports of schema hostside/1. */
    private static String us(JsonNode m, String k) {
        JsonNode v = k.equals("p999") && !m.has("p999") ? m.path("p99.9") : m.path(k);
        return v.isNumber() ? String.format(Locale.ROOT, "%.1f", v.asDouble() / 1e3) : "-";
    }
}
