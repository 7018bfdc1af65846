package dev.mailrun.mail.smtp;

import static dev.mailrun.mail.smtp.TestMail.CLOCK;
import static dev.mailrun.mail.smtp.TestMail.FAR;
import static dev.mailrun.mail.smtp.TestMail.NEVER;
import static dev.mailrun.mail.smtp.TestMail.items;
import static dev.mailrun.mail.smtp.TestMail.settings;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Batches dispatched one after another: the connections go on with the next while the last messages are on the wire. */
class SmtpPoolDispatchTest {

    @Test
    void a_connection_that_finishes_its_batch_takes_the_next_while_a_message_of_the_batch_before_is_on_the_wire() {
        CountDownLatch release = new CountDownLatch(1);
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .on("RCPT", cmd -> {
                    if (cmd.argument().contains("<user1@")) {
                        awaitQuietly(release);
                    }
                    return Reply.ok();
                })
                .start()) {
            SmtpSettings settings = settings(server.port()).withConnections(2, 2);
            try (SmtpPool pool = new SmtpPool(settings, SendRateLimiter.unlimited(), CLOCK)) {
                Queue<SendResult> results = new ConcurrentLinkedQueue<>();
                List<TestMail.Item> all = items(6);

                // user1's RCPT is held at the relay; the batch ends once both were handed out and built.
                pool.dispatch(all.subList(0, 2), FAR, NEVER, results::add);
                // The other connection sends the whole next batch meanwhile.
                pool.dispatch(all.subList(2, 6), FAR, NEVER, results::add);

                assertThat(results).extracting(SendResult::key).doesNotContain(1L).contains(2L, 3L, 4L, 5L);
                release.countDown();
                pool.awaitIdle();

                assertThat(results).hasSize(6).allMatch(r -> r instanceof SendResult.Sent);
                assertThat(results).extracting(SendResult::key).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L);
                assertThat(server.messages()).hasSize(6);
                assertThat(server.connectionCount()).isEqualTo(2);
            }
        }
    }

    @Test
    void items_a_halted_batch_never_handed_out_come_back_not_attempted_at_its_dispatch() {
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder().start()) {
            SmtpSettings settings = settings(server.port()).withConnections(1, 1);
            try (SmtpPool pool = new SmtpPool(settings, SendRateLimiter.unlimited(), CLOCK)) {
                Queue<SendResult> results = new ConcurrentLinkedQueue<>();
                pool.dispatch(items(5), FAR, () -> true, results::add);

                assertThat(results).hasSize(5).allMatch(r -> r instanceof SendResult.NotAttempted);
                pool.awaitIdle();
                assertThat(results).hasSize(5);
                assertThat(server.messages()).isEmpty();
            }
        }
    }

    @Test
    void a_batch_handed_in_while_every_connection_is_lost_on_the_batch_before_still_tries_the_relay() throws Exception {
        AtomicBoolean gone = new AtomicBoolean();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch bothAtMail = new CountDownLatch(2);
        // The pool tells its size after a batch's connections were set to work, then again once it was
        // handed out: the third time is the second batch's start, every connection still on the first.
        CountDownLatch secondHandedIn = new CountDownLatch(3);
        PoolEvents events = new PoolEvents() {
            @Override
            public void connectionsSized(ConnectionReport report) {
                secondHandedIn.countDown();
            }
        };
        try (ScriptedSmtpServer server = ScriptedSmtpServer.builder()
                .greeting(cmd -> gone.get() ? Reply.drop() : Reply.of(220, "ready"))
                .on("MAIL", cmd -> {
                    bothAtMail.countDown();
                    awaitQuietly(release);
                    return Reply.drop();
                })
                .start();
             SmtpPool pool = new SmtpPool(settings(server.port()).withConnections(2, 2), SendRateLimiter.unlimited(),
                     CLOCK, events)) {
            ExecutorService dispatcher = Executors.newSingleThreadExecutor();
            try {
                Queue<SendResult> results = new ConcurrentLinkedQueue<>();
                List<TestMail.Item> all = items(4);
                pool.dispatch(all.subList(0, 2), FAR, NEVER, results::add);
                Future<?> second = dispatcher.submit(() -> pool.dispatch(all.subList(2, 4), FAR, NEVER, results::add));
                assertThat(secondHandedIn.await(5, TimeUnit.SECONDS)).as("the second batch handed in").isTrue();
                assertThat(bothAtMail.await(5, TimeUnit.SECONDS)).as("both sessions at MAIL FROM").isTrue();

                // The relay goes away: both sessions are dropped at MAIL FROM and cannot be opened again.
                gone.set(true);
                release.countDown();
                second.get(10, TimeUnit.SECONDS);
                pool.awaitIdle();

                assertThat(results).filteredOn(r -> r.key() <= 2).hasSize(2).allMatch(r -> r instanceof SendResult.Transient);
                // The second batch was tried: the relay is found unreachable, not handed back untried as if
                // nothing were wrong (the caller marks a relay down on Unreachable and fails over).
                List<SendResult> secondBatch = results.stream().filter(r -> r.key() > 2).toList();
                assertThat(secondBatch).hasSize(2)
                        .allMatch(r -> r instanceof SendResult.Unreachable || r instanceof SendResult.NotAttempted)
                        .anyMatch(r -> r instanceof SendResult.Unreachable);
                assertThat(server.messages()).isEmpty();
            } finally {
                dispatcher.shutdownNow();
            }
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(4, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
