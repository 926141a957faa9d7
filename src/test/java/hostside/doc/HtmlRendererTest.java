package hostside.doc;

import static hostside.doc.Samples.KIB;
import static hostside.doc.Samples.MIB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;
import org.junit.jupiter.api.Test;

import hostside.core.Unit;
import hostside.doc.Block.Axis;
import hostside.doc.Block.LinePlot;

/** One self-contained page: no script, no URL, plots as accessible SVG with their numbers beside them. */
class HtmlRendererTest {
    private static final String SVG_NS = "xmlns=\"http://www.w3.org/2000/svg\"";

    private final String html = new HtmlRenderer().render(Samples.rich());
    private final org.jsoup.nodes.Document page = Jsoup.parse(html);

    @Test
    void oneHtml5PageWithItsOwnStyle() {
        assertThat(html).startsWith("<!DOCTYPE html>\n").endsWith("</html>\n");
        assertThat(html.split("<html", -1)).hasSize(2);
        assertThat(html.split("<!DOCTYPE", -1)).hasSize(2);
        assertThat(html).contains("<meta charset=\"utf-8\">");
        assertThat(page.title()).isEqualTo("hostside machine: sample");
        assertThat(page.select("head style")).hasSize(1);
        assertThat(page.select("h1").text()).isEqualTo("hostside machine: sample");
        assertThat(page.select("p.subtitle").text()).isEqualTo("recorded on h200-vm, 2025-06-01");
    }

    @Test
    void noScriptAndNothingFetched() {
        assertThat(html).doesNotContainIgnoringCase("<script");
        assertThat(page.select("script, link, img, iframe, object, embed")).isEmpty();
        assertThat(html).doesNotContain("src=").doesNotContain("href=").doesNotContain("url(").doesNotContain("@import");
    }

    @Test
    void noUrlButTheSvgNamespace() {
        assertThat(html.split(SVG_NS, -1)).hasSize(page.select("svg").size() + 1);
        String rest = html.replace(SVG_NS, "");
        assertThat(rest).doesNotContain("http://").doesNotContain("https://");
    }

    @Test
    void everySvgIsAnImageWithATitle() {
        Elements svgs = page.select("svg");
        assertThat(svgs).hasSize(2);
        for (Element svg : svgs) {
            assertThat(svg.attr("role")).isEqualTo("img");
            assertThat(svg.attr("aria-label")).isNotBlank();
            Element title = svg.selectFirst("title");
            assertThat(title).isNotNull();
            assertThat(title.text()).isEqualTo(svg.attr("aria-label"));
        }
        assertThat(svgs.get(0).attr("aria-label")).isEqualTo("Host to device bandwidth by buffer size");
    }

    @Test
    void sectionsNestWithHeadingsUpToH6() {
        assertThat(page.select("main > section > h2").eachText()).containsExactly("Virtual memory", "Findings", "Copies", "Launch jitter");
        assertThat(page.select("main > section > section > h3").eachText()).containsExactly("Measurements");
        assertThat(page.select("h4").eachText()).containsExactly("Level four");
        assertThat(page.select("h6").eachText()).containsExactly("Level six", "Level seven");
        assertThat(page.selectFirst("h6:contains(Level seven)").parents().stream().filter(e -> e.tagName().equals("section"))).hasSize(6);
    }

    @Test
    void figuresAreRightAlignedThroughAClass() {
        Element table = page.selectFirst("section:has(> h3:contains(Measurements)) > div.wide > table");
        assertThat(table.select("th").eachAttr("class")).containsExactly("num", "num");
        assertThat(table.select("th.num").eachText()).containsExactly("median", "n");
        assertThat(table.select("tbody tr").get(1).select("td.num").eachText()).containsExactly("1850", "7");
        assertThat(html).containsPattern("\\.num \\{[^}]*text-align: right");
    }

