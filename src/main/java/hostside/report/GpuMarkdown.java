package hostside.report;

import hostside.core.Units;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import static hostside.report.MarkdownRenderer.esc;

/** The GPU section of Module 1 in a report: each GPU, its copies, the all-GPU and GPU-to-GPU matrices. */
final class GpuMarkdown {
    private final StringBuilder md;

    private GpuMarkdown(StringBuilder md) {
        this.md = md;
    }

    static void render(StringBuilder md, JsonNode gpu, JsonNode pci) {
        new GpuMarkdown(md).render(gpu, pci);
    }

    private void render(JsonNode g, JsonNode pci) {
        if (g.isMissingNode() || g.isNull()) return;
        md.append("### GPUs and copies\n\n");
        JsonNode nv = g.path("nvml");
        if (nv.isObject()) {
            if (!nv.path("notRun").isNull() && !nv.path("notRun").asText().isEmpty()) {
                md.append("NVML not run: ").append(esc(nv.path("notRun").asText())).append(".\n\n");
            } else {
                md.append("NVML: driver ").append(esc(nv.path("driverVersion").asText("?"))).append(", CUDA ")
                        .append(esc(nv.path("cudaDriverVersion").asText("?"))).append(".\n\n");
                List<List<String>> rows = new ArrayList<>();
                for (JsonNode x : nv.path("gpus")) {
                    rows.add(List.of(x.path("name").asText(), x.path("pciBusId").asText(),
                            "Gen" + x.path("pcieGen").asText("?") + " x" + x.path("pcieWidth").asText("?") + " (max Gen"
                                    + x.path("pcieMaxGen").asText("?") + " x" + x.path("pcieMaxWidth").asText("?") + ")",
                            x.path("cpuAffinity").asText("-"), x.path("persistenceMode").asText("?"),
                            x.path("smClockMhz").asText("?") + " / " + x.path("smClockMaxMhz").asText("?") + " MHz",
                            x.path("eccEnabled").asText("?"), String.valueOf(x.path("nvLinks").size()),
                            x.path("fabric").path("state").asText("-"), x.path("addressingMode").asText("?"),
                            x.path("migEnabled").asText("?")));
                }
                table(List.of("GPU", "PCI", "PCIe now (max)", "ideal CPUs", "persistence", "SM clock / max", "ECC", "NVLinks",
                        "fabric", "addressing", "MIG"), rows);
            }
        }
        if (!g.path("notRun").asText().isEmpty()) {
            md.append("Not run: ").append(esc(g.path("notRun").asText())).append(".\n\n");
            return;
        }
        md.append("CUDA driver ").append(esc(g.path("cuda").path("cudaVersion").asText())).append(".\n\n");
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode c : g.path("cuda").path("gpus")) {
            List<String> attrs = new ArrayList<>();
            for (JsonNode a : c.path("attributes")) {
                attrs.add(a.path("name").asText() + " " + (a.path("value").isNull() ? "unknown" : a.path("value").asText()));
            }
            rows.add(List.of(c.path("name").asText(), c.path("pciAddress").asText(), c.path("computeCapability").asText(),
                    c.path("smCount").asText(), Units.bytes(c.path("memoryBytes").asLong()), c.path("coherence").asText(),
                    String.join(", ", attrs)));
        }
        table(List.of("GPU", "PCI address", "compute capability", "SMs", "memory", "coherence", "host-memory attributes"), rows);
        rows = new ArrayList<>();
        // as in the text: cases that did not run share their reason below the figures
        java.util.Map<String, List<String>> without = new java.util.LinkedHashMap<>();
        for (JsonNode x : g.path("allGpus")) {
            JsonNode v = x.path("value");
            String key = "`" + x.path("key").asText() + "`";
            if (x.path("status").asText().equals("ok")) {
                rows.add(List.of(key, Units.figure(v.path("median").asDouble()), Units.figure(v.path("min").asDouble()),
                        Units.figure(v.path("max").asDouble()), x.path("unit").asText()));
            } else {
                without.computeIfAbsent(x.path("status").asText() + ": " + x.path("why").asText(), k -> new ArrayList<>()).add(key);
            }
        }
        if (!rows.isEmpty()) table(List.of("all GPUs at once", "median", "min", "max", "unit"), rows);
        without.forEach((why, keys) -> md.append(String.join(", ", keys)).append(": ").append(esc(why)).append(".\n\n"));
        // the figures behind each summary line: which GPU or pair is slow
        for (JsonNode x : g.path("allGpus")) {
            if (!x.path("status").asText().equals("ok")) continue;
            perGpu(x, g, pci);
            peerMatrix(x, g, pci);
        }
        for (JsonNode r : g.path("runs")) {
            if (r.path("results").isEmpty()) continue;
            md.append("**").append(esc(r.path("gpu").asText())).append("** (").append(r.path("pciAddress").asText())
                    .append("), median of the samples with min and max:\n\n");
            rows = new ArrayList<>();
            for (JsonNode x : r.path("results")) {
                if (x.path("status").asText().equals("ok")) {
                    JsonNode v = x.path("value");
                    rows.add(List.of("`" + x.path("key").asText() + "`", Units.figure(v.path("median").asDouble()), Units.figure(v.path("min").asDouble()),
                            Units.figure(v.path("max").asDouble()), x.path("unit").asText(), x.path("method").asText()));
                } else {
                    rows.add(List.of("`" + x.path("key").asText() + "`", x.path("status").asText() + ": " + x.path("why").asText(), "", "", "", ""));
                }
            }
            table(List.of("measurement", "median", "min", "max", "unit", "how"), rows);
            for (JsonNode v : r.path("verdicts")) md.append("- ").append(esc(v.asText())).append('\n');
            md.append('\n');
        }
    }

    /** host_to_all / all_to_host: each GPU's copy while the others copied too. */
    private void perGpu(JsonNode x, JsonNode g, JsonNode pci) {
        if (x.path("detail").path("perGpu").size() < 2) return; // one GPU's figure is the sum already shown
        md.append("`").append(x.path("key").asText()).append("`, each GPU while all copy (").append(esc(x.path("unit").asText())).append("):\n\n");
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode p : x.path("detail").path("perGpu")) {
            JsonNode s = p.path("gbs");
            String address = p.path("pciAddress").asText();
            rows.add(List.of(gpuLabel(address, address, g, pci), Units.figure(s.path("median").asDouble()),
                    Units.figure(s.path("min").asDouble()), Units.figure(s.path("max").asDouble()), s.path("samples").asText()));
        }
        table(List.of("GPU", "median", "min", "max", "samples"), rows);
    }

    /**
     * A peer test case's first matrix (for the bidirectional ones, both directions added) as
     * nvbandwidth prints it, N/A where nothing was measured, with its SUM line for bandwidths;
     * the one-direction matrices stay in the JSON, as in hostside machine's text.
     */
    private void peerMatrix(JsonNode x, JsonNode g, JsonNode pci) {
        JsonNode m = null;
        List<String> others = new ArrayList<>();
        for (var e : x.path("detail").properties()) {
            if (!e.getValue().path("values").isArray() || !e.getValue().path("addresses").isArray()) continue;
            if (m == null) m = e.getValue();
            else others.add(e.getKey());
        }
        if (m == null) return;
        String key = x.path("key").asText();
        md.append("`").append(key).append("` (").append(esc(x.path("unit").asText())).append("), row: ").append(esc(m.path("rows").asText()))
                .append("; column: ").append(esc(m.path("columns").asText())).append(":\n\n");
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < m.path("addresses").size(); i++) labels.add(gpuLabel(m.path("addresses").get(i).asText(), "cuda" + i, g, pci));
        List<String> header = new ArrayList<>(List.of(""));
        header.addAll(labels);
        List<List<String>> rows = new ArrayList<>();
        int r = 0;
        for (JsonNode row : m.path("values")) {
            List<String> cells = new ArrayList<>(List.of(labels.get(r++)));
            for (JsonNode v : row) cells.add(v.isNumber() ? Units.figure(v.asDouble()) : "N/A");
            rows.add(cells);
        }
        table(header, rows);
        JsonNode sum = x.path("detail").path("sum");
        if (sum.isNumber()) md.append("SUM `").append(key).append("` ").append(Units.figure(sum.asDouble())).append("\n\n");
        List<String> not = new ArrayList<>();
        for (JsonNode n : x.path("detail").path("notMeasured")) {
            not.add(new hostside.gpu.peer.NotMeasured(n.path("row").asInt(), n.path("column").asInt(), n.path("why").asText()).named(labels));
        }
        if (!not.isEmpty()) md.append("Not measured: ").append(esc(String.join("; ", not))).append(".\n\n");
        if (!others.isEmpty()) md.append("One direction at a time (").append(esc(String.join(", ", others))).append("): in the JSON.\n\n");
    }

    /**
     * A GPU by the name the PCIe table gives it; one the PCIe tree does not hold by its CUDA
     * ordinal, as the drill names it; else {@code fallback}.
     */
    private static String gpuLabel(String address, String fallback, JsonNode g, JsonNode pci) {
        for (JsonNode d : pci) {
            if (d.path("address").asText().equalsIgnoreCase(address)) {
                return d.path("name").asText().isEmpty() ? d.path("address").asText() : d.path("name").asText();
            }
        }
        for (JsonNode c : g.path("cuda").path("gpus")) {
            if (c.path("pciAddress").asText().equalsIgnoreCase(address)) return "cuda" + c.path("ordinal").asInt();
        }
        return fallback;
    }

    private void table(List<String> header, List<List<String>> rows) {
        MarkdownRenderer.table(md, header, rows);
    }
}
