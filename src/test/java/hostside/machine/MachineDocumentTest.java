package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.CpuSet;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Style;
import hostside.core.Unit;
import hostside.core.Units;
import hostside.doc.Block;
import hostside.doc.Document;
import hostside.doc.HtmlRenderer;
import hostside.doc.MarkdownRenderer;
import hostside.doc.TextRenderer;

/** Module 1's one document: every figure of a run shows in the text, the Markdown and the HTML alike. */
class MachineDocumentTest {
    /** The terminal view of {@code hostside machine}, without colour. */
    static String text(MachineRun run) {
        return new TextRenderer(Style.plain()).render(MachineDocument.of(run));
    }

    static MachineRun twoGpus() {
        MachineFacts f = MachineFiguresTest.H200_FACTS;
        MachineFacts box = new MachineFacts(f.schema(), f.host(), NvlinkBoxes.nodes(1), NvlinkBoxes.twoBridgedPci(),
                Affinity.of(NvlinkBoxes.twoBridgedPci(), NvlinkBoxes.nodes(1)), f.iommu(), f.kernelCmdline(), List.of(), List.of());
        return new MachineRun(box, new GpuDrill.GpuSection("", PeerMatrixViewTest.cuda(GpuResults.TWO), null, List.of(), GpuResults.twoGpus(), List.of()));
    }

    /** A figure's value as the document writes it: sizes in binary units, the rest as the tables write figures. */
    static String shown(Figure f) {
        return f.unit() == Unit.BYTES ? Units.bytes(Math.round(f.value())) : Units.figure(f.value());
    }

    static void everyFigureInEveryRendering(MachineRun run) {
        Document doc = MachineDocument.of(run);
        String text = new TextRenderer(Style.plain()).render(doc);
        String md = new MarkdownRenderer().render(doc);
        String html = org.jsoup.Jsoup.parse(new HtmlRenderer().render(doc)).text();
        assertThat(run.figures()).isNotEmpty().allSatisfy(f -> {
            String v = shown(f);
            assertThat(text).as(f.key() + " " + f.scope() + " in the text").contains(v);
            assertThat(md).as(f.key() + " " + f.scope() + " in the Markdown").contains(v);
            assertThat(html).as(f.key() + " " + f.scope() + " in the HTML").contains(v);
        });
        // and the keys of the figures that are about the GPU or the machine name their rows
        run.figures().stream().filter(f -> f.scope().kind() != Scope.Kind.PAIR).forEach(f -> {
            assertThat(text).as(f.key()).contains(f.key().endsWith("_sum") ? f.key().substring(0, f.key().length() - 4) : f.key());
            assertThat(html).as(f.key()).contains(f.key().endsWith("_sum") ? f.key().substring(0, f.key().length() - 4) : f.key());
        });
    }

    /** A node's memory that could not be read is of unknown size, never "no memory": the reader would drop a node that has some. */
    @Test
    void aNodeWhoseMemoryIsUnknownIsNotSaidToHaveNone() {
        MachineFacts f = MachineFiguresTest.H200_FACTS;
        Topology.NumaNode unread = new Topology.NumaNode(0, CpuSet.parseList("0-15"), null, false, null, List.of());
        assertThat(MachineDocument.holds(unread, f)).isEqualTo("CPUs, memory of unknown size");
        Topology.NumaNode none = new Topology.NumaNode(1, CpuSet.parseList("0-15"), 0L, false, null, List.of());
        assertThat(MachineDocument.holds(none, f)).isEqualTo("CPUs, no memory");
    }

    @Test
    void everyFigureOfTheH200ShowsInAllThreeRenderings() {
        everyFigureInEveryRendering(MachineFiguresTest.h200());
    }

    @Test
    void everyFigureOfTwoGpusShowsInAllThreeRenderings() {
        everyFigureInEveryRendering(twoGpus());
    }

    @Test
    void theSweepsAreOnePlotOfTwoCurvesOverALogAxisWithTheirSpread() {
        Block.LinePlot plot = find(MachineDocument.of(MachineFiguresTest.h200()).blocks(), Block.LinePlot.class);
        assertThat(plot.x().unit()).isEqualTo(Unit.BYTES);
        assertThat(plot.x().log()).isTrue();
        assertThat(plot.y().unit()).isEqualTo(Unit.GB_PER_S);
        assertThat(plot.series()).extracting(Block.LinePlot.Series::name).containsExactly("pinned", "pageable");
        Block.LinePlot.Point first = plot.series().getFirst().points().getFirst();
        assertThat(first.x()).isEqualTo(4096);
        assertThat(first.y()).isEqualTo(1.60);
        assertThat(first.low()).isEqualTo(1.60 * 0.98);
        assertThat(first.high()).isEqualTo(1.60 * 1.01);
        assertThat(plot.series().getFirst().points()).hasSize(10);
    }

    @Test
    void aMachineWithoutFindingsSaysNone() {
        MachineRun run = twoGpus();
        assertThat(text(run)).contains("Findings\n  none\n");
    }

    /** The first block of {@code type} in the tree. */
    static <T extends Block> T find(List<Block> blocks, Class<T> type) {
        for (Block b : blocks) {
            if (type.isInstance(b)) return type.cast(b);
            if (b instanceof Block.Section s) {
                T t = find(s.blocks(), type);
                if (t != null) return t;
            }
        }
        return null;
    }
}
