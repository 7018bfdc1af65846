package dev.mailrun.mail.feedback;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mailrun.mail.bounce.BounceKind;
import dev.mailrun.mail.bounce.ReportedFailures;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * SendGrid's signed Event Webhook: a JSON array of events. The signature
 * ({@code X-Twilio-Email-Event-Webhook-Signature}, base64 of a DER ECDSA signature) covers the
 * timestamp header ({@code X-Twilio-Email-Event-Webhook-Timestamp}, Unix seconds) followed by the raw
 * body, with SHA256withECDSA and the P-256 key from {@code feedback.sendgrid.public-key}. A timestamp more
 * than {@link #TOLERANCE} from mailrun's clock either way is a replay and refused.
 *
 * <table>
 *   <caption>SendGrid event → kind</caption>
 *   <tr><td>bounce (type bounce)</td><td>judged by status and reason like a bounce message: hard, refused or soft</td></tr>
 *   <tr><td>bounce (type blocked)</td><td>soft for a 4.x.x status, otherwise refused: a block is about the sender</td></tr>
 *   <tr><td>deferred</td><td>soft (counted once per send)</td></tr>
 *   <tr><td>dropped: Bounced Address / Spam Reporting Address / Unsubscribed Address</td><td>hard / complaint / unsubscribe
 *       (SendGrid's own suppression lists)</td></tr>
 *   <tr><td>dropped: anything else (Invalid, Spam Content, …)</td><td>refused: the message was not sent</td></tr>
 *   <tr><td>spamreport</td><td>complaint</td></tr>
 *   <tr><td>unsubscribe, group_unsubscribe</td><td>unsubscribe</td></tr>
 *   <tr><td>delivered</td><td>delivery</td></tr>
 *   <tr><td>processed, open, click, group_resubscribe, any other</td><td>ignored</td></tr>
 * </table>
 */
public final class SendGridWebhook implements FeedbackWebhook {

    static final Duration TOLERANCE = Duration.ofMinutes(5);
    static final String SIGNATURE_HEADER = "x-twilio-email-event-webhook-signature";
    static final String TIMESTAMP_HEADER = "x-twilio-email-event-webhook-timestamp";

    private final SendGridSettings settings;
    private final Clock clock;

    public SendGridWebhook(SendGridSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public Provider provider() {
        return Provider.SENDGRID;
    }

    @Override
    public Verdict receive(WebhookRequest request) {
        Optional<String> signature = request.header(SIGNATURE_HEADER);
        Optional<String> timestamp = request.header(TIMESTAMP_HEADER);
        if (signature.isEmpty() || timestamp.isEmpty()) {
            return new Verdict.Refused(Verdict.Reason.UNAUTHENTICATED, "no signature or timestamp header (enable the Signed Event Webhook)");
        }
        if (!verifies(signature.get(), timestamp.get(), request.body())) {
            return new Verdict.Refused(Verdict.Reason.UNAUTHENTICATED, "signature does not verify");
        }
        Optional<Verdict.Refused> stale = Freshness.check(timestamp.get(), clock.instant(), TOLERANCE);
        if (stale.isPresent()) {
            return stale.get();
        }
        Optional<JsonNode> json = Json.parse(request.body()).filter(JsonNode::isArray);
        if (json.isEmpty()) {
            return new Verdict.Refused(Verdict.Reason.MALFORMED, "body is not a JSON array of events");
        }
        List<FeedbackEvent> events = new ArrayList<>();
        for (JsonNode e : json.get()) {
            if (!e.isObject()) {
                return new Verdict.Refused(Verdict.Reason.MALFORMED, "an element of the array is not an event object");
            }
            events.add(event(e));
        }
        return Verdict.Accepted.of(events);
    }

    private boolean verifies(String signature, String timestamp, byte[] body) {
        try {
            Signature verifier = Signature.getInstance("SHA256withECDSA");
            verifier.initVerify(settings.publicKey());
            verifier.update(timestamp.getBytes(StandardCharsets.UTF_8));
            verifier.update(body);
            return verifier.verify(Base64.getDecoder().decode(signature.strip()));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false; // not base64, or not a DER ECDSA signature
        }
    }

    static FeedbackEvent event(JsonNode e) {
        String type = Json.textOr(e, "event", "");
        String address = Json.textOr(e, "email", "");
        String status = Json.scalar(e, "status").flatMap(ReportedFailures::enhancedStatus).orElse("");
        String reason = Json.textOr(e, "reason", Json.textOr(e, "response", ""));
        FeedbackEvent.Kind kind = switch (type) {
            case "bounce" -> "blocked".equals(Json.textOr(e, "type", "bounce"))
                    ? (status.startsWith("4") ? FeedbackEvent.Kind.SOFT : FeedbackEvent.Kind.REFUSED)
                    : judged(status, reason);
            case "deferred" -> FeedbackEvent.Kind.SOFT;
            case "dropped" -> dropped(reason);
            case "spamreport" -> FeedbackEvent.Kind.COMPLAINT;
            case "unsubscribe", "group_unsubscribe" -> FeedbackEvent.Kind.UNSUBSCRIBE;
            case "delivered" -> FeedbackEvent.Kind.DELIVERY;
            default -> FeedbackEvent.Kind.IGNORED;
        };
        String eventId = Json.text(e, "sg_event_id").orElse(Json.textOr(e, "sg_message_id", "") + "/" + type + "/"
                + address + "/" + Json.scalar(e, "timestamp").orElse(""));
        String detail = (type + ("bounce".equals(type) ? " " + Json.textOr(e, "type", "bounce") : "") + " " + reason).strip();
        return new FeedbackEvent(Provider.SENDGRID, eventId, kind, address,
                MessageTags.read(name -> Json.scalar(e, name)),
                Json.text(e, "smtp-id").filter(s -> !s.isBlank()).map(FeedbackIds::bracketed),
                status, kind == FeedbackEvent.Kind.DELIVERY ? OptionalInt.empty() : ReportedFailures.smtpCode(reason), detail);
    }

    private static FeedbackEvent.Kind judged(String status, String reason) {
        BounceKind kind = ReportedFailures.judge(status, reason);
        return switch (kind) {
            case HARD -> FeedbackEvent.Kind.HARD;
            case SOFT -> FeedbackEvent.Kind.SOFT;
            default -> FeedbackEvent.Kind.REFUSED;
        };
    }

    private static FeedbackEvent.Kind dropped(String reason) {
        String r = reason.toLowerCase(Locale.ROOT);
        if (r.contains("bounced address")) {
            return FeedbackEvent.Kind.HARD;
        }
        if (r.contains("spam reporting address")) {
            return FeedbackEvent.Kind.COMPLAINT;
        }
        if (r.contains("unsubscribed address")) {
            return FeedbackEvent.Kind.UNSUBSCRIBE;
        }
        return FeedbackEvent.Kind.REFUSED;
    }
}
