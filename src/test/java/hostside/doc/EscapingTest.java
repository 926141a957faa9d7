package hostside.doc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

import hostside.core.Style;
import hostside.core.Unit;

/**
 * Plain text is shown as written in every format: "|", "*", "_", backticks, "&" and a "<script>" tag
 * in a title, a cell, a key or a finding are words, never markup.
 */
class EscapingTest {
    private final Document doc = Samples.nasty();

    @Test
    void htmlNeverTurnsTextIntoATag() {
        String html = new HtmlRenderer().render(doc);
        org.jsoup.nodes.Document page = Jsoup.parse(html);
        assertThat(page.select("script")).isEmpty();
        assertThat(html).doesNotContainIgnoringCase("<script");
        assertThat(page.title()).isEqualTo("title " + Samples.NASTY);
        for (String where : List.of("h1", "p.subtitle", "h2", "p:not(.note):not(.subtitle)", "p.note", "dt", "dd", "th", "td", "li")) {
            Element e = page.selectFirst(where);
            assertThat(e).as(where).isNotNull();
            assertThat(e.text()).as(where).contains(Samples.NASTY);
        }
        assertThat(page.select("td code").text()).isEqualTo("code|pipe `tick`");
    }

    @Test
    void htmlEscapesTheFiveCharacters() {
        assertThat(HtmlRenderer.esc("<a href=\"x\" title='y'>&amp;</a>")).isEqualTo("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;");
    }

    @Test
    void htmlEscapesAttributesToo() {
        Block.LinePlot p = new Block.LinePlot("a \"quoted\" <plot> & 'more'", new Block.Axis("x", Unit.COUNT, false),
                new Block.Axis("y", Unit.COUNT, false), List.of(new Block.LinePlot.Series("s", List.of(new Block.LinePlot.Point(1, 2, null, null)))));
        Element svg = Jsoup.parse(new HtmlRenderer().render(new Document("t", List.of(p)))).selectFirst("svg");
        assertThat(svg.attr("aria-label")).isEqualTo("a \"quoted\" <plot> & 'more'");
    }

    @Test
    void aPipeInAMarkdownCellDoesNotAddAColumn() {
        String md = new MarkdownRenderer().render(doc);
        List<String> rows = md.lines().filter(l -> l.startsWith("|")).toList();
        assertThat(rows).hasSize(4);
        int columns = separators(rows.getFirst());
        assertThat(columns).isEqualTo(3);
        for (String row : rows) assertThat(separators(row)).as(row).isEqualTo(columns);
    }

    /** The "|" that separate cells: those not escaped by a backslash. */
    private static int separators(String row) {
        int n = 0;
        for (int i = 0; i < row.length(); i++) {
            if (row.charAt(i) == '\\') i++;
            else if (row.charAt(i) == '|') n++;
        }
        return n;
    }

    @Test
    void markdownShowsTheTextLiterally() {
        String md = new MarkdownRenderer().render(doc);
        assertThat(md).doesNotContain("<script").contains("&lt;script&gt;");
        String shown = Content.ofMarkdown(md);
        for (String where : List.of("title ", "subtitle ", "section ", "para ", "note ", "key ", "value ", "head ", "cell ", "bullet ", "finding ")) {
            assertThat(shown).contains(where + Samples.NASTY);
        }
        assertThat(shown).contains("code|pipe `tick`");
    }

    @Test
    void markdownEscapesEachMarkupCharacter() {
        assertThat(MarkdownEscape.plain("a|b *c* _d_ `e` [f] <g> \\h ~i~ $j$"))
                .isEqualTo("a\\|b \\*c\\* \\_d\\_ \\`e\\` \\[f\\] &lt;g&gt; \\\\h \\~i\\~ \\$j\\$");
        // an entity would be shown as its character: "&lt;" must stay four characters; a lone & is fine
        assertThat(MarkdownEscape.plain("&lt; & AT&T")).isEqualTo("&amp;lt; & AT&T");
        // "#" starts or closes a heading only at a line start or after a space
        assertThat(MarkdownEscape.plain("#5 C# issue #12")).isEqualTo("\\#5 C# issue \\#12");
        assertThat(MarkdownEscape.plain("two\nlines")).isEqualTo("two lines");
    }

    @Test
    void markdownLineStartsThatWouldOpenAListAreEscaped() {
        assertThat(MarkdownEscape.lineStart("- not a list")).isEqualTo("\\- not a list");
        assertThat(MarkdownEscape.lineStart("+1 more")).isEqualTo("\\+1 more");
        assertThat(MarkdownEscape.lineStart("1986. A year")).isEqualTo("1986\\. A year");
        assertThat(MarkdownEscape.lineStart("3) three")).isEqualTo("3\\) three");
        assertThat(MarkdownEscape.lineStart("12 GB/s")).isEqualTo("12 GB/s");
    }

    @Test
    void markdownCodeTakesALongerFenceThanTheBackticksInside() {
        assertThat(MarkdownEscape.code("ls -l")).isEqualTo("`ls -l`");
        assertThat(MarkdownEscape.code("a`b")).isEqualTo("``a`b``");
        assertThat(MarkdownEscape.code("a``b`c")).isEqualTo("```a``b`c```");
        assertThat(MarkdownEscape.code("`x`")).isEqualTo("`` `x` ``");
        assertThat(MarkdownEscape.code("*not bold* _nor this_")).isEqualTo("`*not bold* _nor this_`");
    }

    @Test
    void textShowsTheTextUnchanged() {
        String text = new TextRenderer(Style.plain(), 200).render(doc);
        for (String where : List.of("title ", "subtitle ", "section ", "para ", "note ", "key ", "value ", "head ", "cell ", "bullet ", "finding ")) {
            assertThat(text).contains(where + Samples.NASTY);
        }
        assertThat(text).contains("code|pipe `tick`");
    }
}
