package dev.mailrun.mail.smtp;

import jakarta.mail.MessagingException;
import java.net.ConnectException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Whether a connection the relay turned away was one too many, rather than the relay being down:
 * a greeting that says so (Postfix's anvil: "421 4.7.0 Error: too many connections from …"; others
 * name concurrent sessions or a connection limit), or a refused connect while this pool's other
 * connections are being served.
 */
final class ConnectionLimit {

    private static final Pattern TOO_MANY = Pattern.compile(
            "too many (?:connections|concurrent|simultaneous|sessions|open connections)|connection limit|concurrency limit"
                    + "|too many smtp sessions");

    private ConnectionLimit() {
    }

    /** @param othersOpen this pool's connections open while this one was refused */
    static boolean reached(MessagingException e, Failure failure, int othersOpen) {
        String text = failure.text() == null ? "" : failure.text().toLowerCase(Locale.ROOT);
        if (TOO_MANY.matcher(text).find()) {
            return true;
        }
        if (othersOpen == 0) {
            return false;
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException && t.getMessage() != null
                    && t.getMessage().toLowerCase(Locale.ROOT).contains("refused")) {
                return true;
            }
            if (t instanceof MessagingException me && me.getNextException() != null && me.getNextException() != t.getCause()) {
                t = me.getNextException();
                if (t instanceof ConnectException && t.getMessage() != null
                        && t.getMessage().toLowerCase(Locale.ROOT).contains("refused")) {
                    return true;
                }
            }
        }
        return false;
    }
}
