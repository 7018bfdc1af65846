package dev.mailrun.fault;

import static dev.mailrun.fault.KillNineTest.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.events.Receiver;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.TestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kill -9 of a real worker between the changes it commits and their delivery: once while the
 * receiver refuses (the changes' events committed, none delivered), once while the receiver is
 * taking batches. A third worker finishes. Every event the outbox holds reaches the Jetty receiver
 * at least once, signed; the receiver gets no id the outbox does not hold; and the outbox holds
 * exactly one event per committed change (each sent and failed recipient, the campaign's start and
 * completion), so a crash lost none and invented none.
 */
class EventsKillNineTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final int SIZE = 600;
    private static final Set<String> NO_SUCH_USER = Set.of("r7@list.example", "r70@list.example", "r300@list.example");

    @Test
    void kills_between_the_changes_and_their_delivery_lose_no_event_and_invent_none() throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .on("RCPT", cmd -> NO_SUCH_USER.stream().anyMatch(a -> cmd.argument().contains("<" + a + ">"))
                        ? Reply.of(550, "5.1.1 no such user") : Reply.ok())
                .onMessage(cmd -> {
                    if (!Fixtures.isComplete(cmd.argument())) {
                        return Reply.drop();
                    }
                    accepted.incrementAndGet();
                    return Reply.of(250, "2.0.0 queued").after(Duration.ofMillis(5));
                })
                .start();
             Receiver receiver = new Receiver()) {
            Map<String, String> env = new HashMap<>(WorkerProcess.env(db, smtp.port(), "0"));
            env.put("MAILRUN_TICK_LEASE", "6s");
            env.put("MAILRUN_TICK_HEARTBEAT", "1s");
            env.put("MAILRUN_EVENTS_ENDPOINTS", "crm");
            env.put("MAILRUN_EVENTS_CRM_URL", receiver.url());
            env.put("MAILRUN_EVENTS_CRM_SECRET", Receiver.SECRET);
            env.put("MAILRUN_EVENTS_CRM_BATCH", "10");
            env.put("MAILRUN_EVENTS_CRM_TIMEOUT", "2s");
            env.put("MAILRUN_EVENTS_CRM_ALLOW_HTTP", "true");
            env.put("MAILRUN_EVENTS_CRM_ALLOW_PRIVATE_ADDRESSES", "true");
            env.put("MAILRUN_EVENTS_POLL", "100ms");
            Campaigns campaigns = new Campaigns(db.dataSource(), new TaskStore(db.dataSource()),
                    new TemplateLoader(Path.of("templates")), Clock.systemUTC(), Duration.ofSeconds(3));
            long id = campaigns.create(new NewCampaign("Events kill", "welcome", "news@sender.example", Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
            Fixtures.recipients(db.dataSource(), id, 0, SIZE);

            // 1. The receiver refuses: the worker commits changes and their events, delivers none; killed mid-sending.
            receiver.answer(503, null);
            long pendingAtFirstKill;
            try (WorkerProcess worker = WorkerProcess.start("events-kill-0", env)) {
                waitFor(() -> count("SELECT COUNT(*) FROM event_subscription") > 0 || !worker.isAlive(), Duration.ofSeconds(60));
                campaigns.start(id);
                waitFor(() -> (accepted.get() >= 150 && count("SELECT failures FROM event_endpoint WHERE name = 'crm'") >= 1)
                        || !worker.isAlive(), Duration.ofSeconds(90));
                assertThat(worker.isAlive()).as("see %s", worker.log).isTrue();
                worker.kill9();
                pendingAtFirstKill = count("SELECT COUNT(*) FROM event_delivery WHERE status = 'pending'");
            }
            // The kills are what is under test, not the time until a dead worker's leases (on the relay
            // shares, on the endpoint) run out by the database clock.
            Fixtures.expireRelayShares(db.dataSource());
            Fixtures.expireEndpointLeases(db.dataSource());
            assertThat(pendingAtFirstKill).as("events committed and not delivered when killed").isPositive();
            assertThat(receiver.accepted()).isEmpty();

            // 2. The receiver takes batches slowly; killed while it is taking them.
            receiver.answer(200, null);
            receiver.onRequest(() -> sleep(40));
            int deliveredBeforeSecondKill;
            try (WorkerProcess worker = WorkerProcess.start("events-kill-1", env)) {
                waitFor(() -> receiver.accepted().size() >= 30 || !worker.isAlive(), Duration.ofSeconds(120));
                assertThat(worker.isAlive()).as("see %s", worker.log).isTrue();
                worker.kill9();
                deliveredBeforeSecondKill = receiver.accepted().size();
            }
            Fixtures.expireRelayShares(db.dataSource());
            Fixtures.expireEndpointLeases(db.dataSource());
            long pendingAtSecondKill = count("SELECT COUNT(*) FROM event_delivery WHERE status = 'pending'")
                    + count("SELECT COUNT(*) FROM event_outbox WHERE fanned_out = 0");

            // 3. A worker to the end: the campaign completes and the outbox drains.
            receiver.onRequest(() -> { });
            try (WorkerProcess worker = WorkerProcess.start("events-kill-final", env)) {
                waitFor(() -> ("completed".equals(Fixtures.campaignStatus(db.dataSource(), id))
                        && count("SELECT COUNT(*) FROM event_outbox WHERE fanned_out = 0") == 0
                        && count("SELECT COUNT(*) FROM event_delivery WHERE status <> 'delivered'") == 0)
                        || !worker.isAlive(), Duration.ofSeconds(180));
                assertThat(worker.stop()).as("worker stops on SIGTERM").isTrue();
            }

            Map<String, String> outbox = outboxIds();
            Set<String> received = new HashSet<>();
            receiver.accepted().forEach(g -> received.add(g.id()));
            Map<String, Long> byType = new TreeMap<>();
            outbox.values().forEach(t -> byType.merge(t, 1L, Long::sum));
            Map<String, Long> counts = Fixtures.counts(db.dataSource(), id);
            long redelivered = receiver.accepted().size() - received.size();
            System.out.printf("[fault] events-kill pendingAtFirstKill=%d deliveredBeforeSecondKill=%d pendingAtSecondKill=%d"
                            + " outbox=%d byType=%s received=%d redelivered=%d recipients=%s%n", pendingAtFirstKill,
                    deliveredBeforeSecondKill, pendingAtSecondKill, outbox.size(), byType, receiver.accepted().size(),
                    redelivered, counts);

            assertThat(Fixtures.campaignStatus(db.dataSource(), id)).isEqualTo("completed");
            assertThat(receiver.badSignatures()).isEmpty();
            assertThat(received).as("every event the outbox holds was delivered at least once").containsAll(outbox.keySet());
            assertThat(outbox.keySet()).as("no id the outbox does not hold").containsAll(received);
            // One event per committed change: a killed flush wrote its results and their events together or neither.
            assertThat(byType.getOrDefault("recipient.sent", 0L)).isEqualTo(counts.getOrDefault("sent", 0L));
            assertThat(byType.getOrDefault("recipient.failed", 0L)).isEqualTo(counts.getOrDefault("failed", 0L));
            assertThat(byType.get("campaign.started")).isEqualTo(1L);
            assertThat(byType.get("campaign.completed")).isEqualTo(1L);
            assertThat(eventsPerRecipient()).as("no recipient has two events of one type").allMatch(n -> n == 1);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long count(String sql) throws Exception {
        return Fixtures.scalar(db.dataSource(), sql);
    }

    private static Map<String, String> outboxIds() throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT event_id, type FROM event_outbox"); ResultSet rs = ps.executeQuery()) {
            Map<String, String> m = new HashMap<>();
            while (rs.next()) {
                m.put(rs.getString(1), rs.getString(2));
            }
            return m;
        }
    }

    private static List<Long> eventsPerRecipient() throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT COUNT(*) FROM event_outbox WHERE recipient_id IS NOT NULL GROUP BY recipient_id, type");
             ResultSet rs = ps.executeQuery()) {
            List<Long> out = new java.util.ArrayList<>();
            while (rs.next()) {
                out.add(rs.getLong(1));
            }
            return out;
        }
    }
}