    @Test
    void keyValuesAreADefinitionList() {
        Element dl = page.selectFirst("dl.kv");
        assertThat(dl.select("dt").eachText()).containsExactly("base page", "THP", "memlock");
        assertThat(dl.select("dd").eachText()).containsExactly("4 KiB (sysfs)", "madvise", "unlimited, as ulimit -l says");
        assertThat(dl.select("dd code").text()).isEqualTo("ulimit -l");
    }

    @Test
    void findingsHaveAVisibleMarkAsWellAsAColour() {
        Elements items = page.select("ul.findings > li");
        assertThat(items.eachAttr("class")).containsExactly("bad", "warn", "info");
        assertThat(items.get(0).selectFirst(".mark").text()).isEqualTo("✗");
        assertThat(items.get(1).selectFirst(".mark").text()).isEqualTo("!");
        assertThat(items.get(0).text()).isEqualTo("✗ the link runs at Gen3 under load, half its Gen4 maximum");
    }

    @Test
    void notesCodeAndStrong() {
        assertThat(page.select("p.note").text()).isEqualTo("fault_4k was cut to 1 GiB to fit the free memory");
        assertThat(page.select("p > strong").text()).isEqualTo("off for this process");
        assertThat(page.select("p > code").text()).isEqualTo("prctl(PR_SET_THP_DISABLE)");
    }

    @Test
    void aPlotIsAFigureWithItsNumbersAsATable() {
        Element fig = page.select("figure.plot").get(0);
        assertThat(fig.selectFirst("figcaption").text()).isEqualTo("Host to device bandwidth by buffer size");
        assertThat(fig.children().stream().map(Element::tagName).toList()).containsExactly("figcaption", "svg", "div");
        // the table scrolls inside its own box when it is wider than the page
        assertThat(fig.child(2).hasClass("wide")).isTrue();
        assertThat(fig.child(2).children().stream().map(Element::tagName).toList()).containsExactly("table");
        assertThat(fig.select("table th").eachText()).containsExactly("buffer size", "pinned", "min..max", "pageable");
        assertThat(fig.select("table tbody tr")).hasSize(10);
        assertThat(fig.select("table tbody tr").get(4).select("td").eachText()).containsExactly("1 MiB", "45.0 GB/s", "42.8..45.9 GB/s", "18.0 GB/s");
    }

    @Test
    void aSweepHasTicksByUnitALegendAndWhiskers() {
        Element svg = page.select("svg").get(0);
        List<String> labels = svg.select("text").eachText();
        assertThat(labels).contains("4 KiB", "1 MiB", "1 GiB", "0.0 GB/s", "20.0 GB/s", "buffer size (log scale)", "bandwidth", "pinned", "pageable");
        assertThat(svg.select("polyline")).hasSize(2);
        // pinned: a whisker per point; pageable has no spread
        assertThat(svg.select("g > path")).hasSize(10);
        assertThat(svg.select("circle")).hasSize(15);
        assertThat(svg.select("polyline").get(1).attr("stroke-dasharray")).isNotEmpty();
    }

    @Test
    void aLogXPlotPlacesOneMibHalfwayBetweenFourKibAnd256Mib() {
        LinePlot p = new LinePlot("sizes", new Axis("size", Unit.BYTES, true), new Axis("bandwidth", Unit.GB_PER_S, false), List.of(
                new LinePlot.Series("s", List.of(new LinePlot.Point(4 * KIB, 1, null, null), new LinePlot.Point(MIB, 2, null, null),
                        new LinePlot.Point(256 * MIB, 3, null, null)))));
        Elements dots = Jsoup.parse(new HtmlRenderer().render(new Document("t", List.of(p)))).select("svg circle");
        double a = Double.parseDouble(dots.get(0).attr("cx"));
        double mid = Double.parseDouble(dots.get(1).attr("cx"));
        double b = Double.parseDouble(dots.get(2).attr("cx"));
        assertThat(b).isGreaterThan(a);
        assertThat(mid).isCloseTo((a + b) / 2, within(0.11));
    }

