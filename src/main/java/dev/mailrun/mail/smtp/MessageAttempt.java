package dev.mailrun.mail.smtp;

import dev.mailrun.mail.RejectedMessageException;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends one message of a batch on one connection and says what became of it.
 *
 * <ol>
 *   <li>Checks stop and deadline against the connection's {@link StartBudget}, builds the message
 *       and serialises it once ({@link WireMessage}).</li>
 *   <li>Makes sure the connection is open, then books a permit from the shared rate limiter, waiting
 *       no longer than the deadline allows.</li>
 *   <li>A connection lost mid-message (421, EOF, "Not connected") is reopened and the message tried
 *       once more before it counts as a transient failure.</li>
 *   <li>A "too fast" reply ends the session: the connection's next message opens a new one.</li>
 *   <li>A connection the relay turns away while it serves the others is the relay's limit: the
 *       connection retires and the {@link ConnectionSizer} keeps the pool at what the relay accepts.</li>
 * </ol>
 */
final class MessageAttempt {

    private static final Logger log = LoggerFactory.getLogger(MessageAttempt.class);

    /** @param retireConnection this connection could not be opened; it takes no more items */
    record Outcome(SendResult result, boolean retireConnection) {
        static Outcome of(SendResult result) {
            return new Outcome(result, false);
        }
    }

    private final SmtpSettings settings;
    private final Session session;
    private final Permits permits;
    private final ConnectionSizer sizer;
    private final PoolEvents events;
    private final Clock clock;
    private final IntSupplier openConnections;

    MessageAttempt(SmtpSettings settings, Session session, Permits permits, ConnectionSizer sizer, PoolEvents events,
                   Clock clock, IntSupplier openConnections) {
        this.settings = settings;
        this.session = session;
        this.permits = permits;
        this.sizer = sizer;
        this.events = events;
        this.clock = clock;
        this.openConnections = openConnections;
    }

    /**
     * @param halted true once the batch was halted: nothing more is started
     * @param built  told once the message is built (its recipient marked in flight), before the
     *               permit is waited for; not told when the attempt ends before that
     */
    Outcome send(SmtpConnection connection, Outgoing item, Instant deadline, BooleanSupplier stop, BooleanSupplier halted,
                 Runnable built) {
        long key = item.key();
        Duration needs = StartBudget.of(connection.perMessage().or(sizer::perMessage), sizer.deviation());
        if (stop.getAsBoolean() || halted.getAsBoolean() || remaining(deadline).compareTo(needs) < 0) {
            return Outcome.of(new SendResult.NotAttempted(key));
        }
        MimeMessage message;
        try {
            message = WireMessage.of(session, item.build(session));
            Optional<String> envelopeProblem = EnvelopeSender.problem(item.envelopeFrom());
            if (envelopeProblem.isPresent()) {
                return Outcome.of(new SendResult.Permanent(key, 0, envelopeProblem.get(), false));
            }
        } catch (RejectedMessageException e) {
            return Outcome.of(new SendResult.Permanent(key, 0, e.getMessage(), false));
        } catch (RuntimeException | MessagingException e) {
            // Not the recipient's data but the code building messages: it would fail for all of them.
            return Outcome.of(new SendResult.Fatal(key, "building the message failed: " + e));
        }
        built.run();
        // The connection is opened before the permit is taken: a permit stands for a MAIL FROM at
        // the relay, and a connect between the two would hold that message back while the next
        // ones go out on time, bunching them up in the relay's count. A retry takes a new permit,
        // since the relay counts the second MAIL FROM as well.
        SendResult previousFailure = null;
        for (int attempt = 1; ; attempt++) {
            Optional<Outcome> notOpen = open(connection, key, deadline, attempt);
            if (notOpen.isPresent()) {
                return notOpen.get();
            }
            Optional<Permits.Admitted> admitted = permits.await(item.pace(), () -> remaining(deadline), stop, needs);
            if (admitted.isEmpty()) {
                return Outcome.of(previousFailure != null ? previousFailure : new SendResult.NotAttempted(key));
            }
            // A no-op unless the wait for the permit left too little time for the open connection's timeouts.
            notOpen = open(connection, key, deadline, attempt);
            if (notOpen.isPresent()) {
                return notOpen.get();
            }
            try {
                Duration took = connection.send(message, item.envelopeFrom(), remaining(deadline), admitted.get()::leaving);
                sizer.observe(took.toNanos());
                return Outcome.of(new SendResult.Sent(key, messageId(message), clock.instant()));
            } catch (MessagingException e) {
                if (connection.cutAtDeadline()) {
                    connection.close();
                    // Started with its usual time left, and the relay took longer: it may have the
                    // message, so it counts as an attempt like a read timeout would.
                    return Outcome.of(new SendResult.Transient(key, 0,
                            "cut at the run's deadline: the relay had not answered", Optional.empty()));
                }
                Failure failure = FailureClassifier.classify(e);
                if (failure.connectionLost() || failure.kind() == Failure.Kind.THROTTLED) {
                    // After "too fast" the session ends (QUIT) and the next message opens a new
                    // one. A relay counts a session's refusals: Postfix answers every command a
                    // second late from the tenth and drops the session at the twentieth, and a run
                    // whose deadline cut such a late reply deferred its recipient for minutes.
                    connection.close();
                }
                previousFailure = failure.toResult(key);
                boolean retry = attempt == 1 && failure.retryOnNewConnection()
                        && remaining(deadline).compareTo(needs) >= 0 && !stop.getAsBoolean();
                if (!retry) {
                    return Outcome.of(previousFailure);
                }
                log.debug("connection lost while sending {}, retrying on a new connection: {}", key, failure.text());
            }
        }
    }

