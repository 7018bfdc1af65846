package dev.mailrun.mail.smtp;

import dev.mailrun.mail.HeaderValues;
import dev.mailrun.mail.RejectedMessageException;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends batches over {@code smtp.connections} parallel SMTP connections to one relay.
 *
 * <ol>
 *   <li>Each connection has its own thread and transport, opened on first use and reused for
 *       many messages and batches.</li>
 *   <li>Threads take the next item of the batch under one lock, so items are handed out in
 *       order while the slow SMTP conversations run in parallel.</li>
 *   <li>Before sending, a thread checks stop and deadline, builds the message and serialises it
 *       once ({@link WireMessage}), makes sure its connection is open, and books a permit from the
 *       shared rate limiter, waiting no longer than the deadline allows.</li>
 *   <li>A connection lost mid-message (421, EOF, "Not connected") is reopened and the message tried
 *       once more before it counts as a transient failure.</li>
 *   <li>A fatal failure (authentication, TLS) halts the batch: messages not yet taken are reported
 *       {@link SendResult.NotAttempted}.</li>
 * </ol>
 * Every item gets exactly one result, delivered to the callback from the sending threads as each
 * message finishes (items never taken are reported from the calling thread at the end).
 *
 * <p>Over 250 lines as one piece: handing out items, the connections' threads, reconnects and the
 * one-result-per-item rule share one lock and one batch state; apart, an item could get two results or none.
 */
public final class SmtpPool implements AutoCloseable {

    static {
        dev.mailrun.mail.StreamProviders.pin();
    }


    /**
     * Less time than this left and a message is not started: it would likely time out half-sent. A
     * caller sizing batches for a deadline keeps this much free after the last message's rate slot.
     */
    public static final Duration MIN_BUDGET = Duration.ofMillis(250);
    /** How often a thread waiting for a rate permit checks whether it was asked to stop. */
    private static final long STOP_CHECK_NANOS = Duration.ofMillis(50).toNanos();

    private static final Logger log = LoggerFactory.getLogger(SmtpPool.class);

    private final SmtpSettings settings;
    private final SendRateLimiter limiter;
    private final Clock clock;
    private final PoolEvents events;
    private final Session compositionSession;
    private final List<SmtpConnection> connections = new ArrayList<>();
    private final ExecutorService threads;
    private final WriteDeadlines writeDeadlines;
    private final Object batchLock = new Object();

    public SmtpPool(SmtpSettings settings, SendRateLimiter limiter, Clock clock) {
        this(settings, limiter, clock, PoolEvents.NONE);
    }

    /** @param events told of permit waits and of connections opened and closed */
    public SmtpPool(SmtpSettings settings, SendRateLimiter limiter, Clock clock, PoolEvents events) {
        this.events = Objects.requireNonNull(events, "events");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.limiter = Objects.requireNonNull(limiter, "limiter");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.compositionSession = Session.getInstance(SmtpConnection.properties(settings,
                ConnectionTimeouts.within(settings, Duration.ofDays(1))));
        this.writeDeadlines = WriteDeadlines.watched("smtp-write-deadlines");
        for (int i = 0; i < settings.connections(); i++) {
            connections.add(new SmtpConnection(settings, events, writeDeadlines));
        }
        this.threads = Executors.newFixedThreadPool(settings.connections(), namedDaemonThreads());
        if (settings.username().isPresent() && (settings.tls() == TlsMode.NONE || settings.tls() == TlsMode.STARTTLS_OPTIONAL)) {
            log.warn("smtp.tls={} with AUTH: the password may cross the network in plain text", settings.tls());
        }
    }

    /** The session messages are built with; it never triggers DNS lookups. */
    Session session() {
        return compositionSession;
    }

