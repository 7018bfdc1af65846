package dev.mailrun.mail.bounce;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * Judges a delivery failure that arrives as a status code and the remote server's words rather than
 * as a bounce message (an email provider's webhook), by the rule bounce messages get: a permanent
 * failure is hard, refused or soft as {@link PermanentFailures} says, a transient one is soft. So
 * an address is suppressed or not whichever way its refusal arrives.
 */
public final class ReportedFailures {

    private ReportedFailures() {}

    /**
     * @param status     an enhanced status code ("5.1.1"), or "" when the report gave none: then the
     *                   first status or reply code in the diagnostic decides
     * @param diagnostic the remote server's reply, e.g. "550 5.1.1 user unknown"; any case
     */
    public static BounceKind judge(String status, String diagnostic) {
        String s = enhancedStatus(status).or(() -> enhancedStatus(diagnostic)).orElse("");
        if (s.startsWith("5")) {
            return PermanentFailures.kind(s, diagnostic);
        }
        if (s.startsWith("4")) {
            return BounceKind.SOFT;
        }
        OptionalInt code = smtpCode(diagnostic);
        if (code.isPresent() && code.getAsInt() / 100 == 4) {
            return BounceKind.SOFT;
        }
        return PermanentFailures.kind("", diagnostic);
    }

    /** The first enhanced status code in the text ("5.1.1"), not a piece of an IP address. */
    public static Optional<String> enhancedStatus(String text) {
        return TextPatterns.enhancedStatus(text == null ? "" : text);
    }

    /** The first SMTP reply code in the text (550), not a number in a date or an address. */
    public static OptionalInt smtpCode(String text) {
        return TextPatterns.smtpCode(text == null ? "" : text);
    }

    /** "smtp; 550 5.1.1 ..." becomes "550 5.1.1 ...", white space collapsed. */
    public static String diagnostic(String typedValue) {
        return HeaderBlocks.diagnostic(typedValue == null ? "" : typedValue);
    }
}
