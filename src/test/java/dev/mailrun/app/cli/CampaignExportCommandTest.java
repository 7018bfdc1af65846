package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.CampaignExport;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code mailrun campaign export ID FILE}, through the real CLI and the real database. */
class CampaignExportCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.at("2026-11-21T10:00:00Z");

    private CliHarness.Result run(String... args) {
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_DB_URL", db.url());
        env.put("MAILRUN_DB_USER", db.user());
        env.put("MAILRUN_DB_PASSWORD", db.password());
        env.put("MAILRUN_UNSUBSCRIBE_SECRET", "a-test-secret-that-is-long-enough-0123456789");
        env.put("MAILRUN_UNSUBSCRIBE_BASE_URL", "https://unsubscribe.sender.example");
        return new CliHarness(env, clock).run(args);
    }

    private static void sql(String statement, Object... values) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(statement)) {
            for (int i = 0; i < values.length; i++) {
                ps.setObject(i + 1, values[i]);
            }
            ps.executeUpdate();
        }
    }

    /** Pending recipients PREFIX{from}@DOMAIN … in one batch. */
    private static void recipients(long campaign, String prefix, int from, int n, String domain) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO recipient (campaign_id, email, status, updated_at) VALUES (?, ?, 'pending', UTC_TIMESTAMP(3))")) {
            for (int i = from; i < from + n; i++) {
                ps.setLong(1, campaign);
                ps.setString(2, prefix + i + "@" + domain);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    private static List<CSVRecord> records(Reader csv) throws Exception {
        return CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get().parse(csv).getRecords();
    }

    @Test
    void every_recipient_is_exported_in_id_order_with_its_outcome_and_latest_bounce_and_no_other_campaigns_rows() throws Exception {
        long campaign = CampaignFixtures.campaign(db.dataSource(), "exported");
        long other = CampaignFixtures.campaign(db.dataSource(), "other");
        // Two campaigns' rows interleaved by id, and more of them than one export page.
        for (int i = 0; i < 3; i++) {
            recipients(campaign, "r", i * 1_000, 1_000, "list.example");
            recipients(other, "o", i, 1, "other.example");
        }
        sql("""
                UPDATE recipient SET status = 'sent', attempts = 1, sent_at = '2026-11-21 09:00:01.500',
                       message_id = '<m1@sender.example>' WHERE campaign_id = ? AND email = 'r1@list.example'""", campaign);
        sql("""
                UPDATE recipient SET status = 'failed', attempts = 1, last_code = 550,
                       last_error = 'bounce 5.1.1 user unknown, "no such mailbox"', sent_at = '2026-11-21 09:00:02.000',
                       message_id = '<m2@sender.example>' WHERE campaign_id = ? AND email = 'r2@list.example'""", campaign);
        sql("""
                UPDATE recipient SET status = 'retry', attempts = 2, last_code = 451, last_error = '451 4.7.1 try later'
                WHERE campaign_id = ? AND email = 'r3@list.example'""", campaign);
        sql("""
                INSERT INTO bounce_event (recipient_id, kind, campaign_id, address, status, diagnostic, created_at)
                SELECT id, 'soft', campaign_id, email, '4.2.2', 'mailbox full', '2026-11-21 09:05:00.000' FROM recipient
                WHERE campaign_id = ? AND email = 'r2@list.example'""", campaign);
        sql("""
                INSERT INTO bounce_event (recipient_id, kind, campaign_id, address, status, diagnostic, created_at)
                SELECT id, 'hard', campaign_id, email, '5.1.1', 'user unknown', '2026-11-21 09:10:00.000' FROM recipient
                WHERE campaign_id = ? AND email = 'r2@list.example'""", campaign);
        Path file = dir.resolve("results.csv");

        CliHarness.Result r = run("campaign", "export", Long.toString(campaign), file.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("exported 3000 recipient(s) of campaign " + campaign + " to " + file + "\n");
        assertThat(Files.readAllLines(file).get(0)).isEqualTo(String.join(",", CampaignExport.COLUMNS));
        List<CSVRecord> rows = records(Files.newBufferedReader(file, StandardCharsets.UTF_8));
        assertThat(rows).hasSize(3_000);
        assertThat(rows).extracting(row -> Long.parseLong(row.get("id"))).isSorted().doesNotHaveDuplicates();
        assertThat(rows).allSatisfy(row -> assertThat(row.get("email")).endsWith("@list.example"));
        CSVRecord sent = rows.get(1);
        assertThat(sent.toMap()).containsEntry("email", "r1@list.example").containsEntry("status", "sent")
                .containsEntry("attempts", "1").containsEntry("last_code", "").containsEntry("last_error", "")
                .containsEntry("sent_at", "2026-11-21T09:00:01.500Z").containsEntry("message_id", "<m1@sender.example>")
                .containsEntry("bounce_kind", "").containsEntry("bounced_at", "");
        assertThat(rows.get(2).toMap()).containsEntry("email", "r2@list.example").containsEntry("status", "failed")
                .containsEntry("last_code", "550").containsEntry("last_error", "bounce 5.1.1 user unknown, \"no such mailbox\"")
                .containsEntry("sent_at", "2026-11-21T09:00:02Z").containsEntry("bounce_kind", "hard")
                .containsEntry("bounced_at", "2026-11-21T09:10:00Z");
        assertThat(rows.get(3).toMap()).containsEntry("status", "retry").containsEntry("attempts", "2")
                .containsEntry("last_code", "451").containsEntry("sent_at", "");
        assertThat(rows.get(0).toMap()).containsEntry("email", "r0@list.example").containsEntry("status", "pending")
                .containsEntry("attempts", "0");

        CliHarness.Result stdout = run("campaign", "export", Long.toString(campaign), "-");
        assertThat(stdout.exitCode()).as(stdout.err()).isZero();
        assertThat(stdout.out()).isEqualTo(Files.readString(file));
    }

    @Test
    void a_campaign_without_recipients_exports_the_header_alone_and_an_unknown_one_exits_2() throws Exception {
        long empty = CampaignFixtures.campaign(db.dataSource(), "empty");

        CliHarness.Result none = run("campaign", "export", Long.toString(empty), "-");
        CliHarness.Result unknown = run("campaign", "export", "999999", dir.resolve("x.csv").toString());

        assertThat(none.exitCode()).as(none.err()).isZero();
        assertThat(records(new StringReader(none.out()))).isEmpty();
        assertThat(none.out().lines()).containsExactly(String.join(",", CampaignExport.COLUMNS));
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err().lines()).containsExactly("mailrun: no campaign with id 999999");
        assertThat(dir.resolve("x.csv")).doesNotExist();
    }
}
