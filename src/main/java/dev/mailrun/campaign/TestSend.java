package dev.mailrun.campaign;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.send.SendDependencies;
import dev.mailrun.campaign.send.SendTask;
import dev.mailrun.campaign.send.deliver.MessageFactory;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.mail.feedback.SendIds;
import dev.mailrun.mail.smtp.SendRateLimiter;
import dev.mailrun.mail.smtp.SendResult;
import dev.mailrun.mail.smtp.SmtpPool;
import dev.mailrun.mail.template.LoadResult;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One rendered message of a campaign to one address, through the same template, composer and
 * SMTP code as the sending task, for a campaign in any state, without touching the campaign's
 * recipients or figures. Recipient id 0 ({@link SendIds#TEST_RECIPIENT}) marks it in the
 * Message-ID, links, return path and provider metadata, so that no bounce or provider event about
 * it changes anything; its subject starts with {@link MessageFactory#TEST_SUBJECT_PREFIX} and it
 * carries the header {@code X-Mailrun-Test: 1}.
 */
public final class TestSend {

    private static final Duration TIMEOUT = Duration.ofMinutes(1);

    private final SendDependencies deps;
    private final Clock clock;

    public TestSend(SendDependencies deps, Clock clock) {
        this.deps = deps;
        this.clock = clock;
    }

    public SendResult send(Campaign campaign, String to, String name, Map<String, String> fields) throws SQLException {
        Optional<ContentPin> pin = deps.templates().pins(campaign.id()).campaign();
        LoadResult loaded = pin.isPresent() ? deps.templates().load(pin.get()) : PinnedTemplates.notStored(campaign.template());
        if (loaded instanceof LoadResult.Invalid invalid) {
            throw new CampaignException("template " + campaign.template() + " does not compile: " + invalid.problems().get(0));
        }
        MessageFactory factory = deps.messages(campaign, ((LoadResult.Loaded) loaded).template(), clock);
        String json;
        try {
            json = fields.isEmpty() ? null : new ObjectMapper().writeValueAsString(fields);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        ClaimedRecipient recipient = new ClaimedRecipient(SendIds.TEST_RECIPIENT, EmailAddress.of(to).value(), name, json, 0);
        AtomicReference<SendResult> result = new AtomicReference<>();
        try (SmtpPool pool = new SmtpPool(deps.relays().first().smtp(), SendRateLimiter.unlimited(), clock)) {
            pool.sendBatch(List.of(factory.outgoing(recipient)), clock.instant().plus(TIMEOUT), () -> false, result::set);
        }
        return result.get();
    }
}
