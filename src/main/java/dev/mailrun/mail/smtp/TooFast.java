package dev.mailrun.mail.smtp;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a transient reply means "you are sending too fast", and to whom: the relay itself (its
 * own limit per client or account) or the recipient's domain (a mailbox provider deferring this
 * sender). Such a reply says nothing is broken — only the pace is wrong — so the sending side
 * slows down and tries the recipient again instead of counting a failure.
 *
 * <ol>
 *   <li>Only 421, 450, 451 and 454 qualify (and a delayed DSN's 4.x.x status).</li>
 *   <li>Relay throttling texts decide for the relay: Postfix's anvil ("Error: too much mail from",
 *       "too many connections"), SES ("Maximum sending rate exceeded"), account or sending
 *       rate limits of hosted relays.</li>
 *   <li>Otherwise the enhanced code 4.7.x, or a text about rates ("rate limit", "too fast",
 *       "unusual rate", "too many messages"), means the domain: the relay passed on what the
 *       destination said.</li>
 *   <li>Policy texts that mean something is wrong ("denied", "authentication", "blocked", "not
 *       permitted", greylisting, reputation lists) never count as too fast, even with 4.7.x:
 *       "454 4.7.1 Relay access denied" is a broken configuration, and the failure-rate breaker
 *       must still see it.</li>
 *   <li>Nor does Postfix's "421 4.7.0 Error: too many errors": it ends a session for the refusals
 *       the session collected, not for the pace; as a plain 421 the message is tried once more on a
 *       new connection.</li>
 * </ol>
 */
public final class TooFast {

    /** Who asked for a slower pace. */
    public enum Scope { RELAY, DOMAIN }

    private static final Pattern ENHANCED_47 = Pattern.compile("\\b4\\.7\\.\\d{1,3}\\b");
    private static final Pattern RELAY_TEXT = Pattern.compile(
            "too much mail from|too many connections|maximum sending rate exceeded|sending rate exceeded"
                    + "|sending quota|account (?:rate|sending) limit|messages per (?:second|minute|hour) (?:limit )?exceeded");
    private static final Pattern RATE_TEXT = Pattern.compile(
            "rate limit|rate-limit|ratelimit|too fast|unusual rate|too many (?:messages|recipients|mails|emails)"
                    + "|throttl|slow down|temporarily deferred due to");
    private static final Pattern BROKEN_TEXT = Pattern.compile(
            "denied|authenticat|not permitted|not allowed|blocked|blacklist|blocklist|greylist|graylist"
                    + "|spamhaus|reputation|not accepted|unknown|does not exist|helo|tls|too many errors");

    private TooFast() {
    }

    /** The scope of a too-fast reply, or empty when {@code code}/{@code text} mean something else. */
    static Optional<Scope> of(int code, String text) {
        if (code != 421 && code != 450 && code != 451 && code != 454) {
            return Optional.empty();
        }
        return ofText(text);
    }

    /** The same rule for a delayed DSN (status 4.x.x): its diagnostic and status, without a reply code. */
    public static Optional<Scope> ofDelay(String status, String diagnostic) {
        if (!status.startsWith("4.")) {
            return Optional.empty();
        }
        return ofText(status + " " + diagnostic);
    }

    private static Optional<Scope> ofText(String text) {
        String t = text == null ? "" : text.toLowerCase(Locale.ROOT);
        if (RELAY_TEXT.matcher(t).find()) {
            return Optional.of(Scope.RELAY);
        }
        if (BROKEN_TEXT.matcher(t).find()) {
            return Optional.empty();
        }
        Matcher enhanced = ENHANCED_47.matcher(t);
        if (enhanced.find() || RATE_TEXT.matcher(t).find()) {
            return Optional.of(Scope.DOMAIN);
        }
        return Optional.empty();
    }
}
