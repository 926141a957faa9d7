package hostside.learn.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

import hostside.core.Json;
import hostside.learn.Inputs;
import hostside.learn.SelfCheck;
import hostside.learn.Steppers;
import hostside.report.Report;
import hostside.report.ReportReader;
import hostside.testing.Browser;

/**
 * The learning mode as a reader uses it: the server started as `hostside learn --from` starts it,
 * every module opened in Debian's chromium, each stepper played to its end by button and key,
 * each question asked before its step is shown, the address of a step opened directly, and the
 * self-check answered from the H200's report once something is typed. A screenshot of each
 * module goes to target/learn-screenshots (or to HOSTSIDE_LEARN_SCREENSHOTS, as for docs/learn/).
 */
class LearnInBrowserTest {
    static final String H200 = "testdata/reports/h200-hostside2.json";
    private static ChromeDriver browser;
    private static LearnServer server;
    private static Report report;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void start() throws Exception {
        report = ReportReader.read(Json.MAPPER.readTree(Path.of(H200).toFile()), H200);
        Site site = new Site(Steppers.all(), Inputs.from(report), SelfCheck.of(report), "h200 (report of 2026-12-04)");
        server = LearnServer.start(site, 0);
        browser = Browser.start(tmp.resolve("profile"));
    }

    @AfterAll
    static void stop() {
        if (browser != null) browser.quit();
        if (server != null) server.close();
    }

    private static JavascriptExecutor js() {
        return browser;
    }

