package dev.mailrun.mail.feedback;

import static dev.mailrun.testing.FeedbackPayloads.mailgunEvent;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.mail.Secret;
import dev.mailrun.testing.MailgunSigner;
import dev.mailrun.testing.SettableClock;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MailgunWebhookTest {

    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    private static final String KEY = "key-0123456789abcdef0123456789abcdef";
    private static final Map<String, String> VARS = Map.of("mailrun-campaign", "12", "mailrun-recipient", "3456");
    private static final String TOKEN = "e0b5477167110d68991efc6b9f89f0a11066af27834600e123";

    private final MailgunSigner signer = new MailgunSigner(KEY);
    private final SettableClock clock = SettableClock.at(NOW.toString());
    private final MailgunWebhook webhook = new MailgunWebhook(new MailgunSettings(Secret.of(KEY)), clock);

    private static WebhookRequest post(String body) {
        return new WebhookRequest(Map.of("content-type", "application/json"), body.getBytes(StandardCharsets.UTF_8));
    }

    private Map<String, Object> hardFailure() {
        return mailgunEvent("Ase7i2zsRYeDXztHGENqRA", "failed", "permanent", "bounce", "ann@list.example", 550,
                "5.1.1 The email account that you tried to reach does not exist", VARS);
    }

    @Test
    void a_signed_permanent_failure_is_read_with_its_variables_and_its_token_as_a_nonce() {
        Verdict v = webhook.receive(post(signer.body(hardFailure(), NOW.getEpochSecond(), TOKEN)));

        Verdict.Accepted a = (Verdict.Accepted) v;
        FeedbackEvent e = a.events().get(0);
        assertThat(e.kind()).isEqualTo(FeedbackEvent.Kind.HARD);
        assertThat(e.eventId()).isEqualTo("Ase7i2zsRYeDXztHGENqRA");
        assertThat(e.ids()).contains(new SendIds(12, 3456));
        assertThat(e.messageId()).contains("<20261121100000.1.0000@sender.example>");
        assertThat(e.smtpCode()).hasValue(550);
        assertThat(e.status()).isEqualTo("5.1.1");
        assertThat(a.nonce()).contains(TOKEN);
    }

    @ParameterizedTest(name = "{0} {1} {2} {3} -> {5}")
    @CsvSource({
            "failed,       permanent, bounce,               550, 5.1.1 mailbox does not exist,      HARD",
            "failed,       permanent, bounce,               550, 5.7.1 message rejected as spam,    REFUSED",
            "failed,       permanent, generic,              552, 5.2.2 mailbox full,                SOFT",
            "failed,       permanent, suppress-bounce,      605, Not delivering to previously bounced address, HARD",
            "failed,       permanent, suppress-complaint,   607, Not delivering to a user who marked your messages as spam, COMPLAINT",
            "failed,       permanent, suppress-unsubscribe, 606, Not delivering to unsubscribed address, UNSUBSCRIBE",
            "failed,       permanent, espblock,             554, blocked by the receiving provider, REFUSED",
            "failed,       permanent, old,                  421, could not deliver for too long,   SOFT",
            "failed,       temporary, generic,              452, 4.2.2 over quota,                  SOFT",
            "complained,   '',        '',                   ,    '',                                COMPLAINT",
            "unsubscribed, '',        '',                   ,    '',                                UNSUBSCRIBE",
            "delivered,    '',        '',                   250, OK,                                DELIVERY",
            "opened,       '',        '',                   ,    '',                                IGNORED",
            "accepted,     '',        '',                   ,    '',                                IGNORED",
    })
    void each_event_maps_to_its_rule(String event, String severity, String reason, Integer code, String message,
                                     FeedbackEvent.Kind kind) {
        Map<String, Object> data = mailgunEvent("id-" + event + reason, event, severity.isEmpty() ? null : severity,
                reason.isEmpty() ? null : reason, "ann@list.example", code, message, VARS);

        Verdict v = webhook.receive(post(signer.body(data, NOW.getEpochSecond(), TOKEN)));

        assertThat(((Verdict.Accepted) v).events()).extracting(FeedbackEvent::kind).containsExactly(kind);
    }

    @Test
    void a_signature_under_another_key_or_over_another_token_does_not_verify() {
        String otherKey = new MailgunSigner("key-ffffffffffffffffffffffffffffffff").body(hardFailure(), NOW.getEpochSecond(), TOKEN);
        String ts = Long.toString(NOW.getEpochSecond());
        String swappedToken = MailgunSigner.body(hardFailure(), ts, TOKEN + "0", signer.signature(ts, TOKEN));
        String notHex = MailgunSigner.body(hardFailure(), ts, TOKEN, "zz");
        String unsigned = dev.mailrun.testing.FeedbackPayloads.json(Map.of("event-data", hardFailure()));

        for (String body : new String[] {otherKey, swappedToken, notHex, unsigned}) {
            assertThat(((Verdict.Refused) webhook.receive(post(body))).reason()).isEqualTo(Verdict.Reason.UNAUTHENTICATED);
        }
    }

    @Test
    void a_genuine_signature_more_than_five_minutes_from_now_is_a_replay() {
        assertThat(((Verdict.Refused) webhook.receive(post(signer.body(hardFailure(), NOW.getEpochSecond() - 301, TOKEN))))
                .reason()).isEqualTo(Verdict.Reason.STALE);
        assertThat(((Verdict.Refused) webhook.receive(post(signer.body(hardFailure(), NOW.getEpochSecond() + 301, TOKEN))))
                .reason()).isEqualTo(Verdict.Reason.STALE);
        assertThat(webhook.receive(post(signer.body(hardFailure(), NOW.getEpochSecond() - 299, TOKEN))))
                .isInstanceOf(Verdict.Accepted.class);
    }

    @Test
    void a_signed_body_without_event_data_is_malformed() {
        String ts = Long.toString(NOW.getEpochSecond());
        String body = dev.mailrun.testing.FeedbackPayloads.json(Map.of("signature",
                Map.of("timestamp", ts, "token", TOKEN, "signature", signer.signature(ts, TOKEN))));

        assertThat(webhook.receive(post(body))).isEqualTo(new Verdict.Refused(Verdict.Reason.MALFORMED, "no event-data with an event"));
        assertThat(webhook.receive(post("[]"))).isInstanceOf(Verdict.Refused.class);
    }

    @Test
    void a_short_signing_key_is_refused_when_configured() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new MailgunSettings(Secret.of("short")))
                .hasMessageStartingWith("feedback.mailgun.signing-key: must be at least 16 characters");
        assertThat(new MailgunSettings(Secret.of(KEY)).toString()).doesNotContain(KEY);
        assertThat(Optional.of(webhook.provider())).contains(Provider.MAILGUN);
    }
}
