package dev.mailrun.mail.smtp;

import static dev.mailrun.mail.smtp.TestMail.items;
import static dev.mailrun.mail.smtp.TestMail.send;
import static dev.mailrun.mail.smtp.TestMail.settings;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.mail.RejectedMessageException;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.mail.Secret;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class SmtpPoolFaultTest {

    @Test
    void a_4xx_on_rcpt_is_transient_and_reports_the_retry_hint() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .on("RCPT", cmd -> Reply.of(450, "4.2.1 Mailbox busy, try again in 5 minutes"))
                .start()) {
            List<SendResult> results = send(settings(server.port()).withConnections(1), items(1));

            assertThat(results).containsExactly(new SendResult.Transient(1, 450,
                    "4.2.1 Mailbox busy, try again in 5 minutes", Optional.of(Duration.ofMinutes(5))));
        }
    }

    @Test
    void a_550_on_rcpt_is_a_permanent_hard_bounce_and_the_connection_carries_on() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .on("RCPT", cmd -> cmd.argument().contains("user1@")
                        ? Reply.of(550, "5.1.1 <user1@example.org>: no such user") : Reply.ok())
                .start()) {
            List<SendResult> results = send(settings(server.port()).withConnections(1), items(2));

            assertThat(results.get(0)).isEqualTo(new SendResult.Permanent(1, 550,
                    "5.1.1 <user1@example.org>: no such user", true));
            assertThat(results.get(1)).isInstanceOf(SendResult.Sent.class);
            assertThat(server.connectionCount()).isEqualTo(1);
        }
    }

    @Test
    void a_5xx_after_data_is_permanent_but_not_a_hard_bounce() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .onMessage(cmd -> cmd.messageInConnection() == 1
                        ? Reply.of(554, "5.7.1 message rejected as spam") : Reply.ok())
                .start()) {
            List<SendResult> results = send(settings(server.port()).withConnections(1), items(2));

            assertThat(results.get(0)).isEqualTo(new SendResult.Permanent(1, 554, "5.7.1 message rejected as spam", false));
            assertThat(results.get(1)).isInstanceOf(SendResult.Sent.class);
        }
    }

    @Test
    void a_4xx_after_data_is_transient() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .onMessage(cmd -> Reply.of(451, "4.3.0 temporary local problem"))
                .start()) {
            assertThat(send(settings(server.port()).withConnections(1), items(1))).singleElement()
                    .isEqualTo(new SendResult.Transient(1, 451, "4.3.0 temporary local problem", Optional.empty()));
        }
    }

    @Test
    void a_5xx_on_data_command_is_permanent() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .on("DATA", cmd -> Reply.of(554, "5.5.1 no valid recipients"))
                .start()) {
            assertThat(send(settings(server.port()).withConnections(1), items(1))).singleElement()
                    .isInstanceOfSatisfying(SendResult.Permanent.class, p -> assertThat(p.code()).isEqualTo(554));
        }
    }

    @Test
    void a_421_with_disconnect_is_retried_once_on_a_new_connection() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .on("MAIL", cmd -> cmd.connection() == 1
                        ? Reply.of(421, "4.3.2 service shutting down").thenDrop() : Reply.ok())
                .start()) {
            List<SendResult> results = send(settings(server.port()).withConnections(1), items(3));

            assertThat(results).allSatisfy(r -> assertThat(r).isInstanceOf(SendResult.Sent.class));
            assertThat(server.connectionCount()).isEqualTo(2);
            assertThat(server.messages()).hasSize(3);
        }
    }

    @Test
    void a_421_on_the_retry_too_is_a_transient_failure() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .on("MAIL", cmd -> Reply.of(421, "4.3.2 service shutting down, try again in 30 seconds").thenDrop())
                .start()) {
            List<SendResult> results = send(settings(server.port()).withConnections(1), items(1));

            assertThat(results).singleElement().isEqualTo(new SendResult.Transient(1, 421,
                    "4.3.2 service shutting down, try again in 30 seconds", Optional.of(Duration.ofSeconds(30))));
            assertThat(server.connectionCount()).isEqualTo(2);
        }
    }

    @Test
    void a_421_that_says_too_fast_is_throttled_and_not_retried_on_a_new_connection() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .on("MAIL", cmd -> Reply.of(421, "4.7.0 too many connections, try again in 30 seconds").thenDrop())
                .start()) {
            List<SendResult> results = send(settings(server.port()).withConnections(1), items(1));

            assertThat(results).singleElement().isEqualTo(new SendResult.Throttled(1, 421,
                    "4.7.0 too many connections, try again in 30 seconds", TooFast.Scope.RELAY));
            assertThat(server.connectionCount()).isEqualTo(1);
        }
    }

    @Test
    void a_450_that_says_too_fast_ends_the_session_and_the_next_message_goes_on_a_new_one() {
        // Postfix's anvil refuses at MAIL FROM; a relay counts a session's refusals (Postfix
        // answers every command a second late from the tenth), so the session is not kept.
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .on("MAIL", cmd -> cmd.connection() == 1 ? Reply.of(450, "4.7.1 Error: too much mail from 127.0.0.1") : Reply.ok())
                .start()) {
            List<SendResult> results = send(settings(server.port()).withConnections(1), items(3));

            assertThat(results.get(0)).isEqualTo(new SendResult.Throttled(1, 450,
                    "4.7.1 Error: too much mail from 127.0.0.1", TooFast.Scope.RELAY));
            assertThat(results.subList(1, 3)).allSatisfy(r -> assertThat(r).isInstanceOf(SendResult.Sent.class));
            assertThat(server.connectionCount()).isEqualTo(2);
            assertThat(server.transcripts().get(0)).last().isEqualTo("QUIT");
        }
    }

    @Test
    void a_connection_dropped_mid_batch_is_reopened_and_no_message_is_lost() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .on("MAIL", cmd -> cmd.connection() == 1 && cmd.messageInConnection() == 2 ? Reply.drop() : Reply.ok())
                .start()) {
            List<SendResult> results = send(settings(server.port()).withConnections(1), items(5));

            assertThat(results).allSatisfy(r -> assertThat(r).isInstanceOf(SendResult.Sent.class));
            assertThat(server.connectionCount()).isEqualTo(2);
            assertThat(server.messages()).hasSize(5);
        }
    }

    @Test
    void a_refused_connection_is_unreachable_and_leaves_the_rest_not_attempted() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }

        List<SendResult> results = send(settings(closedPort).withConnections(1), items(3));

        assertThat(results.get(0)).isInstanceOfSatisfying(SendResult.Unreachable.class,
                u -> assertThat(u.text()).startsWith("cannot connect to " + settings(closedPort).host() + ":" + closedPort + ": ")
                        .containsIgnoringCase("refused"));
        assertThat(results.subList(1, 3)).containsExactly(new SendResult.NotAttempted(2), new SendResult.NotAttempted(3));
    }

    @Test
    void a_relay_host_name_that_does_not_resolve_says_so() {
        // .invalid never resolves (RFC 2606).
        SmtpSettings nowhere = SmtpSettings.of("relay.nonexistent.invalid", 2541, TlsMode.NONE, "mailrun.test")
                .withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofSeconds(2)).withConnections(1);

        List<SendResult> results = send(nowhere, items(1));

        assertThat(results.get(0)).isInstanceOfSatisfying(SendResult.Unreachable.class, u -> assertThat(u.text())
                .isEqualTo("the host name relay.nonexistent.invalid does not resolve (DNS lookup failed)"));
    }

    @Test
    void a_connection_that_cannot_be_opened_takes_no_rate_permit() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        AtomicLong nanos = new AtomicLong(1_000_000_000L);
        SendRateLimiter limiter = new SendRateLimiter(1, nanos::get);

        try (SmtpPool pool = new SmtpPool(settings(closedPort).withConnections(1), limiter, TestMail.CLOCK)) {
            assertThat(TestMail.send(pool, items(3), TestMail.FAR, TestMail.NEVER).get(0))
                    .isInstanceOf(SendResult.Unreachable.class);
        }

        // One permit per second and the clock has not moved: had the failed connect taken it, none would be left.
        assertThat(limiter.reserve(Duration.ZERO)).contains(Duration.ZERO);
        assertThat(limiter.admit()).isZero();
    }

    @Test
    void a_server_that_never_answers_times_out_as_transient() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .on("MAIL", cmd -> Reply.silence())
                .start()) {
            SmtpSettings settings = settings(server.port()).withConnections(1)
                    .withTimeouts(Duration.ofSeconds(2), Duration.ofMillis(300), Duration.ofSeconds(2));

            List<SendResult> results = send(settings, items(1));

            assertThat(results).singleElement().isInstanceOfSatisfying(SendResult.Transient.class,
                    t -> assertThat(t.text()).startsWith("timed out"));
        }
    }

    // Without a working write deadline the write blocks for good: fail instead of hanging.
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void a_relay_that_stops_reading_mid_message_times_the_write_out_as_transient() {
        // 354, then the relay reads nothing more: 32 MB cannot fit in the two sockets' buffers, so
        // the write blocks until the pool's write deadline closes the socket.
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .on("DATA", cmd -> Reply.of(354, "go ahead").thenStall())
                .start()) {
            SmtpSettings settings = settings(server.port()).withConnections(1)
                    .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofMillis(300));

            List<SendResult> results = send(settings, List.of(new LargeItem(1, 32 << 20)));

            assertThat(results).singleElement().isInstanceOfSatisfying(SendResult.Transient.class,
                    t -> assertThat(t.text()).contains("Write timed out"));
        }
    }

    /** A plain-text message of about {@code bytes} bytes. */
    private record LargeItem(long key, int bytes) implements Outgoing {
        @Override
        public MimeMessage build(Session session) throws RejectedMessageException {
            try {
                MimeMessage message = new MimeMessage(session);
                message.setFrom("news@example.com");
                message.setRecipients(Message.RecipientType.TO, "user@example.org");
                message.setSubject("Large");
                message.setText(("x".repeat(76) + "\n").repeat(bytes / 77), "UTF-8");
                return message;
            } catch (MessagingException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public Optional<String> envelopeFrom() {
            return Optional.empty();
        }
    }

    @Test
    void a_reconnect_on_timeouts_cut_short_by_the_deadline_that_times_out_is_not_attempted_not_unreachable() {
        // The greeting never comes. With a second left (the test clock stands still) the 5 s
        // timeouts are cut to half of it; the read times out after 500 ms. The relay was not shown
        // to be down: the run ran out of time.
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder().greeting(cmd -> Reply.silence()).start();
             SmtpPool pool = new SmtpPool(settings(server.port()).withConnections(1), SendRateLimiter.unlimited(),
                     TestMail.CLOCK)) {
            List<SendResult> results = send(pool, items(2), TestMail.NOW.plusSeconds(1), TestMail.NEVER);

            assertThat(results).containsExactly(new SendResult.NotAttempted(1), new SendResult.NotAttempted(2));
        }
    }

    @Test
    void a_connect_that_times_out_on_the_configured_timeouts_is_unreachable() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder().greeting(cmd -> Reply.silence()).start()) {
            SmtpSettings settings = settings(server.port()).withConnections(1)
                    .withTimeouts(Duration.ofSeconds(2), Duration.ofMillis(300), Duration.ofSeconds(2));

            List<SendResult> results = send(settings, items(2));

            assertThat(results.get(0)).isInstanceOfSatisfying(SendResult.Unreachable.class,
                    u -> assertThat(u.text()).startsWith("timed out"));
            assertThat(results.get(1)).isEqualTo(new SendResult.NotAttempted(2));
        }
    }

    @Test
    void an_authentication_failure_is_fatal_and_stops_the_batch() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .on("AUTH", cmd -> Reply.of(535, "5.7.8 authentication credentials invalid"))
                .start()) {
            SmtpSettings settings = settings(server.port()).withConnections(2).withAuth("user", Secret.of("wrong"));

            List<SendResult> results = send(settings, items(20));

            assertThat(results).hasSize(20);
            assertThat(results).filteredOn(r -> r instanceof SendResult.Fatal).isNotEmpty()
                    .allSatisfy(r -> assertThat(((SendResult.Fatal) r).reason()).contains("authentication failed"));
            assertThat(results).allSatisfy(r -> assertThat(r).isInstanceOfAny(SendResult.Fatal.class, SendResult.NotAttempted.class));
            assertThat(results).filteredOn(r -> r instanceof SendResult.NotAttempted).hasSizeGreaterThanOrEqualTo(18);
            assertThat(server.messages()).isEmpty();
        }
    }

    @Test
    void starttls_required_against_a_server_without_it_is_fatal_and_sends_nothing_in_plain_text() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder().extensions("PIPELINING").start()) {
            SmtpSettings settings = new SmtpSettings("127.0.0.1", server.port(), TlsMode.STARTTLS_REQUIRED,
                    Optional.empty(), Optional.empty(), Duration.ofSeconds(5), Duration.ofSeconds(5),
                    Duration.ofSeconds(5), "sender.example.com", 1, 0);

            List<SendResult> results = send(settings, items(3));

            assertThat(results.get(0)).isInstanceOfSatisfying(SendResult.Fatal.class,
                    f -> assertThat(f.reason()).contains("STARTTLS"));
            assertThat(results.subList(1, 3)).allSatisfy(r -> assertThat(r).isInstanceOf(SendResult.NotAttempted.class));
            assertThat(server.transcripts()).allSatisfy(lines -> assertThat(lines)
                    .noneMatch(line -> line.startsWith("MAIL") || line.startsWith("RCPT") || line.startsWith("DATA")));
            assertThat(server.messages()).isEmpty();
        }
    }

    @Test
    void implicit_tls_against_a_plain_text_server_is_fatal() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder().start()) {
            SmtpSettings settings = new SmtpSettings("127.0.0.1", server.port(), TlsMode.IMPLICIT,
                    Optional.empty(), Optional.empty(), Duration.ofSeconds(5), Duration.ofSeconds(5),
                    Duration.ofSeconds(5), "sender.example.com", 1, 0);

            List<SendResult> results = send(settings, items(2));

            assertThat(results.get(0)).isInstanceOfSatisfying(SendResult.Fatal.class,
                    f -> assertThat(f.reason()).startsWith("TLS failed"));
            assertThat(results.get(1)).isEqualTo(new SendResult.NotAttempted(2));
        }
    }

    @Test
    void four_connections_share_two_hundred_messages_each_sent_exactly_once() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                // A little latency per message so that all four connections get work.
                .onMessage(cmd -> Reply.ok().after(Duration.ofMillis(5)))
                .start()) {
            List<SendResult> results = send(settings(server.port()).withConnections(4), items(200));

            assertThat(results).hasSize(200).allSatisfy(r -> assertThat(r).isInstanceOf(SendResult.Sent.class));
            assertThat(results).extracting(SendResult::key).doesNotHaveDuplicates();
            assertThat(server.messages()).hasSize(200);
            Set<String> ids = server.messages().stream()
                    .map(m -> m.lines().filter(l -> l.startsWith("Message-ID:")).findFirst().orElseThrow())
                    .collect(Collectors.toSet());
            assertThat(ids).hasSize(200);
            assertThat(Set.copyOf(server.messageConnections())).hasSize(4);
            assertThat(server.connectionCount()).isEqualTo(4);
        }
    }

    @Test
    void the_envelope_sender_goes_into_mail_from_and_a_bad_one_is_rejected() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder().start()) {
            List<TestMail.Item> batch = List.of(
                    new TestMail.Item(1, "a@example.org", Optional.of("bounces+c7.r1@example.com")),
                    new TestMail.Item(2, "b@example.org", Optional.of("bounces@example.com>\r\nRCPT TO:<x@evil.test")));

            List<SendResult> results = send(settings(server.port()).withConnections(1), batch);

            assertThat(results.get(0)).isInstanceOf(SendResult.Sent.class);
            assertThat(results.get(1)).isInstanceOfSatisfying(SendResult.Permanent.class,
                    p -> assertThat(p.text()).startsWith("envelope sender:"));
            assertThat(server.transcripts().get(0)).contains("MAIL FROM:<bounces+c7.r1@example.com>")
                    .noneMatch(line -> line.contains("evil"));
        }
    }

    @Test
    void nothing_is_attempted_past_the_deadline_or_after_a_stop() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder().start();
             SmtpPool pool = new SmtpPool(settings(server.port()), SendRateLimiter.unlimited(), TestMail.CLOCK)) {
            assertThat(send(pool, items(5), TestMail.NOW, TestMail.NEVER))
                    .allSatisfy(r -> assertThat(r).isInstanceOf(SendResult.NotAttempted.class)).hasSize(5);
            assertThat(send(pool, items(5), TestMail.FAR, () -> true))
                    .allSatisfy(r -> assertThat(r).isInstanceOf(SendResult.NotAttempted.class)).hasSize(5);
            assertThat(server.connectionCount()).isZero();
        }
    }

    @Test
    void a_stop_requested_mid_batch_leaves_the_rest_not_attempted() {
        AtomicBoolean stop = new AtomicBoolean();
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .onMessage(cmd -> {
                    stop.set(true);
                    return Reply.ok();
                })
                .start();
             SmtpPool pool = new SmtpPool(settings(server.port()).withConnections(1), SendRateLimiter.unlimited(), TestMail.CLOCK)) {
            List<SendResult> results = send(pool, items(10), TestMail.FAR, stop::get);

            assertThat(results).hasSize(10);
            assertThat(results.get(0)).isInstanceOf(SendResult.Sent.class);
            assertThat(results.subList(1, 10)).allSatisfy(r -> assertThat(r).isInstanceOf(SendResult.NotAttempted.class));
        }
    }

    @Test
    void connections_are_reused_across_batches() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder().start();
             SmtpPool pool = new SmtpPool(settings(server.port()).withConnections(2), SendRateLimiter.unlimited(), TestMail.CLOCK)) {
            send(pool, items(10), TestMail.FAR, TestMail.NEVER);
            send(pool, items(10), TestMail.FAR, TestMail.NEVER);

            assertThat(server.messages()).hasSize(20);
            assertThat(server.connectionCount()).isEqualTo(2);
            assertThat(pool.connectionsOpened()).isEqualTo(2);
        }
    }
}
