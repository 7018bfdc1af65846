package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code mailrun lists …} and {@code mailrun subscribers …} through the real command line and the real database. */
class AudienceCommandsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.at("2026-11-24T10:00:00Z");

    @BeforeEach
    void empty() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM subscriber");
            s.execute("DELETE FROM subscriber_list");
            s.execute("DELETE FROM campaign_segment");
            s.execute("DELETE FROM segment");
        }
    }

    private CliHarness.Result run(String... args) {
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_DB_URL", db.url());
        env.put("MAILRUN_DB_USER", db.user());
        env.put("MAILRUN_DB_PASSWORD", db.password());
        return new CliHarness(env, clock).run(args);
    }

    private CliHarness.Result ok(String... args) {
        CliHarness.Result r = run(args);
        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        return r;
    }

    private CliHarness.Result refused(String... args) {
        CliHarness.Result r = run(args);
        assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(Cli.USAGE);
        assertThat(r.err().lines()).as("one line").hasSize(1);
        return r;
    }

    private Path csv(String content) throws Exception {
        Path f = dir.resolve("people.csv");
        Files.writeString(f, content, StandardCharsets.UTF_8);
        return f;
    }

    @Test
    void lists_are_created_listed_with_counts_and_deleted() throws Exception {
        assertThat(ok("lists", "create", "news", "--description", "Weekly news", "--public").out())
                .isEqualTo("created list news (public, single opt-in)\n");
        assertThat(ok("lists", "create", "offers", "--double-optin").out()).isEqualTo("created list offers (private, double opt-in)\n");
        ok("subscribers", "add", "ann@example.com", "--list", "news", "--list", "offers");
        String listed = ok("lists", "list").out();
        assertThat(listed.lines().toList()).hasSize(3);
        assertThat(listed.lines().skip(1).findFirst().orElseThrow()).matches("news +public +single +0 +1 +0  Weekly news");
        assertThat(listed.lines().skip(2).findFirst().orElseThrow()).matches("offers +private +double +1 +0 +0  ");
        assertThat(ok("lists", "delete", "NEWS").out()).isEqualTo("deleted list NEWS and its 1 subscription\n");
        assertThat(refused("lists", "delete", "news").err()).isEqualTo("mailrun: NAME: no list named 'news'\n");
        assertThat(refused("lists", "create", "offers").err()).isEqualTo("mailrun: NAME: a list named 'offers' exists already\n");
    }

    @Test
    void subscribers_are_imported_into_a_list_with_a_report_of_every_reject() throws Exception {
        ok("lists", "create", "news");
        CliHarness.Result r = ok("subscribers", "import", "--list", "news", csv("email,name,plan\na@example.com,Ann,pro\nbad,X,pro\n"
                + "a@example.com,Ann,pro\n").toString());
        assertThat(r.out()).isEqualTo("""
                read 3 rows into list news (add): imported 1, subscribed 0, updated 0, unsubscribed 0, blocklisted 0, unchanged 0, rejected 2
                  invalid syntax: 1
                  duplicate in file: 1
                  line 3: bad - invalid syntax (expected local-part@domain)
                  line 4: a@example.com - duplicate in file (first at line 2)
                """);
        assertThat(ok("subscribers", "import", "--list", "news", "--mode", "unsubscribe", csv("email\na@example.com\n").toString()).out())
                .startsWith("read 1 row into list news (unsubscribe): imported 0, subscribed 0, updated 0, unsubscribed 1,");
        assertThat(refused("subscribers", "import", "--list", "nope", csv("email\na@example.com\n").toString()).err())
                .isEqualTo("mailrun: --list: no list named 'nope'\n");
        assertThat(refused("subscribers", "import", "--list", "news", "--mode", "merge", csv("email\n").toString()).err())
                .isEqualTo("mailrun: --mode: must be one of add, update, unsubscribe, blocklist, got 'merge'\n");
        assertThat(refused("subscribers", "import", "--list", "news", csv("address;name\n").toString()).err())
                .contains("people.csv: no email column in the header row");
    }

    @Test
    void a_subscriber_is_added_shown_searched_blocklisted_and_deleted() throws Exception {
        ok("lists", "create", "news");
        assertThat(ok("subscribers", "add", "Ann@Example.com", "--name", "Ann", "--attr", "plan=pro", "--attr", "seats=3",
                "--list", "news").out()).matches("added Ann@example\\.com \\(id \\d+\\), subscribed to news\n");
        ok("subscribers", "add", "bob@example.com");
        String shown = ok("subscribers", "show", "ann@example.com").out();
        assertThat(shown).contains("Ann@example.com (id ").contains(": enabled, created 2026-11-24T10:00:00Z")
                .contains("name:       Ann").contains("attributes: {\"plan\":\"pro\",\"seats\":\"3\"}")
                .containsPattern("news +confirmed +from operator +since 2026-11-24T10:00:00Z")
                .containsPattern("2026-11-24T10:00:00Z +subscribed +news +list 'news', confirmed, by operator");
        String page = ok("subscribers", "search", "--limit", "1").out();
        assertThat(page).contains("Ann@example.com").doesNotContain("bob@example.com").containsPattern("more: --after \\d+\n$");
        String after = page.substring(page.lastIndexOf(' ') + 1).strip();
        assertThat(ok("subscribers", "search", "--limit", "1", "--after", after).out()).contains("bob@example.com")
                .doesNotContain("more:");
        assertThat(ok("subscribers", "search", "--list", "news", "--status", "confirmed").out()).contains("Ann@example.com")
                .doesNotContain("bob@example.com");
        assertThat(ok("subscribers", "blocklist", "ann@example.com").out()).isEqualTo("blocklisted Ann@example.com, unsubscribed from 1 list\n");
        assertThat(ok("subscribers", "blocklist", "ann@example.com").out()).isEqualTo("Ann@example.com was blocklisted already\n");
        assertThat(ok("subscribers", "delete", "bob@example.com").out()).isEqualTo("deleted bob@example.com with its subscriptions and history\n");
        assertThat(refused("subscribers", "show", "bob@example.com").err()).isEqualTo("mailrun: no subscriber bob@example.com\n");
    }

    @Test
    void bad_subscriber_values_are_one_line_naming_the_parameter_or_option() {
        assertThat(refused("subscribers", "add", "nobody").err()).isEqualTo("mailrun: EMAIL: invalid syntax: expected local-part@domain\n");
        assertThat(refused("subscribers", "add", "ann@example.com", "--list", "nope").err())
                .isEqualTo("mailrun: --list 'nope': no such list\n");
        assertThat(refused("subscribers", "add", "ann@example.com", "--attr", "plan").err())
                .isEqualTo("mailrun: --attr 'plan': expected NAME=VALUE\n");
        assertThat(refused("subscribers", "search", "--status", "confirmed").err())
                .isEqualTo("mailrun: --status: 'confirmed' is the status of a subscription: name its list too\n");
        assertThat(refused("subscribers", "search", "--limit", "0").err()).isEqualTo("mailrun: --limit: must be 1-1000, got 0\n");
        assertThat(refused("subscribers", "delete", "x@example.com").err()).isEqualTo("mailrun: no subscriber x@example.com\n");
    }

    @Test
    void a_campaign_created_with_lists_names_them_and_changes_them_while_draft() throws Exception {
        ok("lists", "create", "news");
        ok("lists", "create", "offers");
        String id = ok("campaign", "create", "--name", "To lists", "--template", "newsletter", "--from", "news@sender.example",
                "--list", "offers", "--list", "News").out().strip();

        assertThat(ok("campaign", "lists", id).out()).isEqualTo("news\noffers\n");
        assertThat(ok("campaign", "lists", id, "--list", "offers").out()).isEqualTo("offers\n");
        assertThat(ok("campaign", "lists", id, "--none").out()).isEmpty();
        assertThat(refused("campaign", "create", "--name", "Nowhere", "--template", "newsletter", "--from", "news@sender.example",
                "--list", "nope").err()).isEqualTo("mailrun: --list: no list named 'nope'\n");
        assertThat(refused("campaign", "lists", id, "--list", "nope").err()).isEqualTo("mailrun: --list: no list named 'nope'\n");
    }

    @Test
    void a_campaign_created_with_segments_names_them_and_changes_them_while_draft() throws Exception {
        ok("segments", "create", "pros", "--filter", "{\"attr\": \"plan\", \"eq\": \"pro\"}");
        ok("segments", "create", "germans", "--filter", "{\"attr\": \"country\", \"eq\": \"DE\"}");
        String id = ok("campaign", "create", "--name", "To segments", "--template", "newsletter", "--from", "news@sender.example",
                "--segment", "pros", "--segment", "Germans").out().strip();

        assertThat(ok("campaign", "segments", id).out()).isEqualTo("germans\npros\n");
        assertThat(ok("campaign", "segments", id, "--segment", "pros").out()).isEqualTo("pros\n");
        assertThat(refused("segments", "delete", "pros").err())
                .isEqualTo("mailrun: NAME: segment 'pros' is the audience of campaign " + id + "; complete, cancel or change it first\n");
        assertThat(ok("campaign", "segments", id, "--none").out()).isEmpty();
        assertThat(refused("campaign", "create", "--name", "Nowhere", "--template", "newsletter", "--from", "news@sender.example",
                "--segment", "nope").err()).isEqualTo("mailrun: --segment: no segment named 'nope'\n");
        assertThat(refused("campaign", "segments", id, "--segment", "nope").err()).isEqualTo("mailrun: --segment: no segment named 'nope'\n");
        assertThat(refused("campaign", "segments", id, "--segment", "pros", "--none").err()).contains("give --segment or --none, not both");
    }
}
