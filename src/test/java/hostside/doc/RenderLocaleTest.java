package hostside.doc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import hostside.core.Style;

/** Every figure, tick and SVG coordinate is written the same on a German or Arabic desktop as in Locale.ROOT. */
class RenderLocaleTest {
    private static String under(Locale locale, Function<Document, String> renderer) {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(locale);
            return renderer.apply(Samples.rich());
        } finally {
            Locale.setDefault(before);
        }
    }

    private static void sameEverywhere(Function<Document, String> renderer) {
        String root = under(Locale.ROOT, renderer);
        assertThat(under(Locale.GERMANY, renderer)).isEqualTo(root);
        // digits of another script, where a locale-dependent format would write them
        assertThat(under(Locale.forLanguageTag("ar-EG-u-nu-arab"), renderer)).isEqualTo(root);
    }

    @Test
    void textIsTheSameInEveryLocale() {
        sameEverywhere(d -> new TextRenderer(Style.plain()).render(d));
    }

    @Test
    void markdownIsTheSameInEveryLocale() {
        sameEverywhere(d -> new MarkdownRenderer().render(d));
    }

    @Test
    void htmlIsTheSameInEveryLocale() {
        sameEverywhere(d -> new HtmlRenderer().render(d));
    }

    @Test
    void germanFiguresStillHaveADot() {
        String html = under(Locale.GERMANY, d -> new HtmlRenderer().render(d));
        assertThat(html).contains("52.1 GB/s").doesNotContain("52,1");
        assertThat(html).containsPattern("points=\"[0-9.]+,[0-9.]+ ");
    }
}
