package dev.mailrun.campaign.feedback;

import dev.mailrun.campaign.bounce.BounceApplier;
import dev.mailrun.campaign.bounce.BounceEffects;
import dev.mailrun.campaign.bounce.BounceSettings;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.store.FeedbackEventTable;
import dev.mailrun.campaign.store.MatchedRecipient;
import dev.mailrun.campaign.store.recipient.BounceAttribution;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.unsubscribe.UnsubscribeEffect;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTarget;
import dev.mailrun.campaign.unsubscribe.Unsubscriber;
import dev.mailrun.mail.bounce.BounceKind;
import dev.mailrun.mail.bounce.BounceReport;
import dev.mailrun.mail.feedback.FeedbackEvent;
import dev.mailrun.mail.feedback.Provider;
import dev.mailrun.mail.feedback.SendIds;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies one provider event inside the caller's transaction, by the rules bounces from the mailbox
 * follow ({@link BounceEffects}):
 *
 * <ol>
 *   <li>A delivery or an event no rule acts on changes nothing and is not stored.</li>
 *   <li>Record the provider's event id in feedback_event; if it was there already the event is a
 *       DUPLICATE (a provider retrying its delivery) and changes nothing more.</li>
 *   <li>An event about a test send (recipient id 0 in the metadata, {@link SendIds#isTestSend}) is
 *       UNMATCHED: a test message counts toward nothing, and attributing its bounce by address would
 *       suppress the tester's address, or fail a real send to it.</li>
 *   <li>Attribute it to a send: the campaign and recipient ids echoed from the message's metadata when
 *       that recipient's address is the event's address; else the Message-ID the provider echoes, on the
 *       same condition; else the latest send to the event's address. The ids are not signed, so the
 *       address check is what keeps a wrong or altered id from touching another recipient. An event
 *       that traces to nothing is UNMATCHED.</li>
 *   <li>HARD, SOFT, COMPLAINT, REFUSED: {@link BounceEffects} (which also makes a bounce reported both
 *       by the mailbox and by the provider count once). UNSUBSCRIBE: what the one-click link does
 *       ({@link UnsubscribeEffect}): a list campaign's message leaves its lists, a segment campaign's
 *       every list, any other suppresses the address (unsubscribed).</li>
 * </ol>
 */
public final class FeedbackApplier {

    private static final Logger log = LoggerFactory.getLogger(FeedbackApplier.class);

    /** What one event did. */
    public enum Effect { HARD, SOFT, COMPLAINT, REFUSED, UNSUBSCRIBED, DELIVERY, IGNORED, DUPLICATE, UNMATCHED }

    /** One event's effect, and for a new bounce, refusal, complaint or unsubscribe the campaign of its send. */
    record Applied(Effect effect, OptionalLong campaign) {

        static Applied of(Effect effect) {
            return new Applied(effect, OptionalLong.empty());
        }
    }

    private final SuppressionTable suppressions;
    private final BounceAttribution recipients;
    private final UnsubscribeEffect unsubscribes;
    private final FeedbackEventTable events = new FeedbackEventTable();
    private final Map<Provider, BounceEffects> effects = new EnumMap<>(Provider.class);

    public FeedbackApplier(SuppressionTable suppressions, BounceSettings settings) {
        this.suppressions = suppressions;
        this.recipients = new BounceAttribution();
        this.unsubscribes = new UnsubscribeEffect(suppressions);
        for (Provider p : Provider.values()) {
            effects.put(p, new BounceEffects(suppressions, settings, p.id()));
        }
    }

    /** Remembers a one-time signature value; false when it was used before (a replayed signature). */
    boolean recordNonce(Connection c, Provider provider, String nonce, Instant now) throws SQLException {
        return events.recordIfNew(c, provider.id(), "nonce:" + nonce, now);
    }

    /** The effect of an event that changes nothing (a delivery, an ignored event): counted, no database work. */
    static Applied counted(FeedbackEvent e) {
        if (e.acts()) {
            throw new IllegalArgumentException("a " + e.kind() + " event changes something; apply it");
        }
        return Applied.of(e.kind() == FeedbackEvent.Kind.DELIVERY ? Effect.DELIVERY : Effect.IGNORED);
    }

    Applied apply(Connection c, FeedbackEvent e, Instant now) throws SQLException {
        if (!e.acts()) {
            return counted(e);
        }
        if (!events.recordIfNew(c, e.provider().id(), "event:" + e.eventId(), now)) {
            return Applied.of(Effect.DUPLICATE);
        }
        if (!(EmailAddress.check(e.address()) instanceof EmailAddress.Valid valid)) {
            return Applied.of(Effect.UNMATCHED);
        }
        Optional<MatchedRecipient> traced = trace(c, e, valid.address());
        if (traced.isEmpty()) {
            return Applied.of(Effect.UNMATCHED);
        }
        MatchedRecipient r = traced.get();
        if (e.kind() == FeedbackEvent.Kind.UNSUBSCRIBE) {
            // What the one-click link does: a list campaign's message leaves its lists, any other suppresses.
            unsubscribes.apply(c, new UnsubscribeTarget(r.campaignId(), r.id(), r.email()), Unsubscriber.Method.PROVIDER,
                    Optional.of(e.provider().id()), now);
            return new Applied(Effect.UNSUBSCRIBED, OptionalLong.of(r.campaignId()));
        }
        BounceApplier.Applied applied = effects.get(e.provider()).apply(c, r, report(e), now);
        Effect effect = switch (applied.effect()) {
            case HARD -> Effect.HARD;
            case SOFT -> Effect.SOFT;
            case COMPLAINT -> Effect.COMPLAINT;
            case REFUSED -> Effect.REFUSED;
            case DUPLICATE -> Effect.DUPLICATE;
            case UNMATCHED, UNRECOGNISED -> Effect.UNMATCHED;
        };
        return new Applied(effect, applied.campaign());
    }

    private Optional<MatchedRecipient> trace(Connection c, FeedbackEvent e, EmailAddress address) throws SQLException {
        String key = address.suppressionKey();
        if (e.ids().isPresent() && e.ids().get().isTestSend()) {
            log.info("feedback {}: event {} is about a test send of campaign {}; it changes nothing",
                    e.provider().id(), e.eventId(), e.ids().get().campaignId());
            return Optional.empty();
        }
        if (e.ids().isPresent()) {
            SendIds ids = e.ids().get();
            Optional<MatchedRecipient> named = recipients.bouncedById(c, ids.campaignId(), ids.recipientId());
            if (named.isPresent() && sameAddress(named.get(), key)) {
                return named;
            }
            log.info("feedback {}: event {} names campaign {} recipient {}, which is not {}; attributed by address",
                    e.provider().id(), e.eventId(), ids.campaignId(), ids.recipientId(), address);
        }
        if (e.messageId().isPresent()) {
            Optional<MatchedRecipient> byMessage = recipients.bouncedByMessageId(c, e.messageId().get());
            if (byMessage.isPresent() && sameAddress(byMessage.get(), key)) {
                return byMessage;
            }
        }
        return recipients.latestSendTo(c, address);
    }

    private static boolean sameAddress(MatchedRecipient r, String suppressionKey) {
        return EmailAddress.check(r.email()) instanceof EmailAddress.Valid v && v.address().suppressionKey().equals(suppressionKey);
    }

    /** The event as a bounce report; a status is filled in like a DSN's when the provider gave none. */
    private static BounceReport report(FeedbackEvent e) {
        BounceKind kind = switch (e.kind()) {
            case HARD -> BounceKind.HARD;
            case SOFT -> BounceKind.SOFT;
            case COMPLAINT -> BounceKind.COMPLAINT;
            default -> BounceKind.REFUSED;
        };
        String status = !e.status().isEmpty() || kind == BounceKind.COMPLAINT ? e.status()
                : kind == BounceKind.SOFT ? "4.0.0" : "5.0.0";
        return new BounceReport(kind, Optional.of(e.address()), status, e.smtpCode(), e.detail(), e.messageId(), Optional.empty());
    }
}
