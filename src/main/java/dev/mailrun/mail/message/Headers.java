package dev.mailrun.mail.message;

import dev.mailrun.mail.HeaderValues;
import dev.mailrun.mail.RejectedMessageException;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import java.io.UnsupportedEncodingException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The value of each header the composer writes from the caller's data, checked and formatted:
 * each method either returns what goes into the header or throws a {@link RejectedMessageException}
 * whose one-line reason names the header.
 */
final class Headers {

    private static final Pattern MESSAGE_ID = Pattern.compile("<[^<>\\s@\"]+@[^<>\\s@\"]+>");
    private static final Pattern LIST_ID = Pattern.compile("[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)+");
    /** Characters that would end or split an entry of List-Unsubscribe's {@code <uri>, <uri>} list. */
    private static final String URI_BREAKERS = "<>,\"";
    /**
     * URIs and Message-IDs cannot be folded or encoded: at this length each fits one 998-octet
     * line with its header name (List-Unsubscribe is folded between its two URIs).
     */
    private static final int MAX_URI_LENGTH = 900;
    /** RFC 5321 4.5.3.1.3: a path holds at most 256 octets, the address in it 254. */
    private static final int MAX_ADDRESS_LENGTH = 254;

    private Headers() {
    }

    private static String checked(String header, String value) throws RejectedMessageException {
        Optional<String> problem = HeaderValues.check(header, value);
        if (problem.isPresent()) {
            throw new RejectedMessageException(problem.get());
        }
        return value;
    }

    /** A bare address with its display name: as written (quoted if need be) or as encoded words. */
    static InternetAddress address(String header, Mailbox mailbox) throws RejectedMessageException {
        String address = checked(header, mailbox.address()).strip();
        String displayName = checked(header + " display name", mailbox.displayName()).strip();
        if (address.length() > MAX_ADDRESS_LENGTH) {
            throw new RejectedMessageException(header + ": address longer than " + MAX_ADDRESS_LENGTH + " characters");
        }
        try {
            InternetAddress parsed = new InternetAddress(address, true);
            parsed.validate();
            if (parsed.getPersonal() != null || !parsed.getAddress().equals(address)) {
                throw new RejectedMessageException(header + ": '" + address + "' must be a bare address like user@example.com");
            }
            if (displayName.isEmpty()) {
                return parsed;
            }
            if (!HeaderText.needsEncoding(displayName)) {
                return new InternetAddress(address, displayName, "UTF-8"); // quoted when it needs to be
            }
            // InternetAddress would leave an ASCII name as it is; parsing takes the encoded words as given.
            return new InternetAddress(HeaderText.encode(displayName) + " <" + address + ">", true);
        } catch (AddressException e) {
            throw new RejectedMessageException(header + ": '" + address + "' is not a valid address (" + e.getMessage() + ")");
        } catch (UnsupportedEncodingException e) {
            throw new IllegalStateException("UTF-8 is always supported", e);
        }
    }

    /** The Subject header's value: checked, white space at either end dropped, encoded when it must be, folded. */
    static String subject(String subject) throws RejectedMessageException {
        // Leading and trailing white space would not survive folding and parsing anyway.
        return HeaderText.unstructured("Subject", checked("Subject", subject).strip());
    }

    static String messageId(String messageId) throws RejectedMessageException {
        checked("Message-ID", messageId);
        if (messageId.length() > MAX_URI_LENGTH) {
            throw new RejectedMessageException("Message-ID: longer than " + MAX_URI_LENGTH + " characters");
        }
        if (!MESSAGE_ID.matcher(messageId).matches()) {
            throw new RejectedMessageException("Message-ID: '" + messageId + "' is not of the form <local@domain>");
        }
        return messageId;
    }

    /** The List-Id header's value, folded: {@code "Campaign name" <c12.lists.example.com>}. */
    static String listId(String id, String name) throws RejectedMessageException {
        return HeaderText.fold("List-Id: ".length(), listIdValue(id, name));
    }

    /**
     * The List-Unsubscribe header's value, folded: {@code <https://…>, <mailto:…>}, or the one-click
     * URL alone when there is no mailto.
     */
    static String listUnsubscribe(String url, Optional<String> mailto) throws RejectedMessageException {
        String value = "<" + unsubscribeUrl(url) + ">";
        if (mailto.isPresent()) {
            value += ", <" + unsubscribeMailto(mailto.get()) + ">";
        }
        return HeaderText.fold("List-Unsubscribe: ".length(), value);
    }

    private static String listIdValue(String id, String name) throws RejectedMessageException {
        checked("List-Id", id);
        checked("List-Id", name);
        if (!LIST_ID.matcher(id).matches() || id.length() > 255) {
            throw new RejectedMessageException("List-Id: '" + id + "' must be a dotted identifier like c12.lists.example.com");
        }
        if (name.isBlank()) {
            return "<" + id + ">";
        }
        return phrase(name.strip()) + " <" + id + ">";
    }

    /** A List-Id description: a quoted string, or RFC 2047 encoded words when {@link HeaderText} says so. */
    private static String phrase(String name) {
        if (HeaderText.needsEncoding(name)) {
            return HeaderText.encode(name);
        }
        return "\"" + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String unsubscribeUrl(String url) throws RejectedMessageException {
        checkUri("List-Unsubscribe", url);
        try {
            URI uri = new URI(url);
            // Plain http only for a loopback endpoint (the demo, local tests); anything reachable from
            // a mailbox provider must be https.
            boolean loopbackHttp = "http".equalsIgnoreCase(uri.getScheme())
                    && ("127.0.0.1".equals(uri.getHost()) || "localhost".equalsIgnoreCase(String.valueOf(uri.getHost())));
            if (!("https".equalsIgnoreCase(uri.getScheme()) || loopbackHttp) || uri.getHost() == null) {
                throw new RejectedMessageException("List-Unsubscribe: one-click unsubscribe needs an https URL with a host, got '" + url + "'");
            }
        } catch (URISyntaxException e) {
            throw new RejectedMessageException("List-Unsubscribe: '" + url + "' is not a valid URL (" + e.getReason() + ")");
        }
        return url;
    }

    private static String unsubscribeMailto(String mailto) throws RejectedMessageException {
        checkUri("List-Unsubscribe", mailto);
        if (!mailto.regionMatches(true, 0, "mailto:", 0, 7) || mailto.indexOf('@') < 0) {
            throw new RejectedMessageException("List-Unsubscribe: '" + mailto + "' must be a mailto: URI with an address");
        }
        return mailto;
    }

    private static void checkUri(String header, String uri) throws RejectedMessageException {
        checked(header, uri);
        if (uri.length() > MAX_URI_LENGTH) {
            throw new RejectedMessageException(header + ": URI longer than " + MAX_URI_LENGTH + " characters");
        }
        for (int i = 0; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c <= ' ' || URI_BREAKERS.indexOf(c) >= 0) {
                throw new RejectedMessageException(header + ": '" + uri + "' contains a space, quote, comma or angle bracket; percent-encode them");
            }
            // Encoded words are not allowed in a URI, but clients that decode them anyway would show another link.
            if (c == '?' && i > 0 && uri.charAt(i - 1) == '=') {
                throw new RejectedMessageException(header + ": '" + uri + "' contains '=?', which mail clients may read as an encoded word; percent-encode the '?' as %3F");
            }
        }
    }
}
