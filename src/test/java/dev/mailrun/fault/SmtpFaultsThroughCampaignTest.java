package dev.mailrun.fault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.StatusCounts;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SMTP faults end to end through the campaign task (scheduler, queue, pool, result writer) on a real
 * socket: each is classified as specified, every recipient ends in a defined state, and the
 * checkpointed counters match the table. Pool-level behaviour is in SmtpPoolFaultTest; 4xx and
 * 5.1.1 on RCPT, auth failure and the failure-rate pause are in CampaignBehaviourTest.
 */
class SmtpFaultsThroughCampaignTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final Set<String> DEFINED = Set.of("pending", "sent", "retry", "failed", "suppressed", "unknown");

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(1));

    private InProcessSender sender(int port, String relay) {
        return new InProcessSender(db.dataSource(), clock, InProcessSender.smtp(port, Duration.ofSeconds(5)),
                Path.of("templates"), INTERVAL, SendSettingsFixtures.builder().retries(3, Duration.ofSeconds(30)).through(relay, 0), "w1");
    }

    private void tick(InProcessSender s) throws Exception {
        s.scheduler.tick();
        long ms = INTERVAL.toMillis();
        clock.set(Instant.ofEpochMilli((clock.peek().toEpochMilli() / ms + 1) * ms));
    }

    /** Ticks (a minute of clock apart, past any retry delay) until the campaign completes. */
    private void tickUntilDone(InProcessSender s, long id, int maxTicks) throws Exception {
        for (int i = 0; i < maxTicks && !"completed".equals(Fixtures.campaignStatus(db.dataSource(), id)); i++) {
            tick(s);
            clock.advance(Duration.ofMinutes(1));
        }
    }

    private static void assertAccountedFor(long id, int size) throws Exception {
        Map<String, Long> counts = Fixtures.counts(db.dataSource(), id);
        assertThat(counts.keySet()).isSubsetOf(DEFINED);
        assertThat(counts.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(size);
        var progress = Fixtures.progress(db.dataSource(), id);
        assertThat(progress.path("sent").asLong()).as("progress.sent").isEqualTo(counts.getOrDefault("sent", 0L));
        assertThat(progress.path("failed").asLong()).as("progress.failed").isEqualTo(counts.getOrDefault("failed", 0L));
        StatusCounts.assertExact(db.dataSource(), id);
    }

    private static Map<String, Object> row(long id, String email) throws Exception {
        try (var c = db.dataSource().getConnection(); var ps = c.prepareStatement(
                "SELECT status, attempts, COALESCE(last_code, -1), COALESCE(last_error, '') FROM recipient WHERE campaign_id = ? AND email = ?")) {
            ps.setLong(1, id);
            ps.setString(2, email);
            try (var rs = ps.executeQuery()) {
                rs.next();
                return Map.of("status", rs.getString(1), "attempts", rs.getInt(2), "code", rs.getInt(3), "error", rs.getString(4));
            }
        }
    }

    @Test
    void a_relay_that_refuses_connections_loses_nobody_sends_nothing_and_charges_no_attempt() throws Exception {
        relayDown(true, false);
    }

    @Test
    void once_the_relay_is_back_the_next_ticks_send_everyone_exactly_once() throws Exception {
        relayDown(false, true);
    }

    private void relayDown(boolean checkBurn, boolean checkRecovery) throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        long id;
        try (InProcessSender down = sender(closedPort, "relay-down")) {
            id = down.newCampaign("Relay down", "welcome");
            Fixtures.recipients(db.dataSource(), id, 0, 200);
            down.campaigns.start(id);
            tick(down);
        }
        Map<String, Long> afterDown = Fixtures.counts(db.dataSource(), id);
        long burned = Fixtures.scalar(db.dataSource(), "SELECT COUNT(*) FROM recipient WHERE campaign_id = ? AND attempts > 0", id);
        System.out.printf("[fault] relay down: counts=%s recipientsWithAnAttempt=%d%n", afterDown, burned);
        assertThat(afterDown).doesNotContainKeys("sent", "sending", "failed", "unknown");
        // Nothing reached the relay: nobody is charged an attempt, the run stops, the campaign keeps running.
        if (checkBurn) {
            assertThat(burned).as("recipients charged an attempt while the relay was down").isZero();
        }
        assertAccountedFor(id, 200);
        String status = Fixtures.campaignStatus(db.dataSource(), id);
        assertThat(status).isEqualTo("running");
        if (!checkRecovery) {
            try (InProcessSender down = sender(closedPort, "relay-down")) {
                down.campaigns.cancel(id);   // the database is shared by this class's tests: stop it sending later
            }
            return;
        }
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().start(); InProcessSender up = sender(smtp.port(), "relay-up")) {
            tickUntilDone(up, id, 8);
            System.out.printf("[fault] relay back: campaign %s reason=%s counts=%s runs=%s%n", Fixtures.campaignStatus(db.dataSource(), id),
                    up.campaigns.get(id).pauseReason(), Fixtures.counts(db.dataSource(), id),
                    Fixtures.finishedRuns(db.dataSource()).stream().map(Fixtures.RunRow::outcome).toList());
            assertThat(Fixtures.counts(db.dataSource(), id)).containsExactly(Map.entry("sent", 200L));
            assertThat(Fixtures.perAddress(smtp.messages()).values()).hasSize(200).allMatch(n -> n == 1);
            assertAccountedFor(id, 200);
        }
    }

    @Test
    void a_421_and_disconnect_mid_batch_loses_nobody_and_the_message_goes_out_once_on_a_new_connection() throws Exception {
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .onMessage(cmd -> cmd.connection() == 1 && cmd.messageInConnection() == 5
                        ? Reply.of(421, "4.3.2 service shutting down").thenDrop() : Reply.of(250, "2.0.0 queued"))
                .start();
             InProcessSender s = sender(smtp.port(), "relay-421")) {
            long id = s.newCampaign("421", "welcome");
            Fixtures.recipients(db.dataSource(), id, 1000, 60);
            s.campaigns.start(id);
            tickUntilDone(s, id, 5);
            assertThat(Fixtures.counts(db.dataSource(), id)).containsExactly(Map.entry("sent", 60L));
            assertThat(Fixtures.perAddress(smtp.messages())).hasSize(60).allSatisfy((a, n) -> assertThat(n).isEqualTo(1));
            assertThat(smtp.connectionCount()).isGreaterThan(1);
            assertAccountedFor(id, 60);
        }
    }

    @Test
    void a_4xx_after_data_is_retried_and_gives_up_as_failed_after_the_last_attempt() throws Exception {
        String busy = "r2001@list.example";
        String later = "r2002@list.example";
        AtomicInteger laterTries = new AtomicInteger();
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .onMessage(cmd -> cmd.argument().contains(busy) ? Reply.of(452, "4.3.1 insufficient system storage")
                        : cmd.argument().contains(later) && laterTries.incrementAndGet() == 1
                        ? Reply.of(451, "4.3.0 temporary failure") : Reply.of(250, "2.0.0 queued"))
                .start();
             InProcessSender s = sender(smtp.port(), "relay-4xx-data")) {
            long id = s.newCampaign("4xx data", "welcome");
            Fixtures.recipients(db.dataSource(), id, 2000, 10);
            s.campaigns.start(id);
            tick(s);
            assertThat(row(id, busy)).containsEntry("status", "retry").containsEntry("attempts", 1).containsEntry("code", 452);
            assertThat(row(id, later)).containsEntry("status", "retry").containsEntry("code", 451);
            tickUntilDone(s, id, 8);
            assertThat(row(id, busy)).containsEntry("status", "failed").containsEntry("attempts", 3).containsEntry("code", 452);
            assertThat((String) row(id, busy).get("error")).contains("gave up after 3 attempts");
            assertThat(row(id, later)).containsEntry("status", "sent").containsEntry("attempts", 2);
            assertThat(Fixtures.counts(db.dataSource(), id)).containsExactly(Map.entry("failed", 1L), Map.entry("sent", 9L));
            assertThat(Fixtures.perAddress(smtp.messages())).hasSize(9).allSatisfy((a, n) -> assertThat(n).isEqualTo(1));
            assertAccountedFor(id, 10);
        }
    }

    @Test
    void a_5xx_on_data_or_a_policy_5xx_on_rcpt_fails_the_recipient_without_suppressing_the_address() throws Exception {
        String content = "r3001@list.example";
        String policy = "r3002@list.example";
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .on("RCPT", cmd -> cmd.argument().contains(policy) ? Reply.of(550, "5.7.1 relaying denied by policy") : Reply.ok())
                .onMessage(cmd -> cmd.argument().contains(content) ? Reply.of(554, "5.6.0 message content rejected")
                        : Reply.of(250, "2.0.0 queued"))
                .start();
             InProcessSender s = sender(smtp.port(), "relay-5xx")) {
            long id = s.newCampaign("5xx", "welcome");
            Fixtures.recipients(db.dataSource(), id, 3000, 10);
            s.campaigns.start(id);
            tickUntilDone(s, id, 3);
            assertThat(row(id, content)).containsEntry("status", "failed").containsEntry("attempts", 1).containsEntry("code", 554);
            assertThat(row(id, policy)).containsEntry("status", "failed").containsEntry("attempts", 1).containsEntry("code", 550);
            assertThat(Fixtures.scalar(db.dataSource(), "SELECT COUNT(*) FROM suppression WHERE address IN (?, ?)", content, policy))
                    .as("suppressed by a non-bounce 5xx").isZero();
            assertThat(Fixtures.counts(db.dataSource(), id)).containsExactly(Map.entry("failed", 2L), Map.entry("sent", 8L));
            assertThat(Fixtures.campaignStatus(db.dataSource(), id)).isEqualTo("completed");
            assertAccountedFor(id, 10);
        }
    }

    @Test
    void a_connection_dropped_after_data_is_retried_once_and_then_left_for_a_later_retry() throws Exception {
        String once = "r4001@list.example";
        String always = "r4002@list.example";
        Map<Integer, String> rcptOn = new ConcurrentHashMap<>();
        AtomicInteger onceDrops = new AtomicInteger();
        AtomicInteger alwaysDrops = new AtomicInteger();
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .on("RCPT", cmd -> {
                    rcptOn.put(cmd.connection(), cmd.argument());
                    return Reply.ok();
                })
                .on("DATA", cmd -> {
                    String to = rcptOn.getOrDefault(cmd.connection(), "");
                    if (to.contains(once) && onceDrops.incrementAndGet() == 1) {
                        return Reply.drop();
                    }
                    if (to.contains(always) && alwaysDrops.incrementAndGet() <= 2) {
                        return Reply.drop();
                    }
                    return Reply.of(354, "end with <CRLF>.<CRLF>");
                })
                .start();
             InProcessSender s = sender(smtp.port(), "relay-drop")) {
            long id = s.newCampaign("Drop", "welcome");
            Fixtures.recipients(db.dataSource(), id, 4000, 20);
            s.campaigns.start(id);
            tick(s);
            assertThat(row(id, once)).containsEntry("status", "sent").containsEntry("attempts", 1);
            assertThat(row(id, always)).containsEntry("status", "retry").containsEntry("attempts", 1).containsEntry("code", 0);
            tickUntilDone(s, id, 5);
            assertThat(row(id, always)).containsEntry("status", "sent").containsEntry("attempts", 2);
            assertThat(Fixtures.counts(db.dataSource(), id)).containsExactly(Map.entry("sent", 20L));
            assertThat(Fixtures.perAddress(smtp.messages())).hasSize(20).allSatisfy((a, n) -> assertThat(n).isEqualTo(1));
            assertAccountedFor(id, 20);
        }
    }

    @Test
    void replies_slower_than_the_time_left_end_the_run_by_its_deadline_with_everyone_accounted_for() throws Exception {
        Duration interval = Duration.ofSeconds(3);
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .onMessage(cmd -> Reply.of(250, "2.0.0 queued").after(Duration.ofMillis(400)))
                .start();
             InProcessSender s = new InProcessSender(db.dataSource(), Clock.systemUTC(),
                     InProcessSender.smtp(smtp.port(), Duration.ofSeconds(5)), Path.of("templates"), interval,
                     SendSettingsFixtures.builder().retries(3, Duration.ofSeconds(30)).through("relay-slow", 0), "w1")) {
            long id = s.newCampaign("Slow", "welcome");
            Fixtures.recipients(db.dataSource(), id, 5000, 100);
            s.campaigns.start(id);
            // Start right after a slot boundary so the run has (almost) its whole window.
            long ms = interval.toMillis();
            Thread.sleep(ms - System.currentTimeMillis() % ms + 20);
            s.scheduler.tick();

            Map<String, Long> counts = Fixtures.counts(db.dataSource(), id);
            String task = "campaign-" + id;
            long overrun = Fixtures.scalar(db.dataSource(), "SELECT COALESCE(MAX(r.overrun_ms), 0) FROM task_run r "
                    + "JOIN task t ON t.id = r.task_id WHERE t.name = ? AND r.outcome = 'succeeded'", task);
            long late = Fixtures.scalar(db.dataSource(), "SELECT COUNT(*) FROM task_run r JOIN task t ON t.id = r.task_id "
                    + "WHERE t.name = ? AND r.outcome = 'succeeded' AND r.finished_at > r.deadline", task);
            Set<String> timedOut = Fixtures.statuses(db.dataSource(), id).entrySet().stream()
                    .filter(e -> e.getValue().equals("retry")).map(Map.Entry::getKey).collect(Collectors.toSet());
            System.out.printf("[fault] slow replies: counts=%s overrunMs=%d finishedAfterDeadline=%d messages=%d "
                    + "retryButDelivered=%d%n", counts, overrun, late, smtp.messages().size(),
                    Fixtures.perAddress(smtp.messages()).keySet().stream().filter(timedOut::contains).count());
            assertThat(counts).doesNotContainKeys("sending", "unknown", "failed");
            assertThat(counts.getOrDefault("sent", 0L)).isPositive();
            assertThat(overrun).as("overrun_ms").isZero();
            assertThat(late).as("runs finished after their deadline").isZero();
            assertAccountedFor(id, 100);
        }
    }
}
