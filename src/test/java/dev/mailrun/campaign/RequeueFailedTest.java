package dev.mailrun.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.FailureFilter;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code campaign requeue-failed}: failures that were not about the address go back to the queue
 * and are sent; failures that suppressed the address never do.
 */
class RequeueFailedTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final Pattern RCPT = Pattern.compile("<r(\\d+)@list\\.example>");

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(1));

    /** r0–r9: no such user (suppresses); r10–r29: refused by policy while the relay is misconfigured; the rest accepted. */
    private static Reply rcpt(String line, AtomicBoolean misconfigured) {
        Matcher m = RCPT.matcher(line);
        int n = m.find() ? Integer.parseInt(m.group(1)) : -1;
        if (n >= 0 && n < 10) {
            return Reply.of(550, "5.1.1 no such user");
        }
        if (n >= 10 && n < 30 && misconfigured.get()) {
            return Reply.of(554, "5.7.1 relay access denied by policy");
        }
        return Reply.ok();
    }

    @Test
    void requeue_failed_sends_the_policy_failures_again_and_never_the_suppressed_addresses() throws Exception {
        AtomicBoolean misconfigured = new AtomicBoolean(true);
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .on("RCPT", cmd -> rcpt(cmd.argument(), misconfigured))
                .start();
             SendingHarness h = new SendingHarness(db.dataSource(), clock, smtp.port(), INTERVAL,
                     SendSettingsFixtures.builder().failureRule(1.0, 1000).through("relay-requeue", 0), "w1")) {
            long id = h.campaigns.create(new NewCampaign("Requeue", "welcome", "news@sender.example", Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
            CampaignFixtures.recipients(db.dataSource(), id, 60);
            h.campaigns.start(id);
            runUntilCompleted(h, id);
            assertThat(counts(id)).containsEntry("failed", 30L).containsEntry("sent", 30L);
            assertThat(smtp.messages()).hasSize(30);

            // Filters that match none of them change nothing.
            assertThat(h.campaigns.requeueFailed(id, FailureFilter.ofCode("4xx")).requeued()).isZero();
            assertThat(h.campaigns.requeueFailed(id, FailureFilter.all().withErrorContaining("mailbox full")).requeued()).isZero();
            assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);

            misconfigured.set(false);   // the operator fixed the relay
            Campaigns.RequeueResult r = h.campaigns.requeueFailed(id, FailureFilter.ofCode("5xx").withErrorContaining("POLICY"));
            assertThat(r.requeued()).isEqualTo(20);
            assertThat(r.leftSuppressed()).isZero();
            assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.RUNNING);

            // Everything else: only the suppressed no-such-user failures are left, and stay failed.
            Campaigns.RequeueResult rest = h.campaigns.requeueFailed(id, FailureFilter.all());
            assertThat(rest.requeued()).isZero();
            assertThat(rest.leftSuppressed()).isEqualTo(10);

            runUntilCompleted(h, id);
            assertThat(counts(id)).containsEntry("failed", 10L).containsEntry("sent", 50L);
            assertThat(smtp.messages()).hasSize(50);
            assertThat(smtp.messages().stream().map(RequeueFailedTest::recipient).distinct()).hasSize(50);
        }
    }

    @Test
    void requeue_failed_refuses_a_cancelled_campaign_and_a_bad_code() throws Exception {
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().start();
             SendingHarness h = new SendingHarness(db.dataSource(), clock, smtp.port(), INTERVAL,
                     SendSettingsFixtures.defaults("relay-requeue-2", 0), "w1")) {
            long id = h.campaigns.create(new NewCampaign("Cancelled", "welcome", "news@sender.example", Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
            h.campaigns.cancel(id);
            assertThatThrownBy(() -> h.campaigns.requeueFailed(id, FailureFilter.all()))
                    .isInstanceOf(CampaignException.class).hasMessage("campaign " + id + " is cancelled; nothing is sent for it");
            assertThatThrownBy(() -> FailureFilter.ofCode("6xx")).isInstanceOfSatisfying(InvalidFields.class, e -> assertThat(e.problems())
                    .containsExactly(new InvalidFields.Problem("code", "must be 4xx, 5xx or a reply code such as 451, got '6xx'")));
            assertThatThrownBy(() -> FailureFilter.ofCode("700")).hasMessageContaining("between 200 and 599");
            // The filter as the command line, the API and the console give it: every bad part at once, each by its field.
            assertThatThrownBy(() -> FailureFilter.parse(Optional.of("6xx"), Optional.of("  ")))
                    .isInstanceOfSatisfying(InvalidFields.class, e -> assertThat(e.problems()).extracting(InvalidFields.Problem::field)
                            .containsExactly("code", "reason"));
            assertThat(FailureFilter.parse(Optional.of("4xx"), Optional.of(" mailbox full ")))
                    .isEqualTo(FailureFilter.ofCode("4xx").withErrorContaining("mailbox full"));
        }
    }

    private void runUntilCompleted(SendingHarness h, long id) throws Exception {
        for (int i = 0; i < 10 && h.campaigns.get(id).status() != CampaignStatus.COMPLETED; i++) {
            h.scheduler.tick();
            long ms = INTERVAL.toMillis();
            clock.set(Instant.ofEpochMilli((clock.peek().toEpochMilli() / ms + 1) * ms));
        }
        assertThat(h.campaigns.get(id).status()).as(counts(id).toString()).isEqualTo(CampaignStatus.COMPLETED);
    }

    private static String recipient(String message) {
        Matcher m = Pattern.compile("^To: .*?<?(r\\d+@list\\.example)>?$", Pattern.MULTILINE).matcher(message);
        return m.find() ? m.group(1) : "?";
    }

    private static Map<String, Long> counts(long campaignId) throws Exception {
        Map<String, Long> counts = new HashMap<>();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT status, COUNT(*) FROM recipient WHERE campaign_id = ? GROUP BY status")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    counts.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return counts;
    }
}
