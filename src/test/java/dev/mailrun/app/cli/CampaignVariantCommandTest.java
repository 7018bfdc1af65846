package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** campaign create with A/B variants through the real command line: stored and shown by status; bad input refused with one line, exit 2. */
class CampaignVariantCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    private CliHarness cli() throws Exception {
        return cli(Map.of());
    }

    private CliHarness cli(Map<String, String> more) throws Exception {
        Path templates = dir.resolve("templates");
        if (!Files.exists(templates)) {
            for (String name : List.of("welcome", "newsletter")) {
                Files.createDirectories(templates.resolve(name));
                try (var files = Files.list(Path.of("templates", name))) {
                    for (Path f : files.toList()) {
                        Files.copy(f, templates.resolve(name).resolve(f.getFileName()));
                    }
                }
            }
            Files.createDirectories(templates.resolve("broken"));
            Files.writeString(templates.resolve("broken/subject.txt"), "Hello {{ name\n");
            Files.writeString(templates.resolve("broken/body.txt"), "Hi {% if %}\n");
        }
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_DB_URL", db.url());
        env.put("MAILRUN_DB_USER", db.user());
        env.put("MAILRUN_DB_PASSWORD", db.password());
        env.put("MAILRUN_TEMPLATES_DIR", templates.toString());
        env.putAll(more);
        return new CliHarness(env, SettableClock.at("2026-11-21T10:00:00Z"));
    }

    private static String[] create(String... more) {
        return createNamed("Spring", more);
    }

    private static String[] createNamed(String name, String... more) {
        List<String> args = new ArrayList<>(List.of("campaign", "create", "--name", name, "--template", "welcome",
                "--from", "news@sender.example"));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    @Test
    void variants_are_stored_at_create_and_status_shows_each_with_the_test_settings() throws Exception {
        CliHarness.Result created = cli().run(create("--variant", "A:subject=Spring sale", "--variant",
                "B:subject=20% off everything;template=newsletter;field.offer=20%", "--test-share", "20%", "--decide", "manual",
                "--pick-by", "manual"));
        assertThat(created.exitCode()).as(created.err()).isZero();
        String id = created.out().strip();

        String status = cli().run("campaign", "status", id).out();
        assertThat(status).contains("  A/B: test share 20% (not yet chosen), decide manual, pick by manual; winner: none yet")
                .contains("    A         test share: recipients 0, sent 0, delivered 0, bounces 0, complaints 0, unsubscribes 0;")
                .contains("    B         test share: recipients 0,").doesNotContain("rest:");
        assertThat(cli().run("campaign", "status", id, "--json").out()).contains("\"test_share_percent\" : 20")
                .contains("\"pick_by\" : \"manual\"").contains("\"name\" : \"B\"");
        CliHarness.Result early = cli().run("campaign", "pick", id, "A");
        assertThat(early.exitCode()).isEqualTo(2);
        assertThat(early.err().strip()).isEqualTo("mailrun: campaign " + id + ": its test share is still being sent; pick once it is done");
    }

    @Test
    void after_the_pick_status_shows_the_test_share_that_decided_and_the_rest_apart() throws Exception {
        CliHarness.Result created = cli().run(createNamed("Picked", "--variant", "A", "--variant", "B:subject=Other",
                "--test-share", "20%", "--decide", "manual"));
        assertThat(created.exitCode()).as(created.err()).isZero();
        long id = Long.parseLong(created.out().strip());
        // As the runs and the pick leave it: 2 in the test share (one each), 8 in the rest given B; all sent.
        dev.mailrun.testing.CampaignFixtures.recipients(db.dataSource(), id, 10);
        try (var c = db.dataSource().getConnection(); var s = c.createStatement()) {
            s.executeUpdate("UPDATE recipient SET status = 'sent', attempts = 1, sent_at = '2026-11-21 10:00:00', variant = 1"
                    + " WHERE campaign_id = " + id);
            s.executeUpdate("UPDATE recipient SET ab_test_share = 1, variant = IF(email = 'r0@list.example', 0, 1)"
                    + " WHERE campaign_id = " + id + " AND email IN ('r0@list.example', 'r1@list.example')");
            s.executeUpdate("UPDATE campaign_ab SET test_size = 2, assigned_at = '2026-11-21 09:00:00', test_done_at ="
                    + " '2026-11-21 09:30:00', winner = 1, winner_reason = 'picked by the operator (campaign pick)', decided_at ="
                    + " '2026-11-21 09:45:00', rest_given_at = '2026-11-21 09:45:00' WHERE campaign_id = " + id);
        }

        String status = cli().run("campaign", "status", String.valueOf(id)).out();
        assertThat(status).contains("    A         test share: recipients 1, sent 1, delivered 1,")
                .contains("    B       * test share: recipients 1, sent 1, delivered 1,")
                .contains("    B       * rest:       recipients 8, sent 8, delivered 8, bounces 0, complaints 0, unsubscribes 0; "
                        + "unsubscribes and complaints per delivered 0.0% (95% 0.0–32.4%, 0 of 8)");
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(cli().run("campaign", "status", String.valueOf(id),
                "--json").out()).path("ab").path("variants");
        assertThat(json.path(0).path("sent").asLong()).isEqualTo(1);
        assertThat(json.path(0).path("rest").isNull()).isTrue();
        assertThat(json.path(1).path("sent").asLong()).isEqualTo(1);
        assertThat(json.path(1).path("rest").path("recipients").asLong()).isEqualTo(8);
        assertThat(json.path(1).path("rest").path("measure").path("of").asLong()).isEqualTo(8);
        Path html = dir.resolve("picked.html");
        assertThat(cli().run("campaign", "report", String.valueOf(id), "--html", html.toString()).exitCode()).isZero();
        assertThat(Files.readString(html)).contains("<tr><td>B (winner)</td><td>test share</td><td>1</td>")
                .contains("<tr><td>B (winner)</td><td>rest</td><td>8</td>");
    }

    @Test
    void with_the_replies_mailbox_configured_picking_by_replies_is_accepted_and_status_names_its_measure() throws Exception {
        CliHarness cli = cli(Map.of("MAILRUN_REPLIES_IMAP_HOST", "imap.sender.example", "MAILRUN_REPLIES_IMAP_USER", "news",
                "MAILRUN_UNSUBSCRIBE_SECRET", "a-test-secret-that-is-long-enough-0123456789"));
        CliHarness.Result created = cli.run(createNamed("Replies", "--variant", "A", "--variant", "B:subject=Other",
                "--test-share", "20%", "--decide-after", "4h", "--pick-by", "replies"));
        assertThat(created.exitCode()).as(created.err()).isZero();
        String id = created.out().strip();
        assertThat(cli.run("campaign", "status", id).out())
                .contains("A/B: test share 20% (not yet chosen), decide after 4h, pick by replies")
                .contains("recipients who replied per delivered");
        assertThat(cli.run("campaign", "status", id, "--json").out()).contains("\"pick_by\" : \"replies\"");
    }

    @Test
    void status_json_and_the_html_report_name_the_attachments_and_show_the_variants() throws Exception {
        Path pdf = Files.write(dir.resolve("programme.pdf"), "%PDF-1.4\n%%EOF\n".getBytes());
        CliHarness.Result created = cli().run(createNamed("Files", "--attach", pdf.toString(), "--variant", "A",
                "--variant", "B:subject=Other", "--test-share", "10%"));
        assertThat(created.exitCode()).as(created.err()).isZero();
        String id = created.out().strip();

        String json = cli().run("campaign", "status", id, "--json").out();
        assertThat(json).contains("\"filename\" : \"programme.pdf\"").contains("\"content_type\" : \"application/pdf\"")
                .contains("\"size_bytes\" : 15");
        Path html = dir.resolve("report.html");
        CliHarness.Result report = cli().run("campaign", "report", id, "--html", html.toString());
        assertThat(report.exitCode()).as(report.err()).isZero();
        assertThat(Files.readString(html)).contains("<h3>Attachments</h3>")
                .contains("<tr><td>programme.pdf</td><td>application/pdf</td><td>15</td></tr>")
                .contains("<h3>A/B variants</h3>").contains("test share 10% (not yet chosen), decide manual, pick by manual");
    }

    @Test
    void each_bad_input_is_refused_at_create_with_one_line_and_exit_2() throws Exception {
        Map<List<String>, String> cases = new java.util.LinkedHashMap<>();
        cases.put(List.of("--variant", "A:subject=X", "--variant", "B:colour=red", "--test-share", "20%"),
                "--variant B: unknown field 'colour' (subject, template, from-name or field.NAME)");
        cases.put(List.of("--variant", "A", "--variant", "B:template=broken", "--test-share", "20%"),
                "--variant B: template broken cannot be used: ");
        cases.put(List.of("--variant", "A", "--variant", "B:subject=Y", "--test-share", "60%"),
                "--test-share: must be 1%-50%, got 60%");
        cases.put(List.of("--variant", "A", "--variant", "B:subject=Y", "--test-share", "0%"),
                "--test-share: must be 1%-50%, got 0%");
        cases.put(List.of("--variant", "A:subject=X", "--variant", "A:subject=Y", "--test-share", "20%"),
                "--variant: the name A is used twice");
        cases.put(List.of("--variant", "A", "--variant", "B", "--variant", "C", "--variant", "D", "--variant", "E",
                "--variant", "F", "--test-share", "20%"), "--variant: at most 5 variants, got 6");
        cases.put(List.of("--variant", "A", "--variant", "B:subject=Y", "--test-share", "20%", "--pick-by", "clicks"),
                "--pick-by: clicks needs the campaign's clicks tracked (track clicks, with tracking.enabled), or pick manually");
        cases.put(List.of("--variant", "A", "--variant", "B:subject=Y", "--test-share", "20%", "--pick-by", "replies"),
                "--pick-by: replies needs the replies mailbox read: set replies.imap.host (docs/MAIL.md, \"Replies\"), "
                        + "or pick manually");
        cases.put(List.of("--variant", "A", "--variant", "B:subject=Y", "--test-share", "20%", "--decide-after", "soon"),
                "--decide-after: must be a duration such as 90m, 4h or 2d, got 'soon'");
        cases.put(List.of("--variant", "A:subject=X"), "--test-share: is required with variants, e.g. 20%");
        CliHarness cli = cli();
        cases.forEach((args, line) -> {
            CliHarness.Result r;
            try {
                r = cli.run(createNamed("Refused", args.toArray(String[]::new)));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            assertThat(r.exitCode()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(r.err().lines().toList()).as(String.join(" ", args)).hasSize(1);
            assertThat(r.err().strip()).as(String.join(" ", args)).startsWith("mailrun: " + line);
        });
        assertThat(cli.run("campaign", "list").out()).doesNotContain("Refused");
    }
}
