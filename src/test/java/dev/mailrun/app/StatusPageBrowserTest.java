package dev.mailrun.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.TestDatabase;
import java.awt.image.BufferedImage;
import java.io.File;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status page in a real browser: the demo runs a campaign through a real worker, then headless
 * Chromium loads /status from the admin listener, as a person would. The page must load without a
 * console message (a script or a CSP violation would make one), show the three charts with one bar per
 * run, and render to a screenshot that is not blank ({@code target/status-page.png}).
 */
class StatusPageBrowserTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    @Test
    void the_status_page_of_a_campaign_that_ran_renders_its_three_charts_without_console_errors() throws Exception {
        Optional<String> browser = browser();
        Assumptions.assumeTrue(browser.isPresent(),
                "no headless browser (chromium) installed: the status page browser test is skipped");
        Map<String, String> env = Map.of("MAILRUN_DB_URL", db.url(), "MAILRUN_DB_USER", db.user(),
                "MAILRUN_DB_PASSWORD", db.password(), "MAILRUN_ADMIN_PORT", Integer.toString(freePort()));
        try (AppContext ctx = AppContext.load(Optional.empty(), env, Clock.systemUTC())) {
            Demo.Result result = new Demo(ctx, new Demo.Options(400, 100, Duration.ofSeconds(3), 2), line -> {}, line -> {})
                    .run(dir);
            assertThat(result.ok()).isTrue();
            int runs = result.runs().size();
            assertThat(runs).isGreaterThanOrEqualTo(2);
            try (Services s = new Services(ctx, ProductionLinks::of); HttpEndpoint endpoint = HttpEndpoint.start(s)) {
                String url = "http://127.0.0.1:" + endpoint.adminPort().orElseThrow() + "/status";

                Chromium dom = chromium(browser.get(), "--dump-dom", url);
                Path png = Path.of("target", "status-page.png").toAbsolutePath();
                Files.deleteIfExists(png);
                Chromium shot = chromium(browser.get(), "--screenshot=" + png, "--window-size=1200,1700", url);

                assertThat(dom.stdout()).contains("<svg class=\"chart timeline\"", "<svg class=\"chart rate\"",
                        "<svg class=\"chart outcomes\"").doesNotContain("<script");
                assertThat(count(dom.stdout(), "<g class=\"run\"")).as("runs in the timeline").isEqualTo(runs);
                assertThat(count(dom.stdout(), "class=\"rate-bar\"")).as("runs in the rate chart").isEqualTo(runs);
                assertThat(count(dom.stdout(), "aria-labelledby=\"c" + result.campaignId() + "-")).isEqualTo(3);
                assertThat(dom.stdout()).contains("<meta http-equiv=\"refresh\"");
                for (Chromium run : List.of(dom, shot)) {
                    assertThat(run.consoleLines()).as("console messages").isEmpty();
                }
                BufferedImage image = ImageIO.read(png.toFile());
                assertThat(image).as("screenshot " + png).isNotNull();
                assertThat(colours(image)).as("distinct colours in the screenshot").isGreaterThan(20);
            }
        }
    }

    /** What one headless Chromium run printed. */
    record Chromium(String stdout, String stderr) {
        /** Lines where the page's console spoke or its policy refused something. */
        List<String> consoleLines() {
            return stderr.lines().filter(l -> l.contains("CONSOLE") || l.contains("Content Security Policy")
                    || l.contains("Refused to")).toList();
        }
    }

    private Chromium chromium(String browser, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(browser, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--hide-scrollbars", "--enable-logging=stderr", "--v=0",
                "--user-data-dir=" + Files.createTempDirectory(dir, "chromium")));
        command.addAll(List.of(args));
        Path out = dir.resolve("chromium-" + System.nanoTime() + ".out");
        Path err = dir.resolve("chromium-" + System.nanoTime() + ".err");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish within 90 s: " + command);
        }
        return new Chromium(Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    static Optional<String> browser() {
        for (String name : new String[] {"chromium", "chromium-browser", "google-chrome"}) {
            for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                File f = new File(d, name);
                if (f.canExecute()) {
                    return Optional.of(f.getAbsolutePath());
                }
            }
        }
        return Optional.empty();
    }

    private static int count(String s, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(s);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static int colours(BufferedImage image) {
        Set<Integer> seen = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 3) {
            for (int x = 0; x < image.getWidth(); x += 3) {
                seen.add(image.getRGB(x, y) & 0xffffff);
            }
        }
        return seen.size();
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
