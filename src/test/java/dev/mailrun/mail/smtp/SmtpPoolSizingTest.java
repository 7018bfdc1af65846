package dev.mailrun.mail.smtp;

import static dev.mailrun.mail.smtp.TestMail.CLOCK;
import static dev.mailrun.mail.smtp.TestMail.FAR;
import static dev.mailrun.mail.smtp.TestMail.NEVER;
import static dev.mailrun.mail.smtp.TestMail.items;
import static dev.mailrun.mail.smtp.TestMail.send;
import static dev.mailrun.mail.smtp.TestMail.settings;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The pool sized to the rate at the measured time per message, against scripted relays over sockets. */
class SmtpPoolSizingTest {

    /**
     * A nano clock that moves {@code step} at every reading, on each thread by itself: one message on
     * one connection measures one step, however the other connections' readings fall between its own.
     */
    private static final class SteppingNanos implements java.util.function.LongSupplier {
        private final ThreadLocal<long[]> now = ThreadLocal.withInitial(() -> new long[1]);
        private final long step;

        SteppingNanos(Duration step) {
            this.step = step.toNanos();
        }

        @Override
        public long getAsLong() {
            long[] mine = now.get();
            mine[0] += step;
            return mine[0];
        }
    }

    @Test
    void grows_to_the_count_the_rate_needs_and_no_further_than_max_connections() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder().start()) {
            // 100 ms per message at 50/s: 5 busy connections, 7 with the margin and the spare.
            SmtpSettings settings = settings(server.port()).withConnections(1, 6);
            try (SmtpPool pool = new SmtpPool(settings, new SendRateLimiter(50), CLOCK, PoolEvents.NONE,
                    new SteppingNanos(Duration.ofMillis(100)))) {
                // One message: measured before any other could join it.
                send(pool, items(1), FAR, NEVER);
                assertThat(server.connectionCount()).isEqualTo(1);
                assertThat(pool.report().limitsRate()).isTrue();
                assertThat(pool.report().describe()).startsWith("1 at 100 ms per message reach 10/s of 50/s; growing to 6");

                List<SendResult> results = send(pool, items(30), FAR, NEVER);

                assertThat(results).allMatch(r -> r instanceof SendResult.Sent);
                assertThat(server.connectionCount()).isEqualTo(6);
                assertThat(pool.report().ceiling()).isEqualTo(6);
                assertThat(pool.report().needed()).contains(8);
            }
        }
    }

    @Test
    void a_relay_refusing_connections_as_too_many_caps_the_pool_and_nothing_counts_as_failed() {
        List<String> limits = new CopyOnWriteArrayList<>();
        PoolEvents events = new PoolEvents() {
            @Override
            public void connectionLimitReached(int open, String reply) {
                limits.add(open + ": " + reply);
            }
        };
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .greeting(cmd -> cmd.connection() > 3
                        ? Reply.of(421, "4.7.0 Error: too many connections from 127.0.0.1").thenDrop() : Reply.of(220, "ready"))
                .on("MAIL", cmd -> Reply.ok().after(Duration.ofMillis(30)))
                .start()) {
            SmtpSettings settings = settings(server.port()).withConnections(8, 16);
            try (SmtpPool pool = new SmtpPool(settings, new SendRateLimiter(1000), CLOCK, events)) {
                List<SendResult> first = send(pool, items(40), FAR, NEVER);

                assertThat(first).allMatch(r -> r instanceof SendResult.Sent || r instanceof SendResult.NotAttempted);
                assertThat(first).filteredOn(r -> r instanceof SendResult.Sent).hasSizeGreaterThanOrEqualTo(30);
                assertThat(limits).isNotEmpty().allMatch(l -> l.contains("too many connections"));
                int ceiling = pool.report().ceiling();
                assertThat(ceiling).isBetween(1, 3);
                int accepted = server.connectionCount();

                List<SendResult> second = send(pool, items(20), FAR, NEVER);

                assertThat(second).allMatch(r -> r instanceof SendResult.Sent);
                assertThat(server.connectionCount()).as("no connection beyond the ceiling is tried again")
                        .isEqualTo(accepted);
            }
        }
    }

    @Test
    void per_message_only_mail_rcpt_and_data_or_bdat_reach_the_relay() {
        for (boolean chunking : new boolean[] {false, true}) {
            ScriptedSmtpServer.Builder builder = ScriptedSmtpServer.builder();
            if (chunking) {
                builder.extensions("PIPELINING", "CHUNKING", "8BITMIME");
            } else {
                builder.extensions("PIPELINING", "8BITMIME");
            }
            try (ScriptedSmtpServer server = builder.start()) {
                send(settings(server.port()).withConnections(1).withChunking(true), items(4));

                List<String> verbs = server.transcripts().get(0).stream()
                        .map(line -> line.split(" ")[0]).toList();
                List<String> perMessage = chunking ? List.of("MAIL", "RCPT", "BDAT") : List.of("MAIL", "RCPT", "DATA");
                assertThat(verbs.subList(0, 1)).containsExactly("EHLO");
                // After DATA the transcript holds the body's lines; only commands are compared (QUIT,
                // sent as the pool closes without waiting for its reply, may or may not be recorded yet).
                List<String> commands = verbs.stream().filter(v -> List.of("EHLO", "MAIL", "RCPT", "DATA", "BDAT",
                        "NOOP", "RSET", "HELO").contains(v)).toList();
                assertThat(commands.subList(1, commands.size()))
                        .containsExactlyElementsOf(java.util.Collections.nCopies(4, perMessage).stream()
                                .flatMap(List::stream).toList());
            }
        }
    }

    /** One message built once, so that both relays get the same MIME boundaries. */
    private record Prebuilt(long key, jakarta.mail.internet.MimeMessage message) implements Outgoing {
        @Override
        public jakarta.mail.internet.MimeMessage build(jakarta.mail.Session session) {
            return message;
        }

        @Override
        public java.util.Optional<String> envelopeFrom() {
            return java.util.Optional.empty();
        }
    }

    @Test
    void bdat_is_used_when_offered_and_delivers_the_same_bytes_as_data() throws Exception {
        jakarta.mail.Session session = jakarta.mail.Session.getInstance(new java.util.Properties());
        List<Prebuilt> batch = new java.util.ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            // No line starts with a dot: Angus Mail 2.0.5 dot-stuffs BDAT content as if it were DATA
            // (eclipse-ee4j/angus-mail#209), which is why smtp.chunking is off by default.
            batch.add(new Prebuilt(i, TestMail.COMPOSER.compose(session, TestMail.fields(i, "user" + i + "@example.org"),
                    new dev.mailrun.mail.template.RenderedContent("Message " + i, "first line\nGrüße " + i + "\n",
                            "<p>Html " + i + "</p>\n"))));
        }
        try (ScriptedSmtpServer plain = ScriptedSmtpServer.builder().extensions("8BITMIME").start();
             ScriptedSmtpServer chunked = ScriptedSmtpServer.builder().extensions("8BITMIME", "CHUNKING").start()) {
            send(settings(plain.port()).withConnections(1).withChunking(true), batch);
            send(settings(chunked.port()).withConnections(1).withChunking(true), batch);

            assertThat(chunked.transcripts().get(0)).anyMatch(line -> line.matches("BDAT \\d+ LAST"));
            assertThat(chunked.messages()).hasSize(3).containsExactlyElementsOf(plain.messages());
        }
    }

    @Test
    void bdat_is_off_unless_asked_for() {
        try (ScriptedSmtpServer chunked = ScriptedSmtpServer.builder().extensions("CHUNKING").start()) {
            send(settings(chunked.port()).withConnections(1), items(1));

            assertThat(chunked.transcripts().get(0)).contains("DATA").noneMatch(line -> line.startsWith("BDAT"));
        }
    }

    @Test
    void against_a_slow_relay_no_message_ends_after_the_deadline() {
        // Real time: what is measured is how long the relay takes over a real socket.
        Clock clock = Clock.systemUTC();
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .onMessage(cmd -> cmd.messageInConnection() == 4
                        ? Reply.ok().after(Duration.ofSeconds(20)) : Reply.ok().after(Duration.ofMillis(200)))
                .start();
             SmtpPool pool = new SmtpPool(settings(server.port()).withConnections(1)
                     .withTimeouts(Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofSeconds(30)),
                     SendRateLimiter.unlimited(), clock)) {
            Instant deadline = clock.instant().plusMillis(1500);

            List<SendResult> results = send(pool, items(10), deadline, NEVER);
            Instant returned = clock.instant();

            assertThat(results).filteredOn(r -> r instanceof SendResult.Sent).hasSize(3)
                    .allMatch(r -> !((SendResult.Sent) r).at().isAfter(deadline));
            // The fourth message was started in time and the relay sat on it: cut at the deadline,
            // not after the 30 s read timeout.
            assertThat(results.get(3)).isEqualTo(new SendResult.Transient(4, 0,
                    "cut at the run's deadline: the relay had not answered", java.util.Optional.empty()));
            assertThat(results.subList(4, 10)).allMatch(r -> r instanceof SendResult.NotAttempted);
            assertThat(returned).isBefore(deadline.plusSeconds(5));
        }
    }
    /** A message its domain's pace holds back: one of a capped group's recipients. */
    private record PacedItem(TestMail.Item item, SendRateLimiter limiter) implements Outgoing {
        @Override
        public long key() {
            return item.key();
        }

        @Override
        public jakarta.mail.internet.MimeMessage build(jakarta.mail.Session session)
                throws dev.mailrun.mail.RejectedMessageException {
            return item.build(session);
        }

        @Override
        public java.util.Optional<String> envelopeFrom() {
            return item.envelopeFrom();
        }

        @Override
        public java.util.Optional<SendRateLimiter> pace() {
            return java.util.Optional.of(limiter);
        }
    }

    @Test
    void with_only_paced_messages_left_a_message_waiting_for_its_pace_opens_no_connection_for_the_next() {
        // Real time: the pace lets one message go every 50 ms, so the messages of the batch wait for it.
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder().start();
             SmtpPool pool = new SmtpPool(settings(server.port()).withConnections(1, 16), new SendRateLimiter(50), CLOCK)) {
            SendRateLimiter pace = new SendRateLimiter(20);
            List<PacedItem> batch = items(12).stream().map(item -> new PacedItem(item, pace)).toList();

            List<SendResult> results = send(pool, batch, FAR, NEVER);

            assertThat(results).hasSize(12).allMatch(r -> r instanceof SendResult.Sent);
            // What the relay's rate needs (2 with the spare at 50/s and a few ms a message); the
            // connections a waiting message adds are for messages no pace holds back, and none is
            // left. One for each waiting message opened 11 or 12, each booking the pace further ahead.
            assertThat(server.connectionCount()).isLessThanOrEqualTo(3);
        }
    }

    @Test
    void a_cursor_counts_the_items_left_that_no_pace_holds_back() {
        BatchCursor<Integer> cursor = new BatchCursor<>(List.of(1, 2, 3, 4, 5), i -> i % 2 == 0);
        assertThat(cursor.unpacedLeft()).isEqualTo(2);
        cursor.next();
        cursor.next();
        assertThat(cursor.unpacedLeft()).isEqualTo(1);
        cursor.halt();
        assertThat(cursor.unpacedLeft()).isZero();
    }
}
