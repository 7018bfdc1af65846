package dev.mailrun.mail.template;

import java.util.Objects;

/** The three rendered parts of one recipient's message. */
public record RenderedContent(String subject, String text, String html) {

    public RenderedContent {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(html, "html");
    }
}
