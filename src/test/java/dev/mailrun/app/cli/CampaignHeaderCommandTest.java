package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** campaign create --header through the real command line: stored and shown by status; each bad header exit 2, one line, nothing created. */
class CampaignHeaderCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private CliHarness cli() {
        return new CliHarness(Map.of("MAILRUN_DB_URL", db.url(), "MAILRUN_DB_USER", db.user(), "MAILRUN_DB_PASSWORD", db.password()),
                SettableClock.at("2026-11-21T10:00:00Z"));
    }

    private static String[] create(String name, String... headers) {
        List<String> args = new ArrayList<>(List.of("campaign", "create", "--name", name, "--template", "newsletter",
                "--from", "news@sender.example"));
        for (String h : headers) {
            args.add("--header");
            args.add(h);
        }
        return args.toArray(new String[0]);
    }

    @Test
    void headers_are_stored_with_the_campaign_in_their_order_and_shown_by_status() throws Exception {
        CliHarness.Result created = cli().run(create("Headers shown", "X-Campaign-Tag: spring-2026", "Feedback-ID:  a1:news:mailrun  ",
                "X-Greeting: Grüße aus Köln"));
        assertThat(created.exitCode()).as(created.err()).isZero();
        long id = Long.parseLong(created.out().strip());

        assertThat(cli().run("campaign", "status", Long.toString(id)).out())
                .contains("  headers: X-Campaign-Tag: spring-2026; Feedback-ID: a1:news:mailrun; X-Greeting: Grüße aus Köln");
        assertThat(column(id)).isEqualTo("[[\"X-Campaign-Tag\",\"spring-2026\"],[\"Feedback-ID\",\"a1:news:mailrun\"],"
                + "[\"X-Greeting\",\"Grüße aus Köln\"]]");
    }

    @Test
    void a_campaign_without_headers_stores_none_and_status_shows_no_headers_line() throws Exception {
        CliHarness.Result created = cli().run(create("No headers"));
        assertThat(created.exitCode()).as(created.err()).isZero();
        long id = Long.parseLong(created.out().strip());

        assertThat(column(id)).isNull();
        assertThat(cli().run("campaign", "status", Long.toString(id)).out()).doesNotContain("headers:");
    }

    @Test
    void each_bad_header_exits_2_with_one_line_naming_it_and_creates_nothing() throws Exception {
        Map<String[], String> cases = new LinkedHashMap<>();
        cases.put(new String[] {"X-Tag: a\u0001b"},
                "--header X-Tag: contains the control character U+0001, which is not allowed in a header");
        cases.put(new String[] {"X-Tag: spring\r\nBcc: victim@example.org"},
                "--header X-Tag: contains the control character U+000D (carriage return), which is not allowed in a header");
        cases.put(new String[] {"From: boss@example.org"}, "--header From: mailrun writes this header itself; it cannot be added");
        cases.put(new String[] {"list-unsubscribe: <https://evil.example/u>"},
                "--header list-unsubscribe: mailrun writes this header itself; it cannot be added");
        cases.put(new String[] {"X-Mailgun-Variables: {}"}, "--header X-Mailgun-Variables: mailrun writes this header itself; it cannot be added");
        cases.put(new String[] {"Bcc: someone@example.org"}, "--header Bcc: not allowed: it would speak for the message's sender, "
                + "recipients, structure, route or authentication");
        cases.put(new String[] {"Content-Type: text/plain"}, "--header Content-Type: not allowed: it would speak for the message's "
                + "sender, recipients, structure, route or authentication");
        cases.put(new String[] {"X-Tag: one", "x-tag: two"}, "--header x-tag: given twice (header names are case-insensitive)");
        cases.put(new String[] {"X Tag: one"}, "--header X Tag: a header name is printable ASCII without spaces or ':' (RFC 5322), "
                + "found a space");
        cases.put(new String[] {"X-Tåg: one"}, "--header X-T?g: a header name is printable ASCII without spaces or ':' (RFC 5322), "
                + "found U+00E5");
        cases.put(new String[] {"X-" + "n".repeat(75) + ": v"}, "--header X-" + "n".repeat(75) + ": a header name is at most 76 characters");
        cases.put(new String[] {"X-Long: " + "v".repeat(991)}, "--header X-Long: name, ': ' and value take 999 characters; "
                + "a header line holds at most 998");
        cases.put(new String[] {"X-Empty:   "}, "--header X-Empty: the value must not be empty");
        cases.put(new String[] {"no colon here"}, "--header 'no colon here': must be Name: value");
        cases.put(new String[] {": value"}, "--header: a header's name is empty");
        String[] many = new String[21];
        for (int i = 0; i < many.length; i++) {
            many[i] = "X-H" + i + ": " + i;
        }
        cases.put(many, "--header: at most 20 headers, got 21");
        long before = campaigns();
        cases.forEach((headers, message) -> {
            CliHarness.Result r = cli().run(create("Refused", headers));
            assertThat(r.exitCode()).as(String.join(" | ", headers) + ": " + r.err()).isEqualTo(2);
            assertThat(r.err().strip()).isEqualTo("mailrun: " + message);
            assertThat(r.out()).isEmpty();
        });
        assertThat(campaigns()).isEqualTo(before);
    }

    @Test
    void a_value_that_fills_the_line_exactly_is_taken() throws Exception {
        // "X-Long: " is 8 characters: 990 more make the 998 a line may hold.
        CliHarness.Result r = cli().run(create("Full line", "X-Long: " + "v".repeat(990)));
        assertThat(r.exitCode()).as(r.err()).isZero();
    }

    @Test
    void start_refuses_a_stored_campaign_whose_headers_the_sender_would_refuse_and_leaves_it_a_draft(@TempDir Path dir) throws Exception {
        CliHarness worker = new CliHarness(WorkerEnv.of(db, 2525), SettableClock.at("2026-11-21T10:00:00Z"));
        CliHarness.Result created = worker.run("campaign", "create", "--name", "Stored earlier", "--template", "welcome",
                "--from", "news@sender.example", "--header", "X-Campaign-Tag: spring-2026");
        assertThat(created.exitCode()).as(created.err()).isZero();
        long id = Long.parseLong(created.out().strip());
        Path csv = Files.writeString(dir.resolve("one.csv"), "email,name\nreader@list.example,Reader\n");
        assertThat(worker.run("recipients", "import", "--campaign", Long.toString(id), csv.toString()).exitCode()).isZero();
        // As a row written before the rule refused Bcc would hold it.
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("UPDATE campaign SET custom_headers = ? WHERE id = ?")) {
            ps.setString(1, "[[\"X-Campaign-Tag\",\"spring-2026\"],[\"Bcc\",\"victim@example.org\"]]");
            ps.setLong(2, id);
            ps.executeUpdate();
        }

        CliHarness.Result started = worker.run("campaign", "start", Long.toString(id));

        assertThat(started.exitCode()).isEqualTo(2);
        assertThat(started.err().lines()).containsExactly("mailrun: campaign " + id + " cannot start: header Bcc: not allowed: "
                + "it would speak for the message's sender, recipients, structure, route or authentication");
        assertThat(worker.run("campaign", "status", Long.toString(id)).out()).contains("— draft");
    }

    private static String column(long id) throws Exception {
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT custom_headers FROM campaign WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private static long campaigns() throws Exception {
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM campaign");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
