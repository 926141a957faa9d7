package hostside.rack;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import hostside.core.Finding;
import hostside.core.Units;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;
import hostside.doc.Block;
import hostside.doc.Document;
import hostside.doc.Text;
import hostside.gpu.bench.Copies;
import hostside.gpu.bench.SmAccess;
import hostside.gpu.cuda.CudaFacts;
import hostside.gpu.cuda.FabricReadiness;
import hostside.harness.Result;
import hostside.machine.GpuDrill;
import hostside.machine.GpuRules;

/**
 * Module 5 said once: the platform and its rack checklist (value, verdict, and for each item that
 * is not ok why and the fix), how each GPU sees host memory (its coherence class and the attributes
 * behind it), and its copy engines against its SMs reading and writing pinned host memory.
 */
public final class RackDocument {
    private RackDocument() {}

    public static Document of(Rack.RackRun run) {
        String title = "hostside rack: coherent superchips and NVLink racks";
        List<Block> blocks = new ArrayList<>(blocks(run.platform(), run.checklist(), run.fabricReadiness()));
        GpuDrill.GpuSection gpu = run.machine().gpu();
        if (!gpu.notRun().isEmpty()) {
            blocks.add(Block.Note.of("Coherence and copies not run: " + gpu.notRun()));
        } else {
            for (CudaFacts.CudaGpu g : gpu.cuda().gpus()) blocks.add(coherence(g));
            for (GpuDrill.GpuRun r : gpu.runs()) blocks.add(copies(r));
        }
        return new Document(title, blocks);
    }

    /** The platform, the checklist and the readiness test: what the report's Module 5 shows. */
    public static List<Block> blocks(Platform platform, List<RackCheck> checklist, List<FabricReadiness> readiness) {
        List<Block> blocks = new ArrayList<>();
        blocks.add(new Block.Paragraph(Text.of("Platform: ").andStrong(platform.kind().description()).plain(" (" + platform.evidence() + ").")));
        blocks.add(checklist(checklist));
        if (!readiness.isEmpty()) blocks.add(readiness(readiness));
        return blocks;
    }

    /** NCCL's readiness test per GPU: each step, its outcome, the call that decided it, its error and its time. */
    static Block readiness(List<FabricReadiness> rs) {
        List<Block> b = new ArrayList<>();
        for (FabricReadiness r : rs) {
            List<List<Text>> rows = new ArrayList<>();
            for (FabricReadiness.Step s : r.steps()) {
                rows.add(List.of(Text.of(s.name()), Text.of(s.outcome().name().toLowerCase(Locale.ROOT).replace('_', ' ')),
                        Text.of(s.call() == null ? "-" : s.call()), Text.of(s.error() == null ? "-" : s.error() + (s.errorCode() == null ? "" : " (" + s.errorCode() + ")")),
                        Text.of(s.micros() == null ? "-" : s.micros() + " us")));
            }
            String outcome = switch (r.outcome()) {
                case READY -> "ready";
                case NOT_READY -> "not ready at \"" + r.failedStep() + "\"";
                case NOT_APPLICABLE -> "n/a";
            };
            List<Block> g = new ArrayList<>();
            g.add(new Block.Paragraph(Text.of("CUDA GPU " + r.ordinal() + ": ").andStrong(outcome).plain(": " + r.why() + ".")));
            g.add(new Block.Table(List.of(new Column("step", Align.LEFT), new Column("outcome", Align.LEFT), new Column("call", Align.LEFT),
                    new Column("error", Align.LEFT), new Column("time", Align.RIGHT)), rows));
            if (r.fix() != null) g.add(new Block.Paragraph(Text.of("Fix: ").andStrong(r.fix())));
            if (r.caveat() != null) g.add(Block.Note.of(r.caveat()));
            b.add(new Block.Section("Fabric readiness, CUDA GPU " + r.ordinal(), g));
        }
        return new Block.Section("Fabric readiness (NCCL's check before multi-node NVLink)", b);
    }

    /** The GPU half alone, as before the checklist existed (the report's Module 5 uses it). */
    public static Document of(GpuDrill.GpuSection gpu) {
        String title = "hostside rack: coherence and copy engine vs SMs";
        if (!gpu.notRun().isEmpty()) return new Document(title, List.of(Block.Note.of("Not run: " + gpu.notRun())));
        List<Block> blocks = new ArrayList<>();
        for (CudaFacts.CudaGpu g : gpu.cuda().gpus()) blocks.add(coherence(g));
        for (GpuDrill.GpuRun r : gpu.runs()) blocks.add(copies(r));
        return new Document(title, blocks);
    }

