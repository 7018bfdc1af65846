package dev.mailrun.mail.smtp;

import jakarta.mail.Session;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 *       many messages and batches ({@link PoolConnections}); with {@link WarmConnections} on, first
 *       use takes over a session the last pool to this relay left open, and closing leaves this
 *       pool's for the next.</li>
 *   <li>Threads take the next item of the newest batch under one lock ({@link BatchCursor}), so items
 *       are handed out in order while the slow SMTP conversations run in parallel; a connection that
 *       finishes a batch's last message goes on with the next batch, and connections join as the
 *       target grows ({@link ConnectionCrew}).</li>
 *   <li>Each item is one {@link MessageAttempt}: build, open, permit, send, one retry on a lost
 *       connection.</li>
 *   <li>A fatal failure (authentication, TLS) halts the batch: messages not yet taken are reported
 *       {@link SendResult.NotAttempted}.</li>
 * </ol>
 * Every item gets exactly one result, delivered to the callback from the sending threads as each
 * message finishes (items never taken are reported from the dispatching thread).
 */
public final class SmtpPool implements AutoCloseable {

    static {
        dev.mailrun.mail.StreamProviders.pin();
    }

    private static final Logger log = LoggerFactory.getLogger(SmtpPool.class);

    private final SendRateLimiter limiter;
    private final PoolEvents events;
    private final Session compositionSession;
    private final PoolConnections connections;
    private final ExecutorService threads;
    private final WriteDeadlines writeDeadlines;
    private final boolean ownWriteDeadlines;
    private final SmtpSettings settings;
    private final WarmConnections warm;
    private final ConnectionSizer sizer;
    private final MessageAttempt attempt;
    private final Permits permits;
    private final ConnectionCrew crew;
    private final AtomicReference<RuntimeException> callbackFailure = new AtomicReference<>();
    private final Object batchLock = new Object();

    public SmtpPool(SmtpSettings settings, SendRateLimiter limiter, Clock clock) {
        this(settings, limiter, clock, PoolEvents.NONE);
    }

    /** @param events told of permit waits and of connections opened and closed */
    public SmtpPool(SmtpSettings settings, SendRateLimiter limiter, Clock clock, PoolEvents events) {
        this(settings, limiter, clock, events, WarmConnections.off());
    }

    /**
     * @param warm where the pool takes over sessions an earlier pool to this relay left open, with
     *             the time per message it measured, and where it leaves its own when it closes
     */
    public SmtpPool(SmtpSettings settings, SendRateLimiter limiter, Clock clock, PoolEvents events, WarmConnections warm) {
        this(settings, limiter, clock, events, warm, System::nanoTime);
    }

    /** @param nanoTime what message times and idle connections are measured with */
    SmtpPool(SmtpSettings settings, SendRateLimiter limiter, Clock clock, PoolEvents events,
             LongSupplier nanoTime) {
        this(settings, limiter, clock, events, WarmConnections.off(), nanoTime);
    }

    SmtpPool(SmtpSettings settings, SendRateLimiter limiter, Clock clock, PoolEvents events, WarmConnections warm,
             LongSupplier nanoTime) {
        Objects.requireNonNull(nanoTime, "nanoTime");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.warm = Objects.requireNonNull(warm, "warm");
        Objects.requireNonNull(clock, "clock");
        this.events = Objects.requireNonNull(events, "events");
        this.limiter = Objects.requireNonNull(limiter, "limiter");
        this.compositionSession = Session.getInstance(SmtpConnection.properties(settings,
                ConnectionTimeouts.within(settings, Duration.ofDays(1))));
        // A session parked for the next pool keeps the write deadlines it was opened with: the worker's.
        this.ownWriteDeadlines = !warm.on();
        this.writeDeadlines = ownWriteDeadlines ? WriteDeadlines.watched("smtp-write-deadlines") : warm.writeDeadlines();
        this.sizer = new ConnectionSizer(settings.connections(), settings.maxConnections());
        warm.perMessage(settings).ifPresent(this::expect);
        this.connections = new PoolConnections(() -> new SmtpConnection(settings, events, writeDeadlines, nanoTime, warm));
        this.permits = new Permits(limiter, events, this::grow);
        this.attempt = new MessageAttempt(settings, compositionSession, permits, sizer, events, clock, connections::open);
        // Threads are made as connections are first used: a pool that never grows keeps its start count.
        this.threads = Executors.newFixedThreadPool(settings.maxConnections(), namedDaemonThreads());
        this.crew = new ConnectionCrew(threads, this::work, this::grow);
        if (settings.username().isPresent() && (settings.tls() == TlsMode.NONE || settings.tls() == TlsMode.STARTTLS_OPTIONAL)) {
            log.warn("smtp.tls={} with AUTH: the password may cross the network in plain text", settings.tls());
        }
    }

    /** The session messages are built with; it never triggers DNS lookups. */
    Session session() {
        return compositionSession;
    }

    /**
     * Sends one batch and returns when every item has its result: {@link #dispatch} and
     * {@link #awaitIdle}. One batch at a time per pool.
     *
     * @param deadline nothing is started, and no rate permit waited for, past this instant
     * @param stop     checked before each message and while waiting for a permit
     * @param results  called once per item, concurrently from the sending threads
     */
    public void sendBatch(List<? extends Outgoing> batch, Instant deadline, BooleanSupplier stop,
                          Consumer<SendResult> results) {
        dispatch(batch, deadline, stop, results);
        awaitIdle();
    }

