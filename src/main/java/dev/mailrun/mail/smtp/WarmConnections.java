package dev.mailrun.mail.smtp;

import dev.mailrun.mail.Secret;
import dev.mailrun.mail.feedback.MessageTags;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One worker's SMTP connections kept open from one run to the next ({@code smtp.keep-warm}): a
 * run's pool parks its open sessions here when it closes, and the next pool to the same relay takes
 * them over instead of connecting again (at 80 ms a round trip, the connect, greeting, EHLO, TLS and
 * AUTH of every connection cost the next run its first third of a second or more).
 *
 * <ol>
 *   <li>Sessions are filed under everything a connection is opened with: host, port, TLS mode, user
 *       and password, timeouts, EHLO name, message tags, BDAT. A relay whose configuration changed
 *       never gets a session opened under the old one. The rate and the connection counts are left
 *       out: they size the pool, not a session.</li>
 *   <li>A session is taken over only within {@code keepWarm} of being parked, newest first, and only
 *       if its socket is still open and quiet ({@link OpenTransport#usable}); any other is closed.</li>
 *   <li>The time per message a closing pool measured is kept with its sessions: the next pool starts
 *       sized for it, as many connections as the last one had, instead of growing again from
 *       {@code smtp.connections}.</li>
 *   <li>Sessions nobody took within {@code keepWarm} are closed by a timer every second
 *       ({@link #closeExpired}, on the clock given), and all of them when the worker stops ({@link #close}).</li>
 * </ol>
 * The pools that park here share one {@link WriteDeadlines}, since a session's writes are watched by
 * the one it was opened with, for its whole life. Thread-safe.
 */
public final class WarmConnections implements AutoCloseable {

    /** {@code smtp.keep-warm} by default: above the most {@code tick.safety-margin} is by default (15 s). */
    public static final Duration DEFAULT_KEEP_WARM = Duration.ofSeconds(20);

    /** How often sessions nobody took are looked for. */
    static final Duration SWEEP = Duration.ofSeconds(1);

    private final Duration keepWarm;
    private final Clock clock;
    private final Map<Key, Deque<Parked>> parked = new HashMap<>();
    private final Map<Key, Measured> measured = new HashMap<>();
    private final WriteDeadlines writeDeadlines;
    private final ScheduledExecutorService sweeper;
    private boolean closed;

    private WarmConnections(Duration keepWarm, Clock clock, boolean swept) {
        Objects.requireNonNull(keepWarm, "keepWarm");
        if (keepWarm.isNegative()) {
            throw new IllegalArgumentException("smtp.keep-warm cannot be negative, got " + keepWarm);
        }
        this.keepWarm = keepWarm;
        this.clock = Objects.requireNonNull(clock, "clock");
        boolean on = !keepWarm.isZero();
        this.writeDeadlines = on ? WriteDeadlines.watched("smtp-write-deadlines") : null;
        if (on && swept) {
            sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "smtp-keep-warm");
                t.setDaemon(true);
                return t;
            });
            sweeper.scheduleWithFixedDelay(this::closeExpired, SWEEP.toMillis(), SWEEP.toMillis(), TimeUnit.MILLISECONDS);
        } else {
            sweeper = null;
        }
    }

    /** Keeps nothing: every pool closes its connections at its end. */
    public static WarmConnections off() {
        return new WarmConnections(Duration.ZERO, Clock.systemUTC(), false);
    }

    /** Keeps sessions for {@code keepWarm} (zero: off), closing those nobody took every second. */
    public static WarmConnections keptFor(Duration keepWarm, Clock clock) {
        return new WarmConnections(keepWarm, clock, true);
    }

    /** As {@link #keptFor}, without the timer: a test calls {@link #closeExpired} itself. */
    static WarmConnections unswept(Duration keepWarm, Clock clock) {
        return new WarmConnections(keepWarm, clock, false);
    }

    /** Whether pools park their sessions here. */
    public synchronized boolean on() {
        return writeDeadlines != null && !closed;
    }

    /** The write deadlines of every pool parking here; null when off. */
    WriteDeadlines writeDeadlines() {
        return writeDeadlines;
    }

    /** Keeps {@code session}, opened with {@code settings}, for the next pool; closes it when off. */
    void park(SmtpSettings settings, OpenTransport session) {
        synchronized (this) {
            if (on()) {
                parked.computeIfAbsent(new Key(settings), k -> new ArrayDeque<>()).push(new Parked(session, clock.instant()));
                return;
            }
        }
        session.close();
    }

    /** What a message took on a connection of a pool with {@code settings} that just closed. */
    synchronized void measured(SmtpSettings settings, Duration perMessage) {
        if (on()) {
            measured.put(new Key(settings), new Measured(perMessage, clock.instant()));
        }
    }

    /** The time per message the last pool with {@code settings} measured, if it closed within {@code keepWarm}. */
    synchronized Optional<Duration> perMessage(SmtpSettings settings) {
        Measured m = measured.get(new Key(settings));
        return m != null && fresh(m.at()) ? Optional.of(m.perMessage()) : Optional.empty();
    }

    /**
     * The newest session parked for {@code settings} within {@code keepWarm} that is still usable;
     * every one looked at and found older or unusable is closed.
     */
    Optional<OpenTransport> adopt(SmtpSettings settings) {
        Key key = new Key(settings);
        List<OpenTransport> discarded = new ArrayList<>();
        try {
            while (true) {
                Parked next;
                synchronized (this) {
                    Deque<Parked> sessions = parked.get(key);
                    next = sessions == null ? null : sessions.poll();
                    if (next == null) {
                        return Optional.empty();
                    }
                }
                if (fresh(next.at()) && next.session().usable()) {
                    return Optional.of(next.session());
                }
                discarded.add(next.session());
            }
        } finally {
            discarded.forEach(OpenTransport::close);
        }
    }

    /** Closes the sessions parked longer than {@code keepWarm}; returns how many. */
    int closeExpired() {
        List<OpenTransport> expired = new ArrayList<>();
        synchronized (this) {
            for (Iterator<Deque<Parked>> i = parked.values().iterator(); i.hasNext(); ) {
                Deque<Parked> sessions = i.next();
                sessions.removeIf(p -> {
                    if (fresh(p.at())) {
                        return false;
                    }
                    expired.add(p.session());
                    return true;
                });
                if (sessions.isEmpty()) {
                    i.remove();
                }
            }
            measured.values().removeIf(m -> !fresh(m.at()));
        }
        expired.forEach(OpenTransport::close);
        return expired.size();
    }

    /** Sessions parked now, taken or not yet swept; for tests. */
    synchronized int parked() {
        return parked.values().stream().mapToInt(Deque::size).sum();
    }

    private boolean fresh(Instant at) {
        return !clock.instant().isAfter(at.plus(keepWarm));
    }

    /** Closes every parked session; pools closing later close their own. */
    @Override
    public void close() {
        List<OpenTransport> all = new ArrayList<>();
        synchronized (this) {
            closed = true;
            parked.values().forEach(d -> d.forEach(p -> all.add(p.session())));
            parked.clear();
            measured.clear();
        }
        all.forEach(OpenTransport::close);
        if (sweeper != null) {
            sweeper.shutdownNow();
        }
        if (writeDeadlines != null) {
            writeDeadlines.shutdownNow();
        }
    }

    private record Parked(OpenTransport session, Instant at) {}

    private record Measured(Duration perMessage, Instant at) {}

    /** Everything a session is opened with; compared in memory only, never stored or logged. */
    private record Key(String host, int port, TlsMode tls, Optional<String> username, Optional<Secret> password,
                       Duration connectTimeout, Duration readTimeout, Duration writeTimeout, String heloName,
                       MessageTags messageTags, boolean chunking) {

        Key(SmtpSettings s) {
            this(s.host().toLowerCase(java.util.Locale.ROOT), s.port(), s.tls(), s.username(), s.password(),
                    s.connectTimeout(), s.readTimeout(), s.writeTimeout(), s.heloName(), s.messageTags(), s.chunking());
        }

        @Override
        public String toString() {
            return "Key[" + host + ":" + port + "]";
        }
    }
}
