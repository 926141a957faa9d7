package hostside.doc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Style;
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
import hostside.testing.Hostile;

/**
 * A name from another machine holding escape sequences, in every place a document holds text, is
 * shown as visible escapes by the three renderers; the text renderer's own colours still come out.
 */
class ControlCharactersTest {
    static final String N = Hostile.NAME;

    /** The planted name in every string a document carries. */
    static Document everywhere() {
        Table table = new Table(List.of(new Column("head " + N, Align.LEFT), new Column("n", Align.RIGHT)),
                List.of(List.of(Text.of("cell " + N), Text.of("1")), List.of(Text.code("code " + N), Text.strong("strong " + N))));
        LinePlot plot = new LinePlot("plot " + N, new Axis("x " + N, Unit.BYTES, true), new Axis("y " + N, Unit.GB_PER_S, false),
                List.of(new LinePlot.Series("series " + N, List.of(new LinePlot.Point(4096, 1, null, null), new LinePlot.Point(8192, 2, 1.5, 2.5)))));
        Histogram histogram = new Histogram("histogram " + N, new Axis("us " + N, Unit.US, false),
                List.of(new Histogram.Bar(0, 1, 5), new Histogram.Bar(1, 2, 1)), List.of(new Histogram.Mark("p50 " + N, 0.5)));
        return new Document("title " + N, "subtitle " + N, List.of(new Section("section " + N, List.of(
                new Paragraph(Text.of("para " + N).andCode("code " + N).andStrong("strong " + N)),
                new Note(Text.of("note " + N)),
                new KeyValues(List.of(KeyValues.Entry.of("key " + N, "value " + N))),
                table,
                new Bullets(List.of(Text.of("bullet " + N))),
                new Findings(List.of(hostside.core.Findings.bad("GPU " + N, "finding " + N)), ""),
                new Findings(List.of(), "none " + N),
                plot, histogram))));
    }

    @Test
    void everyRendererShowsThePlantedControlsAsEscapes() {
        Document d = everywhere();
        String text = new TextRenderer(Style.plain(), 300).render(d);
        Hostile.assertNothingHidden("text", text);
        for (String where : List.of("title ", "subtitle ", "section ", "para ", "code ", "strong ", "note ", "key ", "value ", "head ", "cell ", "bullet ",
                "finding ", "none ", "plot ", "series ", "histogram ", "p50 ")) {
            assertThat(text).as(where).contains(where + Hostile.SHOWN + "\\n" + Hostile.FORGED);
        }
        Hostile.assertNothingHidden("markdown", new MarkdownRenderer().render(d));
        String html = new HtmlRenderer().render(d);
        Hostile.assertNothingHidden("html", html);
        assertThat(html).contains("title " + Hostile.SHOWN).contains("x " + Hostile.SHOWN).contains("series " + Hostile.SHOWN);
    }

    @Test
    void theTextRenderersOwnColoursStillComeOutAroundAPlantedEscape() {
        Document d = new Document("title " + N, List.of(new Findings(List.of(hostside.core.Findings.bad("GPU", "slow " + Hostile.ONE_LINE)), "")));
        String coloured = new TextRenderer(Style.colour(), 200).render(d);
        assertThat(coloured).startsWith("\u001b[1mtitle").contains("\u001b[31m✗ \u001b[0m").contains("\u001b[31m" + Hostile.SHOWN + "\u001b[0m");
        // the only escapes left are the renderer's own SGR colours
        Hostile.assertNothingHidden("coloured text less its colours", coloured.replaceAll("\u001b\\[[0-9;]*m", ""));
    }

    @Test
    void aHostileHtmlEscapeOfAnSvgLabelIsShownToo() {
        assertThat(HtmlRenderer.esc("<b>" + Hostile.ONE_LINE)).isEqualTo("&lt;b&gt;" + Hostile.SHOWN);
    }
}
