package dev.mailrun.app.console;

import static dev.mailrun.testing.ConsoleBrowser.flash;
import static dev.mailrun.testing.ConsoleBrowser.navigate;
import static dev.mailrun.testing.ConsoleBrowser.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.testing.ConsoleBrowser;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The content pages in a real browser (headless Chromium through WebDriver), as an operator uses them:
 * edit a stored template, preview it in the sandboxed frame, save it as a new version (and once more
 * unchanged, which stores nothing: the text areas give back exactly what they were given), see what
 * changed, move a draft to the new version, send a test of it to GreenMail (a bad address first) and
 * clone the draft; write a draft's own Markdown message into a layout, preview it and save it. Skipped,
 * with one line, where chromium or chromedriver is not installed.
 */
class ConsoleContentBrowserTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final String SUBJECT = "Spring at {{ company | default(\"ACME\") }}";

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
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "campaign", "task", "template_version", "template")) {
                s.execute("DELETE FROM " + table);
            }
        }
    }

    @Test
    void an_operator_edits_previews_and_saves_a_template_moves_a_draft_to_it_and_sends_a_test() throws Exception {
        try (ConsoleClient app = new ConsoleClient(WorkerEnv.of(db, greenMail.getSmtp().getPort()), clock);
             ConsoleBrowser browser = ConsoleBrowser.start(installed, dir.resolve("profile"), dir)) {
            ChromeDriver d = browser.driver;
            long id = app.campaign("Spring news");
            d.get(app.base() + "/console/login");
            d.findElement(By.id("token")).sendKeys(app.token("ops", ApiScope.ADMIN));
            navigate(d, By.cssSelector("form button[type=submit]"));

            navigate(d, By.linkText("Templates"));
            navigate(d, By.linkText("newsletter"));
            assertThat(text(d, "template-state")).isEqualTo("Latest version 1.");
            WebElement subject = d.findElement(By.id("subject"));
            assertThat(subject.getAttribute("value")).isEqualTo("{{ campaign }}: what's new at {{ company | default(\"ACME\") }}\n");
            subject.clear();
            subject.sendKeys(SUBJECT);
            d.findElement(By.id("sample-name")).sendKeys("Ada");
            d.findElement(By.id("sample-fields")).sendKeys("company=Initech");
            navigate(d, By.id("preview"));
            assertThat(text(d, "preview-subject")).isEqualTo("Spring at Initech");
            assertThat(text(d, "preview-text")).contains("Hi Ada,");
            assertThat(d.findElement(By.id("preview-html")).getAttribute("sandbox")).as("sandboxed, nothing allowed").isEmpty();
            d.switchTo().frame("preview-html");
            assertThat(d.findElement(By.tagName("body")).getText()).contains("Hi Ada,", "Initech News");
            d.switchTo().defaultContent();
            assertThat(d.findElement(By.id("subject")).getAttribute("value")).as("the text as typed, kept").isEqualTo(SUBJECT);
            browser.screenshot("template-editor");

            navigate(d, By.id("save"));
            assertThat(flash(d)).isEqualTo("Version 2 of template newsletter is saved.");
            navigate(d, By.id("save"));
            assertThat(flash(d)).isEqualTo("Nothing was saved: the text is the same as version 2, the latest.");
            navigate(d, By.id("diff-show"));
            assertThat(d.findElements(By.cssSelector("#diff .del"))).extracting(WebElement::getText)
                    .containsExactly("-{{ campaign }}: what's new at {{ company | default(\"ACME\") }}");
            assertThat(d.findElements(By.cssSelector("#diff .add"))).as("the HTML and text parts came back from the browser unchanged")
                    .extracting(WebElement::getText).containsExactly("+" + SUBJECT);

            d.get(app.base() + "/console/campaigns/" + id);
            assertThat(text(d, "content-pin")).startsWith("Sends newsletter version 1");
            navigate(d, By.id("change-content"));
            d.findElement(By.cssSelector("#content-version option[value='2']")).click();
            navigate(d, By.id("content-move"));
            assertThat(flash(d)).isEqualTo("Campaign " + id + " now sends version 2 of template newsletter.");
            assertThat(text(d, "content-pin")).startsWith("Sends newsletter version 2");

            navigate(d, By.id("send-test"));
            d.findElement(By.id("to")).sendKeys("first@test.example, not-an-address");
            navigate(d, By.id("send-test-confirmed"));
            assertThat(text(d, "to-error")).startsWith("not-an-address: ");
            assertThat(greenMail.getReceivedMessages()).as("nothing sent while an address is bad").isEmpty();
            WebElement to = d.findElement(By.id("to"));
            to.clear();
            to.sendKeys("first@test.example\nsecond@test.example");
            d.findElement(By.id("test-fields")).sendKeys("company=Initech");
            navigate(d, By.id("send-test-confirmed"));
            assertThat(flash(d)).startsWith("Test sent to first@test.example (Message-ID ").contains("second@test.example (Message-ID ");
            MimeMessage[] received = greenMail.getReceivedMessages();
            assertThat(received).hasSize(2);
            for (MimeMessage m : received) {
                assertThat(m.getSubject()).isEqualTo("[test] Spring at Initech");
                assertThat(m.getHeader("X-Mailrun-Test")).containsExactly("1");
            }

            navigate(d, By.id("clone"));
            assertThat(flash(d)).startsWith("Campaign ").contains("is a copy of campaign " + id + " as a draft");
            assertThat(d.getCurrentUrl()).doesNotEndWith("/campaigns/" + id);
            assertThat(text(d, "content-pin")).startsWith("Sends newsletter version 2");
        }
    }

    @Test
    void an_operator_writes_a_draft_its_own_markdown_message_previews_it_in_its_layout_and_saves_it() throws Exception {
        try (ConsoleClient app = new ConsoleClient(WorkerEnv.of(db, greenMail.getSmtp().getPort()), clock);
             ConsoleBrowser browser = ConsoleBrowser.start(installed, dir.resolve("profile"), dir)) {
            ChromeDriver d = browser.driver;
            long id = app.campaign("Weekly 49");
            d.get(app.base() + "/console/login");
            d.findElement(By.id("token")).sendKeys(app.token("ops", ApiScope.ADMIN));
            navigate(d, By.cssSelector("form button[type=submit]"));
            d.get(app.base() + "/console/templates/frame");
            replace(d, "html", "<html><body>{{ content }}<footer><a href=\"{{ unsubscribe_url }}\">Unsubscribe</a></footer></body></html>");
            replace(d, "text", "{{ content }}\n\nUnsubscribe: {{ unsubscribe_url }}");
            navigate(d, By.id("save"));
            assertThat(flash(d)).isEqualTo("Template frame is stored as version 1.");

            d.get(app.base() + "/console/campaigns/" + id);
            navigate(d, By.id("write-message"));
            assertThat(text(d, "message-template")).isEqualTo("weekly-49");
            d.findElement(By.cssSelector("#layout option[value=frame]")).click();
            d.findElement(By.id("subject")).sendKeys("Repairs, {{ name | default(\"friends\") }}");
            assertThat(d.findElement(By.id("format-markdown")).isSelected()).as("Markdown unless HTML is chosen").isTrue();
            d.findElement(By.id("body")).sendKeys("## Repairs this week\n\nHello {{ name | default(\"there\") }}, "
                    + "we mended **forty jackets**.\n\n- Zips\n- Boots\n");
            d.findElement(By.id("sample-name")).sendKeys("Ada");
            navigate(d, By.id("preview"));
            assertThat(text(d, "preview-subject")).isEqualTo("Repairs, Ada");
            assertThat(text(d, "preview-text")).contains("Hello Ada, we mended forty jackets.", "- Zips", "Unsubscribe: ");
            assertThat(d.findElement(By.id("preview-html")).getAttribute("sandbox")).as("sandboxed, nothing allowed").isEmpty();
            browser.screenshot("campaign-message");
            d.switchTo().frame("preview-html");
            assertThat(d.findElement(By.tagName("h2")).getText()).isEqualTo("Repairs this week");
            assertThat(d.findElement(By.tagName("strong")).getText()).isEqualTo("forty jackets");
            assertThat(d.findElements(By.cssSelector("ul li"))).extracting(WebElement::getText).containsExactly("Zips", "Boots");
            d.switchTo().defaultContent();

            navigate(d, By.id("save"));
            assertThat(flash(d)).isEqualTo("Campaign " + id + " now sends its own message: version 1 of template weekly-49.");
            assertThat(text(d, "content-pin")).startsWith("Sends weekly-49 version 1");
            try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
                 java.sql.ResultSet rs = s.executeQuery("SELECT v.subject, v.body_html, v.body_text, v.saved_by FROM template_version v "
                         + "JOIN template t ON t.id = v.template_id WHERE t.name = 'weekly-49'")) {
                assertThat(rs.next()).as("stored").isTrue();
                assertThat(rs.getString(1)).isEqualTo("Repairs, {{ name | default(\"friends\") }}");
                assertThat(rs.getString(2)).isEqualTo("<html><body><h2>Repairs this week</h2>\n<p>Hello {{ name | default(\"there\") }}, "
                        + "we mended <strong>forty jackets</strong>.</p>\n<ul>\n<li>Zips</li>\n<li>Boots</li>\n</ul>"
                        + "<footer><a href=\"{{ unsubscribe_url }}\">Unsubscribe</a></footer></body></html>");
                assertThat(rs.getString(3)).startsWith("Repairs this week\n\nHello {{ name | default(\"there\") }}, we mended forty jackets.");
                assertThat(rs.getString(4)).isEqualTo("console:ops");
                assertThat(rs.next()).as("one version").isFalse();
            }
        }
    }

    /** Replaces what the text area {@code id} holds with {@code text}, typed. */
    private static void replace(ChromeDriver d, String id, String text) {
        WebElement area = d.findElement(By.id(id));
        area.clear();
        area.sendKeys(text);
    }
}
