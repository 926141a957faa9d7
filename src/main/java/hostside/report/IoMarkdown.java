package hostside.report;

import static hostside.report.MarkdownRenderer.esc;
import static hostside.report.MarkdownRenderer.table;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/** Module 4's part of the report, from the JSON of `hostside io` alone. */
final class IoMarkdown {
    private IoMarkdown() {}

    static void render(StringBuilder md, JsonNode io) {
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
                        x.path("unit").asText(), "`fio " + x.path("detail").path("fio").asText() + "`"));
            }
            table(md, List.of("measurement", "median", "min", "max", "unit", "fio job"), rows);
        }
        if (!io.path("verdicts").isEmpty()) {
            md.append("### What it means\n\n");
            for (JsonNode v : io.path("verdicts")) md.append("- ").append(esc(v.asText())).append('\n');
            md.append('\n');
        }
    }

    private static String figure(double v, boolean iops) {
        return iops ? String.format("%,.0f", v) : Units.figure(v);
    }
}
