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
import java.util.concurrent.TimeUnit;
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

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(4, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
