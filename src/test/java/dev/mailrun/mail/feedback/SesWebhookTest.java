package dev.mailrun.mail.feedback;

import static dev.mailrun.testing.FeedbackPayloads.sesBounce;
import static dev.mailrun.testing.FeedbackPayloads.sesComplaint;
import static dev.mailrun.testing.FeedbackPayloads.sesDelivery;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.SnsSigner;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SesWebhookTest {

    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    private static final SnsSigner SNS = SnsSigner.create();
    private static final Map<String, String> TAGS = Map.of("mailrun-campaign", "12", "mailrun-recipient", "3456");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SettableClock clock = SettableClock.at(NOW.toString());

    private SesWebhook webhook(SesSettings settings, SnsSigner signer) {
        return new SesWebhook(settings, signer.fetcher(), clock);
    }

    private SesWebhook webhook() {
        return webhook(new SesSettings(Set.of(), false, Optional.empty()), SNS);
    }

    private static WebhookRequest post(String body) {
        return new WebhookRequest(Map.of("x-amz-sns-message-type", typeOf(body)), body.getBytes(StandardCharsets.UTF_8));
    }

    private static String typeOf(String body) {
        try {
            return JSON.readTree(body).path("Type").asText();
        } catch (Exception e) {
            return "Notification";
        }
    }

    private static String hardBounce() {
        return sesBounce("Permanent", "General", "ann@list.example", "5.1.1", "smtp; 550 5.1.1 <ann@list.example>: user unknown",
                TAGS, "<c12.r3456.0123456789abcdef@sender.example>");
    }

    @ParameterizedTest(name = "SignatureVersion {0}")
    @ValueSource(ints = {1, 2})
    void a_signed_permanent_bounce_becomes_a_hard_event_with_the_echoed_ids(int version) {
        Verdict v = webhook().receive(post(SNS.notification("a1b2c3d4-0000-4000-8000-000000000001", hardBounce(), NOW, version)));

        assertThat(v).isInstanceOf(Verdict.Accepted.class);
        FeedbackEvent e = ((Verdict.Accepted) v).events().get(0);
        assertThat(e.kind()).isEqualTo(FeedbackEvent.Kind.HARD);
        assertThat(e.address()).isEqualTo("ann@list.example");
        assertThat(e.ids()).contains(new SendIds(12, 3456));
        assertThat(e.messageId()).contains("<c12.r3456.0123456789abcdef@sender.example>");
        assertThat(e.status()).isEqualTo("5.1.1");
        assertThat(e.smtpCode()).hasValue(550);
        assertThat(e.eventId()).isEqualTo("a1b2c3d4-0000-4000-8000-000000000001/0");
        assertThat(((Verdict.Accepted) v).nonce()).isEmpty();
    }

    @ParameterizedTest(name = "{0}/{1} {2} -> {4}")
    @CsvSource({
            "Permanent, General,                  5.1.1, 550 5.1.1 user unknown,                       HARD",
            "Permanent, General,                  5.7.1, 550 5.7.1 message rejected as spam,           REFUSED",
            "Permanent, General,                  5.2.2, 552 5.2.2 mailbox full,                       SOFT",
            "Permanent, NoEmail,                  5.1.1, 550 5.1.1 no such mailbox,                    HARD",
            "Permanent, Suppressed,               5.1.1, Amazon SES has suppressed sending to this address, HARD",
            "Permanent, OnAccountSuppressionList, 5.1.1, on the account-level suppression list,       HARD",
            "Transient, General,                  4.4.7, 421 4.4.7 delivery time expired,              SOFT",
            "Transient, MailboxFull,              5.2.2, 552 5.2.2 over quota,                         SOFT",
            "Transient, MessageTooLarge,          5.3.4, 552 5.3.4 message too big,                    REFUSED",
            "Transient, ContentRejected,          5.7.1, 554 5.7.1 content rejected,                   REFUSED",
            "Transient, AttachmentRejected,       5.7.1, 554 5.7.1 attachment not allowed,             REFUSED",
            "Undetermined, Undetermined,          '',    '',                                           SOFT",
    })
    void each_bounce_type_and_subtype_maps_to_its_rule(String type, String subType, String status, String diagnostic,
                                                      FeedbackEvent.Kind kind) {
        String message = sesBounce(type, subType, "ann@list.example", status.isEmpty() ? null : status,
                diagnostic.isEmpty() ? null : "smtp; " + diagnostic, TAGS, null);

        Verdict v = webhook().receive(post(SNS.notification("m-" + subType + status, message, NOW, 2)));

        assertThat(((Verdict.Accepted) v).events()).extracting(FeedbackEvent::kind).containsExactly(kind);
    }

    @Test
    void complaints_and_deliveries_are_read_and_a_not_spam_report_is_ignored() {
        List<FeedbackEvent> complaint = accepted(sesComplaint("bob@list.example", "abuse", TAGS));
        List<FeedbackEvent> notSpam = accepted(sesComplaint("bob@list.example", "not-spam", TAGS));
        List<FeedbackEvent> delivery = accepted(sesDelivery("cid@list.example", TAGS));

        assertThat(complaint).extracting(FeedbackEvent::kind, FeedbackEvent::address)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(FeedbackEvent.Kind.COMPLAINT, "bob@list.example"));
        assertThat(notSpam).extracting(FeedbackEvent::kind).containsExactly(FeedbackEvent.Kind.IGNORED);
        assertThat(delivery).extracting(FeedbackEvent::kind).containsExactly(FeedbackEvent.Kind.DELIVERY);
    }

    private List<FeedbackEvent> accepted(String message) {
        Verdict v = webhook().receive(post(SNS.notification("m-" + message.hashCode(), message, NOW, 1)));
        assertThat(v).isInstanceOf(Verdict.Accepted.class);
        return ((Verdict.Accepted) v).events();
    }

    @Test
    void a_message_changed_after_signing_does_not_verify() throws Exception {
        ObjectNode signed = (ObjectNode) JSON.readTree(SNS.notification("m-1", hardBounce(), NOW, 2));
        signed.put("Message", hardBounce().replace("ann@list.example", "victim@list.example"));

        Verdict v = webhook().receive(post(JSON.writeValueAsString(signed)));

        assertThat(v).isEqualTo(new Verdict.Refused(Verdict.Reason.UNAUTHENTICATED, "signature does not verify (message m-1)"));
    }

    @Test
    void a_message_signed_with_another_key_does_not_verify_against_the_certificate_at_its_url() {
        SnsSigner forger = SnsSigner.create();
        String forged = forger.notification("m-2", hardBounce(), NOW, 2);

        Verdict v = webhook().receive(post(forged));

        assertThat(v).isInstanceOf(Verdict.Refused.class);
        assertThat(((Verdict.Refused) v).reason()).isEqualTo(Verdict.Reason.UNAUTHENTICATED);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "http://sns.us-east-1.amazonaws.com/SimpleNotificationService-x.pem",
            "https://sns.us-east-1.amazonaws.com.evil.example/SimpleNotificationService-x.pem",
            "https://evil.example/sns.us-east-1.amazonaws.com/x.pem",
            "https://user@sns.us-east-1.amazonaws.com/SimpleNotificationService-x.pem",
            "https://sns.us-east-1.amazonaws.com:8443/SimpleNotificationService-x.pem",
            "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-x.txt",
            "https://s3.amazonaws.com/SimpleNotificationService-x.pem",
    })
    void a_certificate_url_off_the_sns_hosts_is_refused_without_being_fetched(String url) throws Exception {
        SnsSigner signer = SnsSigner.create();
        ObjectNode m = (ObjectNode) JSON.readTree(signer.notification("m-3", hardBounce(), NOW, 2));
        m.put("SigningCertURL", url);

        Verdict v = webhook(new SesSettings(Set.of(), false, Optional.empty()), signer).receive(post(JSON.writeValueAsString(m)));

        assertThat(v).isEqualTo(new Verdict.Refused(Verdict.Reason.UNAUTHENTICATED,
                "SigningCertURL is not an https .pem URL on an SNS host"));
        assertThat(signer.fetched()).isEmpty();
    }

    @Test
    void the_signing_certificate_is_fetched_once_and_then_taken_from_the_cache() {
        SnsSigner signer = SnsSigner.create();
        SesWebhook webhook = webhook(new SesSettings(Set.of(), false, Optional.empty()), signer);

        webhook.receive(post(signer.notification("m-4", hardBounce(), NOW, 1)));
        webhook.receive(post(signer.notification("m-5", hardBounce(), NOW, 2)));

        assertThat(signer.fetched()).containsExactly(SnsSigner.CERT_URL);
    }

    @Test
    void a_certificate_that_cannot_be_fetched_now_asks_for_a_retry_and_one_not_issued_to_sns_is_refused() {
        SnsSigner down = SnsSigner.create();
        down.unreachable(true);
        Verdict unavailable = webhook(new SesSettings(Set.of(), false, Optional.empty()), down)
                .receive(post(down.notification("m-6", hardBounce(), NOW, 2)));
        SnsSigner other = SnsSigner.create("www.example.com", Instant.parse("2020-01-01T00:00:00Z"), Instant.parse("2040-01-01T00:00:00Z"));
        Verdict notSns = webhook(new SesSettings(Set.of(), false, Optional.empty()), other)
                .receive(post(other.notification("m-7", hardBounce(), NOW, 2)));
        SnsSigner expired = SnsSigner.create("sns.amazonaws.com", Instant.parse("2020-01-01T00:00:00Z"), Instant.parse("2025-01-01T00:00:00Z"));
        Verdict old = webhook(new SesSettings(Set.of(), false, Optional.empty()), expired)
                .receive(post(expired.notification("m-8", hardBounce(), NOW, 2)));

        assertThat(((Verdict.Refused) unavailable).reason()).isEqualTo(Verdict.Reason.UNAVAILABLE);
        assertThat(notSns).isEqualTo(new Verdict.Refused(Verdict.Reason.UNAUTHENTICATED, "the signing certificate is not issued to an SNS host"));
        assertThat(old).isEqualTo(new Verdict.Refused(Verdict.Reason.UNAUTHENTICATED, "the signing certificate is not valid now"));
    }

    @Test
    void a_timestamp_more_than_an_hour_old_or_five_minutes_ahead_is_a_replay() {
        String old = SNS.notification("m-9", hardBounce(), NOW.minus(Duration.ofMinutes(61)), 2);
        String ahead = SNS.notification("m-10", hardBounce(), NOW.plus(Duration.ofMinutes(6)), 2);
        String justInTime = SNS.notification("m-11", hardBounce(), NOW.minus(Duration.ofMinutes(59)), 2);

        assertThat(((Verdict.Refused) webhook().receive(post(old))).reason()).isEqualTo(Verdict.Reason.STALE);
        assertThat(((Verdict.Refused) webhook().receive(post(ahead))).reason()).isEqualTo(Verdict.Reason.STALE);
        assertThat(webhook().receive(post(justInTime))).isInstanceOf(Verdict.Accepted.class);
    }

    @Test
    void a_topic_outside_the_configured_ones_is_refused_before_anything_is_fetched() {
        SnsSigner signer = SnsSigner.create();
        SesWebhook webhook = webhook(new SesSettings(Set.of("arn:aws:sns:eu-west-1:123456789012:other"), false, Optional.empty()), signer);

        Verdict v = webhook.receive(post(signer.notification("m-12", hardBounce(), NOW, 2)));

        assertThat(((Verdict.Refused) v).reason()).isEqualTo(Verdict.Reason.UNKNOWN_TOPIC);
        assertThat(signer.fetched()).isEmpty();
    }

    @Test
    void a_subscription_is_confirmed_only_with_auto_confirm_and_only_on_an_sns_host() {
        String subscribe = "https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=" + SnsSigner.TOPIC + "&Token=2336";
        SnsSigner logged = SnsSigner.create();
        Verdict manual = webhook(new SesSettings(Set.of(), false, Optional.empty()), logged)
                .receive(post(logged.subscriptionConfirmation("s-1", subscribe, NOW)));
        SnsSigner auto = SnsSigner.create();
        Verdict confirmed = webhook(new SesSettings(Set.of(), true, Optional.empty()), auto)
                .receive(post(auto.subscriptionConfirmation("s-2", subscribe, NOW)));
        SnsSigner elsewhere = SnsSigner.create();
        Verdict refused = webhook(new SesSettings(Set.of(), true, Optional.empty()), elsewhere)
                .receive(post(elsewhere.subscriptionConfirmation("s-3", "https://evil.example/confirm?Token=2336", NOW)));

        assertThat(manual).isEqualTo(Verdict.Accepted.of(List.of()));
        assertThat(logged.fetched()).containsExactly(SnsSigner.CERT_URL);
        assertThat(confirmed).isEqualTo(Verdict.Accepted.of(List.of()));
        assertThat(auto.fetched()).containsExactly(SnsSigner.CERT_URL, URI.create(subscribe));
        assertThat(((Verdict.Refused) refused).reason()).isEqualTo(Verdict.Reason.MALFORMED);
        assertThat(elsewhere.fetched()).containsExactly(SnsSigner.CERT_URL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "not json", "[]", "{}", "{\"Type\":\"Notification\"}", "{\"Type\":\"Notification\",\"Type\":\"x\"}"})
    void a_body_that_is_no_sns_message_is_malformed(String body) {
        Verdict v = webhook().receive(new WebhookRequest(Map.of(), body.getBytes(StandardCharsets.UTF_8)));

        assertThat(((Verdict.Refused) v).reason()).isEqualTo(Verdict.Reason.MALFORMED);
    }
}
