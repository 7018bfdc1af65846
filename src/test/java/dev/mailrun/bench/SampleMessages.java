package dev.mailrun.bench;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.send.deliver.MessageFactory;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.mail.message.MessageComposer;
import dev.mailrun.mail.message.MessageIds;
import dev.mailrun.mail.smtp.Outgoing;
import dev.mailrun.mail.template.CompiledTemplate;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.TemplateLoader;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * Messages made exactly as the sending task makes them (same template, composer, Message-IDs),
 * for benchmarks that drive the SMTP layer without the database.
 */
final class SampleMessages {

    private final MessageFactory factory;

    SampleMessages(Clock clock) {
        this(clock, 0);
    }

    /** With a campaign attachment of {@code attachmentBytes} random bytes (none: 0), encoded once as a run encodes it. */
    SampleMessages(Clock clock, int attachmentBytes) {
        LoadResult loaded = new TemplateLoader(Path.of("templates")).load(PipelineHarness.TEMPLATE);
        if (!(loaded instanceof LoadResult.Loaded ok)) {
            throw new IllegalStateException("template " + PipelineHarness.TEMPLATE + " does not load: " + loaded);
        }
        CompiledTemplate template = ok.template();
        Instant t = Instant.parse("2026-11-21T00:00:00Z");
        Campaign campaign = new Campaign(1, "Benchmark", PipelineHarness.TEMPLATE, "news@sender.example",
                Optional.of("Sender News"), Optional.empty(), Optional.empty(), CampaignStatus.RUNNING, Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), t, t);
        factory = new MessageFactory(campaign, template, new MessageComposer(clock),
                new MessageIds("sender.example", PipelineHarness.MESSAGE_ID_KEY), new dev.mailrun.testing.FixedLinks(), Optional.empty(),
                attachmentBytes == 0 ? java.util.List.of() : MessageFactory.encode(java.util.List.of(
                        dev.mailrun.campaign.model.Attachment.of("programme.pdf", "application/pdf", random(attachmentBytes)))),
                dev.mailrun.campaign.attach.RecipientFiles.none(dev.mailrun.campaign.attach.AttachmentLimits.DEFAULTS),
                dev.mailrun.campaign.send.deliver.TrackingLinks.NONE, java.util.Map.of(), false);
    }

    private static byte[] random(int n) {
        byte[] b = new byte[n];
        new java.util.SplittableRandom(1).nextBytes(b);
        return b;
    }

    private final ThreadLocal<jakarta.mail.internet.MimeMessage> perThread = new ThreadLocal<>();

    /** An item whose message is built once per sending thread and then reused. */
    Outgoing prebuiltPerThread(long i) {
        Outgoing real = outgoing(i);
        return new Outgoing() {
            @Override
            public long key() {
                return i;
            }

            @Override
            public jakarta.mail.internet.MimeMessage build(jakarta.mail.Session session)
                    throws dev.mailrun.mail.RejectedMessageException {
                jakarta.mail.internet.MimeMessage m = perThread.get();
                if (m == null) {
                    m = real.build(session);
                    perThread.set(m);
                }
                return m;
            }

            @Override
            public Optional<String> envelopeFrom() {
                return Optional.empty();
            }
        };
    }

    /** The message to recipient {@code i + 1}: ids start at 1, as the table's do (a message's metadata needs one). */
    Outgoing outgoing(long i) {
        return outgoing(i, false);
    }

    /** As {@link #outgoing(long)}; with {@code accented}, the recipient's name is not ASCII ("Jörg"). */
    Outgoing outgoing(long i, boolean accented) {
        long id = i + 1;
        return factory.outgoing(new ClaimedRecipient(id, "r" + id + "@list.example",
                (accented ? "J\u00f6rg " : "Reader ") + id, "{\"company\": \"ACME\"}", 0));
    }
}