    /** Opens the connection if needed; empty when it is open, else the item's outcome. */
    private Optional<Outcome> open(SmtpConnection connection, long key, Instant deadline, int attempt) {
        Duration left = remaining(deadline);
        try {
            connection.ensureOpen(left);
            return Optional.empty();
        } catch (MessagingException e) {
            boolean cut = connection.cutAtDeadline();
            connection.close();
            Failure failure = FailureClassifier.classify(e);
            if (failure.kind() == Failure.Kind.FATAL) {
                return Optional.of(new Outcome(failure.toResult(key), false));
            }
            int others = openConnections.getAsInt();
            if (attempt == 1 && !cut && ConnectionLimit.reached(e, failure, others)) {
                // The relay serves the others and refuses one more: its limit, not a fault. This
                // connection retires and the pool stays at what the relay accepts.
                sizer.relayRefused(others);
                events.connectionLimitReached(others, failure.text());
                log.info("the relay turned connection {} away with {} open: {}", connection.timesOpened() + 1, others,
                        failure.text());
                return Optional.of(new Outcome(new SendResult.NotAttempted(key), true));
            }
            // Near the deadline a connection is reopened on timeouts cut to fit the time left. When
            // one of those runs out, the relay was only slower than the time left, not unreachable:
            // the run ran out of time, and saying the relay is down would send an operator looking
            // for a network fault that is not there. Nothing reached the relay for this message.
            if (attempt == 1 && (cut || FailureClassifier.timedOut(e) && ConnectionTimeouts.within(settings, left).cutShort(settings))) {
                return Optional.of(new Outcome(new SendResult.NotAttempted(key), true));
            }
            // Before the first try nothing reached the relay; after a lost connection it may have.
            SendResult result = attempt == 1 ? new SendResult.Unreachable(key, failure.text()) : failure.toResult(key);
            return Optional.of(new Outcome(result, true));
        }
    }

    private Duration remaining(Instant deadline) {
        return Duration.between(clock.instant(), deadline);
    }

    private static String messageId(MimeMessage message) {
        try {
            String id = message.getMessageID();
            return id == null ? "" : id;
        } catch (MessagingException e) {
            return "";
        }
    }
}
