package dev.mailrun.mail.template;

import java.util.Objects;

/** Rendering one recipient either yields content or a reason the recipient cannot be mailed. */
public sealed interface RenderResult {

    record Rendered(RenderedContent content) implements RenderResult {
        public Rendered {
            Objects.requireNonNull(content, "content");
        }
    }

    /** The recipient's data cannot produce a valid message (missing field, line break in the subject). */
    record Rejected(String reason) implements RenderResult {
        public Rejected {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
