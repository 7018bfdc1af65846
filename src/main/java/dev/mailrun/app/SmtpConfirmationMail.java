package dev.mailrun.app;

import dev.mailrun.campaign.audience.ConfirmationMail;
import dev.mailrun.mail.RejectedMessageException;
import dev.mailrun.mail.smtp.Outgoing;
import dev.mailrun.mail.smtp.SendRateLimiter;
import dev.mailrun.mail.smtp.SendResult;
import dev.mailrun.mail.smtp.SmtpPool;
import dev.mailrun.mail.smtp.SmtpSettings;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A confirmation message (an erasure's) through the first relay of the default route, as a test send
 * goes: one connection for the one message, plain text in UTF-8, marked {@code Auto-Submitted}. The
 * addresses are parsed strictly and the subject is the bundle's, so no line break reaches a header.
 */
final class SmtpConfirmationMail implements ConfirmationMail {

    private static final Duration TIMEOUT = Duration.ofMinutes(1);

    private final SmtpSettings smtp;
    private final Clock clock;

    SmtpConfirmationMail(SmtpSettings smtp, Clock clock) {
        this.smtp = smtp;
        this.clock = clock;
    }

    @Override
    public void send(Mail mail) throws IOException {
        AtomicReference<SendResult> result = new AtomicReference<>();
        try (SmtpPool pool = new SmtpPool(smtp, SendRateLimiter.unlimited(), clock)) {
            pool.sendBatch(List.of(outgoing(mail)), clock.instant().plus(TIMEOUT), () -> false, result::set);
        }
        if (!(result.get() instanceof SendResult.Sent)) {
            throw new IOException("the relay did not take the confirmation: " + result.get());
        }
    }

    private Outgoing outgoing(Mail mail) {
        return new Outgoing() {
            @Override
            public long key() {
                return 0;
            }

            @Override
            public MimeMessage build(Session session) throws RejectedMessageException {
                try {
                    MimeMessage m = new MimeMessage(session);
                    m.setFrom(new InternetAddress(mail.from(), true));
                    m.setRecipient(Message.RecipientType.TO, new InternetAddress(mail.to(), true));
                    m.setSubject(mail.subject().replaceAll("[\\r\\n]", " "), "UTF-8");
                    m.setText(mail.text(), "UTF-8");
                    m.setSentDate(Date.from(clock.instant()));
                    m.setHeader("Auto-Submitted", "auto-generated");
                    m.saveChanges();
                    return m;
                } catch (MessagingException e) {
                    throw new RejectedMessageException("the confirmation cannot be made: " + e.getMessage());
                }
            }

            @Override
            public Optional<String> envelopeFrom() {
                return Optional.empty();
            }
        };
    }
}
