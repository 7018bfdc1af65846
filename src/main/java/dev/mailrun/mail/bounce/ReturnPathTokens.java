package dev.mailrun.mail.bounce;

import jakarta.mail.MessagingException;
import jakarta.mail.Part;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Finds the token of a {@code <prefix>+<token>@domain} return path in a bounce's envelope headers. */
final class ReturnPathTokens {

    /** Headers a receiving server fills from the envelope recipient, in order of trust. */
    private static final String[] ENVELOPE_HEADERS = {"X-Original-To", "Delivered-To", "Envelope-To", "To"};

    private final Pattern pattern;

    ReturnPathTokens(String localPrefix) {
        this.pattern = Pattern.compile("(?i)(?<![A-Za-z0-9._%+-])" + Pattern.quote(localPrefix) + "\\+([A-Za-z0-9_-]{1,64})@");
    }

    Optional<String> in(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = pattern.matcher(text);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    Optional<String> inEnvelopeHeaders(Part message) throws MessagingException {
        for (String name : ENVELOPE_HEADERS) {
            String[] values = message.getHeader(name);
            if (values != null) {
                for (String value : values) {
                    Optional<String> token = in(value);
                    if (token.isPresent()) {
                        return token;
                    }
                }
            }
        }
        return Optional.empty();
    }
}
