package dev.mailrun.campaign.send.pace;

import dev.mailrun.mail.RejectedMessageException;
import dev.mailrun.mail.smtp.Outgoing;
import dev.mailrun.mail.smtp.SendRateLimiter;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.util.Optional;

/** A message with its domain group's limiter ({@link DomainPacer}), which the SMTP pool waits for before the relay's. */
public record PacedOutgoing(Outgoing message, SendRateLimiter limiter) implements Outgoing {

    public static Outgoing of(Outgoing message, Optional<SendRateLimiter> limiter) {
        return limiter.<Outgoing>map(l -> new PacedOutgoing(message, l)).orElse(message);
    }

    @Override
    public long key() {
        return message.key();
    }

    @Override
    public MimeMessage build(Session session) throws RejectedMessageException {
        return message.build(session);
    }

    @Override
    public Optional<String> envelopeFrom() {
        return message.envelopeFrom();
    }

    @Override
    public Optional<SendRateLimiter> pace() {
        return Optional.of(limiter);
    }
}