    /**
     * One row per item (item, verdict, value); then, for every item that is neither ok nor n/a, why
     * and the fix, so that the table stays narrow and what needs reading is under it.
     */
    static Block checklist(List<RackCheck> checks) {
        List<List<Text>> rows = new ArrayList<>();
        List<Text> notes = new ArrayList<>();
        for (RackCheck c : checks) {
            rows.add(List.of(Text.code(c.item().id()), Text.of(c.verdict().toString()), Text.of(c.value())));
            if (c.verdict() == RackVerdict.OK || c.verdict() == RackVerdict.NA || c.verdict() == RackVerdict.NOT_RUN) continue;
            Text t = Text.code(c.item().id()).plain(" (" + c.verdict() + "): " + c.why());
            if (!c.fix().isEmpty()) t = t.plain(". Fix: ").andStrong(c.fix());
            notes.add(t);
        }
        List<Block> b = new ArrayList<>();
        Map<RackVerdict, Integer> counts = RackChecklist.counts(checks);
        List<String> parts = new ArrayList<>();
        counts.forEach((v, n) -> parts.add(n + " " + v));
        b.add(new Block.Paragraph(Text.of(checks.size() + " items: " + String.join(", ", parts) + ".")));
        b.add(new Block.Table(List.of(new Column("item", Align.LEFT), new Column("verdict", Align.LEFT), new Column("value", Align.LEFT)), rows));
        if (!notes.isEmpty()) b.add(new Block.Bullets(notes));
        for (RackVerdict v : List.of(RackVerdict.NA, RackVerdict.NOT_RUN)) {
            // grouped by reason: "n/a: imex, fabric_manager (no NVSwitch ...)"
            Map<String, List<String>> byWhy = new java.util.LinkedHashMap<>();
            for (RackCheck c : checks) if (c.verdict() == v) byWhy.computeIfAbsent(c.why(), k -> new ArrayList<>()).add(c.item().id());
            List<Text> lines = new ArrayList<>();
            byWhy.forEach((why, items) -> lines.add(Text.of(String.join(", ", items) + ": " + why)));
            if (!lines.isEmpty()) b.add(new Block.Section(v == RackVerdict.NA ? "Not applicable here" : "Not run", List.of(new Block.Bullets(lines))));
        }
        return new Block.Section("Checklist", b);
    }

    private static Block coherence(CudaFacts.CudaGpu g) {
        List<List<Text>> rows = new ArrayList<>();
        for (CudaFacts.Attribute a : g.attributes()) {
            rows.add(List.of(Text.of(a.name() + " (" + a.id() + ")"), Text.of(Units.orUnknown(a.value())), Text.of(a.meaning())));
        }
        String meaning = switch (g.coherence()) {
            case "ATS" -> "the GPU walks the CPU's page tables: any host pointer works in a kernel, at link speed";
            case "HMM" -> "the kernel mirrors page tables for the GPU: any host pointer works, pages migrate on fault";
            case "none" -> "only pinned (or managed) memory reaches this GPU directly: pageable memory goes through staging copies";
            default -> "coherence unknown: this driver does not report attribute 88";
        };
        return new Block.Section(g.name() + " (" + g.pciAddress() + ")", List.of(
                new Block.Paragraph(Text.of("Coherence class ").andStrong(g.coherence()).plain(": " + meaning + ".")),
                new Block.Table(List.of(new Column("attribute", Align.LEFT), new Column("value", Align.RIGHT), new Column("meaning", Align.LEFT)), rows)));
    }

    /** Each direction: the copy engine's GB/s, the SMs', and the SMs' share; what did not run, and the verdict on SMs. */
    private static Block copies(GpuDrill.GpuRun r) {
        List<List<Text>> rows = new ArrayList<>();
        for (boolean in : new boolean[] {true, false}) {
            Optional<Double> ce = Result.median(r.results(), new Copies.CePinned(in).key());
            Optional<Double> sm = Result.median(r.results(), new SmAccess.SmCopy(in).key());
            rows.add(List.of(Text.of(in ? "host to device" : "device to host"), Text.of(ce.map(RackDocument::gbs).orElse("-")),
                    Text.of(sm.map(RackDocument::gbs).orElse("-")),
                    Text.of(ce.isPresent() && sm.isPresent() ? String.format(Locale.ROOT, "%.0f%%", 100 * sm.get() / ce.get()) : "-")));
        }
        List<Block> b = new ArrayList<>();
        b.add(Block.Note.of("Pinned host memory, nvbandwidth's timing."));
        b.add(new Block.Table(List.of(new Column("direction", Align.LEFT), new Column("copy engine GB/s", Align.RIGHT), new Column("SMs GB/s", Align.RIGHT),
                new Column("SMs / copy engine", Align.RIGHT)), rows));
        for (Result x : r.results()) if (!x.isOk()) b.add(new Block.Note(Text.code(x.key()).plain(": " + x.status() + ": " + x.why())));
        // the rule's finding; a run from before findings were typed said it in a line of its own, starting "SMs"
        List<Finding> sms = r.verdicts().stream().filter(v -> v.id().equals(GpuRules.SM_COPY.id()) || v.id().isEmpty() && v.text().startsWith("SMs")).toList();
        if (!sms.isEmpty()) b.add(new Block.Findings(sms, ""));
        return new Block.Section(r.gpu() + " (" + r.pciAddress() + ")", b);
    }

    /** Two decimals, as the copy tables of hostside machine write GB/s, so the two commands' figures read alike. */
    private static String gbs(double v) {
        return Units.figure(v);
    }
}