    private static Object eval(String script, Object... args) {
        return js().executeScript(script, args);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6})
    void everyModulePlaysByButtonAndKeyAskingBeforeItShows(int module) throws Exception {
        browser.get(server.address() + "module/" + module);
        List<WebElement> steppers = browser.findElements(By.cssSelector("section.stepper"));
        assertThat(steppers).as("module " + module + " has its steppers").hasSameSizeAs(Steppers.of(module)).isNotEmpty();
        for (WebElement s : steppers) {
            String key = s.getAttribute("data-key");
            List<WebElement> frames = s.findElements(By.cssSelector("li.frame"));
            WebElement next = s.findElement(By.cssSelector("button.next")), back = s.findElement(By.cssSelector("button.prev"));
            assertThat(next.isDisplayed()).as(key + ": the controls show once the script runs").isTrue();
            int asked = 0;
            for (int i = 0; i < frames.size(); i++) {
                WebElement f = frames.get(i);
                assertThat(current(s)).as(key + " at step " + (i + 1)).isEqualTo(i + 1);
                assertThat(s.findElement(By.cssSelector(".pos")).getText()).isEqualTo("Step " + (i + 1) + " of " + frames.size());
                assertThat(s.findElement(By.cssSelector(".live")).getAttribute("textContent")).as(key + " aria-live").startsWith("Step " + (i + 1) + " of ");
                if (!f.findElements(By.cssSelector(".predict")).isEmpty()) {
                    // the question first: the drawing, the caption and the title wait
                    assertThat(f.findElement(By.cssSelector(".predict .q")).isDisplayed()).as(key + " question " + (i + 1)).isTrue();
                    assertThat(f.findElement(By.cssSelector(".reveal")).isDisplayed()).as(key + " step " + (i + 1) + " hidden before the answer").isFalse();
                    assertThat(f.findElement(By.cssSelector("h3 .t")).isDisplayed()).as(key + " title hidden before the answer").isFalse();
                    if (asked++ % 2 == 0) {
                        // answer it: the verdict and the reason appear, and the step with them
                        f.findElements(By.cssSelector("button.choice")).getFirst().click();
                        assertThat(f.findElement(By.cssSelector(".verdict")).getText()).matches("Right\\.|Not quite: the answer is \".+\"\\.");
                    } else {
                        next.click(); // Next on a question shows the step rather than skipping it
                        assertThat(current(s)).isEqualTo(i + 1);
                    }
                    assertThat(f.findElement(By.cssSelector(".reveal")).isDisplayed()).as(key + " step " + (i + 1) + " shown after").isTrue();
                }
                assertThat(f.findElement(By.cssSelector(".reveal svg")).isDisplayed()).isTrue();
                assertThat(f.findElement(By.cssSelector(".caption")).getText()).isNotBlank();
                if (i + 1 < frames.size()) {
                    next.click();
                }
            }
            assertThat(asked).as(key + " asks").isPositive();
            // back by the button, then by the key, and forward by the key
            back.click();
            assertThat(current(s)).isEqualTo(frames.size() - 1);
            s.sendKeys(Keys.ARROW_LEFT);
            assertThat(current(s)).isEqualTo(Math.max(1, frames.size() - 2));
            s.sendKeys(Keys.ARROW_RIGHT);
            assertThat(current(s)).isEqualTo(frames.size() - 1);
            // the address keeps the step
            String hash = (String) eval("return location.hash");
            assertThat(hash).isEqualTo(s.equals(steppers.getFirst()) ? "#step=" + (frames.size() - 1) : "#" + key + ":step=" + (frames.size() - 1));
        }
        assertThat(Browser.problems(browser)).as("console of module " + module).isEmpty();
        screenshot("module-" + module);
    }

    @Test
    void aStepsAddressOpensIt() {
        browser.get(server.address() + "module/2#step=3");
        WebElement first = browser.findElements(By.cssSelector("section.stepper")).getFirst();
        assertThat(current(first)).isEqualTo(3);
        browser.get(server.address() + "module/2#cow:step=4");
        // a new hash on the same page: the script follows it on hashchange
        assertThat(current(browser.findElement(By.cssSelector("section#cow")))).isEqualTo(4);
        assertThat(Browser.problems(browser)).isEmpty();
    }

    @Test
    void theSelfCheckAnswersFromTheReportOnceTheReaderHasAnswered() throws Exception {
        browser.get(server.address() + "check");
        List<WebElement> qs = browser.findElements(By.cssSelector("li.question"));
        assertThat(qs).hasSize(7);
        WebElement link = qs.get(1);
        WebElement show = link.findElement(By.cssSelector("button.reveal-answer"));
        assertThat(show.isEnabled()).as("no answer before the reader's own").isFalse();
        assertThat(link.findElement(By.cssSelector(".answer")).isDisplayed()).isFalse();
        link.findElement(By.cssSelector("textarea")).sendKeys("about 50 GB/s pinned, not coherent");
        assertThat(show.isEnabled()).isTrue();
        show.click();
        WebElement answer = link.findElement(By.cssSelector(".answer"));
        assertThat(answer.isDisplayed()).isTrue();
        String expected = report.questions().stream().filter(a -> a.axis().equals("Link")).findFirst().orElseThrow().answer();
        assertThat(answer.getText()).contains(expected).contains("Evidence:");
        assertThat(Browser.problems(browser)).isEmpty();
        screenshot("self-check");
    }

    @Test
    void theIndexListsTheModulesAndEveryPageIsSmallAndWholeInItself() throws Exception {
        browser.get(server.address());
        assertThat(browser.findElements(By.cssSelector("ol.modules > li"))).hasSize(6);
        for (String path : Site.paths()) {
            browser.get(server.address() + path.substring(1));
            assertThat(((Number) eval("return performance.getEntriesByType('resource').length")).intValue()).as(path + " fetches nothing").isZero();
            long bytes = ((Number) eval("return new TextEncoder().encode(document.documentElement.outerHTML).length")).longValue();
            assertThat(bytes).as(path + " size").isLessThan(200_000);
            assertThat(Browser.problems(browser)).as("console of " + path).isEmpty();
        }
        screenshot("index");
    }

    @Test
    void onlyThePagesAreServedAndOnlyToThisMachine() throws Exception {
        assertThat(server.address()).startsWith("http://127.0.0.1:");
        assertThat(raw("GET / HTTP/1.1", "127.0.0.1:" + server.port())).startsWith("HTTP/1.1 200");
        for (String path : List.of("/../../etc/passwd", "/module/1/../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/module/../pom.xml", "//etc/passwd",
                "/module/7", "/module/1/", "/check/../module/1")) {
            String head = raw("GET " + path + " HTTP/1.1", "127.0.0.1:" + server.port());
            assertThat(head).as(path).startsWith("HTTP/1.1 404").doesNotContain("root:");
        }
        // a query string names no file: the page is the path's
        assertThat(raw("GET /check?x=/../../etc/passwd HTTP/1.1", "127.0.0.1:" + server.port())).startsWith("HTTP/1.1 200").doesNotContain("root:");
        // a page of another site that points its own name at 127.0.0.1 (DNS rebinding) gets nothing
        assertThat(raw("GET / HTTP/1.1", "attacker.example:" + server.port())).startsWith("HTTP/1.1 403");
        assertThat(raw("POST / HTTP/1.1", "127.0.0.1:" + server.port())).startsWith("HTTP/1.1 405");
    }

    /** One request over a plain socket: no client library to normalise the path first. */
    private static String raw(String requestLine, String host) throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write((requestLine + "\r\nHost: " + host + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static int current(WebElement stepper) {
        return Integer.parseInt(stepper.findElement(By.cssSelector("li.frame.current")).getAttribute("data-step"));
    }

    private static void screenshot(String name) throws Exception {
        String dir = System.getenv().getOrDefault("HOSTSIDE_LEARN_SCREENSHOTS", "target/learn-screenshots");
        Path out = Files.createDirectories(Path.of(dir)).resolve(name + ".png");
        // the first step of the page, as a reader lands on it
        js().executeScript("window.scrollTo(0, 0)");
        Files.write(out, browser.getScreenshotAs(OutputType.BYTES));
    }
}