    /**
     * Hands one batch to the connections and returns once every item was handed out and built (its
     * recipient marked in flight), or once no connection is left to take the rest, which are then
     * reported {@link SendResult.NotAttempted}. The last messages may still be on the wire: their
     * results come to {@code results} later, and a connection that finishes one takes the next
     * batch's items if that batch was dispatched meanwhile, so the connections stay busy across a
     * batch boundary. Dispatches follow one another; {@link #awaitIdle} waits for the last results.
     *
     * @param deadline nothing is started, and no rate permit waited for, past this instant
     * @param stop     checked before each message and while waiting for a permit
     * @param results  called once per item, concurrently from the sending threads
     * @throws IllegalStateException when a results callback, or a sending thread, failed (since the
     *                               last dispatch): the batch was halted
     */
    public void dispatch(List<? extends Outgoing> batch, Instant deadline, BooleanSupplier stop,
                         Consumer<SendResult> results) {
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(stop, "stop");
        Objects.requireNonNull(results, "results");
        synchronized (batchLock) {
            PoolBatch b = new PoolBatch(new BatchCursor<>(batch, item -> item.pace().isEmpty()), deadline, stop, results);
            int target = target();
            crew.start(b, target, batch.size(), count -> connections.forBatch(count, target, crew::busy));
            events.connectionsSized(report(target));
            crew.awaitDispatched(b);
            // Again at the end, with the connections the batch opened and what it measured.
            events.connectionsSized(report());
            for (Outgoing item : b.cursor().remaining()) {
                results.accept(new SendResult.NotAttempted(item.key()));
            }
            throwIfFailed();
        }
    }

    /**
     * Waits until every message dispatched has its result.
     *
     * @throws IllegalStateException when a results callback, or a sending thread, failed
     */
    public void awaitIdle() {
        crew.awaitIdle();
        throwIfFailed();
    }

    private void throwIfFailed() {
        RuntimeException callback = callbackFailure.getAndSet(null);
        if (callback != null) {
            throw new IllegalStateException("the results callback failed; the batch was halted", callback);
        }
        crew.takeFailure().ifPresent(e -> {
            throw new IllegalStateException("a sending thread failed unexpectedly", e);
        });
    }

    /** One item of {@code b} on {@code connection}; false when the connection retires. */
    private boolean work(SmtpConnection connection, PoolBatch b, Outgoing item, Runnable built) {
        MessageAttempt.Outcome outcome = attempt.send(connection, item, b.deadline(), b.stop(), b.cursor()::halted, built);
        try {
            b.results().accept(outcome.result());
        } catch (RuntimeException e) {
            callbackFailure.compareAndSet(null, e);
            b.cursor().halt();
            return false;
        }
        if (outcome.result() instanceof SendResult.Fatal fatal) {
            log.error("halting the batch: {}", fatal.reason());
            b.cursor().halt();
        }
        if (outcome.retireConnection()) {
            // The relay could not be reached: leave the rest to connections that work, or to
            // the caller's next batch, instead of failing every remaining message here.
            crew.retired(b);
            return false;
        }
        grow();
        return true;
    }

    /** Opens connections up to the target for the items left, if the rate (or a pace's wait) asks for more. */
    private void grow() {
        crew.grow(this::target, () -> connections.spare(target(), crew::busy));
    }

    /**
     * The connections to use now: what the rate needs, and one more for each waiting on its message's
     * own pace while messages no pace holds back are left to take them. Those are what the extra
     * connections are for: with only paced messages left (a capped group at the end of a list), each
     * new connection took the next one and booked its pace further ahead, the pool grew to
     * {@code smtp.max-connections}, and the run waited seconds after its last batch for the bookings.
     */
    private int target() {
        return sizer.target(limiter.rate(), Math.min(permits.waitingOnPace(), crew.unpacedLeft()));
    }

    /**
     * The time a message needs left to be started on a connection whose time is not known apart
     * from the pool's: what a caller sizing work for a deadline keeps free after its last message.
     */
    public Duration startBudget() {
        return StartBudget.of(sizer.perMessage(), sizer.deviation());
    }

    /** How the pool is sized now. */
    public ConnectionReport report() {
        return report(target());
    }

    private ConnectionReport report(int target) {
        double rate = limiter.rate();
        OptionalLong needed = sizer.unbounded(rate);
        return new ConnectionReport(connections.open(), target, sizer.ceiling(),
                needed.isPresent() ? Optional.of((int) Math.min(Integer.MAX_VALUE, needed.getAsLong())) : Optional.empty(),
                sizer.perMessage(), rate);
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

    /** Connections opened so far, summed over all connections (reconnects included). */
    int connectionsOpened() {
        synchronized (batchLock) {
            return connections.timesOpened();
        }
    }

    /** Sessions an earlier pool left open that this pool's connections took over. */
    int connectionsAdopted() {
        synchronized (batchLock) {
            return connections.timesAdopted();
        }
    }

    /**
     * Closes the pool. With {@link WarmConnections} on and no message on the wire, its open sessions
     * and its time per message are left there for the next pool to this relay; the rest is closed.
     */
    @Override
    public void close() {
        synchronized (batchLock) {
            threads.shutdownNow();
            if (warm.on() && crew.idle()) {
                connections.detachAll().forEach(session -> warm.park(settings, session));
                sizer.perMessage().ifPresent(d -> warm.measured(settings, d));
            }
            connections.closeAll();
            if (ownWriteDeadlines) {
                writeDeadlines.shutdownNow();
            }
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
