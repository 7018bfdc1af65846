package dev.mailrun.mail.feedback;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mailrun.mail.bounce.ReportedFailures;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Postmark's Bounce, SpamComplaint (and Delivery) webhooks, authenticated by HTTP basic credentials
 * ({@code feedback.postmark.user}/{@code .password}, written into the webhook URL in Postmark). Postmark
 * signs nothing and its requests carry no signed time, so a replay with the right credentials is
 * caught only by its ID (the processor applies each event once); keep the URL behind https.
 *
 * <table>
 *   <caption>Postmark bounce Type → kind</caption>
 *   <tr><td>HardBounce, BadEmailAddress, ManuallyDeactivated</td><td>hard</td></tr>
 *   <tr><td>SoftBounce, Transient, DnsError</td><td>soft</td></tr>
 *   <tr><td>Blocked, SpamNotification, VirusNotification, DMARCPolicy, SMTPApiError, TemplateRenderingFailed</td><td>refused</td></tr>
 *   <tr><td>SpamComplaint</td><td>complaint</td></tr>
 *   <tr><td>Unsubscribe</td><td>unsubscribe</td></tr>
 *   <tr><td>AutoResponder, AddressChange, Subscribe, OpenRelayTest, ChallengeVerification, Unconfirmed,
 *       InboundError, Unknown and any other</td><td>ignored</td></tr>
 * </table>
 */
public final class PostmarkWebhook implements FeedbackWebhook {

    static final Map<String, FeedbackEvent.Kind> TYPES = Map.ofEntries(
            Map.entry("HardBounce", FeedbackEvent.Kind.HARD),
            Map.entry("BadEmailAddress", FeedbackEvent.Kind.HARD),
            Map.entry("ManuallyDeactivated", FeedbackEvent.Kind.HARD),
            Map.entry("SoftBounce", FeedbackEvent.Kind.SOFT),
            Map.entry("Transient", FeedbackEvent.Kind.SOFT),
            Map.entry("DnsError", FeedbackEvent.Kind.SOFT),
            Map.entry("Blocked", FeedbackEvent.Kind.REFUSED),
            Map.entry("SpamNotification", FeedbackEvent.Kind.REFUSED),
            Map.entry("VirusNotification", FeedbackEvent.Kind.REFUSED),
            Map.entry("DMARCPolicy", FeedbackEvent.Kind.REFUSED),
            Map.entry("SMTPApiError", FeedbackEvent.Kind.REFUSED),
            Map.entry("TemplateRenderingFailed", FeedbackEvent.Kind.REFUSED),
            Map.entry("SpamComplaint", FeedbackEvent.Kind.COMPLAINT),
            Map.entry("Unsubscribe", FeedbackEvent.Kind.UNSUBSCRIBE));

    private final byte[] expected;

    public PostmarkWebhook(PostmarkSettings settings) {
        this.expected = digest(settings.user().reveal() + ":" + settings.password().reveal());
    }

    @Override
    public Provider provider() {
        return Provider.POSTMARK;
    }

    @Override
    public Optional<String> challenge() {
        return Optional.of("Basic realm=\"mailrun feedback\", charset=\"UTF-8\"");
    }

    @Override
    public Verdict receive(WebhookRequest request) {
        if (!authenticated(request.header("authorization"))) {
            return new Verdict.Refused(Verdict.Reason.UNAUTHENTICATED, "missing or wrong basic credentials");
        }
        Optional<JsonNode> json = Json.parse(request.body()).filter(JsonNode::isObject);
        if (json.isEmpty()) {
            return new Verdict.Refused(Verdict.Reason.MALFORMED, "body is not a JSON object");
        }
        return Verdict.Accepted.of(List.of(event(json.get())));
    }

    private boolean authenticated(Optional<String> header) {
        if (header.isEmpty() || !header.get().regionMatches(true, 0, "Basic ", 0, 6)) {
            return false;
        }
        String given;
        try {
            given = new String(Base64.getDecoder().decode(header.get().substring(6).strip()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return false;
        }
        // Digests of equal length, compared in constant time: neither the length nor a prefix leaks.
        return MessageDigest.isEqual(expected, digest(given));
    }

    static FeedbackEvent event(JsonNode n) {
        String record = Json.textOr(n, "RecordType", "");
        String type = Json.textOr(n, "Type", record);
        Optional<String> id = Json.scalar(n, "ID");
        String messageId = Json.scalar(n, "MessageID").orElse("");
        String address = Json.text(n, "Email").or(() -> Json.text(n, "Recipient")).orElse("");
        JsonNode metadata = Json.object(n, "Metadata");
        Optional<SendIds> ids = MessageTags.read(name -> Json.scalar(metadata, name));
        FeedbackEvent.Kind kind = switch (record) {
            case "Bounce", "SpamComplaint" -> TYPES.getOrDefault(type, FeedbackEvent.Kind.IGNORED);
            case "Delivery" -> FeedbackEvent.Kind.DELIVERY;
            default -> FeedbackEvent.Kind.IGNORED;
        };
        String details = Json.textOr(n, "Details", Json.textOr(n, "Description", ""));
        String diagnostic = ReportedFailures.diagnostic(details);
        // The bounce ID is unique across Postmark's bounce records (complaints are bounce records too).
        String eventId = id.map(i -> "id:" + i).orElse("message:" + messageId + ":" + type + ":" + address);
        return new FeedbackEvent(Provider.POSTMARK, eventId, kind, address, ids, Optional.empty(),
                ReportedFailures.enhancedStatus(diagnostic).orElse(""),
                kind == FeedbackEvent.Kind.DELIVERY ? OptionalInt.empty() : ReportedFailures.smtpCode(diagnostic),
                (type + " " + diagnostic).strip());
    }

    private static byte[] digest(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
        }
    }
}
