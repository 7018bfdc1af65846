package dev.mailrun.mail.dkim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetupTest;
import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class DkimSignerTest {

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    @TempDir
    static Path dir;

    private static KeyPair keys;
    private static Path pemFile;

    @BeforeAll
    static void keys() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        keys = generator.generateKeyPair();
        pemFile = dir.resolve("dkim-private.pem");
        Files.writeString(pemFile, pem("PRIVATE KEY", keys.getPrivate().getEncoded()));
    }

    @Test
    void a_signed_message_received_over_smtp_verifies_with_the_public_key() throws Exception {
        String raw = sendAndReceive(new DkimSigner(new DkimSettings("mail.example.com", "s2025", pemFile)));

        RelaxedDkimVerifier.Result result = RelaxedDkimVerifier.verify(raw, keys.getPublic());

        assertThat(result.bodyHashMatches()).as("bh=").isTrue();
        assertThat(result.signatureValid()).as("b=").isTrue();
        assertThat(result.tags()).containsEntry("d", "mail.example.com").containsEntry("s", "s2025")
                .doesNotContainKey("l");
        assertThat(List.of(result.tags().get("h").toLowerCase().split(":")))
                .contains("from", "to", "subject", "date", "message-id", "list-unsubscribe", "list-unsubscribe-post");
    }

    @Test
    void changing_the_subject_after_signing_breaks_the_signature() throws Exception {
        String raw = sendAndReceive(new DkimSigner(new DkimSettings("mail.example.com", "s2025", pemFile)));
        String tampered = raw.replace("Subject: March news", "Subject: March news!!");

        RelaxedDkimVerifier.Result result = RelaxedDkimVerifier.verify(tampered, keys.getPublic());

        assertThat(tampered).isNotEqualTo(raw);
        assertThat(result.bodyHashMatches()).isTrue();
        assertThat(result.signatureValid()).isFalse();
    }

    @Test
    void changing_the_body_after_signing_breaks_the_body_hash() throws Exception {
        String raw = sendAndReceive(new DkimSigner(new DkimSettings("mail.example.com", "s2025", pemFile)));

        assertThat(RelaxedDkimVerifier.verify(raw.replace("the news for March", "the news for April"), keys.getPublic())
                .bodyHashMatches()).isFalse();
    }

    @Test
    void a_der_encoded_key_works_as_well() throws Exception {
        Path der = dir.resolve("dkim-private.der");
        Files.write(der, keys.getPrivate().getEncoded());

        String raw = sendAndReceive(new DkimSigner(new DkimSettings("mail.example.com", "s2025", der)));

        assertThat(RelaxedDkimVerifier.verify(raw, keys.getPublic()).valid()).isTrue();
    }

    @Test
    void a_missing_key_file_fails_with_one_clear_line() {
        Path missing = dir.resolve("nope.pem");

        assertThatThrownBy(() -> new DkimSigner(new DkimSettings("mail.example.com", "s1", missing)))
                .isInstanceOf(DkimKeyException.class)
                .hasMessage("dkim.private-key-file " + missing + " does not exist");
    }

    @Test
    void a_pkcs1_key_fails_with_the_conversion_to_make() throws Exception {
        Path pkcs1 = dir.resolve("rsa.pem");
        Files.writeString(pkcs1, "-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAK\n-----END RSA PRIVATE KEY-----\n");

        assertThatThrownBy(() -> new DkimSigner(new DkimSettings("mail.example.com", "s1", pkcs1)))
                .isInstanceOf(DkimKeyException.class)
                .hasMessageContaining("is a PKCS#1 key; convert it to PKCS#8: openssl pkcs8 -topk8 -nocrypt");
    }

    @Test
    void a_key_that_is_not_rsa_or_not_a_key_at_all_is_refused() throws Exception {
        KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
        ec.initialize(256);
        Path ecFile = dir.resolve("ec.pem");
        Files.writeString(ecFile, pem("PRIVATE KEY", ec.generateKeyPair().getPrivate().getEncoded()));
        Path junk = dir.resolve("junk.pem");
        Files.writeString(junk, "hello, I am not a key\n");

        assertThatThrownBy(() -> new DkimSigner(new DkimSettings("mail.example.com", "s1", ecFile)))
                .hasMessage("dkim.private-key-file " + ecFile + " is not an RSA private key in PKCS#8 PEM or DER form");
        assertThatThrownBy(() -> new DkimSigner(new DkimSettings("mail.example.com", "s1", junk)))
                .hasMessage("dkim.private-key-file " + junk + " is not an RSA private key in PKCS#8 PEM or DER form");
    }

    @Test
    void settings_check_domain_and_selector_and_name_the_dns_record() {
        assertThat(new DkimSettings("Mail.Example.com", "S2025", pemFile).dnsRecordName())
                .isEqualTo("s2025._domainkey.mail.example.com");
        assertThatThrownBy(() -> new DkimSettings("localhost", "s1", pemFile)).hasMessageStartingWith("dkim.domain must be");
        assertThatThrownBy(() -> new DkimSettings("example.com", "bad selector", pemFile))
                .hasMessageStartingWith("dkim.selector must be");
    }

    @Test
    void a_signed_message_sent_through_the_smtp_pool_verifies_too() throws Exception {
        // The pool serialises each message once before sending; the signature must survive that.
        DkimSigner signer = new DkimSigner(new DkimSettings("mail.example.com", "s2025", pemFile));
        greenMail.reset();
        dev.mailrun.mail.smtp.SmtpSettings smtp = dev.mailrun.mail.smtp.SmtpSettings.of("127.0.0.1",
                greenMail.getSmtp().getPort(), dev.mailrun.mail.smtp.TlsMode.NONE, "sender.example.com");
        java.util.List<dev.mailrun.mail.smtp.SendResult> results = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.time.Clock clock = java.time.Clock.systemUTC();
        try (dev.mailrun.mail.smtp.SmtpPool pool = new dev.mailrun.mail.smtp.SmtpPool(smtp,
                dev.mailrun.mail.smtp.SendRateLimiter.unlimited(), clock)) {
            pool.sendBatch(java.util.List.of(new dev.mailrun.mail.smtp.Outgoing() {
                @Override
                public long key() {
                    return 1;
                }

                @Override
                public MimeMessage build(Session session) {
                    try {
                        return signer.sign(message(session));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }

                @Override
                public java.util.Optional<String> envelopeFrom() {
                    return java.util.Optional.empty();
                }
            }), clock.instant().plusSeconds(30), () -> false, results::add);
        }
        assertThat(results).singleElement().isInstanceOf(dev.mailrun.mail.smtp.SendResult.Sent.class);
        assertThat(greenMail.waitForIncomingEmail(5000, 1)).isTrue();
        String raw = GreenMailUtil.getWholeMessage(greenMail.getReceivedMessages()[0]);

        RelaxedDkimVerifier.Result result = RelaxedDkimVerifier.verify(raw, keys.getPublic());

        assertThat(result.bodyHashMatches()).as("bh=").isTrue();
        assertThat(result.signatureValid()).as("b=").isTrue();
    }

    @Test
    void a_message_composed_straight_to_its_bytes_signs_sends_and_verifies() throws Exception {
        // The sending path's messages are their bytes (SerialisedMessage); the signer copies them,
        // and the pool sends the signed copy.
        DkimSigner signer = new DkimSigner(new DkimSettings("mail.example.com", "s2025", pemFile));
        dev.mailrun.mail.message.CampaignComposer campaign = new dev.mailrun.mail.message.MessageComposer(
                java.time.Clock.systemUTC()).forCampaign(new dev.mailrun.mail.message.Mailbox("news@mail.example.com", "Example News"),
                java.util.Optional.empty(), "c1.lists.mail.example.com", "March");
        greenMail.reset();
        dev.mailrun.mail.smtp.SmtpSettings smtp = dev.mailrun.mail.smtp.SmtpSettings.of("127.0.0.1",
                greenMail.getSmtp().getPort(), dev.mailrun.mail.smtp.TlsMode.NONE, "sender.example.com");
        java.util.List<dev.mailrun.mail.smtp.SendResult> results = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.time.Clock clock = java.time.Clock.systemUTC();
        try (dev.mailrun.mail.smtp.SmtpPool pool = new dev.mailrun.mail.smtp.SmtpPool(smtp,
                dev.mailrun.mail.smtp.SendRateLimiter.unlimited(), clock)) {
            pool.sendBatch(java.util.List.of(new dev.mailrun.mail.smtp.Outgoing() {
                @Override
                public long key() {
                    return 1;
                }

                @Override
                public MimeMessage build(Session session) {
                    try {
                        return signer.sign(campaign.compose(session, new dev.mailrun.mail.message.RecipientFields(
                                new dev.mailrun.mail.message.Mailbox("ann@example.org", "Ann Lee"), "<c1.r2.abc@mail.example.com>",
                                "https://mail.example.com/u/AbC123", java.util.Optional.of("mailto:u@mail.example.com?subject=c1.r2"),
                                java.util.Optional.empty()), new dev.mailrun.mail.template.RenderedContent("March news – Grüße",
                                "Hello Ann,\n\nhere is   the news for March, café.  \n\n\n", "<p>Hello Ann</p>\n<p>news</p>\n")));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }

                @Override
                public java.util.Optional<String> envelopeFrom() {
                    return java.util.Optional.empty();
                }
            }), clock.instant().plusSeconds(30), () -> false, results::add);
        }
        assertThat(results).singleElement().isInstanceOf(dev.mailrun.mail.smtp.SendResult.Sent.class);
        assertThat(greenMail.waitForIncomingEmail(5000, 1)).isTrue();
        String raw = GreenMailUtil.getWholeMessage(greenMail.getReceivedMessages()[0]);
        RelaxedDkimVerifier.Result result = RelaxedDkimVerifier.verify(raw, keys.getPublic());
        assertThat(result.bodyHashMatches()).as("bh=").isTrue();
        assertThat(result.signatureValid()).as("b=").isTrue();
        assertThat(List.of(result.tags().get("h").toLowerCase().split(":")))
                .contains("from", "to", "subject", "date", "message-id", "list-unsubscribe", "list-unsubscribe-post");
        assertThat(raw).contains("Message-ID: <c1.r2.abc@mail.example.com>");
    }

    private static String sendAndReceive(DkimSigner signer) throws Exception {
        greenMail.reset();
        Properties p = new Properties();
        p.setProperty("mail.smtp.host", "127.0.0.1");
        p.setProperty("mail.smtp.port", Integer.toString(greenMail.getSmtp().getPort()));
        Session session = Session.getInstance(p);
        Transport.send(signer.sign(message(session)));

        assertThat(greenMail.waitForIncomingEmail(5000, 1)).isTrue();
        return GreenMailUtil.getWholeMessage(greenMail.getReceivedMessages()[0]);
    }

    private static MimeMessage message(Session session) throws Exception {
        MimeMessage message = new MimeMessage(session);
        message.setFrom(new InternetAddress("news@mail.example.com", "Example News"));
        message.setRecipients(Message.RecipientType.TO, "Ann Lee <ann@example.org>");
        message.setSubject("March news", "UTF-8");
        message.setSentDate(new Date(1741000000000L));
        message.setHeader("List-Unsubscribe", "<https://mail.example.com/u/AbC123>");
        message.setHeader("List-Unsubscribe-Post", "List-Unsubscribe=One-Click");
        message.setText("Hello Ann,\n\nhere is   the news for March.  \n\n\n", "UTF-8");
        message.saveChanges();
        return message;
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
