package dev.mailrun.mail.smtp;

import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;

/**
 * One SMTP connection: opened on first use, then reused for message after message until it fails
 * or its timeouts no longer fit the time left. Used by one sending thread at a time.
 */
final class SmtpConnection implements AutoCloseable {

    /** Where the mail API takes the executor for its write timeouts from (see {@link WriteDeadlines}). */
    static final String WRITE_TIMEOUT_EXECUTOR = "mail.smtp.executor.writetimeout";

    private final SmtpSettings settings;
    private final PoolEvents events;
    private final WriteDeadlines writeDeadlines;
    private Transport transport;
    private ConnectionTimeouts timeouts;
    private int opened;
    private Session session;

    /** @param writeDeadlines watches this connection's writes; shared by the pool's connections */
    SmtpConnection(SmtpSettings settings, PoolEvents events, WriteDeadlines writeDeadlines) {
        this.settings = settings;
        this.events = events;
        this.writeDeadlines = writeDeadlines;
    }

    /** Connects unless already connected with timeouts that fit the remaining time. */
    void ensureOpen(Duration remaining) throws MessagingException {
        if (transport != null && timeouts.fitWithin(remaining)) {
            return;
        }
        close();
        ConnectionTimeouts bounded = ConnectionTimeouts.within(settings, remaining);
        Properties properties = properties(settings, bounded);
        properties.put(WRITE_TIMEOUT_EXECUTOR, writeDeadlines);
        Session fresh0 = Session.getInstance(properties);
        Transport fresh = fresh0.getTransport("smtp");
        fresh.connect(settings.host(), settings.port(), settings.username().orElse(null),
                settings.password().map(secret -> secret.reveal()).orElse(null));
        transport = fresh;
        session = fresh0;
        timeouts = bounded;
        opened++;
        events.connectionOpened();
    }

    void send(MimeMessage message) throws MessagingException {
        send(message, Optional.empty());
    }

    /**
     * Sends with an envelope sender (MAIL FROM). The transport reads {@code mail.smtp.from} from its
     * own session for each message, and each connection has a session of its own used by one
     * thread at a time, so this works for any MimeMessage (a DKIM-signed copy is not an SMTPMessage).
     */
    void send(MimeMessage message, Optional<String> envelopeFrom) throws MessagingException {
        if (transport == null) {
            throw new MessagingException("Not connected");
        }
        if (envelopeFrom.isPresent()) {
            session.getProperties().setProperty("mail.smtp.from", envelopeFrom.get());
        } else {
            session.getProperties().remove("mail.smtp.from");
        }
        transport.sendMessage(message, message.getAllRecipients());
    }

    /** How many times this connection was (re)opened; for tests and logs. */
    int timesOpened() {
        return opened;
    }

    /** Closes the transport, ignoring errors: it is being discarded either way. */
    @Override
    public void close() {
        Transport current = transport;
        transport = null;
        timeouts = null;
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

    Optional<ConnectionTimeouts> currentTimeouts() {
        return Optional.ofNullable(timeouts);
    }
}
