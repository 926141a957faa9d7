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
        if (json.contains("h200-hostside2")) assertThat(plots).as("the H200 report has plots, or this test proves nothing").isPositive();
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

        // No line of prose runs off a 1280-pixel window (a table may scroll inside its box, the page must not).
        // clientWidth, not innerWidth: the window's width counts the vertical scroll bar, which covers the page's right edge.
        long pageWidth = ((Number) js.executeScript("return document.documentElement.scrollWidth")).longValue();
        long window = ((Number) js.executeScript("return document.documentElement.clientWidth")).longValue();
        boolean bodyScrolls = (Boolean) js.executeScript("return document.body.scrollWidth > document.body.clientWidth");
        if (pageWidth > window || bodyScrolls) {
            Object wide = js.executeScript("""
                    return [...document.body.querySelectorAll('body > *, main > *, section > *')]
                      .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth)
                      .slice(0, 5).map(e => e.tagName + ' ' + Math.round(e.getBoundingClientRect().width) + 'px: ' + e.textContent.slice(0, 80));""");
            fail("the page of " + json + " is " + pageWidth + " px wide in a window of " + window + " px; too wide: " + wide);
        }

        // Each table is held by its own box inside the column: it fits the box, or the box scrolls it sideways and is no
        // taller than the window, so that its scroll bar is on screen wherever the table is read (the "Every figure" table's
        // was 7,000 px below its header).
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> boxes = (List<Map<String, Object>>) js.executeScript("""
                const column = document.querySelector('main').getBoundingClientRect();
                return [...document.querySelectorAll('table')].map(t => {
                  const box = t.parentElement, b = box.getBoundingClientRect();
                  return {table: t.querySelector('th')?.textContent ?? '', box: box.tagName + '.' + box.className,
                          left: b.left - column.left, right: column.right - b.right, boxWidth: box.clientWidth,
                          tableWidth: t.getBoundingClientRect().width, scrollWidth: box.scrollWidth,
                          overflow: getComputedStyle(box).overflowX, height: b.height, window: window.innerHeight};
                });""");
        assertThat(boxes).as("tables of " + json).isNotEmpty();
        int scrolled = 0;
        for (Map<String, Object> b : boxes) {
            String what = "the table headed \"" + b.get("table") + "\" in " + json;
            assertThat(b.get("box")).as(what + ": its box").isEqualTo("DIV.wide");
            assertThat(number(b, "left")).as(what + ": its box's left edge within the column").isGreaterThanOrEqualTo(-0.5);
            assertThat(number(b, "right")).as(what + ": its box's right edge within the column").isGreaterThanOrEqualTo(-0.5);
            if (number(b, "tableWidth") <= number(b, "boxWidth") + 0.5) continue;
            scrolled++;
            assertThat(b.get("overflow")).as(what + " is wider than its box, which must scroll it").isIn("auto", "scroll");
            assertThat(number(b, "scrollWidth")).as(what + ": its box scrolls over the whole table").isGreaterThanOrEqualTo(Math.floor(number(b, "tableWidth")));
            assertThat(number(b, "height")).as(what + ": its box, whose bottom edge holds the scroll bar, is no taller than the window")
                    .isLessThanOrEqualTo(number(b, "window"));
        }
        if (json.contains("hostside2")) assertThat(scrolled).as("wide tables in " + json + ", or the scrolling above is not tested").isPositive();

        // "Every figure" fits the column, no scrolling: its keys break after an underscore and its sizes are written in binary
        // units (the H200's was 1,529 px and the dev VM's 1,234 px in a column of 992 px, unbreakable keys and ten-digit
        // byte counts set its width).
        if (json.contains("hostside2")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> every = (Map<String, Object>) js.executeScript("""
                    const h = [...document.querySelectorAll('h2')].find(h => h.textContent === 'Every figure');
                    const t = h?.parentElement.querySelector('table');
                    return t ? {table: t.getBoundingClientRect().width, box: t.parentElement.clientWidth,
                                column: document.querySelector('main').clientWidth, rows: t.querySelectorAll('tbody tr').length} : null;""");
            assertThat(every).as("the \"Every figure\" table of " + json).isNotNull();
            assertThat(number(every, "rows")).as("rows of \"Every figure\" in " + json).isGreaterThan(50);
            assertThat(number(every, "table")).as("width of \"Every figure\" in " + json + ", in a box of " + every.get("box") + " px")
                    .isLessThanOrEqualTo(number(every, "box") + 0.5);
        }

        // A cell wraps at its spaces: no word with a hyphen is cut over two lines (a fio command's "--ioengine=psync",
        // a GPU's UUID), as browsers do after a hyphen unless told otherwise.
        @SuppressWarnings("unchecked")
        List<String> cut = (List<String>) js.executeScript("""
                const cut = [];
                for (const td of document.querySelectorAll('td')) {
                  const walk = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
                  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
                    for (const m of n.data.matchAll(/\\S*-\\S*/g)) {
                      const r = document.createRange();
                      r.setStart(n, m.index);
                      r.setEnd(n, m.index + m[0].length);
                      if (new Set([...r.getClientRects()].map(x => Math.round(x.top))).size > 1) cut.push(m[0]);
                    }
                  }
                }
                return cut;""");
        assertThat(cut).as("words cut over two lines in the tables of " + json).isEmpty();
        @SuppressWarnings("unchecked")
        List<String> wrapped = (List<String>) js.executeScript("""
                return [...document.querySelectorAll('td')].filter(td => td.textContent.startsWith('fio ') && td.getClientRects().length > 0
                  && td.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(td).lineHeight)).map(td => td.textContent);""");
        if (json.contains("hostside2")) assertThat(wrapped).as("fio commands wrapped over lines in " + json + ", or the cut check above is not tested").isNotEmpty();
    }

    private static double number(Map<String, Object> m, String key) {
        return ((Number) m.get(key)).doubleValue();
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
