package dev.mailrun.campaign.send.deliver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.attach.AttachmentLimits;
import dev.mailrun.campaign.attach.RecipientFiles;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.message.MessageComposer;
import dev.mailrun.mail.message.MessageIds;
import dev.mailrun.mail.template.CompiledTemplate;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.testing.FixedLinks;
import dev.mailrun.testing.SettableClock;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code {{ web_url }}}: each recipient's message carries its own link, signed only when the template shows it. */
class WebUrlTest {

    @TempDir
    Path templates;

    private final SettableClock clock = SettableClock.at("2026-11-26T10:00:00Z");
    private final AtomicInteger signed = new AtomicInteger();
    private final UnsubscribeLinks links = new UnsubscribeLinks() {
        private final FixedLinks fixed = new FixedLinks();

        @Override
        public String url(long campaignId, long recipientId, String email) {
            return fixed.url(campaignId, recipientId, email);
        }

        @Override
        public String webVersion(long campaignId, long recipientId) {
            signed.incrementAndGet();
            return fixed.webVersion(campaignId, recipientId);
        }

        @Override
        public Optional<String> mailto(String fromDomain, long campaignId, long recipientId, String email) {
            return fixed.mailto(fromDomain, campaignId, recipientId, email);
        }

        @Override
        public Optional<String> envelopeFrom(long campaignId, long recipientId, String email) {
            return fixed.envelopeFrom(campaignId, recipientId, email);
        }
    };

    @Test
    void each_message_carries_its_recipients_own_web_version_link_in_both_parts() throws Exception {
        MessageFactory factory = factory(template("web", "View online: {{ web_url }}\n{{ unsubscribe_url }}\n",
                "<p><a href=\"{{ web_url }}\">View online</a> <a href=\"{{ unsubscribe_url }}\">Unsubscribe</a></p>"));

        String ann = raw(factory, new ClaimedRecipient(7, "ann@list.example", "Ann", null, 0));
        String bob = raw(factory, new ClaimedRecipient(8, "bob@list.example", "Bob", null, 0));

        assertThat(ann).contains("View online: https://unsubscribe.sender.example/w/c41r7")
                .contains("<a href=\"https://unsubscribe.sender.example/w/c41r7\">View online</a>");
        assertThat(bob).contains("View online: https://unsubscribe.sender.example/w/c41r8").doesNotContain("r7");
        assertThat(signed).hasValue(2);
    }

    @Test
    void a_template_without_web_url_has_no_link_signed() throws Exception {
        MessageFactory factory = factory(template("plain", "Hi {{ name }}\n{{ unsubscribe_url }}\n",
                "<p>Hi {{ name }} <a href=\"{{ unsubscribe_url }}\">Unsubscribe</a></p>"));

        assertThat(raw(factory, new ClaimedRecipient(7, "ann@list.example", "Ann", null, 0))).contains("Hi Ann");
        assertThat(signed).hasValue(0);
    }

    private CompiledTemplate template(String name, String text, String html) throws Exception {
        Path dir = Files.createDirectories(templates.resolve(name));
        Files.writeString(dir.resolve("subject.txt"), "News\n");
        Files.writeString(dir.resolve("body.txt"), text);
        Files.writeString(dir.resolve("body.html"), html);
        return ((LoadResult.Loaded) new TemplateLoader(templates).load(name)).template();
    }

    private MessageFactory factory(CompiledTemplate template) {
        Campaign campaign = new Campaign(41, "News", template.name(), "news@sender.example", Optional.empty(), Optional.empty(),
                Optional.empty(), CampaignStatus.RUNNING, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                clock.instant(), clock.instant());
        return new MessageFactory(campaign, template, new MessageComposer(clock),
                new MessageIds("sender.example", Secret.of("message-id-key-for-tests-0123456789")), links, Optional.empty(),
                List.of(), RecipientFiles.none(AttachmentLimits.DEFAULTS), TrackingLinks.NONE, Map.of(), false);
    }

    private static String raw(MessageFactory factory, ClaimedRecipient r) throws Exception {
        MimeMessage m = factory.outgoing(r).build(Session.getInstance(new Properties()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        m.writeTo(out);
        return out.toString(StandardCharsets.ISO_8859_1);
    }
}
