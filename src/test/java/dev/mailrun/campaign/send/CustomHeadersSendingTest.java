package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.CustomHeaders;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.send.scope.SendEvents;
import dev.mailrun.mail.dkim.DkimSettings;
import dev.mailrun.mail.dkim.DkimSigner;
import dev.mailrun.mail.dkim.RelaxedDkimVerifier;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeUtility;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A campaign with headers of the operator's own, stored, read back by the run and sent through the
 * real sending path to GreenMail with DKIM on: every message carries each header exactly once with
 * its value (a non-ASCII one as encoded words that decode to it, a long one folded and unfolded back),
 * and its signature verifies, Feedback-ID among the signed headers.
 */
class CustomHeadersSendingTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final String LONG = "words that go on and on, ".repeat(8).strip();

    @TempDir
    Path dir;

    @Test
    void every_message_carries_each_header_once_with_its_value_and_its_dkim_signature_verifies() throws Exception {
        KeyPair keys = rsa();
        Path key = dir.resolve("dkim.pem");
        Files.writeString(key, "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(keys.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        DkimSigner dkim = new DkimSigner(new DkimSettings("sender.example", "s1", key));
        SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(2));
        CustomHeaders headers = CustomHeaders.parse(List.of("X-Campaign-Tag: spring-2026", "Feedback-ID: a1:news:mailrun",
                "X-Greeting: Grüße aus Köln", "X-Long: " + LONG));

        try (SendingHarness h = new SendingHarness(db.dataSource(), clock, greenMail.getSmtp().getPort(), INTERVAL,
                SendSettingsFixtures.builder().through("test-relay", 0), "w1", SendEvents.NONE, Optional.of(dkim))) {
            long id = h.campaigns.create(new NewCampaign("Tagged", "welcome", "news@sender.example", Optional.of("News"),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                    headers));
            assertThat(h.campaigns.get(id).headers()).isEqualTo(headers);
            CampaignFixtures.recipients(db.dataSource(), id, 4);
            h.campaigns.start(id);
            for (int tick = 0; tick < 5 && h.campaigns.get(id).status() != CampaignStatus.COMPLETED; tick++) {
                h.scheduler.tick();
                clock.set(clock.peek().plus(INTERVAL));
            }
            assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
        }

        MimeMessage[] received = greenMail.getReceivedMessages();
        assertThat(received).hasSize(4);
        Set<String> recipients = new HashSet<>();
        for (MimeMessage m : received) {
            String raw = GreenMailUtil.getWholeMessage(m);
            RelaxedDkimVerifier.Result signature = RelaxedDkimVerifier.verify(raw, keys.getPublic());
            assertThat(signature.bodyHashMatches()).as("bh=").isTrue();
            assertThat(signature.signatureValid()).as("b=").isTrue();
            assertThat(List.of(signature.tags().get("h").toLowerCase().split(":"))).contains("feedback-id");

            MimeMessage parsed = new MimeMessage(Session.getInstance(new Properties()),
                    new ByteArrayInputStream(raw.getBytes(StandardCharsets.ISO_8859_1)));
            recipients.add(parsed.getHeader("To", null));
            assertThat(parsed.getHeader("X-Campaign-Tag")).containsExactly("spring-2026");
            assertThat(parsed.getHeader("Feedback-ID")).containsExactly("a1:news:mailrun");
            assertThat(parsed.getHeader("X-Greeting")).hasSize(1);
            assertThat(parsed.getHeader("X-Greeting")[0]).startsWith("=?UTF-8?");
            assertThat(MimeUtility.decodeText(MimeUtility.unfold(parsed.getHeader("X-Greeting")[0]))).isEqualTo("Grüße aus Köln");
            assertThat(parsed.getHeader("X-Long")).hasSize(1);
            assertThat(parsed.getHeader("X-Long")[0]).contains("\r\n");
            assertThat(MimeUtility.unfold(parsed.getHeader("X-Long")[0])).isEqualTo(LONG);
            // mailrun's own headers are still there once each.
            assertThat(parsed.getHeader("From")).hasSize(1);
            assertThat(parsed.getHeader("List-Unsubscribe-Post")).hasSize(1);
        }
        assertThat(recipients).hasSize(4);
    }

    private static KeyPair rsa() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        return g.generateKeyPair();
    }
}
