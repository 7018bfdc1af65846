package dev.mailrun.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium driven through WebDriver: the system's {@code chromium} and {@code chromedriver}
 * (Debian's chromium and chromium-driver), never a downloaded driver — both paths are given, so
 * Selenium Manager has nothing to look up. Absent either, the browser tests skip with one line. The
 * console's browser tests and the public pages' ({@code PublicPagesBrowserTest}) share it.
 */
public final class ConsoleBrowser implements AutoCloseable {

    public static final String SCREENSHOTS = "console.screenshots";
    /** A host name the browser resolves to 127.0.0.1: another site than the console's, on this machine. */
    public static final String OTHER_SITE = "evil.test";

    public final ChromeDriver driver;

    private ConsoleBrowser(ChromeDriver driver) {
        this.driver = driver;
    }

    /** The browser and its driver, when both are installed. */
    public static Optional<String[]> installed() {
        Optional<String> browser = onPath("chromium", "chromium-browser", "google-chrome");
        Optional<String> chromedriver = onPath("chromedriver");
        return browser.isPresent() && chromedriver.isPresent()
                ? Optional.of(new String[] {browser.get(), chromedriver.get()}) : Optional.empty();
    }

    public static ConsoleBrowser start(String[] installed, Path profile, Path downloads) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(installed[0]);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--window-size=1280,900", "--user-data-dir=" + profile,
                "--host-resolver-rules=MAP " + OTHER_SITE + " 127.0.0.1");
        options.setExperimentalOption("prefs", Map.of("download.default_directory", downloads.toString(),
                "download.prompt_for_download", false));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(installed[1]))
                .usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
        return new ConsoleBrowser(driver);
    }

    /** With {@code -Dconsole.screenshots=<dir>}, saves the page as {@code <dir>/console-<name>.png}. */
    public void screenshot(String name) throws Exception {
        String dir = System.getProperty(SCREENSHOTS);
        if (dir == null || dir.isBlank()) {
            return;
        }
        Path target = Path.of(dir).resolve("console-" + name + ".png");
        Files.createDirectories(target.getParent());
        Files.write(target, driver.getScreenshotAs(OutputType.BYTES));
    }

    private static Optional<String> onPath(String... names) {
        for (String name : names) {
            for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                File f = new File(d, name);
                if (f.canExecute()) {
                    return Optional.of(f.getAbsolutePath());
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Clicks what {@code by} finds and waits for the next page: WebDriver's click may return before the
     * navigation it starts, and the old page would then answer the next look-up.
     */
    public static void navigate(ChromeDriver d, By by) throws Exception {
        navigate(d, () -> d.findElement(by).click());
    }

    /** As {@link #navigate(ChromeDriver, By)}, the navigation started by {@code action} (a key pressed, a form submitted). */
    public static void navigate(ChromeDriver d, Runnable action) throws Exception {
        WebElement before = d.findElement(By.tagName("html"));
        action.run();
        waitFor(() -> {
            try {
                before.isEnabled();
                return false;
            } catch (StaleElementReferenceException gone) {
                return true;
            } catch (WebDriverException e) {
                // Asked in the middle of the swap, Chromium answers that the node no longer belongs to
                // the document instead of calling it stale: the old page is gone all the same.
                if (e.getMessage() != null && e.getMessage().contains("does not belong to the document")) {
                    return true;
                }
                throw e;
            }
        });
    }

    /** How many pixels the page is wider than the window: above 0, the reader must scroll sideways. */
    public static long overflow(ChromeDriver d) {
        long scroll = ((Number) d.executeScript("return document.documentElement.scrollWidth")).longValue();
        long inner = ((Number) d.executeScript("return window.innerWidth")).longValue();
        return scroll - inner;
    }

    /** The HTTP status of the page shown (Navigation Timing). */
    public static int responseStatus(ChromeDriver d) {
        return ((Number) d.executeScript("return performance.getEntriesByType('navigation')[0].responseStatus")).intValue();
    }

    public static String text(ChromeDriver d, String id) {
        return d.findElement(By.id(id)).getText();
    }

    public static String flash(ChromeDriver d) {
        return d.findElement(By.cssSelector("p.flash")).getText();
    }

    @FunctionalInterface
    public interface Condition {
        boolean met() throws Exception;
    }

    /** Waits for the browser (a download, a navigation), at most 30 s; the clock under test never moves here. */
    public static void waitFor(Condition condition) {
        Awaitility.await("the browser").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(condition::met);
    }

    @Override
    public void close() {
        driver.quit();
    }
}
