package hostside.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import hostside.core.Units;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;
import hostside.doc.Block;
import hostside.doc.Text;
import hostside.report.platforms.Placement;
import hostside.report.platforms.Platforms;

/**
 * Offload math from this machine's own measured copies (design/compare.md, 2.2), beside the
 * reference platforms' rows: seconds to move 100 GB one way, a 70B model's Adam state one way
 * (12 bytes a parameter: 840 GB), and KV-cache reload in tokens a second for Llama-3-70B
 * (2 x 80 layers x 8 KV heads x 128 dims x 2 bytes = 320 KiB a token).
 */
final class Offload {
    private Offload() {}

    static final double GB_100 = 100, ADAM_70B_GB = 840, KV_BYTES_PER_TOKEN = 2.0 * 80 * 8 * 128 * 2;

    /**
     * One row: what moves the bytes, at what rate, and the three figures that follow. A rate that
     * is no rate (0, negative, not finite: a report's checks refuse them, a reference platform's
     * table could hold one) gives no figure: each reads "unknown", never Infinity or NaN seconds.
     */
    record Row(String what, double gbs, String source) {
        static final String UNKNOWN = "unknown";

        /** Whether the rate can be divided by: every figure of the row follows from it. */
        boolean known() {
            return gbs > 0 && Double.isFinite(gbs);
        }

        String rate() {
            return known() ? Units.sig3(gbs) : UNKNOWN;
        }

        // three significant figures, as the headlines: the copies they follow from vary by more than that
        String seconds100() {
            return known() ? Units.sig3(GB_100 / gbs) + " s" : UNKNOWN;
        }

        String adam() {
            return known() ? Units.sig3(ADAM_70B_GB / gbs) + " s" : UNKNOWN;
        }

        String kvTokens() {
            return known() ? String.format(Locale.ROOT, "%,.0f", new java.math.BigDecimal(gbs * 1e9 / KV_BYTES_PER_TOKEN).round(new java.math.MathContext(3)).doubleValue())
                    : UNKNOWN;
        }
    }

    /** The table, or null when this machine measured no copy (no GPU, a recording). */
    static Block of(Report r) {
        Double h2d = Placements.median(r, Placements.HOST_TO_DEVICE), d2h = Placements.median(r, "device_to_host_ce_pinned");
        if (h2d == null && d2h == null) return null;
        List<Row> rows = new ArrayList<>();
        if (h2d != null) rows.add(new Row("this machine, host to device", h2d, "measured here, nvbandwidth's timing"));
        if (d2h != null) rows.add(new Row("this machine, device to host", d2h, "measured here, nvbandwidth's timing"));
        // the reference platforms with a host-to-device figure, platforms of one figure in one row
        Map<Double, List<Platforms.Platform>> ref = new LinkedHashMap<>();
        List<String> unknown = new ArrayList<>();
        for (Platforms.Platform p : Platforms.get().platforms()) {
            if (p.hostToDevice().known()) ref.computeIfAbsent(p.hostToDevice().value(), k -> new ArrayList<>()).add(p);
            else unknown.add(p.name());
        }
        ref.forEach((gbs, ps) -> rows.add(new Row(String.join(", ", ps.stream().map(Platforms.Platform::name).toList()), gbs,
                ps.getFirst().hostToDevice().tag() + ": " + ps.getFirst().hostToDevice().source())));
        // the platforms whose copy is not known are said to be, not left out as if they had none to compare
        if (!unknown.isEmpty()) rows.add(new Row(String.join(", ", unknown), Double.NaN,
                "?: not known per GPU (a C2C link quoted per superchip of two GPUs, or no copy measured with a source); platforms.json says why for each"));
        List<List<Text>> table = rows.stream().map(x -> List.of(Text.of(x.what()), Text.of(x.rate()), Text.of(x.seconds100()),
                Text.of(x.adam()), Text.of(x.kvTokens()), Text.of(x.source()))).toList();
        return new Block.Section("Offload math: 100 GB, a 70B model's Adam state (840 GB) and Llama-3-70B's KV cache (320 KiB a token), one way", List.of(
                new Block.Table(List.of(new Column("copy", Align.LEFT), new Column("GB/s", Align.RIGHT), new Column("100 GB", Align.RIGHT),
                        new Column("Adam state, 70B", Align.RIGHT), new Column("KV reload, tokens/s", Align.RIGHT), new Column("source", Align.LEFT)), table)));
    }

    /** Where the machine sits among the reference platforms, or why it is not placed. */
    static Block placement(Report r) {
        Placement p = Placements.of(r);
        List<Block> b = new ArrayList<>();
        if (!p.placed()) {
            b.add(Block.Paragraph.of("Not placed: " + p.why() + "."));
        } else {
            b.add(new Block.Paragraph(Text.of("Closest: ").andStrong(p.closest().name()).plain(" (" + p.closest().linkDetail() + (p.closest().coherent() ? ", coherent" : ", not coherent")
                    + "), because " + p.because() + ".")));
            b.add(new Block.Paragraph(Text.of((p.differs().isEmpty() ? "" : "Differs: " + String.join("; ", p.differs()) + ". ")
                    + "(Reference figures: S vendor spec, M measured, its source named, T one third-party source, ? not known, left out; platforms of another host link are never ranked against this one.)")));
        }
        return new Block.Section("Among the reference platforms", b);
    }
}
