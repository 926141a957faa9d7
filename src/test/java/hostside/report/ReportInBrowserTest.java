package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;

import hostside.core.Json;
import hostside.doc.Block;
import hostside.doc.Document;
import hostside.doc.HtmlRenderer;
import hostside.testing.Browser;

/**
 * The HTML report as a reader sees it: opened in a real browser (Debian's chromium, driven through
 * its chromedriver), not only parsed. jsoup checks the markup elsewhere; only a browser shows a
 * plot that lays out at zero size, a console error, or a page that fetches something. Runs on the
 * recorded reports of the H200, the dev VM and a first-schema report.
 *
 * CI installs chromium and chromedriver, and there a missing browser fails this test; elsewhere
 * {@value Browser#ALLOW}=1 skips it, and says so.
 */
class ReportInBrowserTest {
    private static ChromeDriver browser;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void startBrowser() {
        browser = Browser.start(tmp.resolve("profile"));
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) browser.quit();
    }

    @ParameterizedTest
    @ValueSource(strings = {"testdata/reports/h200-hostside2.json", "testdata/reports/devvm-hostside2.json",
            "testdata/reports/h200-hostside1.json"})
    void theReportOpensCleanlyWithEveryPlotDrawn(String json) throws Exception {
        Document doc = ReportDocument.of(ReportReader.read(Json.MAPPER.readTree(new File(json)), json));
        Path page = tmp.resolve(Path.of(json).getFileName().toString().replace(".json", ".html"));
        Files.writeString(page, new HtmlRenderer().render(doc));

        browser.get(page.toUri().toString());
        JavascriptExecutor js = browser;

        assertThat(Browser.problems(browser)).as("console messages of " + json).isEmpty();

        // Self-contained: nothing fetched, no script on the page.
        assertThat(((Number) js.executeScript("return performance.getEntriesByType('resource').length")).intValue()).as("resources fetched").isZero();
        assertThat(((Number) js.executeScript("return document.scripts.length")).intValue()).as("scripts").isZero();

        // Every plot of the document is on the page, laid out at a readable size, with data drawn in it.
        int plots = countPlots(doc.blocks());
        if (json.contains("h200-report")) assertThat(plots).as("the H200 report has plots, or this test proves nothing").isPositive();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> drawn = (List<Map<String, Object>>) js.executeScript("""
                return [...document.querySelectorAll('figure.plot')].map(f => {
                  const svg = f.querySelector('svg');
                  const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
                  const marks = svg ? svg.querySelectorAll('path, polyline, rect, circle, line').length : 0;
                  return {title: f.querySelector('figcaption')?.textContent ?? '', width: box.width, height: box.height, marks: marks,
                          numbers: f.querySelector('div.wide > table') != null};
                });""");
        assertThat(drawn).as("plots on the page of " + json).hasSize(plots);
        for (Map<String, Object> p : drawn) {
            assertThat(((Number) p.get("width")).doubleValue()).as("width of plot " + p.get("title")).isGreaterThan(200);
            assertThat(((Number) p.get("height")).doubleValue()).as("height of plot " + p.get("title")).isGreaterThan(100);
            assertThat(((Number) p.get("marks")).intValue()).as("marks in plot " + p.get("title")).isGreaterThan(2);
            assertThat(p.get("numbers")).as("plot " + p.get("title") + " is followed by its numbers as a table").isEqualTo(true);
        }

        // The sections in the document's order, page one first, as the Markdown shows them.
        @SuppressWarnings("unchecked")
        List<String> headings = (List<String>) js.executeScript("return [...document.querySelectorAll('h2')].map(h => h.textContent)");
        assertThat(headings).as("top-level sections").containsExactlyElementsOf(doc.blocks().stream()
                .filter(b -> b instanceof Block.Section).map(b -> ((Block.Section) b).title()).toList());

        // No line of prose runs off a 1280-pixel window (a table may scroll inside itself, the page must not).
        long pageWidth = ((Number) js.executeScript("return document.documentElement.scrollWidth")).longValue();
        long window = ((Number) js.executeScript("return window.innerWidth")).longValue();
        if (pageWidth > window) {
            Object wide = js.executeScript("""
                    return [...document.body.querySelectorAll('body > *, section > *')].filter(e => e.getBoundingClientRect().right > window.innerWidth)
                      .slice(0, 5).map(e => e.tagName + ' ' + Math.round(e.getBoundingClientRect().width) + 'px: ' + e.textContent.slice(0, 80));""");
            fail("the page of " + json + " is " + pageWidth + " px wide in a window of " + window + " px; too wide: " + wide);
        }
    }

    private static int countPlots(List<Block> blocks) {
        int n = 0;
        for (Block b : blocks) {
            if (b instanceof Block.LinePlot || b instanceof Block.Histogram) n++;
            else if (b instanceof Block.Section s) n += countPlots(s.blocks());
        }
        return n;
    }
}