    @Test
    void aHistogramHasABarPerRangeOnALogCountAxisAndDashedMarks() {
        Element svg = page.select("svg").get(1);
        assertThat(svg.select("rect")).hasSize(6);
        assertThat(svg.select("line[stroke-dasharray]")).hasSize(3);
        assertThat(svg.select("text").eachText()).contains("p50 1.8 us", "p99 9.5 us", "p99.9 24 us", "count (log scale)", "1", "10", "100",
                "1 us", "2 us", "10 us", "launch latency (log scale)");
        // bars grow with their count
        double tallest = Double.parseDouble(svg.select("rect").get(0).attr("height"));
        double one = Double.parseDouble(svg.select("rect").get(5).attr("height"));
        assertThat(one).isPositive().isLessThan(tallest);
        Element fig = svg.parent();
        assertThat(fig.select("table td").eachText()).startsWith("1..2 us", "5200");
        assertThat(fig.select("dl dt").eachText()).containsExactly("p50", "p99", "p99.9");
    }

    /**
     * A cell wraps at its spaces only: each word with a hyphen is one span that the style keeps
     * whole (browsers break after a hyphen), and the cell's text, copied, is the command as given.
     */
    @Test
    void aCellKeepsEachHyphenatedWordWhole() {
        String fio = "fio --rw=randread --bs=4k  --ioengine=psync <&> x";
        Document d = new Document("t", "", List.of(new Block.Table(List.of(new Block.Table.Column("peer", Block.Table.Align.LEFT)),
                List.of(List.of(Text.of(fio)), List.of(Text.code("a-b c"))))));
        org.jsoup.nodes.Document p = Jsoup.parse(new HtmlRenderer().render(d));
        Elements cells = p.select("td");
        assertThat(cells.get(0).select("span.word").eachText()).containsExactly("--rw=randread", "--bs=4k", "--ioengine=psync");
        assertThat(cells.get(0).wholeText()).isEqualTo(fio);
        assertThat(cells.get(1).select("code > span.word").eachText()).containsExactly("a-b");
        assertThat(cells.get(1).wholeText()).isEqualTo("a-b c");
        assertThat(p.select("style").html()).contains("td .word { white-space: nowrap; }");
        // prose keeps the browser's own line breaking: only a cell, inside its scrolling box, holds words whole
        Document prose = new Document("t", "", List.of(Block.Paragraph.of(fio)));
        assertThat(Jsoup.parse(new HtmlRenderer().render(prose)).select("span.word")).isEmpty();
    }

    /**
     * A figure's key may break after each of its underscores (a {@code <wbr>}, no character), a
     * trailing underscore gives none, and a word with a hyphen stays whole however many it holds.
     */
    @Test
    void aKeyInACellMayBreakAfterItsUnderscores() {
        Document d = new Document("t", "", List.of(new Block.Table(List.of(new Block.Table.Column("key", Block.Table.Align.LEFT)),
                List.of(List.of(Text.code("host_to_device_sweep_<b>_")), List.of(Text.of("--fadvise_hint=0 a_b")), List.of(Text.of("nokey"))))));
        String html = new HtmlRenderer().render(d);
        assertThat(html).contains("<td><code>host_<wbr>to_<wbr>device_<wbr>sweep_<wbr>&lt;b&gt;_</code></td>");
        assertThat(html).contains("<td><span class=\"word\">--fadvise_hint=0</span> a_<wbr>b</td>");
        assertThat(html).contains("<td>nokey</td>");
        Elements cells = Jsoup.parse(html).select("td");
        assertThat(cells.get(0).wholeText()).isEqualTo("host_to_device_sweep_<b>_");
        assertThat(cells.get(1).wholeText()).isEqualTo("--fadvise_hint=0 a_b");
        // prose is the browser's to break: no <wbr> outside a cell
        assertThat(new HtmlRenderer().render(new Document("t", "", List.of(Block.Paragraph.of("a_b"))))).doesNotContain("<wbr>");
    }
}
