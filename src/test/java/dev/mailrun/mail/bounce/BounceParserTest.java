package dev.mailrun.mail.bounce;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class BounceParserTest {

    private final BounceParser parser = new BounceParser();

    @Test
    void a_standard_hard_bounce_gives_the_recipient_status_diagnostic_original_id_and_token() {
        List<BounceReport> reports = parser.parse(Samples.message("rfc3464-hard-5.1.1.eml"));

        assertThat(reports).singleElement().satisfies(r -> {
            assertThat(r.kind()).isEqualTo(BounceKind.HARD);
            assertThat(r.recipient()).contains("nobody.here@example.org");
            assertThat(r.status()).isEqualTo("5.1.1");
            assertThat(r.smtpCode()).hasValue(550);
            assertThat(r.diagnostic()).isEqualTo(
                    "550 5.1.1 <nobody.here@example.org>: Recipient address rejected: User unknown in virtual mailbox table");
            assertThat(r.originalMessageId()).contains("<hard-1.campaign-12@mail.example.com>");
            assertThat(r.returnPathToken()).contains("TOKEN_HARD");
        });
    }

    @Test
    void a_report_of_a_blocklisted_sender_is_a_refusal_not_a_hard_bounce() {
        List<BounceReport> reports = parser.parse(Samples.message("rfc3464-refused-5.7.1.eml"));

        assertThat(reports).singleElement().satisfies(r -> {
            assertThat(r.kind()).isEqualTo(BounceKind.REFUSED);
            assertThat(r.recipient()).contains("nobody.here@example.org");
            assertThat(r.status()).isEqualTo("5.7.1");
            assertThat(r.smtpCode()).hasValue(550);
            assertThat(r.diagnostic()).contains("blocked using zen.spamhaus.org");
            assertThat(r.returnPathToken()).contains("TOKEN_REFUSED");
        });
    }

    @Test
    void a_text_notice_of_a_message_rejected_as_spam_is_a_refusal() {
        List<BounceReport> reports = parser.parse(Samples.message("text-refused-spam.eml"));

        assertThat(reports).singleElement().satisfies(r -> {
            assertThat(r.kind()).isEqualTo(BounceKind.REFUSED);
            assertThat(r.recipient()).contains("old.user@example.info");
            assertThat(r.status()).isEqualTo("5.0.0");
            assertThat(r.smtpCode()).hasValue(554);
            assertThat(r.originalMessageId()).contains("<notice-spam-1.campaign-12@mail.example.com>");
        });
    }

    @Test
    void a_delayed_mailbox_full_report_is_a_soft_bounce() {
        List<BounceReport> reports = parser.parse(Samples.message("rfc3464-soft-4.2.2-delayed.eml"));

        assertThat(reports).singleElement().satisfies(r -> {
            assertThat(r.kind()).isEqualTo(BounceKind.SOFT);
            assertThat(r.recipient()).contains("full.box@example.net");
            assertThat(r.status()).isEqualTo("4.2.2");
            assertThat(r.smtpCode()).hasValue(452);
            assertThat(r.originalMessageId()).contains("<soft-1.campaign-12@mail.example.com>");
            assertThat(r.returnPathToken()).contains("TOKEN_SOFT");
        });
    }

    @Test
    void a_multi_recipient_report_gives_one_report_per_failed_or_delayed_recipient_and_skips_delivered_ones() {
        List<BounceReport> reports = parser.parse(Samples.message("rfc3464-multi-recipient.eml"));

        assertThat(reports).extracting(BounceReport::kind, r -> r.recipient().orElseThrow(), BounceReport::status)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(BounceKind.HARD, "gone@example.de", "5.1.1"),
                        org.assertj.core.groups.Tuple.tuple(BounceKind.SOFT, "slow@example.de", "4.4.1"));
        assertThat(reports).allSatisfy(r -> {
            assertThat(r.originalMessageId()).contains("<multi-1.campaign-12@mail.example.com>");
            assertThat(r.returnPathToken()).isEmpty();
        });
    }

    @Test
    void a_failure_notice_in_plain_text_is_read_from_its_wording() {
        BounceReport r = single("text-failure-notice.eml");

        assertThat(r.kind()).isEqualTo(BounceKind.HARD);
        assertThat(r.recipient()).contains("old.user@example.info");
        assertThat(r.status()).isEqualTo("5.1.1");
        assertThat(r.smtpCode()).hasValue(550);
        assertThat(r.diagnostic()).startsWith("Remote host said: 550 5.1.1");
        assertThat(r.originalMessageId()).contains("<notice-1.campaign-12@mail.example.com>");
    }

    @Test
    void a_delivery_has_failed_notice_names_the_recipient_and_its_extended_code() {
        BounceReport r = single("text-delivery-has-failed.eml");

        assertThat(r.kind()).isEqualTo(BounceKind.HARD);
        assertThat(r.recipient()).contains("Bob.Smith@contoso.example");
        assertThat(r.status()).isEqualTo("5.1.10");
        assertThat(r.smtpCode()).hasValue(550);
        assertThat(r.originalMessageId()).contains("<ndr-1.campaign-12@mail.example.com>");
        assertThat(r.returnPathToken()).contains("TOKEN_NDR");
    }

    @Test
    void a_mail_delivery_failed_notice_uses_the_failed_recipients_header() {
        BounceReport r = single("text-mail-delivery-failed.eml");

        assertThat(r.kind()).isEqualTo(BounceKind.HARD);
        assertThat(r.recipient()).contains("jane@example.co.uk");
        assertThat(r.status()).isEqualTo("5.1.1");
        assertThat(r.originalMessageId()).contains("<text-1.campaign-12@mail.example.com>");
        assertThat(r.returnPathToken()).contains("TOKEN_TEXT");
    }

    @Test
    void a_feedback_report_is_a_complaint_about_the_original_recipient() {
        BounceReport r = single("arf-complaint.eml");

        assertThat(r.kind()).isEqualTo(BounceKind.COMPLAINT);
        assertThat(r.recipient()).contains("annoyed@isp.example");
        assertThat(r.diagnostic()).isEqualTo("feedback-type=abuse");
        assertThat(r.originalMessageId()).contains("<complaint-1.campaign-12@mail.example.com>");
        assertThat(r.returnPathToken()).contains("TOKEN_COMPLAINT");
    }

    @Test
    void an_auto_reply_is_not_a_bounce() {
        BounceReport r = single("auto-reply-not-a-bounce.eml");

        assertThat(r.kind()).isEqualTo(BounceKind.UNRECOGNISED);
        assertThat(r.recipient()).isEmpty();
        assertThat(r.diagnostic()).contains("auto-reply");
    }

    @Test
    void an_ordinary_message_is_unrecognised() throws Exception {
        BounceReport r = single(raw("""
                From: Someone <someone@example.org>
                To: bounces@mail.example.com
                Subject: Hello
                
                Call me on 555 0100 about the 550 items.
                """));

        assertThat(r.kind()).isEqualTo(BounceKind.UNRECOGNISED);
        assertThat(r.diagnostic()).isEqualTo("not a bounce");
    }

    @Test
    void a_broken_multipart_message_is_unrecognised_rather_than_an_exception() throws Exception {
        BounceReport r = single(raw("""
                From: MAILER-DAEMON@example.org
                To: bounces@mail.example.com
                Subject: Undelivered Mail Returned to Sender
                MIME-Version: 1.0
                Content-Type: multipart/report; report-type=delivery-status; boundary="missing"
                
                no parts here at all
                """));

        assertThat(r.kind()).isEqualTo(BounceKind.UNRECOGNISED);
    }

    @Test
    void a_delivery_report_with_only_delivered_recipients_is_unrecognised() throws Exception {
        BounceReport r = single(raw("""
                From: MAILER-DAEMON@example.org
                To: bounces@mail.example.com
                Subject: Successful Mail Delivery Report
                MIME-Version: 1.0
                Content-Type: multipart/report; report-type=delivery-status; boundary="b"
                
                --b
                Content-Type: text/plain
                
                Delivered.
                --b
                Content-Type: message/delivery-status
                
                Reporting-MTA: dns; example.org
                
                Final-Recipient: rfc822; ok@example.org
                Action: delivered
                Status: 2.0.0
                --b--
                """));

        assertThat(r.kind()).isEqualTo(BounceKind.UNRECOGNISED);
        assertThat(r.diagnostic()).contains("without failed or delayed");
    }

    @Test
    void ip_addresses_and_phone_numbers_are_not_taken_for_status_codes() {
        assertThat(TextPatterns.enhancedStatus("host 203.0.113.9 said 4.2.2 full")).contains("4.2.2");
        assertThat(TextPatterns.enhancedStatus("host 192.0.2.25 and 10.0.0.5")).isEmpty();
        assertThat(TextPatterns.smtpCode("call 555 0100 at 12:450 later")).isEqualTo(OptionalInt.empty());
        assertThat(TextPatterns.smtpCode("said: 550-5.1.1 user unknown")).hasValue(550);
    }

    @Test
    void a_custom_return_path_prefix_is_honoured() {
        BounceParser custom = new BounceParser("returns");
        MimeMessage message = Samples.message("rfc3464-hard-5.1.1.eml", java.util.Map.of("bounces+", "returns+"));

        assertThat(custom.parse(message).get(0).returnPathToken()).isEqualTo(Optional.of("TOKEN_HARD"));
    }

    private BounceReport single(String sample) {
        return single(Samples.message(sample));
    }

    private BounceReport single(MimeMessage message) {
        List<BounceReport> reports = parser.parse(message);
        assertThat(reports).hasSize(1);
        return reports.get(0);
    }

    private static MimeMessage raw(String text) throws Exception {
        return new MimeMessage(Session.getInstance(new Properties()),
                new ByteArrayInputStream(text.replace("\n", "\r\n").getBytes(StandardCharsets.UTF_8)));
    }
}
