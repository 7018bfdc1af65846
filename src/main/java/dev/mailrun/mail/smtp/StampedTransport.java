package dev.mailrun.mail.smtp;

import jakarta.mail.MessagingException;
import jakarta.mail.Provider;
import jakarta.mail.Session;
import jakarta.mail.URLName;
import org.eclipse.angus.mail.smtp.SMTPTransport;

/**
 * The SMTP transport, telling its sender the moment a message's {@code MAIL FROM} is about to go on
 * the wire: what a relay counts, and what the send windows count a message from
 * ({@code SendRateLimiter.leaving}). Between the permit and that moment the transport still does
 * a little work for each message (its checks, reading the subject for its listeners), and now and
 * then the thread loses its core there; a message counted before it would reach the relay that
 * much later than its window assumed, in the same second as the next ⌈rate⌉ punctual ones.
 *
 * <p>Public, with the constructor the mail API calls: the session builds it by reflection from
 * {@link #PROVIDER}.
 */
public final class StampedTransport extends SMTPTransport {

    /** The provider that has a session build this transport for {@code smtp}. */
    static final Provider PROVIDER = new Provider(Provider.Type.TRANSPORT, "smtp", StampedTransport.class.getName(),
            "mailrun", null);

    private static final Runnable NOTHING = () -> { };

    private Runnable beforeMailFrom = NOTHING;

    public StampedTransport(Session session, URLName urlname) {
        super(session, urlname);
    }

    /** Runs {@code stamp} right before the next message's {@code MAIL FROM} is written, once. */
    synchronized void beforeMailFrom(Runnable stamp) {
        beforeMailFrom = stamp;
    }

    @Override
    protected synchronized void mailFrom() throws MessagingException {
        Runnable stamp = beforeMailFrom;
        beforeMailFrom = NOTHING;
        stamp.run();
        super.mailFrom();
    }
}
