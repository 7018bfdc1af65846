package dev.mailrun.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.testing.ConsoleBrowser;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The console at a phone's width (390 × 844 CSS pixels) in headless Chromium: no main page is wider
 * than the window — wide tables scroll inside their own box, forms stack (the template editor's text
 * areas too), the menu wraps, the charts shrink. Skipped, with one line, where chromium or chromedriver is not installed. With
 * {@code -Dconsole.screenshots=docs} it saves docs/console-phone-*.png.
 */
class ConsolePhoneBrowserTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    @TempDir
    Path dir;

    // Near the database's clock and at a slot's start: see SettableClock.steppingAtSlotStart.
    private final SettableClock clock = SettableClock.steppingAtSlotStart(WorkerEnv.TICK);
    private String[] installed;

    @BeforeEach
    void browserInstalled() throws Exception {
        Optional<String[]> found = ConsoleBrowser.installed();
        Assumptions.assumeTrue(found.isPresent(), "no chromium and chromedriver installed: the console browser tests are skipped");
        installed = found.get();
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "campaign", "task")) {
                s.execute("DELETE FROM " + table);
            }
        }
    }

    @Test
    void the_main_pages_fit_a_phones_width() throws Exception {
        try (ConsoleClient app = new ConsoleClient(WorkerEnv.of(db, greenMail.getSmtp().getPort()), clock);
             Scheduler scheduler = app.services.scheduler();
             ConsoleBrowser browser = ConsoleBrowser.start(installed, dir.resolve("profile"), dir)) {
            ChromeDriver d = browser.driver;
            // A name with no place to break, as campaign names often are.
            long id = app.campaign("winter-newsletter-2026-december-edition-eu");
            app.importThroughApi(id, csv(12));
            String token = app.token("ops", ApiScope.ADMIN);
            d.manage().window().setSize(new Dimension(390, 844));
            d.get(app.base() + "/console/login");
            d.findElement(By.id("token")).sendKeys(token);
            d.findElement(By.cssSelector("form button[type=submit]")).click();
            String session = app.login(token);
            String path = "/console/campaigns/" + id;
            assertThat(app.post(session, path + "/start", Map.of("csrf", app.csrf(session, path))).statusCode()).isEqualTo(303);
            scheduler.tick();
            assertThat(greenMail.getReceivedMessages()).hasSize(12);
            assertThat(((Number) d.executeScript("return window.innerWidth")).intValue()).as("the window's width").isEqualTo(390);

            List<String> tooWide = new ArrayList<>();
            for (Map.Entry<String, String> page : Map.of("campaigns", "/console/campaigns", "campaign", "/console/campaigns/" + id,
                    "new-campaign", "/console/campaigns/new?template=newsletter", "suppressions",
                    "/console/suppressions?address=former%40list.example", "events", "/console/events", "templates",
                    "/console/templates", "template", "/console/templates/newsletter", "send-test", "/console/campaigns/" + id
                    + "/send-test").entrySet()) {
                d.get(app.base() + page.getValue());
                assertThat(d.findElements(By.cssSelector("header.top"))).as("%s: logged in", page.getKey()).hasSize(1);
                long overflow = ConsoleBrowser.overflow(d);
                if (overflow > 0) {
                    tooWide.add(page.getKey() + " is " + overflow + " px wider than its window");
                }
                if (page.getKey().equals("new-campaign")) {
                    browser.screenshot("phone-new-campaign");
                }
                if (page.getKey().equals("campaign")) {
                    d.executeScript("document.getElementById('charts').scrollIntoView()");
                    browser.screenshot("phone-campaign");
                }
            }
            assertThat(tooWide).as("pages wider than the phone").isEmpty();
            d.get(app.base() + "/console/campaigns/" + id);
            assertThat(d.findElements(By.cssSelector("#charts svg.chart"))).as("the charts are on the phone's page too").hasSize(3);
        }
    }

    private Path csv(int n) throws Exception {
        StringBuilder rows = new StringBuilder("email,name\n");
        for (int i = 0; i < n; i++) {
            rows.append("reader").append(i).append("@list.example,Reader ").append(i).append('\n');
        }
        return Files.writeString(dir.resolve("list-" + n + ".csv"), rows);
    }
}
