package dev.mailrun.campaign.store;

import dev.mailrun.campaign.store.recipient.RecipientClaims;
import dev.mailrun.campaign.store.recipient.RecipientResults;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.db.SqlTime;
import dev.mailrun.db.Transactions;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Recording sent recipients: one statement for many rows, every value arriving as sent. */
class SentRowsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant NOW = Instant.parse("2026-11-24T09:00:00Z");
    private final RecipientClaims claims = new RecipientClaims(new SuppressionTable());
    private final RecipientResults results = new RecipientResults();

    @Test
    void message_ids_relays_and_times_arrive_as_sent_whatever_their_characters() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "sent rows");
        CampaignFixtures.recipients(db.dataSource(), id, 4);
        List<Long> ids = claimed(id, 4);
        List<Outcome> sent = List.of(
                new Outcome.Sent(ids.get(0), "<plain.1@mail.example>", Instant.parse("2026-11-24T08:59:58.123Z"), "relay-a"),
                new Outcome.Sent(ids.get(1), "<quote\"and\\backslash@x>", Instant.parse("2026-11-24T08:59:59.007Z"), "relay \"b\""),
                new Outcome.Sent(ids.get(2), "<caf\u00e9\u2603@x>", Instant.parse("2026-11-24T08:59:59.999Z"), null),
                new Outcome.Sent(ids.get(3), "<tab\there@x>", Instant.parse("2026-11-24T09:00:00Z"), "r\u00e9lay"));

        int recorded = Transactions.inTransaction(db.dataSource(), c -> results.record(c, id, sent, NOW));

        assertThat(recorded).isEqualTo(4);
        for (Outcome o : sent) {
            Outcome.Sent s = (Outcome.Sent) o;
            Row row = row(s.recipientId());
            assertThat(row.status()).isEqualTo("sent");
            assertThat(row.messageId()).isEqualTo(s.messageId());
            assertThat(row.sentAt()).isEqualTo(s.at());
            assertThat(row.relay()).isEqualTo(s.relay());
            assertThat(row.attempts()).isEqualTo(1);
        }
    }

    @Test
    void more_rows_than_one_statement_takes_are_all_recorded_and_counted() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "many sent rows");
        CampaignFixtures.recipients(db.dataSource(), id, 1_203);
        List<Long> ids = claimed(id, 1_203);
        List<Outcome> sent = new ArrayList<>();
        for (long r : ids) {
            sent.add(new Outcome.Sent(r, "<m" + r + "@x>", NOW, "relay-a"));
        }

        int recorded = Transactions.inTransaction(db.dataSource(), c -> results.record(c, id, sent, NOW));

        assertThat(recorded).isEqualTo(1_203);
        assertThat(row(ids.get(0)).messageId()).isEqualTo("<m" + ids.get(0) + "@x>");
        assertThat(row(ids.get(500)).messageId()).isEqualTo("<m" + ids.get(500) + "@x>");
        assertThat(row(ids.get(1_202)).messageId()).isEqualTo("<m" + ids.get(1_202) + "@x>");
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM recipient WHERE campaign_id = ? AND status = 'sent'")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(1_203);
            }
        }
    }

    @Test
    void rows_of_another_campaign_are_left_alone_and_not_counted() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "this campaign");
        long other = CampaignFixtures.campaign(db.dataSource(), "another campaign");
        CampaignFixtures.recipients(db.dataSource(), id, 1);
        CampaignFixtures.recipients(db.dataSource(), other, 1);
        long mine = claimed(id, 1).get(0);
        long theirs = claimed(other, 1).get(0);
        List<Outcome> sent = List.of(new Outcome.Sent(mine, "<a@x>", NOW, "relay-a"),
                new Outcome.Sent(theirs, "<b@x>", NOW, "relay-a"));

        int recorded = Transactions.inTransaction(db.dataSource(), c -> results.record(c, id, sent, NOW));

        assertThat(recorded).as("fewer than the attempts: the caller rolls back").isEqualTo(1);
        assertThat(row(theirs).status()).isEqualTo("pending");
        assertThat(row(theirs).messageId()).isNull();
    }

    private List<Long> claimed(long campaignId, int n) throws Exception {
        List<Long> ids = Transactions.inTransaction(db.dataSource(), c -> claims.claim(c, campaignId, NOW, n, List.of()))
                .recipients().stream().map(ClaimedRecipient::id).toList();
        assertThat(ids).hasSize(n);
        return ids;
    }

    private record Row(String status, String messageId, Instant sentAt, String relay, int attempts) {}

    private static Row row(long recipientId) throws Exception {
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement(
                     "SELECT status, message_id, sent_at, relay, attempts FROM recipient WHERE id = ?")) {
            ps.setLong(1, recipientId);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return new Row(rs.getString(1), rs.getString(2), SqlTime.get(rs, 3), rs.getString(4), rs.getInt(5));
            }
        }
    }
}
