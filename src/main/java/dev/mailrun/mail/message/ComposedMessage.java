package dev.mailrun.mail.message;

import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import java.io.InputStream;
import org.eclipse.angus.mail.smtp.SMTPMessage;

/**
 * A message whose Message-ID is fixed by the caller. The default {@code updateMessageID} would
 * replace it on every {@code saveChanges} and look up the local host name to build a new one.
 */
final class ComposedMessage extends SMTPMessage {

    private final String messageId;

    ComposedMessage(Session session, String messageId) {
        super(session);
        this.messageId = messageId;
    }

    /** The message parsed from its bytes, which already carry {@code messageId}. */
    ComposedMessage(Session session, InputStream bytes, String messageId) throws MessagingException {
        super(session, bytes);
        this.messageId = messageId;
    }

    @Override
    protected void updateMessageID() throws MessagingException {
        setHeader("Message-ID", messageId);
    }
}
