package hostside.learn.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

import hostside.learn.Frame;
import hostside.learn.Inputs;
import hostside.learn.StepperChecks;
import hostside.learn.Stepper;
import hostside.learn.Steppers;

/** The pages as markup: what a reader without JavaScript gets, and what exists at which path. */
class SiteTest {
    final Inputs h200 = StepperChecks.h200();
    final Site site = new Site(Steppers.all(), h200, List.of(), "h200");

    @Test
    void everyModulesPageHoldsEveryStepWithItsDrawingCaptionAndAnswer() {
        for (int m = 1; m <= 6; m++) {
            Document page = Jsoup.parse(site.page("/module/" + m).orElseThrow());
            List<Stepper> mine = Steppers.of(m);
            assertThat(page.select("section.stepper")).as("module " + m).hasSize(mine.size()).isNotEmpty();
            for (Stepper s : mine) {
                List<Frame> frames = s.frames(h200);
                Element section = page.selectFirst("section.stepper#" + s.key());
                assertThat(section.select("li.frame")).hasSize(frames.size());
                for (Frame f : frames) {
                    Element li = section.selectFirst("li#" + s.key() + "-step-" + f.number());
                    assertThat(li.select(".reveal > svg")).as(s.key() + " " + f.number()).hasSize(1);
                    assertThat(li.selectFirst(".caption").text()).isEqualTo(f.caption());
                    assertThat(li.selectFirst("h3 .t").text()).isEqualTo(f.title());
                    if (f.predict() != null) {
                        // without the script the answer is one click away, in a details element, never lost
                        assertThat(li.selectFirst(".predict .q").text()).isEqualTo(f.predict().question());
                        assertThat(li.select(".predict button.choice").eachText()).isEqualTo(f.predict().choices());
                        assertThat(li.selectFirst(".predict details p").text()).startsWith(f.predict().choices().get(f.predict().answer()) + ":");
                        assertThat(li.selectFirst(".predict").attr("data-answer")).isEqualTo(String.valueOf(f.predict().answer()));
                    }
                }
                // the controls wait for the script; the live region is there for it to fill
                assertThat(section.selectFirst(".controls").hasAttr("hidden")).isTrue();
                assertThat(section.selectFirst(".live").attr("aria-live")).isEqualTo("polite");
            }
            // whole in itself: no link to a style sheet or a script file, no image by address
            assertThat(page.select("link[rel=stylesheet], script[src], img[src]")).isEmpty();
        }
    }

    @Test
    void onlyThePagesExist() {
        for (String p : Site.paths()) assertThat(site.page(p)).as(p).isPresent();
        for (String p : List.of("/module/0", "/module/7", "/module/1/", "/../etc/passwd", "/index.html", "/check/", "", "/module/1?x"))
            assertThat(site.page(p)).as(p).isEmpty();
    }

    @Test
    void withoutAReportTheSelfCheckAsksAndSaysHowToGetAnswers() {
        Document page = Jsoup.parse(site.page("/check").orElseThrow());
        assertThat(page.select(".check ol li")).hasSize(7);
        assertThat(page.text()).contains("run hostside report, then hostside learn --from results/<host>.json");
    }

    @Test
    void textFromTheFiguresIsEscaped() {
        assertThat(Site.esc("<torch_shm_manager> & \"x\"")).isEqualTo("&lt;torch_shm_manager&gt; &amp; &quot;x&quot;");
    }
}
