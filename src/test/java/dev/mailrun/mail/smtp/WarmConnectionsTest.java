package dev.mailrun.mail.smtp;

import static dev.mailrun.mail.smtp.TestMail.FAR;
import static dev.mailrun.mail.smtp.TestMail.NEVER;
import static dev.mailrun.mail.smtp.TestMail.settings;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import dev.mailrun.testing.CuttableProxy;
import dev.mailrun.testing.SettableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Sessions kept open from one pool (one run) to the next to the same relay. */
@Timeout(30)
class WarmConnectionsTest {

    private static final Duration KEEP_WARM = Duration.ofSeconds(15);

    private final SettableClock clock = SettableClock.at("2030-05-06T07:08:09Z");

    @Test
    void two_pools_one_after_the_other_send_over_one_connection() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder().start();
             WarmConnections warm = WarmConnections.unswept(KEEP_WARM, clock)) {
            SmtpSettings relay = settings(server.port()).withConnections(1);

            assertThat(sendOnePool(relay, warm, 1, 2)).allSatisfy(r -> assertThat(r).isInstanceOf(SendResult.Sent.class));
            assertThat(warm.parked()).isEqualTo(1);
            clock.advance(Duration.ofSeconds(11));
            SmtpPool next = pool(relay, warm);
            List<SendResult> results = TestMail.send(next, items(3, 2), FAR, NEVER);
            int adopted = next.connectionsAdopted();
            int opened = next.connectionsOpened();
            next.close();

            assertThat(results).allSatisfy(r -> assertThat(r).isInstanceOf(SendResult.Sent.class));
            assertThat(server.connectionCount()).isEqualTo(1);
            assertThat(server.messages()).hasSize(4);
            assertThat(server.messageConnections()).containsOnly(1);
            assertThat(adopted).isEqualTo(1);
            assertThat(opened).isZero();
            assertThat(server.transcripts().get(0)).filteredOn(line -> line.startsWith("EHLO")).hasSize(1);
        }
    }

    @Test
    void a_relay_whose_rate_or_connection_counts_changed_still_gets_its_session() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder().start();
             WarmConnections warm = WarmConnections.unswept(KEEP_WARM, clock)) {
            SmtpSettings relay = settings(server.port()).withConnections(1);
            sendOnePool(relay, warm, 1, 1);

            sendOnePool(relay.withRate(20).withConnections(2, 8), warm, 2, 1);

            assertThat(server.connectionCount()).isEqualTo(1);
        }
    }

    @Test
    void a_session_parked_longer_than_keep_warm_is_not_taken_over() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder().start();
             WarmConnections warm = WarmConnections.unswept(KEEP_WARM, clock)) {
            SmtpSettings relay = settings(server.port()).withConnections(1);
            sendOnePool(relay, warm, 1, 1);
            clock.advance(KEEP_WARM.plusMillis(1));

            assertThat(sendOnePool(relay, warm, 2, 1)).singleElement().isInstanceOf(SendResult.Sent.class);

            assertThat(server.connectionCount()).isEqualTo(2);
            assertThat(server.messageConnections()).containsExactly(1, 2);
        }
    }

    @Test
    void the_timer_closes_a_session_nobody_took_within_keep_warm() throws InterruptedException {
        CountDownLatch quit = new CountDownLatch(1);
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .on("QUIT", cmd -> {
                    quit.countDown();
                    return Reply.of(221, "2.0.0 bye");
                }).start();
             WarmConnections warm = WarmConnections.unswept(KEEP_WARM, clock)) {
            SmtpSettings relay = settings(server.port()).withConnections(1);
            sendOnePool(relay, warm, 1, 1);

            clock.advance(KEEP_WARM);
            assertThat(warm.closeExpired()).isZero();
            clock.advance(Duration.ofMillis(1));
            assertThat(warm.closeExpired()).isEqualTo(1);

            assertThat(warm.parked()).isZero();
            assertThat(quit.await(10, TimeUnit.SECONDS)).as("the relay was told QUIT").isTrue();
            assertThat(warm.perMessage(relay)).isEmpty();
        }
    }

    @Test
    void stopping_the_worker_closes_the_parked_sessions() throws InterruptedException {
        CountDownLatch quit = new CountDownLatch(1);
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .on("QUIT", cmd -> {
                    quit.countDown();
                    return Reply.of(221, "2.0.0 bye");
                }).start()) {
            WarmConnections warm = WarmConnections.unswept(KEEP_WARM, clock);
            sendOnePool(settings(server.port()).withConnections(1), warm, 1, 1);

            warm.close();

            assertThat(warm.parked()).isZero();
            assertThat(quit.await(10, TimeUnit.SECONDS)).as("the relay was told QUIT").isTrue();
        }
    }

    @Test
    void a_relay_whose_settings_changed_never_gets_a_session_opened_under_the_old_ones() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder().start();
             WarmConnections warm = WarmConnections.unswept(KEEP_WARM, clock)) {
            SmtpSettings before = settings(server.port()).withConnections(1);
            sendOnePool(before, warm, 1, 1);

            SmtpSettings renamed = SmtpSettings.of("127.0.0.1", server.port(), TlsMode.NONE, "other.example.com")
                    .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(5)).withConnections(1);
            sendOnePool(renamed, warm, 2, 1);

            assertThat(server.connectionCount()).isEqualTo(2);
            assertThat(server.transcripts().get(1)).contains("EHLO other.example.com");
            // The session opened under the old settings waits for them, or for its time to run out.
            assertThat(warm.parked()).isEqualTo(2);
        }
    }

    @Test
    void a_parked_session_the_relay_closed_is_replaced_and_the_message_sent_once() throws Exception {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder().start();
             CuttableProxy proxy = new CuttableProxy(server.port());
             WarmConnections warm = WarmConnections.unswept(KEEP_WARM, clock)) {
            SmtpSettings relay = settings(proxy.port()).withConnections(1);
            sendOnePool(relay, warm, 1, 1);
            proxy.dropConnections();

            assertThat(sendOnePool(relay, warm, 2, 1)).singleElement().isInstanceOf(SendResult.Sent.class);

            assertThat(server.messages()).hasSize(2);
            assertThat(server.messageConnections()).containsExactly(1, 2);
            assertThat(warm.parked()).isEqualTo(1);
        }
    }

    @Test
    void a_parked_session_the_relay_ends_at_the_next_command_is_replaced_and_the_message_sent_once() {
        AtomicBoolean stale = new AtomicBoolean();
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .on("MAIL", cmd -> cmd.connection() == 1 && stale.get()
                        ? Reply.of(421, "4.4.2 idle too long, closing").thenDrop() : Reply.ok())
                .start();
             WarmConnections warm = WarmConnections.unswept(KEEP_WARM, clock)) {
            SmtpSettings relay = settings(server.port()).withConnections(1);
            sendOnePool(relay, warm, 1, 1);
            stale.set(true);

            assertThat(sendOnePool(relay, warm, 2, 1)).singleElement().isInstanceOf(SendResult.Sent.class);

            assertThat(server.messages()).hasSize(2);
            assertThat(server.messageConnections()).containsExactly(1, 2);
        }
    }

    @Test
    void the_next_pool_starts_sized_for_the_time_per_message_the_last_one_measured() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder().start();
             WarmConnections warm = WarmConnections.unswept(KEEP_WARM, clock)) {
            SmtpSettings relay = settings(server.port()).withConnections(1);
            sendOnePool(relay, warm, 1, 3);

            try (SmtpPool next = pool(relay.withRate(50), warm)) {
                assertThat(next.report().perMessage()).isEqualTo(warm.perMessage(relay));
                assertThat(next.report().perMessage()).isPresent();
            }
        }
    }

    @Test
    void with_keep_warm_off_a_pool_closes_its_connections() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder().start();
             WarmConnections warm = WarmConnections.unswept(Duration.ZERO, clock)) {
            SmtpSettings relay = settings(server.port()).withConnections(1);
            sendOnePool(relay, warm, 1, 1);
            sendOnePool(relay, warm, 2, 1);

            assertThat(warm.on()).isFalse();
            assertThat(warm.parked()).isZero();
            assertThat(server.connectionCount()).isEqualTo(2);
        }
    }

    private static SmtpPool pool(SmtpSettings relay, WarmConnections warm) {
        return new SmtpPool(relay, SendRateLimiter.unlimited(), TestMail.CLOCK, PoolEvents.NONE, warm);
    }

    private static List<SendResult> sendOnePool(SmtpSettings relay, WarmConnections warm, int firstKey, int count) {
        try (SmtpPool pool = pool(relay, warm)) {
            return TestMail.send(pool, items(firstKey, count), FAR, NEVER);
        }
    }

    private static List<TestMail.Item> items(int firstKey, int count) {
        List<TestMail.Item> items = new ArrayList<>();
        for (int i = firstKey; i < firstKey + count; i++) {
            items.add(new TestMail.Item(i, "user" + i + "@example.org"));
        }
        return items;
    }
}
