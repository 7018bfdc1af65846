package dev.mailrun.mail.feedback;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mailrun.mail.bounce.BounceKind;
import dev.mailrun.mail.bounce.ReportedFailures;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The SES notification inside an SNS message (identity notifications, {@code notificationType}, or
 * event publishing, {@code eventType}), one event per recipient it names:
 *
 * <table>
 *   <caption>SES notification → kind</caption>
 *   <tr><td>Bounce Permanent / NoEmail, Suppressed, OnAccountSuppressionList</td><td>hard</td></tr>
 *   <tr><td>Bounce Permanent / General (and any other subtype)</td><td>judged by the recipient's status and
 *       diagnostic like a bounce message: hard, refused (5.7.x, spam, policy) or soft (5.2.2)</td></tr>
 *   <tr><td>Bounce Transient / MessageTooLarge, ContentRejected, AttachmentRejected</td><td>refused: about the message</td></tr>
 *   <tr><td>Bounce Transient / General, MailboxFull (and any other subtype); Undetermined</td><td>soft</td></tr>
 *   <tr><td>Complaint (feedback type not-spam: ignored)</td><td>complaint</td></tr>
 *   <tr><td>Delivery</td><td>delivery</td></tr>
 *   <tr><td>anything else (Send, Open, Click, DeliveryDelay, …)</td><td>ignored</td></tr>
 * </table>
 *
 * The message's own Message-ID comes from {@code mail.commonHeaders.messageId} (or {@code mail.headers});
 * the ids from {@code mail.tags} (message tags of event publishing).
 */
final class SesNotifications {

    private static final Set<String> ADDRESS_GONE = Set.of("NoEmail", "Suppressed", "OnAccountSuppressionList");
    private static final Set<String> ABOUT_THE_MESSAGE = Set.of("MessageTooLarge", "ContentRejected", "AttachmentRejected");

    private SesNotifications() {}

    /** The events, or empty when the notification is not an SES notification mailrun can read. */
    static Optional<List<FeedbackEvent>> read(String message, String snsMessageId) {
        Optional<JsonNode> parsed = Json.parse(message);
        if (parsed.isEmpty() || !parsed.get().isObject()) {
            return Optional.empty();
        }
        JsonNode n = parsed.get();
        Optional<String> type = Json.text(n, "notificationType").or(() -> Json.text(n, "eventType"));
        JsonNode mail = Json.object(n, "mail");
        if (type.isEmpty() || mail == null) {
            return Optional.empty();
        }
        Context context = new Context(snsMessageId, ids(mail), messageId(mail));
        List<FeedbackEvent> events = new ArrayList<>();
        switch (type.get()) {
            case "Bounce" -> {
                JsonNode bounce = Json.object(n, "bounce");
                if (bounce == null || !bounce.path("bouncedRecipients").isArray()) {
                    return Optional.empty();
                }
                String bounceType = Json.textOr(bounce, "bounceType", "");
                String subType = Json.textOr(bounce, "bounceSubType", "");
                int i = 0;
                for (JsonNode r : bounce.get("bouncedRecipients")) {
                    String status = Json.textOr(r, "status", "");
                    String diagnostic = ReportedFailures.diagnostic(Json.textOr(r, "diagnosticCode", ""));
                    FeedbackEvent.Kind kind = bounceKind(bounceType, subType, status, diagnostic);
                    String detail = (bounceType + "/" + subType + " " + diagnostic).strip();
                    events.add(context.event(i++, kind, Json.textOr(r, "emailAddress", ""),
                            ReportedFailures.enhancedStatus(status).orElse(""), ReportedFailures.smtpCode(diagnostic), detail));
                }
            }
            case "Complaint" -> {
                JsonNode complaint = Json.object(n, "complaint");
                if (complaint == null || !complaint.path("complainedRecipients").isArray()) {
                    return Optional.empty();
                }
                String feedbackType = Json.textOr(complaint, "complaintFeedbackType", "");
                FeedbackEvent.Kind kind = feedbackType.equals("not-spam") ? FeedbackEvent.Kind.IGNORED : FeedbackEvent.Kind.COMPLAINT;
                int i = 0;
                for (JsonNode r : complaint.get("complainedRecipients")) {
                    events.add(context.event(i++, kind, Json.textOr(r, "emailAddress", ""), "", OptionalInt.empty(),
                            ("complaint " + feedbackType).strip()));
                }
            }
            case "Delivery" -> {
                JsonNode delivery = Json.object(n, "delivery");
                if (delivery == null || !delivery.path("recipients").isArray()) {
                    return Optional.empty();
                }
                int i = 0;
                for (JsonNode r : delivery.get("recipients")) {
                    events.add(context.event(i++, FeedbackEvent.Kind.DELIVERY, r.asText(""), "", OptionalInt.empty(),
                            Json.textOr(delivery, "smtpResponse", "")));
                }
            }
            default -> events.add(context.event(0, FeedbackEvent.Kind.IGNORED, "", "", OptionalInt.empty(), type.get()));
        }
        return Optional.of(events);
    }

    static FeedbackEvent.Kind bounceKind(String bounceType, String subType, String status, String diagnostic) {
        return switch (bounceType) {
            case "Permanent" -> ADDRESS_GONE.contains(subType) ? FeedbackEvent.Kind.HARD : judged(status, diagnostic);
            case "Transient" -> ABOUT_THE_MESSAGE.contains(subType) ? FeedbackEvent.Kind.REFUSED : FeedbackEvent.Kind.SOFT;
            default -> FeedbackEvent.Kind.SOFT; // Undetermined: SES could not tell; not enough to suppress at once
        };
    }

    /** A permanent failure judged by the reply: SES reports policy blocks as Permanent/General too. */
    static FeedbackEvent.Kind judged(String status, String diagnostic) {
        BounceKind kind = ReportedFailures.judge(status.startsWith("4") ? "5.0.0" : status, diagnostic);
        return switch (kind) {
            case HARD -> FeedbackEvent.Kind.HARD;
            case SOFT -> FeedbackEvent.Kind.SOFT;
            default -> FeedbackEvent.Kind.REFUSED;
        };
    }

    private static Optional<SendIds> ids(JsonNode mail) {
        JsonNode tags = Json.object(mail, "tags");
        return MessageTags.read(name -> {
            JsonNode values = tags == null ? null : tags.get(name);
            return values != null && values.isArray() && values.size() > 0 && values.get(0).isTextual()
                    ? Optional.of(values.get(0).asText()) : Optional.empty();
        });
    }

    private static Optional<String> messageId(JsonNode mail) {
        Optional<String> common = Json.text(Json.object(mail, "commonHeaders"), "messageId");
        if (common.isPresent()) {
            return common.map(FeedbackIds::bracketed);
        }
        JsonNode headers = mail.get("headers");
        if (headers != null && headers.isArray()) {
            for (JsonNode h : headers) {
                if (Json.textOr(h, "name", "").equalsIgnoreCase("Message-ID")) {
                    return Json.text(h, "value").map(FeedbackIds::bracketed);
                }
            }
        }
        return Optional.empty();
    }

    private record Context(String snsMessageId, Optional<SendIds> ids, Optional<String> messageId) {
        FeedbackEvent event(int index, FeedbackEvent.Kind kind, String address, String status, OptionalInt code, String detail) {
            return new FeedbackEvent(Provider.SES, snsMessageId + "/" + index, kind, address, ids, messageId, status, code, detail);
        }
    }
}
