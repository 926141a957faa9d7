package hostside.doc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import hostside.core.Style;
import hostside.core.Unit;
import hostside.doc.Block.Axis;
import hostside.doc.Block.Bullets;
import hostside.doc.Block.Findings;
import hostside.doc.Block.Histogram;
import hostside.doc.Block.KeyValues;
import hostside.doc.Block.LinePlot;
import hostside.doc.Block.Paragraph;
import hostside.doc.Block.Section;
import hostside.doc.Block.Table;

/** The renderers draw any document, the odd ones too: empty blocks, plots without points, values a log axis cannot place. */
class AnyDocumentTest {
    private static final Pattern NUMBER_ATTR = Pattern.compile("\\b(x|y|x1|x2|y1|y2|cx|cy|width|height)=\"([^\"]*)\"");

    private static List<String> all(Document d) {
        return List.of(new TextRenderer(Style.plain()).render(d), new MarkdownRenderer().render(d), new HtmlRenderer().render(d));
    }

    @Test
    void anEmptyDocumentIsItsTitle() {
        Document d = new Document("only a title", List.of());
        List<String> out = all(d);
        assertThat(out.get(0)).isEqualTo("only a title\n");
        assertThat(out.get(1)).isEqualTo("# only a title\n");
        assertThat(out.get(2)).contains("<h1>only a title</h1>");
    }

    @Test
    void emptyBlocksLeaveNoDebris() {
        Document d = new Document("t", List.of(new Section("s", List.of(
                Paragraph.of(""), new Block.Note(Text.of("")), new KeyValues(List.of()), new Bullets(List.of()), new Findings(List.of(), ""),
                new Table(List.of(new Table.Column("only a header", Table.Align.LEFT)), List.of()), new Section("empty", List.of())))));
        List<String> out = all(d);
        assertThat(out.get(0)).isEqualTo("t\n\ns\n  only a header\n  empty\n");
        assertThat(out.get(1)).isEqualTo("# t\n\n## s\n\n| only a header |\n| --- |\n\n### empty\n");
        assertThat(out.get(2)).doesNotContain("<p></p>").doesNotContain("<ul>\n</ul>").doesNotContain("<dl");
    }

    @Test
    void oddPlotsStillDrawWithFiniteCoordinates() {
        Axis logBytes = new Axis("size", Unit.BYTES, true);
        Axis logNs = new Axis("latency", Unit.NS, true);
        Axis linear = new Axis("n", Unit.COUNT, false);
        List<Block> plots = new ArrayList<>(List.of(
                new LinePlot("no series", logBytes, logNs, List.of()),
                new LinePlot("no points", logBytes, logNs, List.of(new LinePlot.Series("", List.of()))),
                new LinePlot("one point", logBytes, logNs, List.of(new LinePlot.Series("a", List.of(new LinePlot.Point(4096, 80, 70.0, 90.0))))),
                new LinePlot("zeros and negatives on log axes", logBytes, logNs, List.of(new LinePlot.Series("a", List.of(
                        new LinePlot.Point(0, 5, null, null), new LinePlot.Point(-1, -5, -6.0, -4.0), new LinePlot.Point(8192, 0, 0.0, 3.0),
                        new LinePlot.Point(65536, 40, 30.0, 50.0), new LinePlot.Point(Double.NaN, Double.POSITIVE_INFINITY, null, null))))),
                new LinePlot("flat", linear, linear, List.of(new LinePlot.Series("a", List.of(new LinePlot.Point(3, 0, null, null), new LinePlot.Point(3, 0, null, null))))),
                new LinePlot("negative", linear, linear, List.of(new LinePlot.Series("a", List.of(new LinePlot.Point(-5, -20, null, null), new LinePlot.Point(5, 7, null, null))))),
                new Histogram("no bars", logNs, List.of(), List.of(new Histogram.Mark("p50", 12))),
                new Histogram("zero counts from zero", logNs, List.of(new Histogram.Bar(0, 10, 0), new Histogram.Bar(10, 20, 3)), List.of()),
                new Histogram("linear", linear, List.of(new Histogram.Bar(0, 1, 7), new Histogram.Bar(1, 2, 7000000)), List.of(new Histogram.Mark("NaN", Double.NaN)))));
        List<String> out = all(new Document("plots", plots));
        for (String r : out) assertThat(r).contains("no series", "zeros and negatives on log axes", "zero counts from zero");
        Matcher m = NUMBER_ATTR.matcher(out.get(2));
        int numbers = 0;
        while (m.find()) {
            assertThat(Double.parseDouble(m.group(2))).as(m.group()).isFinite();
            numbers++;
        }
        assertThat(numbers).isGreaterThan(100);
        assertThat(out.get(2)).doesNotContain("NaN\"").doesNotContain("Infinity");
        assertThat(out.get(2).split("<svg ", -1)).hasSize(plots.size() + 1);
    }

    @Test
    void deepSectionsKeepIndentingInTextAndStayAtH6() {
        Block b = Paragraph.of("deep");
        for (int i = 9; i >= 0; i--) b = new Section("level " + i, List.of(b));
        Document d = new Document("t", List.of(b));
        List<String> out = all(d);
        assertThat(out.get(0)).contains("\n" + "  ".repeat(10) + "deep\n");
        assertThat(out.get(1)).contains("###### level 9\n").doesNotContain("#######");
        assertThat(out.get(2)).contains("<h6>level 9</h6>").doesNotContain("<h7");
    }
}
