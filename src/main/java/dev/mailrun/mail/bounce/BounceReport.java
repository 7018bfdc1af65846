package dev.mailrun.mail.bounce;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The facts one bounce, delay or complaint gives about one recipient.
 *
 * @param kind              hard, soft, complaint or unrecognised
 * @param recipient         the address that failed, as the reporting server wrote it (the original
 *                          recipient when the report names one, so forwarding does not hide it)
 * @param status            the enhanced status code, e.g. {@code 5.1.1}; empty when none was given
 * @param smtpCode          the SMTP reply code from the diagnostic, e.g. 550, when one was given
 * @param diagnostic        the server's explanation, one line; for unrecognised messages, why
 * @param originalMessageId the Message-ID of the message that bounced, with angle brackets
 * @param returnPathToken   the token of a {@code <prefix>+<token>@domain} return path, unverified
 */
public record BounceReport(BounceKind kind, Optional<String> recipient, String status, OptionalInt smtpCode,
                           String diagnostic, Optional<String> originalMessageId, Optional<String> returnPathToken) {

    public BounceReport {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(recipient, "recipient");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(smtpCode, "smtpCode");
        Objects.requireNonNull(diagnostic, "diagnostic");
        Objects.requireNonNull(originalMessageId, "originalMessageId");
        Objects.requireNonNull(returnPathToken, "returnPathToken");
    }

    static BounceReport unrecognised(String why, Optional<String> originalMessageId, Optional<String> returnPathToken) {
        return new BounceReport(BounceKind.UNRECOGNISED, Optional.empty(), "", OptionalInt.empty(), why,
                originalMessageId, returnPathToken);
    }
}