    /**
     * Sends one batch and returns when every item has its result. One batch at a time per pool.
     *
     * @param deadline nothing is started, and no rate permit waited for, past this instant
     * @param stop     checked before each message and while waiting for a permit
     * @param results  called once per item, concurrently from the sending threads
     */
    public void sendBatch(List<? extends Outgoing> batch, Instant deadline, BooleanSupplier stop,
                          Consumer<SendResult> results) {
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(stop, "stop");
        Objects.requireNonNull(results, "results");
        synchronized (batchLock) {
            BatchCursor<Outgoing> cursor = new BatchCursor<>(batch);
            AtomicReference<RuntimeException> callbackFailure = new AtomicReference<>();
            List<Future<?>> running = new ArrayList<>();
            int workers = Math.min(connections.size(), batch.size());
            for (int i = 0; i < workers; i++) {
                SmtpConnection connection = connections.get(i);
                running.add(threads.submit(() -> work(connection, cursor, deadline, stop, results, callbackFailure)));
            }
            awaitAll(running, cursor);
            for (Outgoing item : cursor.remaining()) {
                results.accept(new SendResult.NotAttempted(item.key()));
            }
            if (callbackFailure.get() != null) {
                throw new IllegalStateException("the results callback failed; the batch was halted",
                        callbackFailure.get());
            }
        }
    }

    private void work(SmtpConnection connection, BatchCursor<Outgoing> cursor, Instant deadline,
                      BooleanSupplier stop, Consumer<SendResult> results,
                      AtomicReference<RuntimeException> callbackFailure) {
        Optional<Outgoing> item;
        while ((item = cursor.next()).isPresent()) {
            Outcome outcome = sendOne(connection, item.get(), deadline, stop, cursor);
            try {
                results.accept(outcome.result());
            } catch (RuntimeException e) {
                callbackFailure.compareAndSet(null, e);
                cursor.halt();
                return;
            }
            if (outcome.result() instanceof SendResult.Fatal fatal) {
                log.error("halting the batch: {}", fatal.reason());
                cursor.halt();
            }
            if (outcome.retireConnection()) {
                // The relay could not be reached: leave the rest to connections that work, or to
                // the caller's next batch, instead of failing every remaining message here.
                return;
            }
        }
    }

    /** @param retireConnection this connection could not be opened; it takes no more items */
    private record Outcome(SendResult result, boolean retireConnection) {
        static Outcome of(SendResult result) {
            return new Outcome(result, false);
        }
    }

    private Outcome sendOne(SmtpConnection connection, Outgoing item, Instant deadline, BooleanSupplier stop,
                            BatchCursor<Outgoing> cursor) {
        long key = item.key();
        if (stop.getAsBoolean() || cursor.halted() || remaining(deadline).compareTo(MIN_BUDGET) < 0) {
            return Outcome.of(new SendResult.NotAttempted(key));
        }
        MimeMessage message;
        try {
            message = WireMessage.of(compositionSession, item.build(compositionSession));
            Optional<String> envelopeProblem = envelopeFromProblem(item.envelopeFrom());
            if (envelopeProblem.isPresent()) {
                return Outcome.of(new SendResult.Permanent(key, 0, envelopeProblem.get(), false));
            }
        } catch (RejectedMessageException e) {
            return Outcome.of(new SendResult.Permanent(key, 0, e.getMessage(), false));
        } catch (RuntimeException | MessagingException e) {
            // Not the recipient's data but the code building messages: it would fail for all of them.
            return Outcome.of(new SendResult.Fatal(key, "building the message failed: " + e));
        }
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
            if (!awaitPermit(item.pace(), deadline, stop)) {
                return Outcome.of(previousFailure != null ? previousFailure : new SendResult.NotAttempted(key));
            }
            // A no-op unless the wait for the permit left too little time for the open connection's timeouts.
            notOpen = open(connection, key, deadline, attempt);
            if (notOpen.isPresent()) {
                return notOpen.get();
            }
            try {
                connection.send(message, item.envelopeFrom());
                return Outcome.of(new SendResult.Sent(key, messageId(message), clock.instant()));
            } catch (MessagingException e) {
                Failure failure = FailureClassifier.classify(e);
                if (failure.connectionLost()) {
                    connection.close();
                }
                previousFailure = failure.toResult(key);
                boolean retry = attempt == 1 && failure.retryOnNewConnection()
                        && remaining(deadline).compareTo(MIN_BUDGET) >= 0 && !stop.getAsBoolean();
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
            connection.close();
            Failure failure = FailureClassifier.classify(e);
            if (failure.kind() == Failure.Kind.FATAL) {
                return Optional.of(new Outcome(failure.toResult(key), false));
            }
            // Near the deadline a connection is reopened on timeouts cut to fit the time left. When
            // one of those runs out, the relay was only slower than the time left, not unreachable:
            // the run ran out of time, and saying the relay is down would send an operator looking
            // for a network fault that is not there. Nothing reached the relay for this message.
            if (attempt == 1 && FailureClassifier.timedOut(e) && ConnectionTimeouts.within(settings, left).cutShort(settings)) {
                return Optional.of(new Outcome(new SendResult.NotAttempted(key), true));
            }
            // Before the first try nothing reached the relay; after a lost connection it may have.
            SendResult result = attempt == 1 ? new SendResult.Unreachable(key, failure.text()) : failure.toResult(key);
            return Optional.of(new Outcome(result, true));
        }
    }

