package dev.mailrun.campaign.tracking;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/** An IP address written as text, parsed without ever asking DNS (a host name is not an address). */
public final class IpLiteral {

    private static final Pattern V4 = Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern V6 = Pattern.compile("\\[?[0-9a-fA-F:.]*:[0-9a-fA-F:.]*]?");

    private IpLiteral() {
    }

    /** The address {@code text} spells; empty for anything else, host names included. */
    public static Optional<InetAddress> parse(String text) {
        if (text == null || text.length() > 45 + 2) {
            return Optional.empty();
        }
        String s = text.strip();
        // A colon cannot be in a host name and the dotted quad is checked in full: getByName resolves neither.
        if (!V4.matcher(s).matches() && !V6.matcher(s).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByName(s));
        } catch (UnknownHostException | SecurityException e) {
            return Optional.empty();
        }
    }
}
