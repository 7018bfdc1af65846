package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.db.Transactions;
import dev.mailrun.events.EventOutbox;
import dev.mailrun.events.EventType;
import dev.mailrun.events.OutboxEvent;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.Subscribed;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code mailrun events endpoints|list|replay|discard|enable}, through the real CLI and the real database. */
class EventsCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-11-26T12:00:00Z");

    private CliHarness.Result run(String... args) {
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_DB_URL", db.url());
        env.put("MAILRUN_DB_USER", db.user());
        env.put("MAILRUN_DB_PASSWORD", db.password());
        env.put("MAILRUN_EVENTS_ENDPOINTS", "crm");
        env.put("MAILRUN_EVENTS_CRM_URL", "https://crm.example.com/hooks");
        env.put("MAILRUN_EVENTS_CRM_SECRET", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
        env.put("MAILRUN_EVENTS_CRM_TYPES", "recipient.*");
        return new CliHarness(env, clock).run(args);
    }

    @Test
    void pending_deliveries_are_listed_discarded_with_an_audit_and_replayed_with_the_same_ids() throws Exception {
        OutboxEvent sent = OutboxEvent.of(EventType.RECIPIENT_SENT, 1L, 11L, "a@list.example", Map.of());
        OutboxEvent campaign = OutboxEvent.of(EventType.CAMPAIGN_COMPLETED, 1L, null, null, Map.of());
        Subscribed.toEverything(db.dataSource());
        Transactions.inTransaction(db.dataSource(), c -> {
            new EventOutbox().write(c, List.of(sent, campaign), clock.instant());
            // What the dispatcher's fan-out does: a pending delivery for each endpoint whose types take the event.
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO event_delivery (endpoint, seq, status, created_at)
                    SELECT 'crm', seq, 'pending', UTC_TIMESTAMP(3) FROM event_outbox WHERE event_id = ?""")) {
                ps.setString(1, sent.id());
                ps.executeUpdate();
            }
            return null;
        });

        CliHarness.Result list = run("events", "list", "--status", "pending");
        assertThat(list.exitCode()).isZero();
        assertThat(list.out()).contains(sent.id()).contains("recipient.sent").doesNotContain(campaign.id());

        CliHarness.Result refused = run("events", "discard", "--endpoint", "crm", "--why", "");
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.err()).contains("--why");

        CliHarness.Result discarded = run("events", "discard", "--endpoint", "crm", "--type", "recipient.*", "--why", "CRM migrated");
        assertThat(discarded.out()).contains("discarded 1 delivery to crm");
        assertThat(rows("SELECT CONCAT(status, ' ', last_reply) FROM event_delivery WHERE endpoint = 'crm'"))
                .singleElement().asString().startsWith("discarded discarded by ").endsWith(": CRM migrated");
        assertThat(rows("SELECT CONCAT(action, ' ', affected, ' ', why) FROM event_audit")).containsExactly("discard 1 CRM migrated");

        CliHarness.Result replayed = run("events", "replay", "--endpoint", "crm", "--since", "2026-11-26", "--why", "re-sync");
        assertThat(replayed.out()).contains("replaying 1 event to crm");
        assertThat(rows("SELECT status FROM event_delivery WHERE endpoint = 'crm'")).containsExactly("pending");

        CliHarness.Result unknown = run("events", "replay", "--endpoint", "ops", "--since", "2026-11-26", "--why", "x");
        assertThat(unknown.exitCode()).isNotZero();
        assertThat(unknown.err()).contains("no endpoint named 'ops' in events.endpoints (crm)");

        assertThat(run("events", "endpoints").out()).contains("crm");
    }

    private static List<String> rows(String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
