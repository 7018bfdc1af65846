package dev.mailrun.mail.bounce;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/** Spam complaints from an RFC 5965 (ARF) message/feedback-report part. */
final class FeedbackReports {

    /** Types where a person (or their provider for them) objected to the mail. */
    private static final Set<String> COMPLAINT_TYPES = Set.of("abuse", "fraud", "virus", "other");

    private FeedbackReports() {}

    static BounceReport read(String feedbackReport, Optional<String> originalTo, Optional<String> originalMessageId,
                             Optional<String> token) {
        Map<String, String> fields = HeaderBlocks.parse(feedbackReport).stream().findFirst().orElse(Map.of());
        String type = fields.getOrDefault("feedback-type", "abuse").strip().toLowerCase(Locale.ROOT);
        if (!COMPLAINT_TYPES.contains(type)) {
            // not-spam and auth-failure reports are about the mail stream, not a person's wish
            return BounceReport.unrecognised("feedback report of type " + type, originalMessageId, token);
        }
        Optional<String> recipient = Optional.ofNullable(fields.get("original-rcpt-to")).map(HeaderBlocks::address)
                .or(() -> originalTo.flatMap(FeedbackReports::firstAddress))
                .filter(r -> !r.isEmpty());
        return new BounceReport(BounceKind.COMPLAINT, recipient, "", OptionalInt.empty(),
                "feedback-type=" + type, originalMessageId, token);
    }

    private static Optional<String> firstAddress(String header) {
        var m = TextPatterns.ADDRESS.matcher(header);
        return m.find() ? Optional.of(m.group()) : Optional.empty();
    }
}
