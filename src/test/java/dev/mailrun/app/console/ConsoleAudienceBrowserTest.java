package dev.mailrun.app.console;

import static dev.mailrun.testing.ConsoleBrowser.flash;
import static dev.mailrun.testing.ConsoleBrowser.navigate;
import static dev.mailrun.testing.ConsoleBrowser.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.testing.ConsoleBrowser;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The console's audience pages in a real browser (headless Chromium through WebDriver), as an operator
 * uses them: create a list, import a CSV file into it, search its subscribers, open one and blocklist
 * it; then save a segment from a filter and see its count. Skipped, with one line, where chromium or
 * chromedriver is not installed. With {@code -Dconsole.screenshots=docs} it saves the pages as
 * docs/console-*.png.
 */
class ConsoleAudienceBrowserTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-12-07T09:00:00Z"), Duration.ofSeconds(1));
    private String[] installed;

    @BeforeEach
    void browserInstalled() throws Exception {
        Optional<String[]> found = ConsoleBrowser.installed();
        Assumptions.assumeTrue(found.isPresent(), "no chromium and chromedriver installed: the console browser tests are skipped");
        installed = found.get();
        try (var c = db.dataSource().getConnection(); var s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "campaign", "task", "segment", "subscriber",
                    "subscriber_list", "suppression")) {
                s.execute("DELETE FROM " + table);
            }
        }
    }

    @Test
    void an_operator_creates_a_list_imports_into_it_finds_a_subscriber_and_blocklists_it() throws Exception {
        try (ConsoleClient app = new ConsoleClient(WorkerEnv.of(db, 2525), clock);
             ConsoleBrowser browser = ConsoleBrowser.start(installed, dir.resolve("profile"), dir)) {
            ChromeDriver d = browser.driver;
            d.get(app.base() + "/console/login");
            d.findElement(By.id("token")).sendKeys(app.token("ops", ApiScope.ADMIN));
            navigate(d, By.cssSelector("form button[type=submit]"));

            navigate(d, By.cssSelector("header nav a[href=\"/console/lists\"]"));
            d.findElement(By.id("list-name")).sendKeys("Customers");
            d.findElement(By.id("list-description")).sendKeys("Paying <customers> & friends");
            d.findElement(By.cssSelector("#list-optin option[value=single]")).click();
            navigate(d, By.id("create-list"));
            assertThat(flash(d)).isEqualTo("List Customers is created (private, single opt-in).");
            assertThat(d.findElement(By.id("lists")).getText()).contains("Customers private single Paying <customers> & friends 0 0 0");
            browser.screenshot("lists");

            navigate(d, By.linkText("Import"));
            assertThat(d.findElement(By.cssSelector("#import-list option:checked")).getText()).isEqualTo("Customers");
            Path csv = dir.resolve("customers.csv");
            Files.writeString(csv, "email,name,plan\nann@example.com,Ann Lee,pro\nbob@example.com,Bob,free\nnot-an-address,X,pro\n",
                    StandardCharsets.UTF_8);
            d.findElement(By.id("file")).sendKeys(csv.toString());
            navigate(d, By.id("upload"));
            assertThat(flash(d)).isEqualTo("3 row(s) read into list Customers (add): 2 changed, 0 unchanged, 1 rejected: see the report below.");
            assertThat(text(d, "report-imported")).isEqualTo("2");
            assertThat(text(d, "report-rejected")).isEqualTo("1");
            assertThat(d.findElement(By.id("rejects")).getText()).contains("4 not-an-address invalid syntax");
            browser.screenshot("list-import");

            navigate(d, By.cssSelector("header nav a[href=\"/console/subscribers\"]"));
            d.findElement(By.id("search-email")).sendKeys("ANN");
            d.findElement(By.cssSelector("#search-list option[value=Customers]")).click();
            d.findElement(By.cssSelector("#search-status option[value=confirmed]")).click();
            navigate(d, By.id("search"));
            assertThat(d.findElement(By.id("subscribers")).getText()).contains("ann@example.com Ann Lee enabled").doesNotContain("bob@");
            browser.screenshot("subscribers");

            navigate(d, By.linkText("ann@example.com"));
            assertThat(text(d, "subscriber-status")).isEqualTo("enabled");
            assertThat(d.findElement(By.id("attributes")).getText()).contains("plan pro");
            assertThat(d.findElement(By.id("subscriptions")).getText()).contains("Customers confirmed import");
            browser.screenshot("subscriber");
            navigate(d, By.id("blocklist"));
            assertThat(flash(d)).isEqualTo("ann@example.com is blocklisted; 1 subscription(s) unsubscribed.");
            assertThat(text(d, "subscriber-status")).isEqualTo("blocklisted");
            assertThat(d.findElement(By.id("subscriptions")).getText()).contains("Customers unsubscribed import");
            assertThat(d.findElement(By.id("history")).getText()).contains("blocklisted by operator");
            assertThat(d.findElements(By.id("blocklist"))).isEmpty();

            navigate(d, By.cssSelector("header nav a[href=\"/console/segments\"]"));
            d.findElement(By.id("segment-name")).sendKeys("Pro customers");
            d.findElement(By.id("segment-filter")).sendKeys("{\"and\": [{\"attr\": \"plan\", \"eq\": \"pro\"}, {\"list\": \"Nope\"}]}");
            navigate(d, By.id("create-segment"));
            assertThat(d.findElement(By.id("filter-errors")).getText()).isEqualTo("filter.and[1].list: no list named 'Nope'");
            d.findElement(By.id("segment-filter")).clear();
            d.findElement(By.id("segment-filter")).sendKeys("{\"attr\": \"plan\", \"eq\": \"pro\"}");
            navigate(d, By.id("create-segment"));
            assertThat(flash(d)).isEqualTo("Segment Pro customers is saved; it matches 1 subscriber(s) now.");
            assertThat(d.findElement(By.id("preview")).getText()).contains("ann@example.com blocklisted Ann Lee");
            browser.screenshot("segment");
            navigate(d, By.linkText("ann@example.com"));
            assertThat(text(d, "subscriber-status")).isEqualTo("blocklisted");
        }
    }
}
