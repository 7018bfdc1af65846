package dev.mailrun.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import jakarta.mail.internet.MimeMessage;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A campaign's content from the console over plain HTTP against the real database and GreenMail: what
 * it sends and every move of it on its page, moving a draft to another stored version (a bad template
 * or version beside its field; a running campaign refused), cloning, and a test send to up to ten
 * addresses (more, or a bad one, beside the field and nothing sent).
 */
class ConsoleCampaignContentHttpTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

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
    }

    @AfterEach
    void stop() {
        app.close();
    }

    @Test
    void a_draft_moves_to_another_stored_version_and_its_page_shows_what_it_sends_and_every_move() throws Exception {
        long id = app.campaign("Spring");
        String path = "/console/campaigns/" + id;
        storeWeekly();
        String page = app.get(session, path).body();
        assertThat(page).contains("<p id=\"content-pin\">Sends newsletter version 1", "id=\"change-content\"", "id=\"send-test\"",
                "id=\"clone\"", "<table id=\"content-history\">");

        String chooser = app.get(session, path + "/content?template=weekly").body();
        assertThat(chooser).contains("<strong id=\"content-template\">weekly</strong>", "<option value=\"weekly\" selected>weekly</option>",
                "<option value=\"1\">1: Week {{ week }} (saved ");
        HttpResponse<String> moved = app.post(session, path + "/content", Map.of("csrf", app.csrf(session, path),
                "template", "weekly", "version", "1"));
        assertThat(moved.statusCode()).isEqualTo(303);
        assertThat(moved.headers().firstValue("Location")).hasValue(path);
        page = app.get(session, path).body();
        assertThat(page).contains("Campaign " + id + " now sends version 1 of template weekly.",
                "<p id=\"content-pin\">Sends weekly version 1",
                "<td>-</td><td>weekly</td><td>1</td><td>1</td><td>console:ops</td></tr>");
        assertThat(ConsoleClient.audit(db.dataSource())).contains("ops campaign.content " + path + "/content 200");
    }

    @Test
    void an_ab_variant_moves_to_another_version_of_its_own_template_and_only_of_it() throws Exception {
        storeWeekly();
        long id = app.campaign("Split", ",\"variants\":[\"A\",\"B:template=weekly\"],\"test_share\":20");
        String path = "/console/campaigns/" + id;
        HttpResponse<String> saved = app.post(session, "/console/templates/weekly/save", Map.of("csrf", app.csrf(session, "/console/templates"),
                "subject", "Week {{ week }}, again\n", "html", "<p>Hi {{ name }} <a href=\"{{ unsubscribe_url }}\">unsubscribe</a></p>\n",
                "text", "Hi {{ name }}\n{{ unsubscribe_url }}\n", "properties", ""));
        assertThat(saved.statusCode()).as(saved.body()).isEqualTo(303);
        String chooser = app.get(session, path + "/content?template=weekly&variant=B").body();
        assertThat(chooser).contains("<option value=\"B\" selected>variant B</option>",
                "<input type=\"hidden\" name=\"variant\" value=\"B\">", "<strong id=\"content-variant\">B</strong>",
                "<option value=\"2\">2: Week {{ week }}, again (saved ");
        String csrf = app.csrf(session, path);
        HttpResponse<String> foreign = app.post(session, path + "/content", Map.of("csrf", csrf, "template", "newsletter",
                "variant", "B"));
        assertThat(foreign.statusCode()).isEqualTo(422);
        assertThat(foreign.body()).contains("id=\"template-error\">variant B sends template weekly; a variant moves only to "
                + "another version of its template</p>");
        HttpResponse<String> moved = app.post(session, path + "/content", Map.of("csrf", csrf, "template", "weekly",
                "version", "2", "variant", "B"));
        assertThat(moved.statusCode()).as(moved.body()).isEqualTo(303);
        String page = app.get(session, path).body();
        assertThat(page).contains("Variant B of campaign " + id + " now sends version 2 of template weekly.",
                "<td>B</td><td>weekly</td><td>1</td><td>2</td><td>console:ops</td></tr>",
                "<p id=\"content-pin\">Sends newsletter version 1");
    }

    @Test
    void a_template_or_version_that_is_not_stored_is_named_beside_its_field_and_nothing_moves() throws Exception {
        long id = app.campaign("Spring");
        String path = "/console/campaigns/" + id;
        storeWeekly();
        String csrf = app.csrf(session, path);
        HttpResponse<String> version = app.post(session, path + "/content", Map.of("csrf", csrf, "template", "weekly", "version", "9"));
        assertThat(version.statusCode()).isEqualTo(422);
        assertThat(version.body()).contains("<p class=\"field-error\" id=\"version-error\">template weekly has no version 9</p>");
        HttpResponse<String> word = app.post(session, path + "/content", Map.of("csrf", csrf, "template", "weekly", "version", "two"));
        assertThat(word.statusCode()).isEqualTo(422);
        assertThat(word.body()).contains("id=\"version-error\">a version is a whole number, such as 3, or the latest</p>");
        HttpResponse<String> template = app.post(session, path + "/content", Map.of("csrf", csrf, "template", "nosuch"));
        assertThat(template.statusCode()).isEqualTo(422);
        assertThat(template.body()).contains("id=\"template-error\">no stored template named nosuch</p>");
        assertThat(app.get(session, path).body()).contains("<p id=\"content-pin\">Sends newsletter version 1");
    }

    @Test
    void a_running_campaign_keeps_what_it_sends_and_the_refusal_is_shown_on_its_page() throws Exception {
        long id = app.campaign("Running");
        app.importThroughApi(id, csv(2));
        String path = "/console/campaigns/" + id;
        storeWeekly();
        assertThat(app.post(session, path + "/start", Map.of("csrf", app.csrf(session, path))).statusCode()).isEqualTo(303);
        String running = app.get(session, path).body();
        assertThat(running).contains("badge running", "id=\"send-test\"", "id=\"clone\"").doesNotContain("id=\"change-content\"");
        assertThat(app.get(session, path + "/content").body()).contains("id=\"not-movable\"").doesNotContain("id=\"content-form\"");
        HttpResponse<String> refused = app.post(session, path + "/content", Map.of("csrf", app.csrf(session, path),
                "template", "weekly", "version", "1"));
        assertThat(refused.statusCode()).isEqualTo(303);
        assertThat(app.get(session, path).body()).contains("<p class=\"flash error\" role=\"alert\">campaign " + id
                + " is running; what it sends changes only while it is a draft, scheduled or paused.</p>",
                "Sends newsletter version 1");
        assertThat(ConsoleClient.audit(db.dataSource())).contains("ops campaign.content " + path + "/content 409");
    }

    @Test
    void clone_makes_a_draft_with_the_same_content_and_shows_its_page() throws Exception {
        long id = app.campaign("Original");
        app.importThroughApi(id, csv(2));
        String path = "/console/campaigns/" + id;
        HttpResponse<String> cloned = app.post(session, path + "/clone", Map.of("csrf", app.csrf(session, path)));
        assertThat(cloned.statusCode()).isEqualTo(303);
        String location = cloned.headers().firstValue("Location").orElseThrow();
        assertThat(location).matches("/console/campaigns/\\d+").isNotEqualTo(path);
        String page = app.get(session, location).body();
        assertThat(page).contains("is a copy of campaign " + id + " as a draft", "Original (copy)", "badge draft",
                "0 of 0 done", "Sends newsletter version 1", "<td>clone of campaign " + id + "</td>");
        assertThat(app.post(session, "/console/campaigns/999999/clone", Map.of("csrf", app.csrf(session, path))).statusCode())
                .as("no such campaign: refused on its page").isEqualTo(303);
    }

    @Test
    void send_test_sends_one_marked_message_to_each_address_and_changes_nothing_of_the_campaign() throws Exception {
        long id = app.campaign("Tested");
        String path = "/console/campaigns/" + id;
        assertThat(app.get(session, path + "/send-test").body()).contains("<label for=\"to\">Addresses, at most 10,");
        HttpResponse<String> sent = app.post(session, path + "/send-test", Map.of("csrf", app.csrf(session, path),
                "to", "first@test.example,\r\nsecond@test.example", "name", "Ada", "fields", "company=Initech"));
        assertThat(sent.statusCode()).isEqualTo(303);
        assertThat(sent.headers().firstValue("Location")).hasValue(path);
        MimeMessage[] received = greenMail.getReceivedMessages();
        assertThat(received).hasSize(2);
        for (MimeMessage m : received) {
            assertThat(m.getSubject()).isEqualTo("[test] Tested: what's new at Initech");
            assertThat(m.getHeader("X-Mailrun-Test")).containsExactly("1");
        }
        assertThat(List.of(received[0].getAllRecipients()[0].toString(), received[1].getAllRecipients()[0].toString()))
                .containsExactlyInAnyOrder("Ada <first@test.example>", "Ada <second@test.example>");
        String page = app.get(session, path).body();
        assertThat(page).contains("<p class=\"flash done\" role=\"status\">Test sent to first@test.example (Message-ID ",
                "second@test.example (Message-ID ", "badge draft", "0 of 0 done");
        assertThat(ConsoleClient.audit(db.dataSource())).contains("ops campaign.send-test " + path + "/send-test 200");
    }

    @Test
    void more_than_ten_addresses_or_a_bad_one_or_a_bad_field_is_named_beside_its_field_and_nothing_is_sent() throws Exception {
        long id = app.campaign("Tested");
        String path = "/console/campaigns/" + id;
        String csrf = app.csrf(session, path);
        String eleven = IntStream.range(0, 11).mapToObj(i -> "r" + i + "@test.example").collect(Collectors.joining("\n"));
        HttpResponse<String> many = app.post(session, path + "/send-test", Map.of("csrf", csrf, "to", eleven));
        assertThat(many.statusCode()).isEqualTo(422);
        assertThat(many.body()).contains("<p class=\"field-error\" id=\"to-error\">at most 10 addresses, got 11</p>",
                "aria-describedby=\"to-error\">\nr0@test.example");
        HttpResponse<String> bad = app.post(session, path + "/send-test", Map.of("csrf", csrf, "to", "good@test.example, not-an-address"));
        assertThat(bad.statusCode()).isEqualTo(422);
        assertThat(bad.body()).contains("id=\"to-error\">not-an-address: ");
        HttpResponse<String> none = app.post(session, path + "/send-test", Map.of("csrf", csrf, "to", " ,\n"));
        assertThat(none.body()).contains("id=\"to-error\">give at least one address</p>");
        HttpResponse<String> field = app.post(session, path + "/send-test", Map.of("csrf", csrf, "to", "good@test.example",
                "fields", "company=Initech\nno equals sign"));
        assertThat(field.statusCode()).isEqualTo(422);
        assertThat(field.body()).contains("id=\"fields-error\">line 2 is not column=value: no equals sign</p>");
        assertThat(greenMail.getReceivedMessages()).isEmpty();
    }

    @Test
    void a_token_that_may_only_read_sees_what_a_campaign_sends_and_none_of_its_buttons() throws Exception {
        long id = app.campaign("Read only");
        String path = "/console/campaigns/" + id;
        String viewer = app.login(app.token("viewer", ApiScope.CAMPAIGNS_READ));
        String page = app.get(viewer, path).body();
        assertThat(page).contains("Sends newsletter version 1", "<table id=\"content-history\">")
                .doesNotContain("id=\"clone\"", "id=\"send-test\"", "id=\"change-content\"", "id=\"open-template\"");
        for (String action : List.of("/clone", "/send-test", "/content")) {
            HttpResponse<String> r = app.post(viewer, path + action, Map.of("csrf", app.csrf(viewer, path), "to", "a@test.example",
                    "template", "newsletter"));
            assertThat(r.statusCode()).as(action).isEqualTo(403);
        }
        assertThat(app.get(viewer, path + "/send-test").statusCode()).isEqualTo(403);
        assertThat(greenMail.getReceivedMessages()).isEmpty();
    }

    /** Stores template weekly (version 1) through the console's editor. */
    private void storeWeekly() {
        HttpResponse<String> saved = app.post(session, "/console/templates/weekly/save", Map.of("csrf", app.csrf(session, "/console/templates"),
                "subject", "Week {{ week }}\n", "html", "<p>Hi {{ name }} <a href=\"{{ unsubscribe_url }}\">unsubscribe</a></p>\n",
                "text", "Hi {{ name }}\n{{ unsubscribe_url }}\n", "properties", ""));
        assertThat(saved.statusCode()).as(saved.body()).isEqualTo(303);
    }

    private Path csv(int n) throws Exception {
        StringBuilder rows = new StringBuilder("email,name\n");
        for (int i = 0; i < n; i++) {
            rows.append("reader").append(i).append("@list.example,Reader ").append(i).append('\n');
        }
        return Files.writeString(dir.resolve("list-" + n + ".csv"), rows);
    }
}
