package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.attach.AttachmentLimits;
import dev.mailrun.campaign.attach.RecipientFiles;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.TrackingMode;
import dev.mailrun.campaign.send.deliver.MessageFactory;
import dev.mailrun.campaign.send.deliver.TrackingLinks;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.store.TrackedLinkTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.message.MessageComposer;
import dev.mailrun.mail.message.MessageIds;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import dev.mailrun.mail.template.CompiledTemplate;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.FixedLinks;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendDependenciesFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.TestTiming;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With tracking.enabled off, a campaign created with --track sends what it sent before tracking
 * existed: its run compiles the template as written ({@link TemplateForRun}), and the message
 * built through the tracking-aware path is byte for byte the message of the path without it.
 */
class TrackingOffBytesTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    /** Each composer numbers its MIME boundaries with its own identity: the one byte sequence that is per composer by design. */
    private static final Pattern BOUNDARY = Pattern.compile("_[0-9]+\\.[0-9]+");

    private final SettableClock clock = SettableClock.at("2026-11-26T10:00:00Z");

    @Test
    void a_tracked_campaign_sends_the_same_bytes_as_before_while_tracking_is_off() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "Welcome");
        Transactions.inTransaction(db.dataSource(), c -> {
            new TrackedLinkTable().setMode(c, id, new TrackingMode(true, true), clock.instant());
            return null;
        });
        Campaign campaign = Transactions.inTransaction(db.dataSource(), c -> new CampaignTable().find(c, id)).orElseThrow();
        TemplateLoader templates = new TemplateLoader(Path.of("templates"));
        SendDependencies deps = SendDependenciesFixtures.oneRelay(db.dataSource(), templates,
                SmtpSettings.of("127.0.0.1", 25, TlsMode.NONE, "mailrun.test"), Secret.of("message-id-key-for-tests-0123456789"),
                new FixedLinks(), SendSettingsFixtures.defaults("default", 0), () -> new Random(1), TestTiming.realTime(clock));
        assertThat(deps.tracking()).isSameAs(TrackingLinks.NONE);

        CompiledTemplate before = ((LoadResult.Loaded) templates.load(campaign.template())).template();
        CompiledTemplate now = ((LoadResult.Loaded) TemplateForRun.load(deps, campaign, deps.templates().pins(id).campaign(), clock.instant())).template();
        assertThat(now.tracking()).isEmpty();
        MessageFactory old = new MessageFactory(campaign, before, new MessageComposer(clock),
                new MessageIds("sender.example", Secret.of("message-id-key-for-tests-0123456789")), new FixedLinks(),
                Optional.empty(), List.of(), RecipientFiles.none(AttachmentLimits.DEFAULTS), TrackingLinks.NONE, Map.of(), false);
        MessageFactory current = deps.messages(campaign, now, clock);

        ClaimedRecipient r = new ClaimedRecipient(7, "ann@list.example", "Ann", "{\"company\": \"ACME\"}", 0);
        String a = bytes(old, r);
        String b = bytes(current, r);
        assertThat(a).contains("https://unsubscribe.sender.example/u/c").doesNotContain("/c/");
        // Equal once each composer's boundary number is masked; the number's digits vary in count, so lengths may too.
        assertThat(withoutBoundaries(b)).isEqualTo(withoutBoundaries(a));
    }

    private static String bytes(MessageFactory factory, ClaimedRecipient r) throws Exception {
        MimeMessage m = factory.outgoing(r).build(Session.getInstance(new Properties()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        m.writeTo(out);
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    private static String withoutBoundaries(String raw) {
        Matcher m = BOUNDARY.matcher(raw);
        return m.replaceAll("_B");
    }
}
