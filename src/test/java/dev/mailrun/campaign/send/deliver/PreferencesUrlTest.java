package dev.mailrun.campaign.send.deliver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.attach.AttachmentLimits;
import dev.mailrun.campaign.attach.RecipientFiles;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.unsubscribe.PreferenceTokens;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.feedback.SendIds;
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
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code {{ preferences_url }}}: a list campaign's message carries its recipient's signed preference
 * centre link; any other message renders it empty.
 */
class PreferencesUrlTest {

    @TempDir
    Path templates;

    private final SettableClock clock = SettableClock.at("2026-12-01T10:00:00Z");
    private final PreferenceTokens tokens = new PreferenceTokens(SigningKey.of("0123456789abcdef0123456789abcdef-test"), clock);
    private final URI base = URI.create("https://links.sender.example");
    private final UnsubscribeLinks links = new UnsubscribeLinks() {
        private final FixedLinks fixed = new FixedLinks();

        @Override
        public String url(long campaignId, long recipientId, String email) {
            return fixed.url(campaignId, recipientId, email);
        }

        @Override
        public String webVersion(long campaignId, long recipientId) {
            return fixed.webVersion(campaignId, recipientId);
        }

        @Override
        public Optional<String> preferences(long campaignId, String email) {
            return Optional.of(tokens.link(base, campaignId, email));
        }

        @Override
        public Optional<String> mailto(String fromDomain, long campaignId, long recipientId, String email) {
            return fixed.mailto(fromDomain, campaignId, recipientId, email);
        }

        @Override
        public Optional<String> envelopeFrom(long campaignId, long recipientId, String email) {
            return Optional.empty();
        }
    };

    @Test
    void a_list_campaigns_message_links_to_its_recipients_own_preference_centre() throws Exception {
        String ann = raw(factory(true), new ClaimedRecipient(7, "ann@list.example", "Ann", null, 0));

        Matcher m = Pattern.compile("Preferences: https://links\\.sender\\.example/p/([A-Za-z0-9_-]+)").matcher(ann);
        assertThat(m.find()).as(ann).isTrue();
        assertThat(tokens.verify(PreferenceTokens.Kind.LINK, m.group(1))).hasValue(new PreferenceTokens.Target(41, "ann@list.example"));
        assertThat(tokens.verify(PreferenceTokens.Kind.ERASE, m.group(1))).isEmpty();
    }

    @Test
    void a_campaign_of_imported_recipients_and_a_test_send_render_it_empty() throws Exception {
        assertThat(raw(factory(false), new ClaimedRecipient(7, "ann@list.example", "Ann", null, 0))).contains("Preferences: none")
                .doesNotContain("/p/");
        assertThat(raw(factory(true), new ClaimedRecipient(SendIds.TEST_RECIPIENT, "ann@list.example", "Ann", null, 0)))
                .contains("Preferences: none");
    }

    private MessageFactory factory(boolean toLists) throws Exception {
        Path dir = Files.createDirectories(templates.resolve("prefs"));
        Files.writeString(dir.resolve("subject.txt"), "News\n");
        Files.writeString(dir.resolve("body.txt"), "Preferences: {% if preferences_url %}{{ preferences_url }}{% else %}none{% endif %}\n"
                + "{{ unsubscribe_url }}\n");
        Files.writeString(dir.resolve("body.html"), "<p><a href=\"{{ unsubscribe_url }}\">Unsubscribe</a></p>");
        LoadResult loaded = new TemplateLoader(templates).load("prefs");
        assertThat(loaded).as(loaded.toString()).isInstanceOf(LoadResult.Loaded.class);
        CompiledTemplate template = ((LoadResult.Loaded) loaded).template();
        Campaign campaign = new Campaign(41, "News", template.name(), "news@sender.example", Optional.empty(), Optional.empty(),
                Optional.empty(), CampaignStatus.RUNNING, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                clock.instant(), clock.instant());
        return new MessageFactory(campaign, template, new MessageComposer(clock),
                new MessageIds("sender.example", Secret.of("message-id-key-for-tests-0123456789")), links, Optional.empty(),
                List.of(), RecipientFiles.none(AttachmentLimits.DEFAULTS), TrackingLinks.NONE, Map.of(), toLists);
    }

    private static String raw(MessageFactory factory, ClaimedRecipient r) throws Exception {
        MimeMessage m = factory.outgoing(r).build(Session.getInstance(new Properties()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        m.writeTo(out);
        return out.toString(StandardCharsets.ISO_8859_1).replace("=\r\n", "");
    }
}
