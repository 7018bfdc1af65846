package dev.mailrun.campaign.content;

import java.util.Objects;
import java.util.Optional;

/**
 * What an operator writes for one campaign instead of a template of its own: placed into a layout
 * template by {@link OwnMessageComposer}, which checks it (nothing here is validated, so that every
 * problem is reported at once, as a template's are).
 *
 * @param subject the subject, one line; it may hold merge tags
 * @param body    the body, HTML or Markdown as {@code format} says; it may hold merge tags
 * @param format  how {@code body} is written
 * @param text    the text part's content; empty: read out of the body's HTML ({@link PlainTextOf})
 */
public record OwnMessage(String subject, String body, BodyFormat format, Optional<String> text) {

    public OwnMessage {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(text, "text");
    }
}
