package dev.mailrun.mail;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Which permanent enhanced status codes (RFC 3463), and which wordings of a refusal that has none,
 * are about the recipient's address rather than the sender or the message. The one rule for
 * suppressing an address, whether the refusal came during the SMTP conversation or later as a
 * bounce.
 */
public final class AddressStatus {

    private static final Pattern NO_SUCH_USER = Pattern.compile(
            "no such (user|mailbox|recipient|person)|user unknown|unknown (user|recipient|mailbox)|does not exist"
                    + "|mailbox unavailable|invalid (recipient|mailbox)|recipient not found|address rejected"
                    + "|couldn't be found|account (has been )?(disabled|deactivated|closed)");

    private AddressStatus() {}

    /**
     * True for 5.1.x (not 5.1.7 / 5.1.8, which are about the sender's address), 5.2.1 (mailbox
     * disabled) and 5.4.4 (unable to route).
     *
     * @param status an enhanced status code such as "5.1.1"; anything else is false
     */
    public static boolean permanentlyBad(String status) {
        String[] parts = status.split("\\.");
        if (parts.length != 3 || !parts[0].equals("5")) {
            return false;
        }
        String subject = parts[1];
        String detail = parts[2];
        return (subject.equals("1") && !detail.equals("7") && !detail.equals("8"))
                || (subject.equals("2") && detail.equals("1"))
                || (subject.equals("4") && detail.equals("4"));
    }

    /**
     * True when a server's explanation says the address does not exist or no longer takes mail
     * ("no such user", "user unknown", "account disabled", …), in any case. For refusals without
     * an enhanced status code.
     */
    public static boolean saysNoSuchAddress(String text) {
        return NO_SUCH_USER.matcher(text.toLowerCase(Locale.ROOT)).find();
    }
}
