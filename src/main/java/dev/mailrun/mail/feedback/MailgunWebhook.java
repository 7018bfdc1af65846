package dev.mailrun.mail.feedback;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mailrun.mail.HmacSha256;
import dev.mailrun.mail.bounce.BounceKind;
import dev.mailrun.mail.bounce.ReportedFailures;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Mailgun's JSON webhooks, {@code {"signature": {"timestamp", "token", "signature"}, "event-data": {…}}}.
 * The signature is HMAC-SHA256 under the webhook signing key of timestamp followed by token, in hex.
 * It does not cover event-data, so the token is a one-time value: the processor remembers it with the
 * event and refuses it a second time; and a timestamp more than {@link #TOLERANCE} from mailrun's clock
 * either way is a replay and refused.
 *
 * <table>
 *   <caption>Mailgun event → kind</caption>
 *   <tr><td>failed, severity permanent, reason suppress-bounce / suppress-complaint / suppress-unsubscribe</td>
 *       <td>hard / complaint / unsubscribe (Mailgun's own suppression lists)</td></tr>
 *   <tr><td>failed, severity permanent, reason espblock</td><td>refused: the receiver blocked the sender</td></tr>
 *   <tr><td>failed, severity permanent, reason old (Mailgun gave up retrying)</td><td>soft</td></tr>
 *   <tr><td>failed, severity permanent, any other reason (bounce, generic, …)</td><td>judged by the delivery
 *       status (code, enhanced code, message) like a bounce message: hard, refused or soft</td></tr>
 *   <tr><td>failed, severity temporary</td><td>soft (counted once per send)</td></tr>
 *   <tr><td>complained</td><td>complaint</td></tr>
 *   <tr><td>unsubscribed</td><td>unsubscribe</td></tr>
 *   <tr><td>delivered</td><td>delivery</td></tr>
 *   <tr><td>accepted, opened, clicked, stored, any other</td><td>ignored</td></tr>
 * </table>
 */
public final class MailgunWebhook implements FeedbackWebhook {

    static final Duration TOLERANCE = Duration.ofMinutes(5);

    private final HmacSha256 hmac;
    private final Clock clock;

    public MailgunWebhook(MailgunSettings settings, Clock clock) {
        this.hmac = new HmacSha256(settings.signingKey().reveal().getBytes(StandardCharsets.UTF_8));
        this.clock = clock;
    }

    @Override
    public Provider provider() {
        return Provider.MAILGUN;
    }

    @Override
    public Verdict receive(WebhookRequest request) {
        Optional<JsonNode> json = Json.parse(request.body()).filter(JsonNode::isObject);
        if (json.isEmpty()) {
            return new Verdict.Refused(Verdict.Reason.MALFORMED, "body is not a JSON object");
        }
        JsonNode signature = Json.object(json.get(), "signature");
        Optional<String> timestamp = Json.scalar(signature, "timestamp");
        Optional<String> token = Json.text(signature, "token");
        Optional<String> hex = Json.text(signature, "signature");
        if (timestamp.isEmpty() || token.isEmpty() || hex.isEmpty()) {
            return new Verdict.Refused(Verdict.Reason.UNAUTHENTICATED, "no signature (timestamp, token, signature)");
        }
        if (!verifies(timestamp.get(), token.get(), hex.get())) {
            return new Verdict.Refused(Verdict.Reason.UNAUTHENTICATED, "signature does not verify");
        }
        Optional<Verdict.Refused> stale = Freshness.check(timestamp.get(), clock.instant(), TOLERANCE);
        if (stale.isPresent()) {
            return stale.get();
        }
        JsonNode data = Json.object(json.get(), "event-data");
        if (data == null || Json.text(data, "event").isEmpty()) {
            return new Verdict.Refused(Verdict.Reason.MALFORMED, "no event-data with an event");
        }
        return new Verdict.Accepted(List.of(event(data)), Optional.of(token.get()));
    }

    private boolean verifies(String timestamp, String token, String signature) {
        byte[] expected = hmac.start().doFinal((timestamp + token).getBytes(StandardCharsets.UTF_8));
        byte[] given;
        try {
            given = HexFormat.of().parseHex(signature.strip().toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(expected, given);
    }

    static FeedbackEvent event(JsonNode d) {
        String type = Json.textOr(d, "event", "");
        String severity = Json.textOr(d, "severity", "");
        String reason = Json.textOr(d, "reason", "");
        JsonNode delivery = Json.object(d, "delivery-status");
        String words = (Json.textOr(delivery, "message", "") + " " + Json.textOr(delivery, "description", "")).strip();
        OptionalInt code = Json.scalar(delivery, "code").filter(c -> c.matches("[2-5]\\d\\d"))
                .map(c -> OptionalInt.of(Integer.parseInt(c))).orElse(ReportedFailures.smtpCode(words));
        String status = Json.text(delivery, "enhanced-code").flatMap(ReportedFailures::enhancedStatus)
                .or(() -> ReportedFailures.enhancedStatus(words)).orElse("");
        FeedbackEvent.Kind kind = switch (type) {
            case "failed" -> "temporary".equals(severity) ? FeedbackEvent.Kind.SOFT : permanent(reason, status, code, words);
            case "complained" -> FeedbackEvent.Kind.COMPLAINT;
            case "unsubscribed" -> FeedbackEvent.Kind.UNSUBSCRIBE;
            case "delivered" -> FeedbackEvent.Kind.DELIVERY;
            default -> FeedbackEvent.Kind.IGNORED;
        };
        JsonNode headers = Json.object(Json.object(d, "message"), "headers");
        JsonNode variables = Json.object(d, "user-variables");
        String id = Json.text(d, "id").orElse(type + "/" + Json.textOr(d, "recipient", "") + "/" + Json.scalar(d, "timestamp").orElse(""));
        String detail = (type + " " + severity + " " + reason + " " + words).strip();
        return new FeedbackEvent(Provider.MAILGUN, id, kind, Json.textOr(d, "recipient", ""),
                MessageTags.read(name -> Json.scalar(variables, name)),
                Json.text(headers, "message-id").filter(s -> !s.isBlank()).map(FeedbackIds::bracketed),
                status, kind == FeedbackEvent.Kind.DELIVERY ? OptionalInt.empty() : code, detail);
    }

    private static FeedbackEvent.Kind permanent(String reason, String status, OptionalInt code, String words) {
        switch (reason) {
            case "suppress-bounce":
                return FeedbackEvent.Kind.HARD;
            case "suppress-complaint":
                return FeedbackEvent.Kind.COMPLAINT;
            case "suppress-unsubscribe":
                return FeedbackEvent.Kind.UNSUBSCRIBE;
            case "espblock":
                return FeedbackEvent.Kind.REFUSED;
            case "old":
                return FeedbackEvent.Kind.SOFT;
            default:
                break;
        }
        String reply = (code.isPresent() ? code.getAsInt() + " " : "") + words;
        BounceKind kind = ReportedFailures.judge(status, reply);
        return switch (kind) {
            case HARD -> FeedbackEvent.Kind.HARD;
            case SOFT -> FeedbackEvent.Kind.SOFT;
            default -> FeedbackEvent.Kind.REFUSED;
        };
    }
}
