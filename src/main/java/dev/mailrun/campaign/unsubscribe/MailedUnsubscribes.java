package dev.mailrun.campaign.unsubscribe;

import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.sql.SQLException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Unsubscribe requests that arrive by mail: what a mail client sends for the mailto: entry of
 * List-Unsubscribe, {@code Subject: unsubscribe-<token>}. The token is verified and the address
 * suppressed exactly as by the one-click POST (the same {@link Unsubscriber}), so the signed token is
 * the authority here too, and a request read twice changes nothing the second time.
 *
 * <p>The token is read from the Subject only: it is base64url, so a relay that changes the case of a
 * local part would break it there, and for long addresses it exceeds the 64 octets a local part may
 * have.
 */
public final class MailedUnsubscribes {

    /** What one message was. */
    public enum Outcome {
        /** Not an unsubscribe request: a bounce, a complaint, anything else. */
        NOT_A_REQUEST,
        /** The address is now suppressed. */
        UNSUBSCRIBED,
        /** The address was suppressed already (a repeat, or a message read again after a crash). */
        ALREADY_SUPPRESSED,
        /** A request whose token does not verify (forged, mangled, or naming an invalid address): nothing changed. */
        INVALID
    }

    private static final Logger log = LoggerFactory.getLogger(MailedUnsubscribes.class);

    /** Reply and forward prefixes a person may leave in front; then the prefix and the token, and nothing else. */
    private static final Pattern SUBJECT = Pattern.compile("(?:(?:re|fwd?|aw|wg|sv)\\s*:\\s*)*"
            + Pattern.quote(UnsubscribeTokens.MAIL_SUBJECT_PREFIX) + "(\\S*)", Pattern.CASE_INSENSITIVE);
    private static final int MAX_LOGGED_CHARS = 200;

    private final UnsubscribeTokens tokens;
    private final Unsubscriber unsubscriber;

    public MailedUnsubscribes(UnsubscribeTokens tokens, Unsubscriber unsubscriber) {
        this.tokens = tokens;
        this.unsubscriber = unsubscriber;
    }

    /**
     * Applies the request {@code message} carries, if it is one. The suppression commits before this
     * returns; a database failure is thrown, so the caller leaves the message to be read again.
     */
    public Outcome handle(MimeMessage message) throws SQLException {
        Optional<String> token = token(message);
        if (token.isEmpty()) {
            return Outcome.NOT_A_REQUEST;
        }
        Optional<UnsubscribeTarget> target = tokens.verify(token.get());
        if (target.isEmpty()) {
            log.warn("unsubscribe by mail: the token in message {} from {} does not verify ({} characters); nothing changed",
                    header(message, "Message-ID"), header(message, "From"), token.get().length());
            return Outcome.INVALID;
        }
        Unsubscriber.Result result = unsubscriber.unsubscribe(target.get(), Unsubscriber.Method.MAILTO);
        if (result == Unsubscriber.Result.INVALID_ADDRESS) {
            log.warn("unsubscribe by mail: the token in message {} names no valid address (campaign={} recipient={}); nothing changed",
                    header(message, "Message-ID"), target.get().campaignId(), target.get().recipientId());
            return Outcome.INVALID;
        }
        log.info("unsubscribe by mail campaign={} recipient={}: {}", target.get().campaignId(), target.get().recipientId(), result);
        return result == Unsubscriber.Result.UNSUBSCRIBED ? Outcome.UNSUBSCRIBED : Outcome.ALREADY_SUPPRESSED;
    }

    /** The token of a request, empty when the subject is not one (an empty token is a malformed request). */
    static Optional<String> token(MimeMessage message) {
        String subject;
        try {
            subject = message.getSubject();
        } catch (MessagingException e) {
            return Optional.empty();
        }
        if (subject == null) {
            return Optional.empty();
        }
        Matcher m = SUBJECT.matcher(subject.strip());
        return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** A header of a message from anyone, fit for one log line: no control characters, bounded. */
    private static String header(MimeMessage message, String name) {
        String value;
        try {
            value = message.getHeader(name, ", ");
        } catch (MessagingException e) {
            value = null;
        }
        if (value == null) {
            return "-";
        }
        String clean = value.codePoints()
                .map(c -> Character.isISOControl(c) || c == '\u2028' || c == '\u2029' ? ' ' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                .toString().strip();
        if (clean.isEmpty()) {
            return "-";
        }
        return clean.length() > MAX_LOGGED_CHARS ? clean.substring(0, MAX_LOGGED_CHARS) + "…" : clean;
    }
}
