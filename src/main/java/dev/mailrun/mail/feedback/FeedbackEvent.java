package dev.mailrun.mail.feedback;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What one provider event says about one recipient of one message, already mapped to mailrun's
 * rules (the provider pages in docs/providers/ say which event becomes which kind).
 *
 * @param provider  who reported it
 * @param eventId   the provider's id of the event, unique per provider (for a provider that reports
 *                  several recipients in one event, with the recipient's position appended): a
 *                  redelivered event has the same id
 * @param kind      which rule applies
 * @param address   the recipient's address as the provider reports it
 * @param ids       the campaign and recipient ids echoed from the message's metadata, when present
 * @param messageId the message's own Message-ID header, with angle brackets, when the provider echoes it
 * @param status    an enhanced status code ("5.1.1") when the provider gives one, else its own
 *                  category ("Permanent/General", "HardBounce", "dropped: Bounced Address")
 * @param smtpCode  the remote server's reply code, when given
 * @param detail    the remote server's reply or the provider's reason, one line; "" when none
 */
public record FeedbackEvent(Provider provider, String eventId, Kind kind, String address, Optional<SendIds> ids,
                            Optional<String> messageId, String status, OptionalInt smtpCode, String detail) {

    /** The rule an event falls under. */
    public enum Kind {
        /** A permanent failure about the address: suppress it everywhere, fail the send. */
        HARD,
        /** A transient failure: one soft bounce per send, toward {@code bounce.soft-limit}. */
        SOFT,
        /** A permanent failure about the sender or the content: fail the send, suppress nothing. */
        REFUSED,
        /** The recipient reported the message as spam: suppress the address. */
        COMPLAINT,
        /** The recipient unsubscribed through the provider: suppress the address. */
        UNSUBSCRIBE,
        /** The receiving server accepted the message: counted, nothing stored. */
        DELIVERY,
        /** An event no rule acts on (opens, clicks, deferrals, auto-replies): counted, nothing stored. */
        IGNORED
    }

    public FeedbackEvent {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(ids, "ids");
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(smtpCode, "smtpCode");
        detail = oneLine(Objects.requireNonNull(detail, "detail"));
    }

    /** Whether applying the event changes anything (and so is remembered to be applied once). */
    public boolean acts() {
        return kind != Kind.DELIVERY && kind != Kind.IGNORED;
    }

    private static String oneLine(String s) {
        StringBuilder sb = new StringBuilder(Math.min(s.length(), 1000));
        for (int i = 0; i < s.length() && sb.length() < 1000; i++) {
            char c = s.charAt(i);
            sb.append(Character.isISOControl(c) ? ' ' : c);
        }
        return sb.toString().strip().replaceAll(" {2,}", " ");
    }
}
