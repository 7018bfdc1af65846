package dev.mailrun.mail.smtp;

import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * One SMTP connection: opened on first use, then reused for message after message until it fails.
 * Used by one sending thread at a time.
 *
 * <p>Nothing it does outlives the run's deadline: connecting and each message are watched, and
 * the socket is closed when the deadline comes first ({@link TrackedSockets}); the connection then
 * says so ({@link #cutAtDeadline}). Each message's time is measured for the pool's sizing and for
 * the guard that starts no message the time left cannot hold.
 */
final class SmtpConnection implements AutoCloseable {

    /** Where the mail API takes the executor for its write timeouts from (see {@link WriteDeadlines}). */
    static final String WRITE_TIMEOUT_EXECUTOR = "mail.smtp.executor.writetimeout";
    /** BDAT chunk size: a typical campaign message fits one chunk, one round trip for the body. */
    static final int CHUNK_SIZE = 32 * 1024;
    /** Weight of the newest message in this connection's own average. */
    private static final double ALPHA = 0.2;

    private final SmtpSettings settings;
    private final PoolEvents events;
    private final WriteDeadlines writeDeadlines;
    private final LongSupplier nanoTime;
    private final WarmConnections warm;
    private volatile StampedTransport transport;
    private TrackedSockets sockets;
    private int opened;
    private int adopted;
    private Session session;
    private volatile boolean cut;
    private double averageNanos = -1;
    private long lastUsedNanos;

    /**
     * @param writeDeadlines watches this connection's writes and deadlines; shared by the pool's connections
     * @param warm           where a session an earlier pool left open is taken over from, before connecting
     */
    SmtpConnection(SmtpSettings settings, PoolEvents events, WriteDeadlines writeDeadlines, LongSupplier nanoTime,
                   WarmConnections warm) {
        this.settings = settings;
        this.events = events;
        this.writeDeadlines = writeDeadlines;
        this.nanoTime = nanoTime;
        this.warm = warm;
    }

    SmtpConnection(SmtpSettings settings, PoolEvents events, WriteDeadlines writeDeadlines, LongSupplier nanoTime) {
        this(settings, events, writeDeadlines, nanoTime, WarmConnections.off());
    }

    /**
     * Connects unless already connected: takes over a session an earlier run's pool left open to
     * this relay if one is usable ({@link WarmConnections}), else opens one, giving up (closing the
     * socket) when {@code remaining} runs out.
     */
    void ensureOpen(Duration remaining) throws MessagingException {
        if (transport != null) {
            return;
        }
        close();
        cut = false;
        Optional<OpenTransport> kept = warm.adopt(settings);
        if (kept.isPresent()) {
            transport = kept.get().transport();
            sockets = kept.get().sockets();
            session = kept.get().session();
            adopted++;
            lastUsedNanos = nanoTime.getAsLong();
            events.connectionOpened();
            return;
        }
        TrackedSockets fresh = new TrackedSockets();
        Properties properties = properties(settings, ConnectionTimeouts.within(settings, remaining));
        properties.put(WRITE_TIMEOUT_EXECUTOR, writeDeadlines);
        properties.put("mail.smtp.socketFactory", fresh);
        properties.setProperty("mail.smtp.socketFactory.fallback", "false");
        Session freshSession = Session.getInstance(properties);
        StampedTransport freshTransport = (StampedTransport) freshSession.getTransport(StampedTransport.PROVIDER);
        ScheduledFuture<?> watch = watch(fresh, remaining);
        try {
            freshTransport.connect(settings.host(), settings.port(), settings.username().orElse(null),
                    settings.password().map(secret -> secret.reveal()).orElse(null));
        } finally {
            watch.cancel(false);
        }
        if (cut) {
            fresh.closeNow();
            throw new MessagingException("connecting was cut at the run's deadline");
        }
        transport = freshTransport;
        sockets = fresh;
        session = freshSession;
        opened++;
        lastUsedNanos = nanoTime.getAsLong();
        events.connectionOpened();
    }

    /**
     * Sends with an envelope sender (MAIL FROM), closing the socket if the reply has not come by the
     * end of {@code remaining}. The transport reads {@code mail.smtp.from} from its own session for
     * each message, and each connection has a session of its own used by one thread at a time, so
     * this works for any MimeMessage (a DKIM-signed copy is not an SMTPMessage).
     *
     * @param leaving run right before the message's MAIL FROM is written (not when the transport
     *                fails before): the moment the message counts from
     */
    Duration send(MimeMessage message, Optional<String> envelopeFrom, Duration remaining, Runnable leaving)
            throws MessagingException {
        StampedTransport transport = this.transport;
        if (transport == null) {
            throw new MessagingException("Not connected");
        }
        transport.beforeMailFrom(leaving);
        if (envelopeFrom.isPresent()) {
            session.getProperties().setProperty("mail.smtp.from", envelopeFrom.get());
        } else {
            session.getProperties().remove("mail.smtp.from");
        }
        long start = nanoTime.getAsLong();
        ScheduledFuture<?> watch = watch(sockets, remaining);
        try {
            transport.sendMessage(message, message.getAllRecipients());
        } finally {
            watch.cancel(false);
            lastUsedNanos = nanoTime.getAsLong();
            if (transport.ended()) {
                // The session ended inside the send while reporting a refusal: the next message opens a new one.
                close();
            }
        }
        long took = lastUsedNanos - start;
        averageNanos = averageNanos < 0 ? took : averageNanos + ALPHA * (took - averageNanos);
        events.messageTimed(Duration.ofNanos(took));
        return Duration.ofNanos(took);
    }

    /** Without a deadline; for tests. */
    Duration send(MimeMessage message) throws MessagingException {
        return send(message, Optional.empty(), Duration.ofDays(1), () -> { });
    }

    private ScheduledFuture<?> watch(TrackedSockets target, Duration remaining) {
        long nanos = Math.max(0, remaining.toNanos());
        return writeDeadlines.schedule(() -> {
            cut = true;
            target.closeNow();
        }, nanos, TimeUnit.NANOSECONDS);
    }

    /** True when the last connect or message was cut off by the deadline: the relay was slower than the time left. */
    boolean cutAtDeadline() {
        return cut;
    }

    /** This connection's average time per message; empty before its first. */
    Optional<Duration> perMessage() {
        return averageNanos < 0 ? Optional.empty() : Optional.of(Duration.ofNanos((long) averageNanos));
    }

    boolean isOpen() {
        return transport != null;
    }

    /** Nanoseconds (on the pool's nano clock) since this connection last finished a message or opened. */
    long idleNanos() {
        return nanoTime.getAsLong() - lastUsedNanos;
    }

    /** How many times this connection was (re)opened; for tests and logs. */
    int timesOpened() {
        return opened;
    }

    /** How many times this connection took over a session an earlier pool left open; for tests and logs. */
    int timesAdopted() {
        return adopted;
    }

    /**
     * Hands over the open session, if any, for the next pool to take: this connection is then closed
     * without ending it. Empty when it is closed or its last message was cut at the deadline.
     */
    Optional<OpenTransport> detach() {
        StampedTransport current = transport;
        if (current == null || cut) {
            return Optional.empty();
        }
        OpenTransport open = new OpenTransport(current, sockets, session);
        transport = null;
        sockets = null;
        events.connectionClosed();
        return Optional.of(open);
    }

    /** Closes the transport, ignoring errors: it is being discarded either way. */
    @Override
    public void close() {
        Transport current = transport;
        transport = null;
        sockets = null;
        if (current != null) {
            events.connectionClosed();
            try {
                current.close();
            } catch (MessagingException | RuntimeException e) {
                // A connection that fails to say goodbye is closed anyway.
            }
        }
    }

    static Properties properties(SmtpSettings settings, ConnectionTimeouts timeouts) {
        Properties p = new Properties();
        p.setProperty("mail.transport.protocol", "smtp");
        p.setProperty("mail.smtp.host", settings.host());
        p.setProperty("mail.smtp.port", Integer.toString(settings.port()));
        // Both set so that neither connecting nor building ever resolves the local host name.
        p.setProperty("mail.host", settings.heloName());
        p.setProperty("mail.smtp.localhost", settings.heloName());
        p.setProperty("mail.smtp.connectiontimeout", millis(timeouts.connect()));
        p.setProperty("mail.smtp.timeout", millis(timeouts.read()));
        p.setProperty("mail.smtp.writetimeout", millis(timeouts.write()));
        p.setProperty("mail.smtp.auth", Boolean.toString(settings.username().isPresent()));
        // Closing does not wait for the reply to QUIT: the connection is being discarded anyway.
        p.setProperty("mail.smtp.quitwait", "false");
        p.setProperty("mail.smtp.ssl.checkserveridentity", "true");
        if (settings.chunking()) {
            // BDAT when the relay offers CHUNKING: the body and its reply are one round trip
            // instead of DATA's two (DATA, 354, body, 250).
            p.setProperty("mail.smtp.chunksize", Integer.toString(CHUNK_SIZE));
        }
        switch (settings.tls()) {
            case NONE -> p.setProperty("mail.smtp.starttls.enable", "false");
            case STARTTLS_OPTIONAL -> p.setProperty("mail.smtp.starttls.enable", "true");
            case STARTTLS_REQUIRED -> {
                p.setProperty("mail.smtp.starttls.enable", "true");
                p.setProperty("mail.smtp.starttls.required", "true");
            }
            case IMPLICIT -> p.setProperty("mail.smtp.ssl.enable", "true");
        }
        settings.messageTags().store(p);
        return p;
    }

    private static String millis(Duration duration) {
        return Long.toString(Math.max(1, duration.toMillis()));
    }
}
