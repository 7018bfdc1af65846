package dev.mailrun.campaign.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.campaign.model.CampaignTransition;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.store.recipient.RecipientResults;
import dev.mailrun.db.Transactions;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.Subscribed;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The tables write the events of their changes into the outbox, in the change's transaction and only then. */
class OutboxWritesTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");

    @BeforeEach
    void subscribe() throws Exception {
        Subscribed.toEverything(db.dataSource());
    }

    @Test
    void a_status_change_writes_its_event_and_a_refused_or_rolled_back_one_writes_none() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "outbox transitions");
        CampaignTable campaigns = new CampaignTable();
        assertThat(this.<Boolean>tx(c -> campaigns.transition(c, id, CampaignTransition.START, null, NOW))).isTrue();
        assertThat(this.<Boolean>tx(c -> campaigns.transition(c, id, CampaignTransition.START, null, NOW)))
                .as("refused: already running").isFalse();
        assertThatThrownBy(() -> Transactions.inTransaction(db.dataSource(), c -> {
            campaigns.transition(c, id, CampaignTransition.PAUSE, "by hand", NOW);
            throw new SQLException("the caller's transaction fails after the change");
        })).isInstanceOf(SQLException.class);
        Transactions.inTransaction(db.dataSource(), c -> campaigns.transition(c, id, CampaignTransition.SELF_PAUSE,
                "hard-bounce rate 5.2% over 200 sends exceeds 5.0%", NOW));

        assertThat(rows("SELECT type, data FROM event_outbox WHERE campaign_id = ? AND recipient_id IS NULL ORDER BY seq", id))
                .containsExactly("campaign.started {\"status\":\"running\",\"by\":\"operator\",\"content\":\"welcome@1\"}",
                        "campaign.paused {\"status\":\"paused\",\"by\":\"mailrun\",\"content\":\"welcome@1\",\"reason\":\"hard-bounce rate 5.2% over 200 sends exceeds 5.0%\",\"cause\":\"hard-bounce-rate\"}");
    }

    @Test
    void a_pause_names_its_cause_from_the_reasons_mailrun_gives() {
        CampaignTransition self = CampaignTransition.SELF_PAUSE;
        assertThat(CampaignTable.pauseCause(CampaignTransition.PAUSE, "by hand")).isEqualTo("operator");
        assertThat(CampaignTable.pauseCause(self, "12.5% of the last 200 attempts failed (limit 10.0%)")).isEqualTo("failure-rate");
        assertThat(CampaignTable.pauseCause(self, "hard-bounce rate 5.2% over 200 sends exceeds 5.0%")).isEqualTo("hard-bounce-rate");
        assertThat(CampaignTable.pauseCause(self, "complaint rate 0.40% (4 complaints over 1000 sends) exceeds 0.30%"))
                .isEqualTo("complaint-rate");
        assertThat(CampaignTable.pauseCause(self, "template welcome does not compile: x")).isEqualTo("template");
        assertThat(CampaignTable.pauseCause(self, "its relay route a:1 cannot be used: a")).isEqualTo("route");
        assertThat(CampaignTable.pauseCause(self, "535 5.7.8 authentication failed")).isEqualTo("smtp");
    }

    @Test
    void recorded_results_write_one_event_per_sent_failed_or_deferred_recipient_in_the_flush() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "outbox results");
        CampaignFixtures.recipients(db.dataSource(), id, 4);
        List<Long> ids = rowsLong("SELECT id FROM recipient WHERE campaign_id = ? ORDER BY id", id);
        Transactions.inTransaction(db.dataSource(), c -> new RecipientResults().record(c, id, List.of(
                new Outcome.Sent(ids.get(0), "<m0@x>", NOW, "default"),
                new Outcome.Failed(ids.get(1), 550, "550 5.1.1 no such user", "default"),
                new Outcome.Retry(ids.get(2), NOW.plusSeconds(60), 451, "451 later", "default"),
                new Outcome.Released(ids.get(3))), NOW));

        assertThat(rows("SELECT CONCAT(type, ' ', recipient_id - " + ids.get(0) + "), data FROM event_outbox WHERE campaign_id = ?"
                + " AND recipient_id IS NOT NULL ORDER BY seq", id))
                .containsExactly("recipient.sent 0 {\"message_id\":\"<m0@x>\",\"relay\":\"default\"}",
                        "recipient.failed 1 {\"smtp_code\":550,\"reply\":\"550 5.1.1 no such user\",\"relay\":\"default\"}",
                        "recipient.deferred 2 {\"smtp_code\":451,\"reply\":\"451 later\",\"relay\":\"default\","
                                + "\"next_attempt_at\":\"2026-11-26T12:01:00Z\"}");
    }

    @Test
    void with_no_endpoint_taking_a_type_its_events_are_not_written_and_the_others_are() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "outbox subscriptions");
        CampaignFixtures.recipients(db.dataSource(), id, 2);
        List<Long> ids = rowsLong("SELECT id FROM recipient WHERE campaign_id = ? ORDER BY id", id);
        Subscribed.to(db.dataSource(), java.util.Set.of());
        CampaignTable campaigns = new CampaignTable();
        Transactions.inTransaction(db.dataSource(), c -> campaigns.transition(c, id, CampaignTransition.START, null, NOW));
        Transactions.inTransaction(db.dataSource(), c -> new RecipientResults().record(c, id, List.of(
                new Outcome.Sent(ids.get(0), "<s0@x>", NOW, "default")), NOW));
        assertThat(rows("SELECT type, seq FROM event_outbox WHERE campaign_id = ?", id)).as("no endpoint: nothing").isEmpty();

        Subscribed.to(db.dataSource(), java.util.Set.of(dev.mailrun.events.EventType.CAMPAIGN_PAUSED));
        Transactions.inTransaction(db.dataSource(), c -> new RecipientResults().record(c, id, List.of(
                new Outcome.Retry(ids.get(1), NOW.plusSeconds(60), 451, "451 later", "default")), NOW));
        Transactions.inTransaction(db.dataSource(), c -> campaigns.transition(c, id, CampaignTransition.PAUSE, "by hand", NOW));
        assertThat(rows("SELECT type, data FROM event_outbox WHERE campaign_id = ?", id))
                .containsExactly("campaign.paused {\"status\":\"paused\",\"by\":\"operator\",\"content\":\"welcome@1\",\"reason\":\"by hand\",\"cause\":\"operator\"}");
    }

    @Test
    void only_addresses_new_to_the_suppression_list_write_a_suppressed_event() throws Exception {
        SuppressionTable table = new SuppressionTable();
        Transactions.inTransaction(db.dataSource(), c -> table.add(c, List.of(
                new SuppressionTable.Entry("old@outbox.example", SuppressionReason.MANUAL, "test")), NOW));
        Transactions.inTransaction(db.dataSource(), c -> table.add(c, List.of(
                new SuppressionTable.Entry("old@outbox.example", SuppressionReason.HARD_BOUNCE, "bounce"),
                new SuppressionTable.Entry("new@outbox.example", SuppressionReason.HARD_BOUNCE, "bounce"),
                new SuppressionTable.Entry("new@outbox.example", SuppressionReason.HARD_BOUNCE, "bounce")), NOW));

        assertThat(rows("SELECT email, data FROM event_outbox WHERE type = 'recipient.suppressed' AND email LIKE ? ORDER BY seq",
                "%@outbox.example"))
                .containsExactly("old@outbox.example {\"reason\":\"manual\",\"source\":\"test\"}",
                        "new@outbox.example {\"reason\":\"hard_bounce\",\"source\":\"bounce\"}");
    }

    @Test
    void a_relay_going_down_writes_one_event_for_a_run_of_marks_and_coming_back_one() throws Exception {
        RelayStateTable relays = new RelayStateTable();
        tx(c -> relays.lock(c, "outbox-relay", "cfg", NOW));
        tx(c -> {
            relays.markDown(c, "outbox-relay", NOW.plusSeconds(30), 1, "cannot be reached", "cfg", NOW);
            return null;
        });
        tx(c -> relays.claimProbe(c, "outbox-relay", "cfg", "run-1", NOW.plusSeconds(31), NOW.plusSeconds(90)));
        tx(c -> {
            relays.markDown(c, "outbox-relay", NOW.plusSeconds(90), 2, "still down", "cfg", NOW.plusSeconds(31));
            return null;
        });
        tx(c -> relays.claimProbe(c, "outbox-relay", "cfg", "run-1", NOW.plusSeconds(91), NOW.plusSeconds(150)));
        assertThat(this.<Boolean>tx(c -> relays.markUp(c, "outbox-relay", "cfg", "run-1", NOW.plusSeconds(92)))).isTrue();

        assertThat(rows("SELECT type, data FROM event_outbox WHERE type LIKE 'relay.%' AND data LIKE ? ORDER BY seq", "%outbox-relay%"))
                .containsExactly("relay.down {\"relay\":\"outbox-relay\",\"reason\":\"cannot be reached\",\"until\":\"2026-11-26T12:00:30Z\"}",
                        "relay.up {\"relay\":\"outbox-relay\",\"why\":\"probe delivered\"}");
    }

    @Test
    void taking_an_address_off_the_list_writes_who_and_why() throws Exception {
        SuppressionTable table = new SuppressionTable();
        Transactions.inTransaction(db.dataSource(), c -> table.add(c, List.of(
                new SuppressionTable.Entry("back@removal.example", SuppressionReason.COMPLAINT, "complaint")), NOW));
        new dev.mailrun.campaign.suppression.SuppressionList(db.dataSource(), java.time.Clock.fixed(NOW, java.time.ZoneOffset.UTC))
                .remove(dev.mailrun.campaign.model.EmailAddress.of("back@removal.example"), "asked us by phone", "ops");

        assertThat(rows("SELECT email, data FROM event_outbox WHERE type = 'recipient.unsuppressed' AND email = ?", "back@removal.example"))
                .containsExactly("back@removal.example {\"reason\":\"complaint\",\"by\":\"ops\",\"why\":\"asked us by phone\"}");
    }

    private <T> T tx(Transactions.Work<T> work) throws SQLException {
        return Transactions.inTransaction(db.dataSource(), work);
    }

    private static List<String> rows(String sql, Object param) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, param);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1) + " " + rs.getString(2));
                }
            }
        }
        return out;
    }

    private static List<Long> rowsLong(String sql, Object param) throws SQLException {
        List<Long> out = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, param);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getLong(1));
                }
            }
        }
        return out;
    }
}
