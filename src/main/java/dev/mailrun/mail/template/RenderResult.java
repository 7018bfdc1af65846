package dev.mailrun.mail.template;

import java.util.Objects;

/** Rendering one recipient either yields content or a reason the recipient cannot be mailed. */
public sealed interface RenderResult {

    record Rendered(RenderedContent content) implements RenderResult {
        public Rendered {
            Objects.requireNonNull(content, "content");
        }
    }

    /**
     * The content with both bodies ready to go out 7bit ({@link CompiledTemplate#renderSevenBit}):
     * the subject as text, the bodies as their wire bytes.
     */
    record RenderedSevenBit(String subject, SevenBitBody text, SevenBitBody html) implements RenderResult {
        public RenderedSevenBit {
            Objects.requireNonNull(subject, "subject");
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(html, "html");
        }
    }

    /** The recipient's data cannot produce a valid message (missing field, line break in the subject). */
    record Rejected(String reason) implements RenderResult {
        public Rejected {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
