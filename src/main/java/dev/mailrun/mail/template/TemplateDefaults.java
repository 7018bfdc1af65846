package dev.mailrun.mail.template;

import java.util.Objects;
import java.util.Optional;

/**
 * Per-template defaults from {@code template.properties}; the campaign's own settings win over these.
 *
 * @param from    e.g. {@code ACME News <news@example.com>}
 * @param replyTo e.g. {@code support@example.com}
 */
record TemplateDefaults(Optional<String> from, Optional<String> replyTo) {

    static final TemplateDefaults NONE = new TemplateDefaults(Optional.empty(), Optional.empty());

    TemplateDefaults {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(replyTo, "replyTo");
    }
}
