package dev.mailrun.mail.feedback;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One webhook POST as it arrived: its headers (names lower-cased, the first value of each) and the
 * whole body, byte for byte, since signatures cover the raw bytes.
 */
public record WebhookRequest(Map<String, String> headers, byte[] body) {

    public WebhookRequest {
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(body, "body");
        headers = Map.copyOf(headers);
    }

    Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
    }
}
