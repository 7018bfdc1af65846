package dev.mailrun.mail.feedback;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Amazon SES feedback delivered by SNS over HTTPS. For each request:
 *
 * <ol>
 *   <li>Read the SNS envelope; a body that is not one is malformed.</li>
 *   <li>Refuse a topic outside {@code feedback.ses.topic-arns} (when set).</li>
 *   <li>Refuse a Timestamp more than {@link #MAX_AGE} old or {@link #MAX_AHEAD} ahead of mailrun's clock:
 *       SNS signs a message once and its retries carry the same signature, so this bounds how long a
 *       captured message can be replayed (a replay inside the window is a duplicate MessageId anyway).</li>
 *   <li>Verify the signature (SignatureVersion 1: SHA1withRSA, 2: SHA256withRSA) over the canonical
 *       string ({@link SnsMessage}) with the certificate at SigningCertURL — fetched only over https
 *       from an SNS host ({@link SnsHosts}) and cached.</li>
 *   <li>SubscriptionConfirmation: log the SubscribeURL; with {@code feedback.ses.auto-confirm} fetch it
 *       (only from an SNS host), which confirms the subscription. UnsubscribeConfirmation: log it.
 *       Notification: read the SES notification ({@link SesNotifications}).</li>
 * </ol>
 */
public final class SesWebhook implements FeedbackWebhook {

    private static final Logger log = LoggerFactory.getLogger(SesWebhook.class);

    /** SNS retries an HTTP delivery for at most an hour under any delivery policy worth having. */
    static final Duration MAX_AGE = Duration.ofHours(1);
    /** Clock skew tolerated for a Timestamp in the future. */
    static final Duration MAX_AHEAD = Duration.ofMinutes(5);

    private final SesSettings settings;
    private final SnsCertificates certificates;
    private final HttpsFetcher fetcher;
    private final Clock clock;

    public SesWebhook(SesSettings settings, HttpsFetcher fetcher, Clock clock) {
        this.settings = settings;
        this.fetcher = fetcher;
        this.certificates = new SnsCertificates(fetcher);
        this.clock = clock;
    }

    @Override
    public Provider provider() {
        return Provider.SES;
    }

    @Override
    public Verdict receive(WebhookRequest request) {
        Optional<JsonNode> json = Json.parse(request.body());
        Optional<SnsMessage> parsed = json.filter(JsonNode::isObject).flatMap(SnsMessage::read);
        if (parsed.isEmpty()) {
            return refused(Verdict.Reason.MALFORMED, "not an SNS message (Type, MessageId, TopicArn, Message, Timestamp,"
                    + " SignatureVersion, Signature, SigningCertURL)");
        }
        SnsMessage m = parsed.get();
        Optional<String> headerType = request.header("x-amz-sns-message-type");
        if (headerType.isPresent() && !headerType.get().equals(m.type())) {
            return refused(Verdict.Reason.MALFORMED, "x-amz-sns-message-type " + headerType.get() + " but Type " + m.type());
        }
        if (!settings.takesTopic(m.topicArn())) {
            return refused(Verdict.Reason.UNKNOWN_TOPIC, "topic " + m.topicArn() + " is not in feedback.ses.topic-arns");
        }
        Optional<Verdict.Refused> stale = stale(m.timestamp());
        if (stale.isPresent()) {
            return stale.get();
        }
        Optional<Verdict.Refused> unverified = verify(m);
        if (unverified.isPresent()) {
            return unverified.get();
        }
        return switch (m.type()) {
            case SnsMessage.SUBSCRIPTION_CONFIRMATION -> confirm(m);
            case SnsMessage.UNSUBSCRIBE_CONFIRMATION -> {
                log.warn("feedback ses: topic {} unsubscribed this endpoint (message {}); to subscribe again: {}",
                        m.topicArn(), m.messageId(), m.subscribeUrl().orElse("-"));
                yield Verdict.Accepted.of(List.of());
            }
            default -> SesNotifications.read(m.message(), m.messageId())
                    .<Verdict>map(Verdict.Accepted::of)
                    .orElseGet(() -> refused(Verdict.Reason.MALFORMED, "message " + m.messageId()
                            + " is not an SES notification (notificationType or eventType, mail)"));
        };
    }

    private Optional<Verdict.Refused> stale(String timestamp) {
        Instant at;
        try {
            at = Instant.parse(timestamp);
        } catch (DateTimeParseException e) {
            return Optional.of(refused(Verdict.Reason.MALFORMED, "Timestamp is not an ISO-8601 instant"));
        }
        Instant now = clock.instant();
        if (at.isBefore(now.minus(MAX_AGE)) || at.isAfter(now.plus(MAX_AHEAD))) {
            return Optional.of(refused(Verdict.Reason.STALE, "Timestamp " + timestamp + " is outside "
                    + MAX_AGE.toMinutes() + " minutes before to " + MAX_AHEAD.toMinutes() + " minutes after now"));
        }
        return Optional.empty();
    }

    private Optional<Verdict.Refused> verify(SnsMessage m) {
        String algorithm = switch (m.signatureVersion()) {
            case "1" -> "SHA1withRSA";
            case "2" -> "SHA256withRSA";
            default -> null;
        };
        if (algorithm == null) {
            return Optional.of(refused(Verdict.Reason.UNAUTHENTICATED, "SignatureVersion " + m.signatureVersion()
                    + " is not 1 or 2"));
        }
        URI certUrl = SnsHosts.parse(m.signingCertUrl());
        if (!SnsHosts.trustedCertificate(certUrl)) {
            return Optional.of(refused(Verdict.Reason.UNAUTHENTICATED, "SigningCertURL is not an https .pem URL on an SNS host"));
        }
        X509Certificate cert;
        try {
            cert = certificates.get(certUrl, clock.instant());
        } catch (IOException e) {
            return Optional.of(refused(Verdict.Reason.UNAVAILABLE, "signing certificate could not be fetched from "
                    + certUrl.getHost() + ": " + e.getMessage()));
        } catch (SnsCertificates.Unusable e) {
            return Optional.of(refused(Verdict.Reason.UNAUTHENTICATED, e.getMessage()));
        }
        try {
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(cert.getPublicKey());
            verifier.update(m.canonical().getBytes(StandardCharsets.UTF_8));
            if (verifier.verify(Base64.getDecoder().decode(m.signature()))) {
                return Optional.empty();
            }
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            // a signature that is not base64, or not an RSA signature: it does not verify
        }
        return Optional.of(refused(Verdict.Reason.UNAUTHENTICATED, "signature does not verify (message " + m.messageId() + ")"));
    }

    private Verdict confirm(SnsMessage m) {
        String url = m.subscribeUrl().orElseThrow();
        if (!settings.autoConfirm()) {
            log.info("feedback ses: subscription to topic {} waits for confirmation; open {} (or set feedback.ses.auto-confirm=true)",
                    m.topicArn(), url);
            return Verdict.Accepted.of(List.of());
        }
        URI uri = SnsHosts.parse(url);
        if (!SnsHosts.trusted(uri)) {
            return refused(Verdict.Reason.MALFORMED, "SubscribeURL is not an https URL on an SNS host; not confirmed");
        }
        try {
            fetcher.get(uri);
            log.info("feedback ses: subscription to topic {} confirmed", m.topicArn());
            return Verdict.Accepted.of(List.of());
        } catch (IOException e) {
            return refused(Verdict.Reason.UNAVAILABLE, "subscription to topic " + m.topicArn() + " could not be confirmed ("
                    + e.getMessage() + "); open " + url);
        }
    }

    private static Verdict.Refused refused(Verdict.Reason reason, String detail) {
        return new Verdict.Refused(reason, detail);
    }
}
