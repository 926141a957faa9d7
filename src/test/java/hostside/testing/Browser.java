package hostside.testing;

import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Debian's chromium, headless, driven through its chromedriver: what the browser tests open
 * pages in. CI installs both, and there a missing browser fails; elsewhere {@value #ALLOW}=1
 * skips the test, and says so.
 */
public final class Browser {
    private Browser() {}

    public static final String ALLOW = "HOSTSIDE_ALLOW_NO_BROWSER_TEST";

    public static ChromeDriver start(Path profile) {
        Path chromium = firstOnPath("chromium", "chromium-browser", "google-chrome");
        Path driver = firstOnPath("chromedriver");
        if (chromium == null || driver == null) {
            String why = "the browser tests need chromium and chromedriver on the PATH (apt-get install chromium chromium-driver; .ci/run does); set "
                    + ALLOW + "=1 to skip them elsewhere";
            if ("1".equals(System.getenv(ALLOW))) Assumptions.abort(why);
            fail(why);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.toFile());
        // As root (CI) chromium needs --no-sandbox; the background flags keep it from calling out
        // of a machine with a closed network at every start. A fresh profile each run.
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--window-size=1280,900",
                "--user-data-dir=" + profile);
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        // The driver named here, so Selenium Manager never tries to download one.
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(driver.toFile()).usingAnyFreePort()
                .withLogFile(profile.resolveSibling(profile.getFileName() + "-chromedriver.log").toFile()).build();
        ChromeDriver browser = new ChromeDriver(service, options);
        browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60)).scriptTimeout(Duration.ofSeconds(30));
        return browser;
    }

    /** The console's messages at warning level and above since the last call. */
    public static List<String> problems(ChromeDriver browser) {
        List<String> out = new ArrayList<>();
        for (LogEntry e : browser.manage().logs().get(LogType.BROWSER)) {
            if (e.getLevel().intValue() >= Level.WARNING.intValue()) out.add(e.getLevel() + " " + e.getMessage());
        }
        return out;
    }

    private static Path firstOnPath(String... names) {
        for (String n : names) {
            Path p = Tools.onPath(n);
            if (p != null) return p;
        }
        return null;
    }
}