    /** The envelope sender's problem, if it has one; empty when it is absent or a bare address. */
    private static Optional<String> envelopeFromProblem(Optional<String> envelopeFrom) {
        if (envelopeFrom.isEmpty()) {
            return Optional.empty();
        }
        String sender = envelopeFrom.get();
        Optional<String> problem = HeaderValues.check("envelope sender", sender);
        if (problem.isPresent()) {
            return problem;
        }
        try {
            InternetAddress parsed = new InternetAddress(sender, true);
            if (parsed.getPersonal() != null || !parsed.getAddress().equals(sender)) {
                return Optional.of("envelope sender: '" + sender + "' must be a bare address");
            }
        } catch (AddressException e) {
            return Optional.of("envelope sender: '" + sender + "' is not a valid address (" + e.getMessage() + ")");
        }
        // The connection hands it to the transport (mail.smtp.from) when it sends.
        return Optional.empty();
    }

    /**
     * Books a rate permit, waits for it, then passes the send window; false when no permit comes in
     * time or a stop was requested. Returning true means the message counts as sent from now.
     */
    private boolean awaitPermit(Optional<SendRateLimiter> pace, Instant deadline, BooleanSupplier stop) {
        long start = System.nanoTime();
        // The item's own pace first: a message held back by its domain then takes the relay's next
        // permit, so the relay's count never sees it bunched up with the others.
        boolean permitted = (pace.isEmpty() || awaitPermitUntimed(pace.get(), deadline, stop))
                && awaitPermitUntimed(limiter, deadline, stop);
        if (permitted) {
            events.permitWaited(Duration.ofNanos(System.nanoTime() - start));
        }
        return permitted;
    }

    private boolean awaitPermitUntimed(SendRateLimiter limiter, Instant deadline, BooleanSupplier stop) {
        Optional<Duration> wait = limiter.reserve(remaining(deadline).minus(MIN_BUDGET));
        if (wait.isEmpty()) {
            return false;
        }
        if (!park(wait.get(), stop)) {
            return false;
        }
        for (Duration again = limiter.admit(); !again.isZero(); again = limiter.admit()) {
            if (remaining(deadline).compareTo(MIN_BUDGET) < 0 || !park(again, stop)) {
                return false;
            }
        }
        return true;
    }

    /** Waits for {@code wait}; false when a stop was requested meanwhile. */
    private static boolean park(Duration wait, BooleanSupplier stop) {
        long until = System.nanoTime() + wait.toNanos();
        for (long left = wait.toNanos(); left > 0; left = until - System.nanoTime()) {
            if (stop.getAsBoolean()) {
                return false;
            }
            LockSupport.parkNanos(Math.min(left, STOP_CHECK_NANOS));
        }
        return !stop.getAsBoolean();
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

    private static void awaitAll(List<Future<?>> running, BatchCursor<Outgoing> cursor) {
        boolean interrupted = false;
        for (Future<?> future : running) {
            while (true) {
                try {
                    future.get();
                    break;
                } catch (InterruptedException e) {
                    // Stop handing out work, but wait for messages in flight: each needs its result.
                    interrupted = true;
                    cursor.halt();
                } catch (ExecutionException e) {
                    throw new IllegalStateException("a sending thread failed unexpectedly", e.getCause());
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Connections opened so far, summed over all connections (reconnects included). */
    int connectionsOpened() {
        synchronized (batchLock) {
            return connections.stream().mapToInt(SmtpConnection::timesOpened).sum();
        }
    }

    @Override
    public void close() {
        synchronized (batchLock) {
            threads.shutdownNow();
            connections.forEach(SmtpConnection::close);
            writeDeadlines.shutdownNow();
        }
    }

    private static ThreadFactory namedDaemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "smtp-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
