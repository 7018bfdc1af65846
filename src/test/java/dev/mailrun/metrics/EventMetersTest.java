package dev.mailrun.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.db.Transactions;
import dev.mailrun.events.DeliveryListener;
import dev.mailrun.events.EventLog;
import dev.mailrun.events.EventOutbox;
import dev.mailrun.events.EventType;
import dev.mailrun.events.EventsSettings;
import dev.mailrun.events.OutboxEvent;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The events' meters as Prometheus reads them: counters by endpoint and type, the backlog and its oldest age from the database. */
class EventMetersTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @Test
    void the_backlog_and_its_oldest_age_come_from_the_outbox_and_counters_by_endpoint_and_type() throws Exception {
        SettableClock clock = SettableClock.at("2026-11-26T12:00:00Z");
        OutboxEvent e = OutboxEvent.of(EventType.RECIPIENT_SENT, 1L, 2L, "a@list.example", Map.of());
        dev.mailrun.testing.Subscribed.toEverything(db.dataSource());
        Transactions.inTransaction(db.dataSource(), c -> {
            new EventOutbox().write(c, List.of(e), clock.instant());
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO event_endpoint (name) VALUES ('crm')")) {
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO event_delivery (endpoint, seq, status, created_at)
                    SELECT 'crm', seq, 'pending', UTC_TIMESTAMP(3) FROM event_outbox WHERE event_id = ?""")) {
                ps.setString(1, e.id());
                ps.executeUpdate();
            }
            return null;
        });
        clock.advance(Duration.ofMinutes(20));
        try (MailrunMetrics metrics = new MailrunMetrics(clock)) {
            DeliveryListener listener = metrics.bindEvents(new EventLog(db.dataSource(), EventsSettings.NONE, clock));
            listener.delivered("crm", "recipient.sent", 3);
            listener.failed("crm", "recipient.bounced", 1);

            Map<String, ?> f = PrometheusTextAccess.parse(metrics.scrape());

            assertThat(PrometheusTextAccess.value(f, "mailrun_events_backlog", "mailrun_events_backlog", Map.of("endpoint", "crm")))
                    .contains(1.0);
            assertThat(PrometheusTextAccess.value(f, "mailrun_events_oldest_pending_age_seconds",
                    "mailrun_events_oldest_pending_age_seconds", Map.of("endpoint", "crm"))).contains(1200.0);
            assertThat(PrometheusTextAccess.value(f, "mailrun_events_endpoint_disabled", "mailrun_events_endpoint_disabled",
                    Map.of("endpoint", "crm"))).contains(0.0);
            assertThat(PrometheusTextAccess.value(f, "mailrun_events_delivered_total", "mailrun_events_delivered_total",
                    Map.of("endpoint", "crm", "type", "recipient.sent"))).contains(3.0);
            assertThat(PrometheusTextAccess.value(f, "mailrun_events_failed_total", "mailrun_events_failed_total",
                    Map.of("endpoint", "crm", "type", "recipient.bounced"))).contains(1.0);
        }
    }
}
