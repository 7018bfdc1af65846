package dev.mailrun.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A campaign's own message written from the console over plain HTTP against the real database: the
 * page linked from a draft's page, a Markdown body previewed in its layout (subject and text on the
 * page, the HTML part from the frame's address), saved as the template named after the campaign and
 * pinned; every refusal of the domain (a body that does not compile, an empty subject, an unknown layout,
 * the layout named as the campaign's own template, a field the imported recipients lack) beside its field
 * with nothing stored; the form opening with the message as it was written, or empty with a note where
 * nothing written was kept; a new campaign's own message previewed before anything is created, and
 * created; a running campaign refused,
 * a read-only token shown no link and refused.
 */
class ConsoleCampaignMessageHttpTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final String BODY = "## Repairs this week\r\n\r\nHello {{ name | default(\"there\") }}, we mended **forty jackets**.\r\n";

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-12-07T09:00:00Z"), Duration.ofMillis(1));
    private ConsoleClient app;
    private String session;

    @BeforeEach
    void start() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "campaign", "task", "template_version", "template")) {
                s.execute("DELETE FROM " + table);
            }
        }
        app = new ConsoleClient(WorkerEnv.of(db, greenMail.getSmtp().getPort()), clock);
        session = app.login(app.token("ops", ApiScope.ADMIN));
        storeFrame();
    }

    @AfterEach
    void stop() {
        app.close();
    }

    @Test
    void a_markdown_message_is_previewed_in_its_layout_then_saved_as_the_campaigns_template_and_pinned() throws Exception {
        long id = app.campaign("Weekly 49");
        String path = "/console/campaigns/" + id;
        assertThat(app.get(session, path).body()).contains("<a class=\"button\" id=\"write-message\" href=\"" + path + "/message\">");
        String page = app.get(session, path + "/message").body();
        assertThat(page).contains("id=\"message-form\"", "<strong id=\"message-template\">weekly-49</strong>",
                "<option value=\"frame\">frame</option>", "id=\"format-markdown\" value=\"markdown\" checked");

        Map<String, String> form = message("frame", "Repairs, {{ name | default(\"friends\") }}", BODY);
        form.put("sampleName", "Ada");
        HttpResponse<String> preview = app.post(session, path + "/message/preview", form);
        assertThat(preview.statusCode()).as(preview.body()).isEqualTo(200);
        assertThat(preview.body()).contains("<dd id=\"preview-subject\">Repairs, Ada</dd>",
                "Hello Ada, we mended forty jackets.", "Unsubscribe: https://unsubscribe.invalid/preview",
                "<iframe class=\"preview\" id=\"preview-html\" title=\"HTML part of the preview\" sandbox src=\"");
        HttpResponse<String> frame = app.get(session, path + "/message/frame?email=ada%40example.com&name=Ada");
        assertThat(frame.headers().firstValue("Content-Security-Policy").orElseThrow()).startsWith("sandbox; default-src 'none'");
        assertThat(frame.body()).contains("<h2>Repairs this week</h2>", "<p>Hello Ada, we mended <strong>forty jackets</strong>.</p>",
                "<footer>");
        assertThat(versions("weekly-49")).as("a preview stores nothing").isEmpty();

        HttpResponse<String> saved = app.post(session, path + "/message", form);
        assertThat(saved.statusCode()).as(saved.body()).isEqualTo(303);
        assertThat(saved.headers().firstValue("Location")).hasValue(path);
        assertThat(app.get(session, path).body()).contains(
                "Campaign " + id + " now sends its own message: version 1 of template weekly-49.",
                "<p id=\"content-pin\">Sends weekly-49 version 1",
                "<td>-</td><td>weekly-49</td><td>1</td><td>1</td><td>console:ops</td></tr>");
        assertThat(versions("weekly-49")).containsExactly("1 console:ops Repairs, {{ name | default(\"friends\") }}\n"
                + "<html><body><h2>Repairs this week</h2>\n<p>Hello {{ name | default(\"there\") }}, we mended <strong>forty jackets</strong>.</p>"
                + "<footer><a href=\"{{ unsubscribe_url }}\">Unsubscribe</a></footer></body></html>\n");
        assertThat(ConsoleClient.audit(db.dataSource())).contains("ops campaign.message " + path + "/message 200")
                .noneMatch(row -> row.contains("/message/preview"));
    }

    @Test
    void the_form_opens_with_the_message_as_it_was_written_and_says_why_when_none_was_kept() throws Exception {
        long id = app.campaign("Weekly 48");
        String path = "/console/campaigns/" + id + "/message";
        assertThat(app.get(session, path).body()).as("a campaign sending another template: an empty form, no note")
                .contains("<textarea id=\"body\" name=\"body\" rows=\"16\" spellcheck=\"true\">\n</textarea>")
                .doesNotContain("id=\"not-kept\"");
        Map<String, String> form = message("frame", "Repairs <week 48>", BODY);
        form.put("text", "Hello, we mended forty jackets.\r\n");
        assertThat(app.post(session, path, form).statusCode()).isEqualTo(303);

        String page = app.get(session, path).body();
        assertThat(page).contains("<option value=\"frame\" selected>frame</option>",
                "<input id=\"subject\" name=\"subject\" value=\"Repairs &lt;week 48&gt;\"",
                "id=\"format-markdown\" value=\"markdown\" checked",
                "spellcheck=\"true\">\n## Repairs this week\n\nHello {{ name | default(&quot;there&quot;) }}, we mended **forty jackets**.\n</textarea>",
                "<textarea id=\"text\" name=\"text\" rows=\"8\">\nHello, we mended forty jackets.\n</textarea>")
                .doesNotContain("id=\"not-kept\"");

        long old = app.campaign("Newsletter");
        assertThat(app.get(session, "/console/campaigns/" + old + "/message").body()).contains("<p class=\"held\" id=\"not-kept\">"
                + "The campaign sends newsletter@1, whose message as written was not kept (it was stored before mailrun kept"
                + " messages, or saved as a whole template): the form starts empty.</p>", "<textarea id=\"body\" name=\"body\" rows=\"16\" spellcheck=\"true\">\n</textarea>");
    }

    @Test
    void every_refusal_of_the_domain_is_shown_beside_its_field_and_nothing_is_stored() throws Exception {
        long id = app.campaign("Weekly 50");
        String path = "/console/campaigns/" + id;
        HttpResponse<String> broken = app.post(session, path + "/message", message("frame", "Week 50", "Hello {{ name\n"));
        assertThat(broken.statusCode()).isEqualTo(422);
        assertThat(broken.body()).contains("The message has problems, marked beside each field; nothing was stored.",
                "<textarea id=\"body\" name=\"body\" rows=\"16\" spellcheck=\"true\" aria-invalid=\"true\" aria-describedby=\"body-error\">\nHello {{ name\n</textarea>",
                "<p class=\"field-error\" id=\"body-error\">weekly-50/body:2:1: ")
                .doesNotContain("id=\"subject-error\"", "id=\"layout-error\"");

        HttpResponse<String> several = app.post(session, path + "/message", message("nosuch", "", "Fine"));
        assertThat(several.statusCode()).isEqualTo(422);
        assertThat(several.body()).contains(
                "<p class=\"field-error\" id=\"layout-error\">layout nosuch: no template named nosuch is stored, nor written in templates.dir</p>",
                "<p class=\"field-error\" id=\"subject-error\">weekly-50/subject: the subject is empty</p>");

        Map<String, String> badFormat = message("frame", "Week 50", "Fine");
        badFormat.put("format", "rtf");
        assertThat(app.post(session, path + "/message", badFormat).body())
                .contains("<p class=\"field-error\" id=\"format-error\">must be markdown or html, got &#39;rtf&#39;</p>");

        app.importThroughApi(id, csv());
        HttpResponse<String> lacking = app.post(session, path + "/message/preview", message("frame", "Week 50", "Hi {{ company }}"));
        assertThat(lacking.statusCode()).isEqualTo(422);
        assertThat(lacking.body()).contains("<p class=\"field-error\" id=\"body-error\">weekly-50/body.txt:1:7: unknown field "
                + "&#39;company&#39;: recipients do not have it", "weekly-50/body.html:1:22: unknown field &#39;company&#39;")
                .doesNotContain("id=\"preview-html\"");

        long named = app.campaign("Frame");
        HttpResponse<String> itself = app.post(session, "/console/campaigns/" + named + "/message", message("frame", "Framed", "Hi"));
        assertThat(itself.body()).contains("<p class=\"field-error\" id=\"layout-error\">layout frame: the message is stored as "
                + "template frame, so its layout must be another template</p>");
        assertThat(versions("frame")).as("the layout kept as it was").hasSize(1);

        assertThat(versions("weekly-50")).isEmpty();
        assertThat(app.get(session, path).body()).contains("<p id=\"content-pin\">Sends newsletter version 1");
        assertThat(ConsoleClient.audit(db.dataSource())).contains("ops campaign.message " + path + "/message 422");
    }

    @Test
    void a_running_campaign_keeps_its_message_and_a_read_only_token_sees_no_link() throws Exception {
        long id = app.campaign("Running");
        app.importThroughApi(id, csv());
        String path = "/console/campaigns/" + id;
        assertThat(app.post(session, path + "/start", Map.of("csrf", app.csrf(session, path))).statusCode()).isEqualTo(303);
        assertThat(app.get(session, path + "/message").body()).contains("id=\"not-writable\"").doesNotContain("id=\"message-form\"");
        HttpResponse<String> refused = app.post(session, path + "/message", message("frame", "Late", "Too late"));
        assertThat(refused.statusCode()).isEqualTo(303);
        assertThat(app.get(session, path).body()).contains("<p class=\"flash error\" role=\"alert\">campaign " + id
                + " is running; what it sends changes only while it is a draft, scheduled or paused.</p>")
                .doesNotContain("id=\"write-message\"");
        assertThat(versions("running")).isEmpty();

        long draft = app.campaign("Draft");
        String viewer = app.login(app.token("viewer", ApiScope.CAMPAIGNS_READ));
        assertThat(app.get(viewer, "/console/campaigns/" + draft).body()).doesNotContain("id=\"write-message\"");
        assertThat(app.get(viewer, "/console/campaigns/" + draft + "/message").statusCode()).isEqualTo(403);
        Map<String, String> form = message("frame", "Mine", "Mine");
        form.put("csrf", app.csrf(viewer, "/console/campaigns/" + draft));
        assertThat(app.post(viewer, "/console/campaigns/" + draft + "/message", form).statusCode()).isEqualTo(403);
        assertThat(versions("draft")).isEmpty();
    }

    @Test
    void the_new_campaign_page_creates_a_draft_with_its_own_message_and_names_a_problem_beside_its_field() throws Exception {
        String page = app.get(session, "/console/campaigns/new?template=frame&own=1").body();
        assertThat(page).contains("<strong id=\"own-layout\">frame</strong>", "<input type=\"hidden\" name=\"own\" value=\"1\">",
                "id=\"format-markdown\" value=\"markdown\" checked", "<textarea id=\"body\"").doesNotContain("id=\"preview-html\"");
        Map<String, String> form = message("frame", "Week 51, {{ name | default(\"friends\") }}", "   ");
        form.put("template", form.remove("layout"));
        form.put("own", "1");
        form.put("name", "Weekly 51");
        form.put("from", "news@sender.example");
        HttpResponse<String> empty = app.post(session, "/console/campaigns/new", form);
        assertThat(empty.statusCode()).isEqualTo(422);
        assertThat(empty.body()).contains("<p class=\"field-error\" id=\"body-error\">weekly-51/body: the body is empty</p>",
                "<li>Body: weekly-51/body: the body is empty</li>", "value=\"Week 51, {{ name | default(&quot;friends&quot;) }}\"");
        assertThat(versions("weekly-51")).isEmpty();

        form.put("body", BODY);
        HttpResponse<String> created = app.post(session, "/console/campaigns/new", form);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(303);
        String location = created.headers().firstValue("Location").orElseThrow();
        assertThat(app.get(session, location).body()).contains("is created as a draft", "<p id=\"content-pin\">Sends weekly-51 version 1");
        assertThat(versions("weekly-51")).singleElement().asString().contains("<strong>forty jackets</strong>", "<footer>");
    }

    @Test
    void the_new_campaign_page_previews_its_own_message_in_its_layout_and_creates_nothing() throws Exception {
        Map<String, String> form = message("frame", "Week 54, {{ name | default(\"friends\") }}", BODY);
        form.put("template", form.remove("layout"));
        form.put("own", "1");
        form.put("name", "Weekly 54");
        form.put("sampleName", "Ada");
        assertThat(app.get(session, "/console/campaigns/new?template=frame&own=1").body()).contains("<button type=\"submit\" "
                + "id=\"preview-message\" formaction=\"/console/campaigns/new/preview\">Preview the message</button>");

        HttpResponse<String> preview = app.post(session, "/console/campaigns/new/preview", form);
        assertThat(preview.statusCode()).as(preview.body()).isEqualTo(200);
        assertThat(preview.body()).contains("<dd id=\"message-preview-subject\">Week 54, Ada</dd>",
                "Hello Ada, we mended forty jackets.", "<iframe class=\"preview\" id=\"message-preview-html\" title=\"HTML part of "
                + "the message's preview\" sandbox src=\"/console/campaigns/new/frame?message=weekly-54&amp;email=",
                "spellcheck=\"true\">\n## Repairs this week\r\n", "id=\"create\"");
        HttpResponse<String> frame = app.get(session, "/console/campaigns/new/frame?message=weekly-54&email=ada%40example.com&name=Ada");
        assertThat(frame.headers().firstValue("Content-Security-Policy").orElseThrow()).startsWith("sandbox; default-src 'none'");
        assertThat(frame.body()).contains("<h2>Repairs this week</h2>", "<p>Hello Ada, we mended <strong>forty jackets</strong>.</p>");

        form.put("body", "Hello {{ name\n");
        HttpResponse<String> broken = app.post(session, "/console/campaigns/new/preview", form);
        assertThat(broken.statusCode()).isEqualTo(422);
        assertThat(broken.body()).contains("The message cannot be previewed; change what is marked (nothing was created or stored):",
                "<p class=\"field-error\" id=\"body-error\">weekly-54/body:2:1: ").doesNotContain("id=\"message-preview-html\"");
        assertThat(app.get(session, "/console/campaigns/new/frame?message=weekly-54").body()).as("the last good preview's frame")
                .contains("<h2>Repairs this week</h2>");

        assertThat(versions("weekly-54")).as("a preview stores nothing").isEmpty();
        try (Connection c = db.dataSource().getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM campaign")) {
            rs.next();
            assertThat(rs.getInt(1)).as("a preview creates nothing").isZero();
        }
        assertThat(ConsoleClient.audit(db.dataSource())).noneMatch(row -> row.contains("/campaigns/new"));
        String writer = app.login(app.token("writer", ApiScope.CAMPAIGNS_READ, ApiScope.CAMPAIGNS_WRITE));
        assertThat(app.get(writer, "/console/campaigns/new?template=frame&own=1").body()).contains("id=\"create\"")
                .doesNotContain("id=\"preview-message\"");
    }

    /** The message form as the page posts it, Markdown, with the session's CSRF token. */
    private Map<String, String> message(String layout, String subject, String body) {
        Map<String, String> form = new HashMap<>();
        form.put("csrf", app.csrf(session, "/console/campaigns"));
        form.put("layout", layout);
        form.put("subject", subject);
        form.put("format", "markdown");
        form.put("body", body);
        form.put("text", "");
        return form;
    }

    /** Stores the layout template frame (version 1) through the console's editor. */
    private void storeFrame() {
        HttpResponse<String> saved = app.post(session, "/console/templates/frame/save", Map.of("csrf", app.csrf(session, "/console/templates"),
                "subject", "Frame\n", "html", "<html><body>{{ content }}<footer><a href=\"{{ unsubscribe_url }}\">Unsubscribe</a></footer></body></html>\n",
                "text", "{{ content }}\n\nUnsubscribe: {{ unsubscribe_url }}\n", "properties", ""));
        assertThat(saved.statusCode()).as(saved.body()).isEqualTo(303);
    }

    /** The stored versions of {@code template}: {@code version saved_by subject\nhtml}. */
    private static List<String> versions(String template) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT v.version, v.saved_by, v.subject, v.body_html FROM template_version v "
                     + "JOIN template t ON t.id = v.template_id WHERE t.name = '" + template + "' ORDER BY v.version")) {
            while (rs.next()) {
                rows.add(rs.getInt(1) + " " + rs.getString(2) + " " + rs.getString(3) + "\n" + rs.getString(4));
            }
        }
        return rows;
    }

    private Path csv() throws Exception {
        return Files.writeString(dir.resolve("list.csv"), "email,name\nreader0@list.example,Reader 0\nreader1@list.example,Reader 1\n");
    }
}
