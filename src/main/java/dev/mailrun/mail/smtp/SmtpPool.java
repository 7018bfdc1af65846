package dev.mailrun.mail.smtp;

import dev.mailrun.mail.RejectedMessageException;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends batches over parallel SMTP connections to one relay: {@code smtp.connections} at first,
 * then as many as the rate needs at the measured time per message, up to {@code
 * smtp.max-connections} and the relay's own limit ({@link ConnectionSizer}).
 *
 * <ol>
 *   <li>Each connection has its own thread and transport, opened on first use and reused for
 *       many messages and batches; one left unused for {@link #IDLE_CLOSE} is closed.</li>
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
 * <p>Over 400 lines as one piece (permits, the envelope check and the crew of a batch are already
 * their own classes; what is left shares the batch lock): handing out items, the connections' threads, reconnects and the
 * one-result-per-item rule share one lock and one batch state; apart, an item could get two results or none.
 */
public final class SmtpPool implements AutoCloseable {

    static {
        dev.mailrun.mail.StreamProviders.pin();
    }


    /**
     * Less time than this left and a message is not started while its connection's time per message
     * is unknown: it would likely be cut off half-sent. A caller sizing batches for a deadline keeps
     * this much free after the last message's rate slot.
     */
    public static final Duration MIN_BUDGET = Duration.ofMillis(250);
    /**
     * The least time left a message is started with once its connection's time is measured: a relay
     * on the same network answers in a few milliseconds, and keeping 250 ms free before every
     * deadline would leave the relay idle that long at every run boundary.
     */
    public static final Duration MIN_MEASURED_BUDGET = Duration.ofMillis(25);
    /** A connection the pool no longer needs is closed after this long unused. */
    static final Duration IDLE_CLOSE = Duration.ofSeconds(5);
    /** A message is started only with this many times its connection's usual time left. */
    private static final double START_MARGIN = 1.5;

    private static final Logger log = LoggerFactory.getLogger(SmtpPool.class);

    private final SmtpSettings settings;
    private final SendRateLimiter limiter;
    private final Clock clock;
    private final PoolEvents events;
    private final Session compositionSession;
    private final List<SmtpConnection> connections = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final ExecutorService threads;
    private final WriteDeadlines writeDeadlines;
    private final ConnectionSizer sizer;
    private final Permits permits;
    private final LongSupplier nanoTime;
    private final Object batchLock = new Object();

    public SmtpPool(SmtpSettings settings, SendRateLimiter limiter, Clock clock) {
        this(settings, limiter, clock, PoolEvents.NONE);
    }

    /** @param events told of permit waits and of connections opened and closed */
    public SmtpPool(SmtpSettings settings, SendRateLimiter limiter, Clock clock, PoolEvents events) {
        this(settings, limiter, clock, events, System::nanoTime);
    }

    /** @param nanoTime what message times and idle connections are measured with */
    SmtpPool(SmtpSettings settings, SendRateLimiter limiter, Clock clock, PoolEvents events,
             LongSupplier nanoTime) {
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.events = Objects.requireNonNull(events, "events");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.limiter = Objects.requireNonNull(limiter, "limiter");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.compositionSession = Session.getInstance(SmtpConnection.properties(settings,
                ConnectionTimeouts.within(settings, Duration.ofDays(1))));
        this.writeDeadlines = WriteDeadlines.watched("smtp-write-deadlines");
        this.sizer = new ConnectionSizer(settings.connections(), settings.maxConnections());
        this.permits = new Permits(limiter, events);
        // Threads are made as connections are first used: a pool that never grows keeps its start count.
        this.threads = Executors.newFixedThreadPool(settings.maxConnections(), namedDaemonThreads());
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
            BatchCrew[] crew = new BatchCrew[1];
            crew[0] = new BatchCrew(cursor, threads,
                    connection -> work(connection, cursor, deadline, stop, results, callbackFailure, crew[0]));
            crew[0].start(resize(batch.size()));
            crew[0].awaitAll();
            // Again at the end, with the connections the batch opened and what it measured.
            events.connectionsSized(report());
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
                      AtomicReference<RuntimeException> callbackFailure, BatchCrew crew) {
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
                crew.retired();
                return;
            }
            crew.grow(() -> sizer.target(limiter.rate()), () -> spare(crew));
        }
    }

    /** A connection the batch does not use yet, an open one first; a new one while the pool is below its target; else null. */
    private SmtpConnection spare(BatchCrew crew) {
        SmtpConnection closed = null;
        for (SmtpConnection c : connections) {
            if (!crew.uses(c)) {
                if (c.isOpen()) {
                    return c;
                }
                closed = closed == null ? c : closed;
            }
        }
        if (closed != null) {
            return closed;
        }
        if (connections.size() < sizer.target(limiter.rate())) {
            SmtpConnection fresh = new SmtpConnection(settings, events, writeDeadlines, nanoTime);
            connections.add(fresh);
            return fresh;
        }
        return null;
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
        Duration needs = startBudget(connection);
        if (stop.getAsBoolean() || cursor.halted() || remaining(deadline).compareTo(needs) < 0) {
            return Outcome.of(new SendResult.NotAttempted(key));
        }
        MimeMessage message;
        try {
            message = WireMessage.of(compositionSession, item.build(compositionSession));
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
            if (!permits.await(item.pace(), () -> remaining(deadline), stop, needs)) {
                return Outcome.of(previousFailure != null ? previousFailure : new SendResult.NotAttempted(key));
            }
            // A no-op unless the wait for the permit left too little time for the open connection's timeouts.
            notOpen = open(connection, key, deadline, attempt);
            if (notOpen.isPresent()) {
                return notOpen.get();
            }
            try {
                Duration took = connection.send(message, item.envelopeFrom(), remaining(deadline));
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
                if (failure.connectionLost()) {
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
            int others = openConnections();
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

    /**
     * The time a message needs left before it is started: its connection's usual time per message
     * (the pool's before the connection has sent one) with half again as margin, never less than
     * {@link #MIN_MEASURED_BUDGET}; {@link #MIN_BUDGET} while nothing is measured. A message started
     * with less would likely end after the deadline.
     */
    private Duration startBudget(SmtpConnection connection) {
        return startBudget(connection.perMessage().or(this::poolPerMessage));
    }

    /**
     * The time a message needs left to be started on a connection whose time is not known apart
     * from the pool's: what a caller sizing work for a deadline keeps free after its last message.
     */
    public Duration startBudget() {
        return startBudget(poolPerMessage());
    }

    private static Duration startBudget(Optional<Duration> usual) {
        if (usual.isEmpty()) {
            return MIN_BUDGET;
        }
        Duration needs = Duration.ofNanos((long) (usual.get().toNanos() * START_MARGIN));
        return needs.compareTo(MIN_MEASURED_BUDGET) < 0 ? MIN_MEASURED_BUDGET : needs;
    }

    /**
     * Sizes the pool for the next batch and returns the connections it uses: as many as the target
     * (at most one per item), open ones first, so that a pool capped by the relay keeps the
     * connections the relay accepted. New ones are opened on first use; those left out that sat
     * unused for {@link #IDLE_CLOSE} are closed.
     */
    private List<SmtpConnection> resize(int items) {
        int target = sizer.target(limiter.rate());
        while (connections.size() < target) {
            connections.add(new SmtpConnection(settings, events, writeDeadlines, nanoTime));
        }
        List<SmtpConnection> byOpen = new ArrayList<>(connections);
        byOpen.sort((a, b) -> Boolean.compare(b.isOpen(), a.isOpen()));
        List<SmtpConnection> chosen = byOpen.subList(0, Math.min(target, items));
        for (SmtpConnection spare : byOpen.subList(chosen.size(), byOpen.size())) {
            if (spare.isOpen() && spare.idleNanos() >= IDLE_CLOSE.toNanos()) {
                spare.close();
            }
        }
        events.connectionsSized(report(target));
        return List.copyOf(chosen);
    }

    /** How the pool is sized now. */
    public ConnectionReport report() {
        return report(sizer.target(limiter.rate()));
    }

    private ConnectionReport report(int target) {
        double rate = limiter.rate();
        OptionalLong needed = sizer.unbounded(rate);
        return new ConnectionReport(openConnections(), target, sizer.ceiling(),
                needed.isPresent() ? Optional.of((int) Math.min(Integer.MAX_VALUE, needed.getAsLong())) : Optional.empty(),
                poolPerMessage(), rate);
    }

    private Optional<Duration> poolPerMessage() {
        OptionalLong nanos = sizer.perMessageNanos();
        return nanos.isPresent() ? Optional.of(Duration.ofNanos(nanos.getAsLong())) : Optional.empty();
    }

    /**
     * What a message took on a connection to this relay before (the last run's measurement): the
     * pool starts sized for it instead of at {@code smtp.connections}, and the measurements of this
     * run take over from there.
     */
    public void expect(Duration perMessage) {
        if (sizer.perMessageNanos().isEmpty() && !perMessage.isNegative() && !perMessage.isZero()) {
            sizer.observe(perMessage.toNanos());
        }
    }

    /** This pool's part of the relay's connection ceiling shared by every worker. */
    public void limitConnections(int connections) {
        sizer.limit(connections);
    }

    private int openConnections() {
        int open = 0;
        for (SmtpConnection c : List.copyOf(connections)) {
            open += c.isOpen() ? 1 : 0;
        }
        return open;
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
