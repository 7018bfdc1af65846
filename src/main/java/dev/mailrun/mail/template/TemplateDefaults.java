package dev.mailrun.mail.template;

import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * Per-template defaults from {@code template.properties}; the campaign's own settings win over these.
 * Both values were checked when the file was read: no line break, a valid address.
 *
 * @param from    e.g. {@code ACME News <news@example.com>}
 * @param replyTo e.g. {@code support@example.com}
 */
public record TemplateDefaults(Optional<String> from, Optional<String> replyTo) {

    static final TemplateDefaults NONE = new TemplateDefaults(Optional.empty(), Optional.empty());

    /** A sender as a campaign keeps it: the bare address and, apart, its display name. */
    public record Sender(String address, Optional<String> name) {}

    public TemplateDefaults {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(replyTo, "replyTo");
    }

    /**
     * {@code from} split into address and display name. The name is decoded (an encoded word may
     * decode to anything), so whoever puts it in a header checks it as it would an operator's.
     */
    public Optional<Sender> sender() {
        return from.map(TemplateDefaults::parse)
                .map(a -> new Sender(a.getAddress(), Optional.ofNullable(a.getPersonal()).filter(n -> !n.isBlank())));
    }

    /** The bare address of {@code reply-to}. */
    public Optional<String> replyToAddress() {
        return replyTo.map(r -> parse(r).getAddress());
    }

    private static InternetAddress parse(String value) {
        try {
            return new InternetAddress(value, true);
        } catch (AddressException e) {
            // TemplateProperties keeps only values that parsed.
            throw new IllegalStateException("template.properties value was checked: " + e.getMessage(), e);
        }
    }
}
