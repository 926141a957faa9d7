package hostside.doc;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Unit;
import hostside.doc.Block.Axis;
import hostside.doc.Block.Bullets;
import hostside.doc.Block.Findings;
import hostside.doc.Block.Histogram;
import hostside.doc.Block.KeyValues;
import hostside.doc.Block.LinePlot;
import hostside.doc.Block.Note;
import hostside.doc.Block.Paragraph;
import hostside.doc.Block.Section;
import hostside.doc.Block.Table;
import hostside.doc.Block.Table.Align;
import hostside.doc.Block.Table.Column;

/** Documents the renderers' tests draw: one with every kind of block, and small ones for single points. */
final class Samples {
    private Samples() {}

    static final long KIB = 1024;
    static final long MIB = 1024 * KIB;
    static final long GIB = 1024 * MIB;

    /**
     * Every block kind, sections nested past h6, a table with a right column, findings of the three
     * severities, a note, inline code and strong, a two-series sweep with spreads on a log axis from
     * 4 KiB to 1 GiB, a histogram with marks. Its words are distinct so an order check means something.
     */
    static Document rich() {
        Section deep = new Section("Level four", List.of(
                Paragraph.of("Fourth level prose."),
                new Section("Level five", List.of(
                        new Section("Level six", List.of(
                                new Section("Level seven", List.of(Paragraph.of("Seventh level prose, deeper than h6.")))))))));
        Table table = new Table(
                List.of(new Column("measurement", Align.LEFT), new Column("median", Align.RIGHT), new Column("unit", Align.LEFT), new Column("n", Align.RIGHT)),
                List.of(List.of(Text.of("tlb_walk"), Text.of("12.40"), Text.of("ns"), Text.of("31")),
                        List.of(Text.code("fault_4k"), Text.strong("1850"), Text.of("us"), Text.of("7"))));
        Section vm = new Section("Virtual memory", List.of(
                new KeyValues(List.of(
                        KeyValues.Entry.of("base page", "4 KiB (sysfs)"),
                        KeyValues.Entry.of("THP", "madvise"),
                        new KeyValues.Entry("memlock", Text.of("unlimited, as ").andCode("ulimit -l").plain(" says")))),
                new Paragraph(Text.of("Transparent huge pages are ").andStrong("off for this process").plain(", set by ")
                        .andCode("prctl(PR_SET_THP_DISABLE)").plain(" in the launcher, which the loader inherits when it forks its workers.")),
                new Section("Measurements", List.of(table, Note.of("fault_4k was cut to 1 GiB to fit the free memory"), deep))));
        Section findings = new Section("Findings", List.of(
                new Findings(List.of(
                        hostside.core.Findings.bad("GPU0", "the link runs at Gen3 under load, half its Gen4 maximum"),
                        hostside.core.Findings.warn("NUMA", "the loader allocates on node 1, the GPU sits on node 0"),
                        hostside.core.Findings.info("THP", "khugepaged scans 4096 pages every 10 s")), "none"),
                new Bullets(List.of(Text.of("pin the loader to node 0"), Text.of("rerun with ").andCode("--size 1GiB").plain(" to confirm")))));
        return new Document("hostside machine: sample", "recorded on h200-vm, 2025-06-01",
                List.of(vm, findings, new Section("Copies", List.of(sweep())), new Section("Launch jitter", List.of(jitter()))));
    }

    /** Pinned at every size with spreads, pageable at every other size without: the table needs empty cells. */
    static LinePlot sweep() {
        List<LinePlot.Point> pinned = new ArrayList<>();
        List<LinePlot.Point> pageable = new ArrayList<>();
        double[] gbps = {2.1, 6.8, 17.5, 33.2, 45.0, 50.3, 52.1, 52.6, 52.4, 51.9};
        for (int k = 0; k < gbps.length; k++) {
            double size = 4 * KIB * Math.pow(4, k);
            pinned.add(new LinePlot.Point(size, gbps[k], gbps[k] * 0.95, gbps[k] * 1.02));
            if (k % 2 == 0) pageable.add(new LinePlot.Point(size, gbps[k] * 0.4, null, null));
        }
        return new LinePlot("Host to device bandwidth by buffer size", new Axis("buffer size", Unit.BYTES, true),
                new Axis("bandwidth", Unit.GB_PER_S, false), List.of(new LinePlot.Series("pinned", pinned), new LinePlot.Series("pageable", pageable)));
    }

    static Histogram jitter() {
        return new Histogram("Launch latency", new Axis("launch latency", Unit.US, true), List.of(
                new Histogram.Bar(1, 2, 5200), new Histogram.Bar(2, 4, 3100), new Histogram.Bar(4, 8, 420),
                new Histogram.Bar(8, 16, 37), new Histogram.Bar(16, 32, 4), new Histogram.Bar(32, 64, 1)),
                List.of(new Histogram.Mark("p50", 1.8), new Histogram.Mark("p99", 9.5), new Histogram.Mark("p99.9", 24)));
    }

    /** What should be shown literally everywhere, markup of all three formats in one line. */
    static final String NASTY = "a|b *star* _under_ <script>alert(1)</script> & `tick` [x](y) #5 &lt; \\back";

    /** The nasty text in each place plain text can go. */
    static Document nasty() {
        return new Document("title " + NASTY, "subtitle " + NASTY, List.of(
                new Section("section " + NASTY, List.of(
                        new Paragraph(Text.of("para " + NASTY)),
                        new Note(Text.of("note " + NASTY)),
                        new KeyValues(List.of(KeyValues.Entry.of("key " + NASTY, "value " + NASTY))),
                        new Table(List.of(new Column("head " + NASTY, Align.LEFT), new Column("n", Align.RIGHT)), List.of(
                                List.of(Text.of("cell " + NASTY), Text.of("1")),
                                List.of(Text.code("code|pipe `tick`"), Text.of("2")))),
                        new Bullets(List.of(Text.of("bullet " + NASTY))),
                        new Findings(List.of(hostside.core.Findings.bad("X", "finding " + NASTY)), "")))));
    }
}
