package dev.mailrun.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The console's template pages over plain HTTP against the real database: the list and a new name,
 * the editor's Save (a new version, unchanged text, text that does not compile, a template larger than
 * an ordinary form), its Preview (rendered here, the HTML part in the sandboxed frame, not audited),
 * and the diff of two versions — each bad value shown beside its field, nothing stored.
 */
class ConsoleTemplatesHttpTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final String SUBJECT = "Week {{ week }}\n";
    private static final String HTML = "<p>Hello {{ name }}</p>\n<p><a href=\"{{ unsubscribe_url }}\">Unsubscribe</a></p>\n";
    private static final String TEXT = "Hello {{ name }}\nUnsubscribe: {{ unsubscribe_url }}\n";

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-12-07T09:00:00Z"), Duration.ofSeconds(1));
    private ConsoleClient console;
    private String session;
    private String csrf;

    @BeforeEach
    void start() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "campaign", "task", "template_version", "template")) {
                s.execute("DELETE FROM " + table);
            }
        }
        console = new ConsoleClient(WorkerEnv.of(db, 2525), clock);
        session = console.login(console.token("ops", ApiScope.ADMIN));
        csrf = console.csrf(session, "/console/templates");
    }

    @AfterEach
    void stop() {
        console.close();
    }

    @Test
    void a_new_template_is_stored_as_version_1_by_the_console_user_and_listed() throws Exception {
        assertThat(console.get(session, "/console/templates").body()).contains("No template is stored yet.", "id=\"new-name\"");
        HttpResponse<String> named = console.get(session, "/console/templates?name=weekly");
        assertThat(named.statusCode()).isEqualTo(303);
        assertThat(named.headers().firstValue("Location")).hasValue("/console/templates/weekly");
        assertThat(console.get(session, "/console/templates/weekly").body()).as("a name not stored starts from a skeleton")
                .contains("Not stored yet: the first save stores it as version 1.", "{{ unsubscribe_url }}");

        HttpResponse<String> saved = save("weekly", SUBJECT, HTML, TEXT);
        assertThat(saved.statusCode()).isEqualTo(303);
        assertThat(saved.headers().firstValue("Location")).hasValue("/console/templates/weekly");
        String page = console.get(session, "/console/templates/weekly").body();
        assertThat(page).contains("Template weekly is stored as version 1.", "Latest version 1.",
                "<textarea id=\"html\" name=\"html\" rows=\"16\" spellcheck=\"false\">\n&lt;p&gt;Hello {{ name }}&lt;/p&gt;",
                "<tr id=\"version-1\"><td>1</td><td>console:ops</td>");
        assertThat(versions("weekly")).containsExactly("1 console:ops Week {{ week }}\n");
        assertThat(console.get(session, "/console/templates").body()).contains("<tr id=\"template-weekly\">"
                + "<td><a href=\"/console/templates/weekly\">weekly</a></td><td>1</td>");
        assertThat(ConsoleClient.audit(db.dataSource())).containsExactly("ops template.save /console/templates/weekly/save 200");
    }

    @Test
    void a_name_that_is_not_one_or_is_taken_is_refused_beside_the_field() throws Exception {
        save("weekly", SUBJECT, HTML, TEXT);
        HttpResponse<String> bad = console.get(session, "/console/templates?name=no%20spaces");
        assertThat(bad.statusCode()).isEqualTo(422);
        assertThat(bad.body()).contains("<p class=\"field-error\" id=\"name-error\">a template&#39;s name is 1-64 letters",
                "aria-invalid=\"true\"", "value=\"no spaces\"");
        HttpResponse<String> taken = console.get(session, "/console/templates?name=weekly");
        assertThat(taken.statusCode()).isEqualTo(422);
        assertThat(taken.body()).contains("id=\"name-error\">template weekly is stored already: open it from the list</p>");
    }

    @Test
    void unchanged_text_stores_nothing_and_says_so_even_with_a_browsers_line_breaks() throws Exception {
        save("weekly", SUBJECT, HTML, TEXT);
        HttpResponse<String> again = save("weekly", SUBJECT.replace("\n", "\r\n"), HTML.replace("\n", "\r\n"), TEXT.replace("\n", "\r\n"));
        assertThat(again.statusCode()).isEqualTo(303);
        assertThat(console.get(session, "/console/templates/weekly").body())
                .contains("Nothing was saved: the text is the same as version 1, the latest.");
        assertThat(versions("weekly")).hasSize(1);

        assertThat(save("weekly", SUBJECT, HTML.replace("Hello", "Hi"), TEXT).statusCode()).isEqualTo(303);
        assertThat(console.get(session, "/console/templates/weekly").body()).contains("Version 2 of template weekly is saved.",
                "Latest version 2.");
        assertThat(versions("weekly")).hasSize(2);
        assertThat(console.get(session, "/console/templates/weekly?version=1").body()).as("editing from an older version")
                .contains("this text started from version 1", "&lt;p&gt;Hello {{ name }}");
    }

    @Test
    void text_that_does_not_compile_is_marked_beside_its_part_and_nothing_is_stored() throws Exception {
        save("weekly", SUBJECT, HTML, TEXT);
        HttpResponse<String> bad = save("weekly", "Week {{ week }}\nsecond line\n", "<p>{% if name %}unclosed</p>\n", TEXT);
        assertThat(bad.statusCode()).isEqualTo(422);
        assertThat(bad.body()).contains("The text has problems, marked beside each part; nothing was stored.",
                "<p class=\"field-error\" id=\"subject-error\">subject.txt:2:1: the subject must be a single line</p>",
                "<p class=\"field-error\" id=\"html-error\">body.html:2:1: Unexpected end of template. Pebble was looking for the &quot;endif&quot; tag</p>",
                "<textarea id=\"html\" name=\"html\" rows=\"16\" spellcheck=\"false\" aria-invalid=\"true\" aria-describedby=\"html-error\">\n"
                        + "&lt;p&gt;{% if name %}unclosed");
        assertThat(bad.body()).as("the text part compiled").doesNotContain("id=\"text-error\"");
        assertThat(versions("weekly")).hasSize(1);
        assertThat(ConsoleClient.audit(db.dataSource())).contains("ops template.save /console/templates/weekly/save 422");
    }

    @Test
    void a_template_larger_than_an_ordinary_form_is_saved() throws Exception {
        String html = "<p>" + "Long & <wide> ".repeat(8_000) + "{{ name }}</p>\n";
        assertThat(html.length()).as("over the 64 KiB of the console's other forms, escaped or not").isGreaterThan(100_000);
        assertThat(save("long", SUBJECT, html, TEXT).statusCode()).isEqualTo(303);
        assertThat(versions("long")).hasSize(1);
    }

    @Test
    void preview_renders_the_text_as_it_stands_into_the_sandboxed_frame_and_is_not_audited() throws Exception {
        Map<String, String> form = form(SUBJECT, HTML.replace("Hello", "Howdy"), TEXT);
        form.put("sampleName", "Ada");
        form.put("f.week", "49");
        HttpResponse<String> preview = console.post(session, "/console/templates/weekly/draft", form);
        assertThat(preview.statusCode()).isEqualTo(200);
        assertThat(preview.body()).contains("<dd id=\"preview-subject\">Week 49</dd>", "<pre id=\"preview-text\">Hello Ada",
                "<label for=\"sample-week\">week</label>", "<iframe class=\"preview\" id=\"preview-html\" title=\"HTML part of the preview\" sandbox src=");
        Matcher src = Pattern.compile("sandbox src=\"([^\"]+)\"").matcher(preview.body());
        assertThat(src.find()).isTrue();
        String frameUrl = src.group(1).replace("&amp;", "&");
        assertThat(frameUrl).startsWith("/console/templates/weekly/draft/frame?");
        HttpResponse<String> frame = console.get(session, frameUrl);
        assertThat(frame.body()).contains("<p>Howdy Ada</p>", "https://unsubscribe.invalid/preview");
        assertThat(frame.headers().firstValue("Content-Security-Policy").orElse("")).startsWith("sandbox; default-src 'none'")
                .doesNotContain("script-src");
        assertThat(frame.headers().firstValue("X-Frame-Options")).hasValue("SAMEORIGIN");
        assertThat(console.get(session, "/console/templates/other/draft/frame").body()).as("the draft is of weekly only")
                .startsWith("No preview: press Preview on the editor of template other again.");
        assertThat(versions("weekly")).as("a preview stores nothing").isEmpty();
        assertThat(ConsoleClient.audit(db.dataSource())).as("a preview changes nothing: not audited").isEmpty();

        HttpResponse<String> bad = console.post(session, "/console/templates/weekly/draft",
                form(SUBJECT, "<p>{{ name </p>\n", TEXT));
        assertThat(bad.statusCode()).isEqualTo(422);
        assertThat(bad.body()).contains("The text has problems, marked beside each part.", "id=\"html-error\">body.html:2:1: Unexpected character")
                .doesNotContain("id=\"preview-html\"");
        assertThat(console.post(session, "/console/templates/weekly/draft", Map.of("subject", "x")).statusCode())
                .as("without the CSRF token").isEqualTo(403);
    }

    @Test
    void the_diff_of_two_versions_marks_lines_added_and_removed_and_a_bad_version_is_named_beside_its_field() throws Exception {
        save("weekly", SUBJECT, HTML, TEXT);
        save("weekly", SUBJECT, HTML.replace("Hello", "Hi"), TEXT);
        assertThat(console.get(session, "/console/templates/weekly").body()).as("the editor offers the last two")
                .contains("<option value=\"1\" selected>1</option>", "<option value=\"2\" selected>2</option>");
        HttpResponse<String> diff = console.get(session, "/console/templates/weekly/diff?from=1&to=2");
        assertThat(diff.statusCode()).isEqualTo(200);
        assertThat(diff.body()).contains("<pre class=\"diff\" id=\"diff\">",
                "<span class=\"head\">--- weekly/body.html@1</span>", "<span class=\"head\">+++ weekly/body.html@2</span>",
                "<span class=\"del\">-&lt;p&gt;Hello {{ name }}&lt;/p&gt;</span>",
                "<span class=\"add\">+&lt;p&gt;Hi {{ name }}&lt;/p&gt;</span>", "<span class=\"hunk\">@@ -1,2 +1,2 @@</span>")
                .doesNotContain("subject.txt@");
        assertThat(console.get(session, "/console/templates/weekly/diff?from=2&to=2").body()).contains("have the same text");

        HttpResponse<String> missing = console.get(session, "/console/templates/weekly/diff?from=1&to=9");
        assertThat(missing.statusCode()).isEqualTo(422);
        assertThat(missing.body()).contains("<p class=\"field-error\" id=\"to-error\">To version: there is no version 9</p>")
                .doesNotContain("id=\"from-error\"", "id=\"diff\"");
        HttpResponse<String> word = console.get(session, "/console/templates/weekly/diff?from=one&to=2");
        assertThat(word.statusCode()).isEqualTo(422);
        assertThat(word.body()).contains("id=\"from-error\">From version: a version is a whole number, such as 3</p>");
        assertThat(console.get(session, "/console/templates/nothing/diff?from=1&to=2").statusCode()).isEqualTo(404);
    }

    @Test
    void a_token_that_may_only_read_templates_sees_no_save_button_and_is_refused_a_save() throws Exception {
        save("weekly", SUBJECT, HTML, TEXT);
        String reader = console.login(console.token("reader", ApiScope.TEMPLATES_READ));
        String page = console.get(reader, "/console/templates/weekly").body();
        assertThat(page).contains("id=\"preview\"").doesNotContain("id=\"save\"");
        assertThat(console.get(reader, "/console/templates").body()).doesNotContain("id=\"new-name\"");
        Map<String, String> form = form(SUBJECT, HTML.replace("Hello", "Hi"), TEXT);
        form.put("csrf", console.csrf(reader, "/console/templates"));
        HttpResponse<String> refused = console.post(reader, "/console/templates/weekly/save", form);
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("templates:write");
        assertThat(versions("weekly")).hasSize(1);
    }

    private HttpResponse<String> save(String name, String subject, String html, String text) {
        return console.post(session, "/console/templates/" + name + "/save", form(subject, html, text));
    }

    private Map<String, String> form(String subject, String html, String text) {
        Map<String, String> form = new HashMap<>();
        form.put("csrf", csrf);
        form.put("subject", subject);
        form.put("html", html);
        form.put("text", text);
        form.put("properties", "");
        return form;
    }

    /** The template's stored versions, newest first: {@code version saved_by subject}. */
    private static List<String> versions(String name) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT v.version, v.saved_by, v.subject FROM template_version v JOIN template t ON t.id = v.template_id "
                        + "WHERE t.name = ? ORDER BY v.version DESC")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(rs.getInt(1) + " " + rs.getString(2) + " " + rs.getString(3));
                }
            }
        }
        return rows;
    }
}
