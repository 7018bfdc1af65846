package dev.mailrun.mail.feedback;

import static dev.mailrun.testing.FeedbackPayloads.postmarkBounce;
import static dev.mailrun.testing.FeedbackPayloads.postmarkSpamComplaint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.mail.Secret;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PostmarkWebhookTest {

    private static final String USER = "postmark-hooks";
    private static final String PASSWORD = "correct-horse-battery-staple";
    private static final Map<String, String> METADATA = Map.of("mailrun-campaign", "12", "mailrun-recipient", "3456");

    private final PostmarkWebhook webhook = new PostmarkWebhook(new PostmarkSettings(Secret.of(USER), Secret.of(PASSWORD)));

    private static WebhookRequest post(String authorization, String body) {
        return new WebhookRequest(authorization == null ? Map.of() : Map.of("authorization", authorization),
                body.getBytes(StandardCharsets.UTF_8));
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void a_hard_bounce_with_the_configured_credentials_is_read_with_its_metadata() {
        Verdict v = webhook.receive(post(basic(USER, PASSWORD), postmarkBounce(42, "HardBounce", 1, "ann@list.example",
                "smtp;550 5.1.1 The email account that you tried to reach does not exist", METADATA)));

        FeedbackEvent e = ((Verdict.Accepted) v).events().get(0);
        assertThat(e.kind()).isEqualTo(FeedbackEvent.Kind.HARD);
        assertThat(e.eventId()).isEqualTo("id:42");
        assertThat(e.ids()).contains(new SendIds(12, 3456));
        assertThat(e.status()).isEqualTo("5.1.1");
        assertThat(e.smtpCode()).hasValue(550);
        assertThat(e.detail()).startsWith("HardBounce 550 5.1.1");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "HardBounce, 1, HARD", "BadEmailAddress, 100000, HARD", "ManuallyDeactivated, 100002, HARD",
            "SoftBounce, 4096, SOFT", "Transient, 2, SOFT", "DnsError, 256, SOFT",
            "Blocked, 100006, REFUSED", "SpamNotification, 512, REFUSED", "VirusNotification, 8192, REFUSED",
            "DMARCPolicy, 100009, REFUSED", "SMTPApiError, 100007, REFUSED", "TemplateRenderingFailed, 100010, REFUSED",
            "Unsubscribe, 16, UNSUBSCRIBE",
            "AutoResponder, 64, IGNORED", "AddressChange, 128, IGNORED", "Subscribe, 32, IGNORED",
            "OpenRelayTest, 1024, IGNORED", "ChallengeVerification, 16384, IGNORED", "Unconfirmed, 100003, IGNORED",
            "InboundError, 100008, IGNORED", "Unknown, 2048, IGNORED", "SomethingNew, 999999, IGNORED",
    })
    void each_bounce_type_maps_to_its_rule(String type, int code, FeedbackEvent.Kind kind) {
        Verdict v = webhook.receive(post(basic(USER, PASSWORD), postmarkBounce(7, type, code, "ann@list.example", "details", METADATA)));

        assertThat(((Verdict.Accepted) v).events()).extracting(FeedbackEvent::kind).containsExactly(kind);
    }

    @Test
    void a_spam_complaint_webhook_is_a_complaint() {
        Verdict v = webhook.receive(post(basic(USER, PASSWORD), postmarkSpamComplaint(43, "bob@list.example", METADATA)));

        assertThat(((Verdict.Accepted) v).events()).extracting(FeedbackEvent::kind, FeedbackEvent::eventId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(FeedbackEvent.Kind.COMPLAINT, "id:43"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Bearer x", "Basic !!!", "Basic cG9zdG1hcmstaG9va3M6d3Jvbmc=", "basic"})
    void missing_or_wrong_credentials_are_refused_with_a_challenge(String authorization) {
        Verdict v = webhook.receive(post(authorization.isEmpty() ? null : authorization,
                postmarkBounce(44, "HardBounce", 1, "ann@list.example", "x", METADATA)));

        assertThat(v).isEqualTo(new Verdict.Refused(Verdict.Reason.UNAUTHENTICATED, "missing or wrong basic credentials"));
        assertThat(webhook.challenge()).contains("Basic realm=\"mailrun feedback\", charset=\"UTF-8\"");
    }

    @Test
    void the_right_password_for_another_user_or_a_prefix_of_the_password_is_refused() {
        String body = postmarkBounce(45, "HardBounce", 1, "ann@list.example", "x", METADATA);

        assertThat(webhook.receive(post(basic("someone", PASSWORD), body))).isInstanceOf(Verdict.Refused.class);
        assertThat(webhook.receive(post(basic(USER, PASSWORD.substring(0, 20)), body))).isInstanceOf(Verdict.Refused.class);
        assertThat(webhook.receive(post(basic(USER, PASSWORD), body))).isInstanceOf(Verdict.Accepted.class);
    }

    @Test
    void credentials_that_could_not_be_put_into_a_url_are_refused_when_configured() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new PostmarkSettings(Secret.of("a:b"), Secret.of(PASSWORD)))
                .hasMessageStartingWith("feedback.postmark.user: must be");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new PostmarkSettings(Secret.of(USER), Secret.of("short")))
                .hasMessage("feedback.postmark.password: must be at least 16 characters without control characters (value not shown)");
        assertThat(new PostmarkSettings(Secret.of(USER), Secret.of(PASSWORD)).toString()).doesNotContain(PASSWORD).doesNotContain(USER);
    }

    @Test
    void metadata_that_is_not_a_pair_of_positive_ids_is_no_attribution() {
        Verdict v = webhook.receive(post(basic(USER, PASSWORD), postmarkBounce(46, "HardBounce", 1, "ann@list.example", "x",
                Map.of("mailrun-campaign", "12", "mailrun-recipient", "34x"))));

        assertThat(((Verdict.Accepted) v).events().get(0).ids()).isEqualTo(Optional.empty());
    }
}
