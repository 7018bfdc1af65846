package dev.mailrun.mail.bounce;

import jakarta.mail.MessagingException;
import jakarta.mail.Part;
import jakarta.mail.internet.InternetHeaders;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;

/** The headers of the returned original message, from a report's message/rfc822 or headers part. */
final class Originals {

    private static final Set<String> ORIGINAL_TYPES = Set.of("message/rfc822", "message/global",
            "text/rfc822-headers", "message/rfc822-headers", "message/global-headers");

    private Originals() {}

    static Optional<InternetHeaders> find(Iterable<? extends Part> parts) throws MessagingException, IOException {
        for (Part part : parts) {
            if (ORIGINAL_TYPES.contains(MimeParts.baseType(part))) {
                return Optional.of(MimeParts.headers(part));
            }
        }
        return Optional.empty();
    }

    static Optional<String> header(Optional<InternetHeaders> headers, String name) {
        return headers.map(h -> h.getHeader(name, null)).map(String::strip).filter(v -> !v.isEmpty());
    }

    /** The Message-ID with angle brackets, however the header wrote it. */
    static Optional<String> messageId(Optional<String> raw) {
        return raw.map(String::strip).map(v -> {
            int open = v.indexOf('<');
            int close = v.indexOf('>', open + 1);
            return open >= 0 && close > open ? v.substring(open, close + 1) : "<" + v + ">";
        }).filter(v -> v.length() > 2);
    }
}
