package hostside.doc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import hostside.core.Style;

/**
 * One document, three renderings, the same words in the same order: what a Document says is shown by
 * every renderer, and none drops or reorders a block. The words come from walking the Document
 * ({@link Content#expected}); each rendering is stripped of its markup and searched for them in turn.
 */
class SameContentTest {
    private final Document doc = Samples.rich();
    private final List<String> expected = Content.expected(doc);

    @Test
    void theExpectedWordsCoverEveryKindOfBlock() {
        assertThat(expected).contains("hostside machine: sample", "Virtual memory", "base page", "4 KiB (sysfs)", "memlock",
                "unlimited, as ulimit -l says", "median", "12.40", "fault_4k", "1850", "fault_4k was cut to 1 GiB to fit the free memory",
                "Level seven", "the link runs at Gen3 under load, half its Gen4 maximum", "pin the loader to node 0",
                "Host to device bandwidth by buffer size", "buffer size", "pinned", "pageable", "min..max", "4 KiB", "1 GiB", "52.1 GB/s",
                "49.5..53.1 GB/s", "Launch latency", "1..2 us", "5200", "p99.9", "24 us");
    }

    @Test
    void textShowsEveryPieceInOrder() {
        Content.assertInOrder(expected, Content.ofText(new TextRenderer(Style.plain()).render(doc)), "text");
    }

    @Test
    void narrowTextStillShowsEveryPieceInOrder() {
        Content.assertInOrder(expected, Content.ofText(new TextRenderer(Style.plain(), 30).render(doc)), "text at 30 columns");
    }

    @Test
    void markdownShowsEveryPieceInOrder() {
        Content.assertInOrder(expected, Content.ofMarkdown(new MarkdownRenderer().render(doc)), "markdown");
    }

    @Test
    void htmlShowsEveryPieceInOrder() {
        Content.assertInOrder(expected, Content.ofHtml(new HtmlRenderer().render(doc)), "html");
    }

    @Test
    void theCheckFailsWhenTwoBlocksAreSwapped() {
        List<Block> swapped = new ArrayList<>(doc.blocks());
        Block first = swapped.get(1);
        swapped.set(1, swapped.get(2));
        swapped.set(2, first);
        Document wrong = new Document(doc.title(), doc.subtitle(), swapped);
        assertThatThrownBy(() -> Content.assertInOrder(expected, Content.ofText(new TextRenderer(Style.plain()).render(wrong)), "text"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("earlier");
        assertThatThrownBy(() -> Content.assertInOrder(expected, Content.ofMarkdown(new MarkdownRenderer().render(wrong)), "markdown"))
                .isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> Content.assertInOrder(expected, Content.ofHtml(new HtmlRenderer().render(wrong)), "html"))
                .isInstanceOf(AssertionError.class);
    }

    @Test
    void theCheckFailsWhenABlockIsDropped() {
        List<Block> fewer = new ArrayList<>(doc.blocks());
        fewer.remove(3);
        Document wrong = new Document(doc.title(), doc.subtitle(), fewer);
        assertThatThrownBy(() -> Content.assertInOrder(expected, Content.ofHtml(new HtmlRenderer().render(wrong)), "html"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("missing");
    }

    @Test
    void theMarkdownReaderResolvesWhatTheRendererEscapes() {
        // the checks above are only as good as this reading of the Markdown
        assertThat(Content.ofMarkdown("## a\\_b \\| `` x`y `` **c** &lt;d&gt;\n| --- | ---: |\n| e \\| f | `g\\|h` |"))
                .isEqualTo("a_b | x`y c <d> e | f g|h");
    }
}
