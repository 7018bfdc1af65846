package dev.mailrun.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.send.SendTask;
import dev.mailrun.campaign.store.InFlightTable;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.store.recipient.RecipientCounts;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SendDependenciesFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.TestTiming;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Campaign behaviour against a scripted SMTP server on a real socket and the real database. */
class CampaignBehaviourTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final Pattern TO = Pattern.compile("^To: .*?<?(r\\d+@list\\.example)>?$", Pattern.MULTILINE);

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(1));

    private long newCampaign(SendingHarness h, int recipients) throws Exception {
        long id = h.campaigns.create(new NewCampaign("Behaviour", "welcome", "news@sender.example", Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
        CampaignFixtures.recipients(db.dataSource(), id, recipients);
        return id;
    }

    private void tick(SendingHarness h) throws Exception {
        h.scheduler.tick();
        long ms = INTERVAL.toMillis();
        clock.set(Instant.ofEpochMilli((clock.peek().toEpochMilli() / ms + 1) * ms));
    }

    private static String recipientOf(String message) {
        Matcher m = TO.matcher(message);
        return m.find() ? m.group(1) : "?";
    }

    private static Map<String, Object> row(long campaignId, String email) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT status, attempts, last_code, last_error, next_attempt_at FROM recipient WHERE campaign_id = ? AND email = ?")) {
            ps.setLong(1, campaignId);
            ps.setString(2, email);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                Map<String, Object> m = new java.util.HashMap<>();
                m.put("status", rs.getString(1));
                m.put("attempts", rs.getInt(2));
                m.put("code", rs.getInt(3));
                m.put("error", rs.getString(4));
                return m;
            }
        }
    }

    private static String counts(long campaignId) throws Exception {
        try (Connection c = db.dataSource().getConnection()) {
            return new RecipientCounts().counts(c, campaignId, new InFlightTable().ids(c, campaignId)).toString();
        }
    }

    /** The campaign task's checkpointed counters, as stored. */
    private static String progress(long campaignId) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT JSON_EXTRACT(t.metadata, '$.progress') FROM task t JOIN campaign k ON k.task_id = t.id WHERE k.id = ?")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getString(1).replace(" ", "");
            }
        }
    }

    private static long count(long campaignId, String status) throws Exception {
        return CampaignFixtures.recipientCount(db.dataSource(), campaignId, status);
    }

    @Test
    void a_transient_failure_is_retried_later_and_then_succeeds() throws Exception {
        AtomicInteger tries = new AtomicInteger();
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .on("RCPT", cmd -> cmd.argument().contains("r1@") && tries.incrementAndGet() == 1
                        ? Reply.of(451, "4.7.1 greylisted, try again in 120 seconds") : Reply.ok())
                .start();
             SendingHarness h = new SendingHarness(db.dataSource(), clock, smtp.port(), INTERVAL,
                     SendSettingsFixtures.builder().retries(5, Duration.ofSeconds(30)).through("relay-retry", 0), "w1")) {
            long id = newCampaign(h, 5);
            h.campaigns.start(id);
            tick(h);
            assertThat(row(id, "r1@list.example")).containsEntry("status", "retry").containsEntry("attempts", 1)
                    .containsEntry("code", 451);
            assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.RUNNING);
            assertThat(smtp.messages()).hasSize(4);

            clock.advance(Duration.ofSeconds(130)); // past the server's hint
            for (int i = 0; i < 3 && h.campaigns.get(id).status() != CampaignStatus.COMPLETED; i++) {
                tick(h);
            }
            assertThat(row(id, "r1@list.example")).containsEntry("status", "sent").containsEntry("attempts", 2);
            assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
            assertThat(smtp.messages()).hasSize(5);
        }
    }

    @Test
    void a_hard_bounce_fails_the_recipient_and_suppresses_the_address_for_every_campaign() throws Exception {
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .on("RCPT", cmd -> cmd.argument().contains("r2@") ? Reply.of(550, "5.1.1 no such user") : Reply.ok())
                .start();
             SendingHarness h = new SendingHarness(db.dataSource(), clock, smtp.port(), INTERVAL,
                     SendSettingsFixtures.defaults("relay-bounce", 0), "w1")) {
            long id = newCampaign(h, 4);
            h.campaigns.start(id);
            tick(h);
            assertThat(row(id, "r2@list.example")).containsEntry("status", "failed").containsEntry("code", 550);
            try (Connection c = db.dataSource().getConnection()) {
                assertThat(new SuppressionTable().isSuppressed(c, "r2@list.example")).isTrue();
            }
            assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);

            long second = newCampaign(h, 4);
            h.campaigns.start(second);
            tick(h);
            assertThat(row(second, "r2@list.example")).containsEntry("status", "suppressed");
            // The claim that found it wrote the count in the same transaction as the row.
            assertThat(progress(second)).contains("\"sent\":3", "\"suppressed\":1");
            assertThat(smtp.messages()).extracting(CampaignBehaviourTest::recipientOf)
                    .containsExactlyInAnyOrder("r0@list.example", "r1@list.example", "r3@list.example",
                            "r0@list.example", "r1@list.example", "r3@list.example");
        }
    }

    @Test
    void pause_stops_sending_at_the_next_batch_and_resume_and_cancel_act_as_asked() throws Exception {
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().start();
             SendingHarness h = new SendingHarness(db.dataSource(), clock, smtp.port(), INTERVAL,
                     SendSettingsFixtures.defaults("relay-pause", 0), "w1")) {
            long id = newCampaign(h, 6);
            h.campaigns.start(id);
            h.campaigns.pause(id, "paused by operator");
            tick(h);
            assertThat(smtp.messages()).isEmpty();
            assertThat(h.campaigns.get(id).pauseReason()).contains("paused by operator");

            h.campaigns.resume(id);
            tick(h);
            assertThat(smtp.messages()).hasSize(6);
            assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);

            long other = newCampaign(h, 3);
            h.campaigns.start(other);
            h.campaigns.cancel(other);
            tick(h);
            tick(h);
            assertThat(smtp.messages()).hasSize(6);
            assertThat(h.campaigns.get(other).status()).isEqualTo(CampaignStatus.CANCELLED);
        }
    }

    @Test
    void a_failure_rate_over_the_limit_pauses_the_campaign_with_the_reason_and_resume_starts_a_fresh_window() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean refusing = new java.util.concurrent.atomic.AtomicBoolean(true);
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .on("RCPT", cmd -> refusing.get() ? Reply.of(550, "5.7.1 rejected by policy") : Reply.ok())
                .start();
             SendingHarness h = new SendingHarness(db.dataSource(), clock, smtp.port(), INTERVAL,
                     SendSettingsFixtures.builder().failureRule(0.10, 20).batchMax(10).through("relay-failing", 0), "w1")) {
            long id = newCampaign(h, 200);
            h.campaigns.start(id);
            tick(h);
            Campaign c = h.campaigns.get(id);
            assertThat(c.status()).isEqualTo(CampaignStatus.PAUSED);
            assertThat(c.pauseReason()).hasValueSatisfying(r -> assertThat(r).contains("of the last 20 attempts failed"));
            assertThat(count(id, "failed")).isBetween(20L, 60L);
            assertThat(count(id, "pending")).isGreaterThan(100L);
            assertThat(CampaignFixtures.sendingCount(db.dataSource(), id)).isZero();

            refusing.set(false);   // the operator fixed the cause and resumes
            h.campaigns.resume(id);
            for (int i = 0; i < 5 && h.campaigns.get(id).status() != CampaignStatus.COMPLETED; i++) {
                tick(h);
            }
            assertThat(h.campaigns.get(id).status()).as(h.campaigns.get(id).toString() + " " + counts(id)).isEqualTo(CampaignStatus.COMPLETED);
            // r2 may be suppressed by the hard-bounce test: the database is shared by this class.
            assertThat(count(id, "sent") + count(id, "failed") + count(id, "suppressed")).as(counts(id)).isEqualTo(200);
        }
    }

    @Test
    void an_authentication_failure_pauses_the_campaign_without_burning_through_the_list() throws Exception {
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .on("AUTH", cmd -> Reply.of(535, "5.7.8 authentication credentials invalid"))
                .start()) {
            var settings = SendSettingsFixtures.defaults("relay-auth", 0);
            var smtpSettings = dev.mailrun.mail.smtp.SmtpSettings.of("127.0.0.1", smtp.port(),
                    dev.mailrun.mail.smtp.TlsMode.NONE, "mailrun.test").withAuth("user", dev.mailrun.mail.Secret.of("wrong"));
            var templates = new dev.mailrun.mail.template.TemplateLoader(java.nio.file.Path.of("templates"));
            var handler = new SendTask(SendDependenciesFixtures.oneRelay(db.dataSource(), templates, smtpSettings,
                    dev.mailrun.mail.Secret.of("k-0123456789abcdef0123456789"),
                    new dev.mailrun.testing.FixedLinks(), settings, () -> new java.util.Random(1), TestTiming.realTime(clock)));
            try (var scheduler = new dev.mailrun.scheduler.Scheduler(db.dataSource(),
                    dev.mailrun.scheduler.HandlerRegistry.of(handler), dev.mailrun.scheduler.SchedulerConfig.defaults("w1"), clock)) {
                var campaigns = new Campaigns(db.dataSource(), new dev.mailrun.scheduler.TaskStore(db.dataSource()), templates, clock, INTERVAL);
                long id = campaigns.create(new NewCampaign("Auth", "welcome", "news@sender.example", Optional.empty(),
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
                CampaignFixtures.recipients(db.dataSource(), id, 50);
                campaigns.start(id);
                scheduler.tick();
                Campaign c = campaigns.get(id);
                assertThat(c.status()).isEqualTo(CampaignStatus.PAUSED);
                assertThat(c.pauseReason()).hasValueSatisfying(r -> assertThat(r).containsIgnoringCase("auth"));
                assertThat(count(id, "pending")).isEqualTo(50);
                assertThat(smtp.messages()).isEmpty();
            }
        }
    }
}
