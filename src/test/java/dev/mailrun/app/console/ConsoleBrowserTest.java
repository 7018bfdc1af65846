package dev.mailrun.app.console;

import static dev.mailrun.testing.ConsoleBrowser.flash;
import static dev.mailrun.testing.ConsoleBrowser.navigate;
import static dev.mailrun.testing.ConsoleBrowser.text;
import static dev.mailrun.testing.ConsoleBrowser.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import com.sun.net.httpserver.HttpServer;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.testing.ConsoleBrowser;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.io.BufferedWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The console in a real browser (headless Chromium through WebDriver), as an operator uses it: log in,
 * run a campaign against GreenMail from its page — start, watch progress move, pause with a reason,
 * resume, export — and log out; a cross-site form is refused, the session cookie has its flags, and a
 * read-only token sees no write buttons and is refused a forged POST. Skipped, with one line, where
 * chromium or chromedriver is not installed. With {@code -Dconsole.screenshots=docs} it saves the
 * main pages as docs/console-*.png.
 */
class ConsoleBrowserTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final int RECIPIENTS = 40;

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
        try (var c = db.dataSource().getConnection(); var s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "campaign", "task")) {
                s.execute("DELETE FROM " + table);
            }
        }
    }

    @Test
    void an_operator_runs_a_campaign_from_the_console_and_logs_out() throws Exception {
        try (ConsoleClient app = new ConsoleClient(WorkerEnv.of(db, greenMail.getSmtp().getPort()), clock);
             Scheduler scheduler = app.services.scheduler();
             ConsoleBrowser browser = ConsoleBrowser.start(installed, dir.resolve("profile"), Files.createDirectories(dir.resolve("dl")))) {
            ChromeDriver d = browser.driver;
            d.get(app.base() + "/console/");
            assertThat(d.getCurrentUrl()).endsWith("/console/login");
            browser.screenshot("login");
            login(d, app.token("ops", ApiScope.ADMIN));
            assertThat(d.getCurrentUrl()).endsWith("/console/campaigns");
            long id = createWithPreview(d, browser);
            uploadWithBadRows(d, browser, id);
            d.get(app.base() + "/console/campaigns");
            Cookie cookie = d.manage().getCookieNamed("mailrun_console");
            assertThat(cookie).as("the session cookie").isNotNull();
            assertThat(cookie.isHttpOnly()).as("HttpOnly").isTrue();
            assertThat(cookie.getSameSite()).as("SameSite").isEqualTo("Strict");
            assertThat(cookie.isSecure()).as("not Secure over plain http").isFalse();
            assertThat(d.executeScript("return document.cookie")).as("no script can read the session").isEqualTo("");
            assertThat(d.findElement(By.id("campaign-" + id)).getText()).contains("Winter news", "draft", "0 of " + RECIPIENTS);
            browser.screenshot("campaigns");

            navigate(d, By.linkText("Winter news"));
            assertThat(text(d, "progress-text")).isEqualTo("0 of " + RECIPIENTS + " done (0.0%)");
            navigate(d, By.id("start"));
            assertThat(flash(d)).isEqualTo("Campaign " + id + " is running.");
            scheduler.tick();
            d.navigate().refresh();
            assertThat(text(d, "progress-text")).as("progress moved").isEqualTo(RECIPIENTS + " of " + RECIPIENTS + " done (100.0%)");
            assertThat(text(d, "count-sent")).isEqualTo(Integer.toString(RECIPIENTS));
            assertThat(greenMail.getReceivedMessages()).hasSize(RECIPIENTS);
            browser.screenshot("campaign");

            d.findElement(By.linkText("Export recipients (CSV)")).click();
            Path export = dir.resolve("dl").resolve("campaign-" + id + "-recipients.csv");
            waitFor(() -> Files.exists(export) && Files.size(export) > 0);
            List<String> lines = Files.readAllLines(export, StandardCharsets.UTF_8);
            assertThat(lines).hasSize(RECIPIENTS + 1);
            assertThat(lines.subList(1, lines.size())).allMatch(l -> l.contains(",sent,"));

            navigate(d, By.linkText("HTML report"));
            assertThat(d.findElements(By.cssSelector("svg.chart"))).hasSize(3);
            d.navigate().back();

            navigate(d, By.cssSelector("header nav a[href=\"/status\"]"));
            assertThat(d.getTitle()).as("/status opens with the console's login").isEqualTo("mailrun: Winter news");
            assertThat(d.findElements(By.cssSelector("svg.chart"))).hasSize(3);
            d.navigate().back();

            navigate(d, By.linkText("Suppressions"));
            d.findElement(By.id("add-address")).sendKeys("Former@List.example");
            navigate(d, By.id("add"));
            assertThat(flash(d)).isEqualTo("former@list.example is suppressed (manual).");
            assertThat(text(d, "found-status")).startsWith("Suppressed: manual, by console:ops");
            d.findElement(By.id("why")).sendKeys("asked to be mailed again, ticket 4711");
            navigate(d, By.id("remove"));
            assertThat(flash(d)).isEqualTo("former@list.example is no longer suppressed; the removal and its reason are logged.");
            assertThat(text(d, "found-status")).isEqualTo("Not suppressed.");
            assertThat(text(d, "last-removal")).endsWith("by console:ops: asked to be mailed again, ticket 4711");
            browser.screenshot("suppressions");

            navigate(d, By.id("logout"));
            assertThat(d.getCurrentUrl()).endsWith("/console/login");
            d.get(app.base() + "/console/campaigns/" + id);
            assertThat(d.getCurrentUrl()).as("the session is gone").endsWith("/console/login");
        }
    }

    @Test
    void pause_needs_a_reason_and_resume_continues() throws Exception {
        try (ConsoleClient app = new ConsoleClient(WorkerEnv.of(db, greenMail.getSmtp().getPort()), clock);
             ConsoleBrowser browser = ConsoleBrowser.start(installed, dir.resolve("profile"), dir)) {
            ChromeDriver d = browser.driver;
            long id = app.campaign("Paused news");
            app.importThroughApi(id, csv(3));
            d.get(app.base() + "/console/login");
            login(d, app.token("ops", ApiScope.CAMPAIGNS_READ, ApiScope.CAMPAIGNS_WRITE));
            d.get(app.base() + "/console/campaigns/" + id);
            navigate(d, By.id("start"));
            navigate(d, By.id("pause"));
            WebElement reason = d.findElement(By.id("pause-reason"));
            assertThat(d.findElement(By.cssSelector("label[for=pause-reason]")).getText()).isEqualTo("Reason for pausing");
            reason.sendKeys("waiting for <legal> & approval");
            navigate(d, By.id("pause-confirmed"));
            assertThat(flash(d)).isEqualTo("Campaign " + id + " is paused.");
            assertThat(d.findElement(By.cssSelector("p.held")).getText()).isEqualTo("Paused: waiting for <legal> & approval");
            navigate(d, By.id("resume"));
            assertThat(flash(d)).isEqualTo("Campaign " + id + " is running.");
            navigate(d, By.id("cancel"));
            assertThat(d.findElement(By.tagName("main")).getText()).contains("will not be sent to", "cannot be started or resumed again");
            d.findElement(By.id("confirm")).click();
            navigate(d, By.id("cancel-confirmed"));
            assertThat(flash(d)).isEqualTo("Campaign " + id + " is cancelled: nothing more will be sent.");
        }
    }

    @Test
    void a_cross_site_form_is_refused_and_a_read_only_token_sees_no_write_buttons_and_gets_403_on_a_forged_post() throws Exception {
        HttpServer evil = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        try (ConsoleClient app = new ConsoleClient(WorkerEnv.of(db, greenMail.getSmtp().getPort()), clock);
             ConsoleBrowser browser = ConsoleBrowser.start(installed, dir.resolve("profile"), dir)) {
            ChromeDriver d = browser.driver;
            long id = app.campaign("Target");
            // Another site (evil.test, which the browser resolves to this machine) whose page posts a form to the console.
            String form = "<!DOCTYPE html><title>evil</title><form method=post action=\"" + app.base() + "/console/campaigns/" + id
                    + "/cancel\"><input type=hidden name=confirm value=yes><button id=go>win a prize</button></form>";
            evil.createContext("/", ex -> {
                byte[] body = form.getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
                ex.sendResponseHeaders(200, body.length);
                ex.getResponseBody().write(body);
                ex.close();
            });
            evil.start();

            d.get(app.base() + "/console/login");
            login(d, app.token("ops", ApiScope.ADMIN));
            d.get("http://" + ConsoleBrowser.OTHER_SITE + ":" + evil.getAddress().getPort() + "/");
            navigate(d, By.id("go"));
            assertThat(d.findElement(By.tagName("body")).getText()).contains("not logged in");
            d.get(app.base() + "/console/campaigns/" + id);
            assertThat(d.findElement(By.cssSelector("h1 .badge")).getText()).as("still a draft").isEqualTo("draft");
            navigate(d, By.id("logout"));

            login(d, app.token("viewer", ApiScope.CAMPAIGNS_READ));
            d.get(app.base() + "/console/campaigns/" + id);
            assertThat(d.findElements(By.cssSelector("main form"))).as("no write buttons").isEmpty();
            assertThat(d.findElements(By.id("start"))).isEmpty();
            // A forged POST with the session's own CSRF token: the scope still decides.
            d.executeScript("var f = document.createElement('form'); f.method = 'post'; f.action = arguments[0];"
                    + "var t = document.createElement('input'); t.type = 'hidden'; t.name = 'csrf';"
                    + "t.value = document.querySelector('input[name=csrf]').value; f.appendChild(t);"
                    + "document.body.appendChild(f); f.submit();", "/console/campaigns/" + id + "/start");
            waitFor(() -> d.getTitle().startsWith("Error"));
            assertThat(d.getTitle()).startsWith("Error 403");
            assertThat(d.findElement(By.tagName("main")).getText()).contains("campaigns:write");
        } finally {
            evil.stop(0);
        }
    }

    @Test
    void a_template_preview_cannot_run_script_in_the_console_origin() throws Exception {
        Path templates = dir.resolve("templates");
        Path hostile = Files.createDirectories(templates.resolve("hostile"));
        Files.writeString(hostile.resolve("subject.txt"), "Hostile");
        Files.writeString(hostile.resolve("body.txt"), "Text. Unsubscribe: {{ unsubscribe_url }}\n");
        Files.writeString(hostile.resolve("body.html"), "<html><head><title>x</title></head><body><p id=\"x\">static</p>"
                + "<script>document.getElementById('x').textContent = 'ran'; parent.document.title = 'pwned';</script>"
                + "<img src=\"data:,\" onerror=\"parent.document.title = 'pwned'\" alt=\"\">"
                + "<a href=\"{{ unsubscribe_url }}\">unsubscribe</a></body></html>\n");
        var env = WorkerEnv.of(db, greenMail.getSmtp().getPort());
        env.put("MAILRUN_TEMPLATES_DIR", templates.toString());
        try (ConsoleClient app = new ConsoleClient(env, clock);
             ConsoleBrowser browser = ConsoleBrowser.start(installed, dir.resolve("profile"), dir)) {
            ChromeDriver d = browser.driver;
            d.get(app.base() + "/console/login");
            login(d, app.token("ops", ApiScope.ADMIN));
            d.get(app.base() + "/console/campaigns/new?template=hostile");
            assertThat(text(d, "preview-subject")).isEqualTo("Hostile");
            d.switchTo().frame("preview-html");
            assertThat(d.findElement(By.id("x")).getText()).as("the template's script did not run").isEqualTo("static");
            d.switchTo().defaultContent();
            assertThat(d.getTitle()).as("nothing in the frame reached the console's page").isEqualTo("New campaign · mailrun");
            d.get(app.base() + "/console/templates/hostile/preview");
            assertThat(d.findElement(By.id("x")).getText()).as("opened on its own, its policy still runs nothing").isEqualTo("static");
        }
    }

    /** The new-campaign page: choose the template, preview it with a sample, create (a bad rate first). */
    private long createWithPreview(ChromeDriver d, ConsoleBrowser browser) throws Exception {
        navigate(d, By.linkText("New campaign"));
        d.findElement(By.cssSelector("#preview-template option[value=newsletter]")).click();
        navigate(d, By.id("preview"));
        d.findElement(By.id("sample-name")).sendKeys("Ada");
        d.findElement(By.id("sample-fields")).sendKeys("company=Initech");
        navigate(d, By.id("preview"));
        assertThat(text(d, "preview-subject")).isEqualTo("preview: what's new at Initech");
        assertThat(d.findElement(By.id("preview-html")).getAttribute("sandbox")).isEmpty();
        d.switchTo().frame("preview-html");
        assertThat(d.findElement(By.tagName("body")).getText()).contains("Hi Ada,", "Initech News");
        d.switchTo().defaultContent();
        browser.screenshot("new-campaign");
        d.findElement(By.id("name")).sendKeys("Winter news");
        d.findElement(By.id("from")).sendKeys("news@sender.example");
        d.findElement(By.id("rate")).sendKeys("fast");
        navigate(d, By.id("create"));
        assertThat(text(d, "rate-error")).startsWith("must be a number");
        assertThat(d.findElement(By.id("name")).getAttribute("value")).as("values kept").isEqualTo("Winter news");
        d.findElement(By.id("rate")).clear();
        navigate(d, By.id("create"));
        assertThat(flash(d)).contains("is created as a draft");
        return Long.parseLong(d.getCurrentUrl().replaceAll(".*/campaigns/", ""));
    }

    /** The upload page: a CSV with two bad rows and a duplicate; the report names them by line. */
    private void uploadWithBadRows(ChromeDriver d, ConsoleBrowser browser, long id) throws Exception {
        navigate(d, By.id("import"));
        Path csv = csv(RECIPIENTS);
        Files.writeString(csv, "not-an-address,Broken\nreader1@list.example,Again\n@nobody,Broken\n", StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.APPEND);
        d.findElement(By.id("file")).sendKeys(csv.toString());
        navigate(d, By.id("upload"));
        assertThat(flash(d)).isEqualTo(RECIPIENTS + " recipient(s) imported, 3 row(s) rejected (duplicates included): see the report below.");
        assertThat(text(d, "report-rows")).isEqualTo(Integer.toString(RECIPIENTS + 3));
        assertThat(text(d, "report-imported")).isEqualTo(Integer.toString(RECIPIENTS));
        assertThat(text(d, "report-duplicates")).isEqualTo("1");
        assertThat(text(d, "report-rejected")).as("other rejects: the boxes add up to the rows read").isEqualTo("2");
        assertThat(d.findElement(By.id("rejects")).getText()).contains("not-an-address", Integer.toString(RECIPIENTS + 2));
        browser.screenshot("import");
        d.findElement(By.id("rejects-download")).click();
        Path rejects = dir.resolve("dl").resolve("campaign-" + id + "-rejects.csv");
        waitFor(() -> Files.exists(rejects) && Files.readString(rejects).contains("@nobody"));
        assertThat(Files.readString(rejects)).contains("not-an-address", "reader1@list.example");
        navigate(d, By.linkText("#" + id + " Winter news"));
    }

    private static void login(ChromeDriver d, String token) throws Exception {
        if (!d.getCurrentUrl().endsWith("/console/login")) {
            d.get(d.getCurrentUrl().replaceAll("/console/.*$", "/console/login"));
        }
        assertThat(d.findElement(By.cssSelector("label[for=token]")).getText()).isEqualTo("API token");
        d.findElement(By.id("token")).sendKeys(token);
        navigate(d, By.cssSelector("form button[type=submit]"));
        assertThat(d.findElements(By.id("login-error"))).as("the login was refused: %s", d.findElements(By.id("login-error"))
                .stream().map(WebElement::getText).toList()).isEmpty();
    }

    private Path csv(int n) throws Exception {
        Path csv = dir.resolve("list-" + n + ".csv");
        try (BufferedWriter w = Files.newBufferedWriter(csv)) {
            w.write("email,name\n");
            for (int i = 0; i < n; i++) {
                w.write("reader" + i + "@list.example,Reader " + i + "\n");
            }
        }
        return csv;
    }
}
