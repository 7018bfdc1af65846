package dev.mailrun.mail.feedback;

import static dev.mailrun.testing.FeedbackPayloads.json;
import static dev.mailrun.testing.FeedbackPayloads.sendgridEvent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.testing.SendGridSigner;
import dev.mailrun.testing.SettableClock;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SendGridWebhookTest {

    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    private static final Map<String, String> ARGS = Map.of("mailrun-campaign", "12", "mailrun-recipient", "3456");

    private final SendGridSigner signer = new SendGridSigner();
    private final SettableClock clock = SettableClock.at(NOW.toString());
    private final SendGridWebhook webhook = new SendGridWebhook(SendGridSettings.parse(signer.publicKey()), clock);

    private WebhookRequest signed(String body, Instant at) {
        String timestamp = Long.toString(at.getEpochSecond());
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return new WebhookRequest(Map.of(SendGridWebhook.SIGNATURE_HEADER, signer.sign(timestamp, bytes),
                SendGridWebhook.TIMESTAMP_HEADER, timestamp), bytes);
    }

    private static String batch(Map<String, Object> event) {
        return json(List.of(event));
    }

    private static String batch(List<Map<String, Object>> events) {
        return json(events);
    }

    @Test
    void a_signed_batch_is_read_in_order_with_the_custom_args() {
        String body = batch(List.of(
                sendgridEvent("processed", "ann@list.example", "ev-1", ARGS, Map.of()),
                sendgridEvent("bounce", "ann@list.example", "ev-2", ARGS, Map.of("type", "bounce", "status", "5.1.1",
                        "reason", "550 5.1.1 The email account that you tried to reach does not exist")),
                sendgridEvent("delivered", "bob@list.example", "ev-3", Map.of(), Map.of("response", "250 OK"))));

        Verdict v = webhook.receive(signed(body, NOW));

        List<FeedbackEvent> events = ((Verdict.Accepted) v).events();
        assertThat(events).extracting(FeedbackEvent::kind)
                .containsExactly(FeedbackEvent.Kind.IGNORED, FeedbackEvent.Kind.HARD, FeedbackEvent.Kind.DELIVERY);
        assertThat(events.get(1).ids()).contains(new SendIds(12, 3456));
        assertThat(events.get(1).eventId()).isEqualTo("ev-2");
        assertThat(events.get(1).messageId()).contains("<14c5d75ce93.dfd.64b469@ismtpd-555>");
        assertThat(events.get(1).smtpCode()).hasValue(550);
        assertThat(events.get(2).ids()).isEmpty();
    }

    @ParameterizedTest(name = "{0} {1} {2} {3} -> {4}")
    @CsvSource({
            "bounce,           bounce,  5.1.1, 550 5.1.1 user unknown,                      HARD",
            "bounce,           bounce,  5.7.1, 550 5.7.1 rejected: listed at spamhaus,       REFUSED",
            "bounce,           bounce,  5.2.2, 552 5.2.2 mailbox full,                      SOFT",
            "bounce,           blocked, 5.7.1, 554 5.7.1 IP on a block list,                REFUSED",
            "bounce,           blocked, 4.7.0, 421 4.7.0 try again later,                   SOFT",
            "deferred,         '',      '',    400 try again later,                         SOFT",
            "dropped,          '',      5.0.0, Bounced Address,                             HARD",
            "dropped,          '',      5.0.0, Spam Reporting Address,                      COMPLAINT",
            "dropped,          '',      5.0.0, Unsubscribed Address,                        UNSUBSCRIBE",
            "dropped,          '',      5.0.0, Invalid SMTPAPI header,                      REFUSED",
            "spamreport,       '',      '',    '',                                          COMPLAINT",
            "unsubscribe,      '',      '',    '',                                          UNSUBSCRIBE",
            "group_unsubscribe,'',      '',    '',                                          UNSUBSCRIBE",
            "group_resubscribe,'',      '',    '',                                          IGNORED",
            "open,             '',      '',    '',                                          IGNORED",
            "click,            '',      '',    '',                                          IGNORED",
            "delivered,        '',      '',    250 OK,                                      DELIVERY",
    })
    void each_event_maps_to_its_rule(String event, String type, String status, String reason, FeedbackEvent.Kind kind) {
        Map<String, Object> fields = new java.util.LinkedHashMap<>();
        if (!type.isEmpty()) {
            fields.put("type", type);
        }
        if (!status.isEmpty()) {
            fields.put("status", status);
        }
        if (!reason.isEmpty()) {
            fields.put(event.equals("deferred") || event.equals("delivered") ? "response" : "reason", reason);
        }

        Verdict v = webhook.receive(signed(batch(sendgridEvent(event, "ann@list.example", "ev-x", ARGS, fields)), NOW));

        assertThat(((Verdict.Accepted) v).events()).extracting(FeedbackEvent::kind).containsExactly(kind);
    }

    @Test
    void a_body_changed_after_signing_or_signed_with_another_key_does_not_verify() {
        String body = batch(sendgridEvent("spamreport", "ann@list.example", "ev-4", ARGS, Map.of()));
        WebhookRequest genuine = signed(body, NOW);
        WebhookRequest tampered = new WebhookRequest(genuine.headers(),
                body.replace("ann@list.example", "eve@list.example").getBytes(StandardCharsets.UTF_8));
        SendGridSigner other = new SendGridSigner();
        String timestamp = Long.toString(NOW.getEpochSecond());
        WebhookRequest forged = new WebhookRequest(Map.of(SendGridWebhook.SIGNATURE_HEADER,
                other.sign(timestamp, body.getBytes(StandardCharsets.UTF_8)), SendGridWebhook.TIMESTAMP_HEADER, timestamp),
                body.getBytes(StandardCharsets.UTF_8));
        WebhookRequest newTimestamp = new WebhookRequest(Map.of(SendGridWebhook.SIGNATURE_HEADER,
                genuine.headers().get(SendGridWebhook.SIGNATURE_HEADER), SendGridWebhook.TIMESTAMP_HEADER,
                Long.toString(NOW.getEpochSecond() + 1)), body.getBytes(StandardCharsets.UTF_8));
        WebhookRequest unsigned = new WebhookRequest(Map.of(), body.getBytes(StandardCharsets.UTF_8));
        WebhookRequest garbage = new WebhookRequest(Map.of(SendGridWebhook.SIGNATURE_HEADER, "!!notbase64",
                SendGridWebhook.TIMESTAMP_HEADER, timestamp), body.getBytes(StandardCharsets.UTF_8));

        assertThat(webhook.receive(genuine)).isInstanceOf(Verdict.Accepted.class);
        for (WebhookRequest r : List.of(tampered, forged, newTimestamp, unsigned, garbage)) {
            assertThat(((Verdict.Refused) webhook.receive(r)).reason()).isEqualTo(Verdict.Reason.UNAUTHENTICATED);
        }
    }

    @Test
    void a_genuine_signature_more_than_five_minutes_old_or_ahead_is_a_replay() {
        String body = batch(sendgridEvent("spamreport", "ann@list.example", "ev-5", ARGS, Map.of()));

        assertThat(((Verdict.Refused) webhook.receive(signed(body, NOW.minusSeconds(301)))).reason()).isEqualTo(Verdict.Reason.STALE);
        assertThat(((Verdict.Refused) webhook.receive(signed(body, NOW.plusSeconds(301)))).reason()).isEqualTo(Verdict.Reason.STALE);
        assertThat(webhook.receive(signed(body, NOW.minusSeconds(299)))).isInstanceOf(Verdict.Accepted.class);
    }

    @Test
    void a_signed_body_that_is_not_an_array_of_events_is_malformed() {
        assertThat(((Verdict.Refused) webhook.receive(signed("{\"event\":\"bounce\"}", NOW))).reason())
                .isEqualTo(Verdict.Reason.MALFORMED);
        assertThat(((Verdict.Refused) webhook.receive(signed("[1, 2]", NOW))).reason()).isEqualTo(Verdict.Reason.MALFORMED);
    }

    @Test
    void the_public_key_must_be_a_p256_key_in_base64() throws Exception {
        java.security.KeyPairGenerator rsa = java.security.KeyPairGenerator.getInstance("RSA");
        rsa.initialize(1024);
        String rsaKey = java.util.Base64.getEncoder().encodeToString(rsa.generateKeyPair().getPublic().getEncoded());
        java.security.KeyPairGenerator p384 = java.security.KeyPairGenerator.getInstance("EC");
        p384.initialize(new java.security.spec.ECGenParameterSpec("secp384r1"));
        String p384Key = java.util.Base64.getEncoder().encodeToString(p384.generateKeyPair().getPublic().getEncoded());

        assertThatThrownBy(() -> SendGridSettings.parse("not base64 !")).hasMessageStartingWith("feedback.sendgrid.public-key: is not base64");
        for (String wrong : List.of(rsaKey, p384Key, "AAAA")) {
            assertThatThrownBy(() -> SendGridSettings.parse(wrong))
                    .hasMessageStartingWith("feedback.sendgrid.public-key: is not an ECDSA P-256 public key");
        }
        String pem = "-----BEGIN PUBLIC KEY-----\n" + signer.publicKey() + "\n-----END PUBLIC KEY-----\n";
        assertThat(SendGridSettings.parse(pem).publicKey()).isEqualTo(SendGridSettings.parse(signer.publicKey()).publicKey());
    }
}
