package dev.mailrun.campaign.bounce;

import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.SubscriberEventKind;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.store.BounceEventTable;
import dev.mailrun.campaign.store.MatchedRecipient;
import dev.mailrun.campaign.store.recipient.BounceAttribution;
import dev.mailrun.campaign.store.SoftBounceTable;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.store.audience.SubscriberEventTable;
import dev.mailrun.campaign.store.audience.SubscriberTable;
import dev.mailrun.mail.bounce.BounceReport;
import dev.mailrun.events.EventOutbox;
import dev.mailrun.events.EventType;
import dev.mailrun.events.OutboxEvent;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a bounce, a refusal or a complaint does to the send it was traced to, inside the caller's
 * transaction — the rules every channel shares (the bounce mailbox, {@link BounceApplier}, and the
 * email providers' webhooks):
 *
 * <ol>
 *   <li>Record (send, kind) in bounce_event; if it was there already the report is a DUPLICATE and
 *       changes nothing more, whichever channel reported it first.</li>
 *   <li>HARD: suppress the address (hard_bounce) everywhere, mark the send failed if it was sent,
 *       sending or retry. SOFT: count one soft bounce for the address and suppress it at
 *       {@code bounce.soft-limit}. COMPLAINT: suppress the address (complaint). REFUSED (about the sender
 *       or the message, not the address): mark the send failed, suppress nothing.</li>
 *   <li>Whatever suppresses an address also blocklists its subscriber, if it has one, with a line in
 *       its history: no list mails it any more, whichever campaign it bounced or complained from.</li>
 * </ol>
 */
public final class BounceEffects {

    /** The origin of reports read from the bounce mailbox. */
    static final String MAILBOX = "bounce";

    private final SuppressionTable suppressions;
    private final BounceSettings settings;
    private final String origin;
    private final BounceAttribution recipients;
    private final BounceEventTable events = new BounceEventTable();
    private final SoftBounceTable softBounces = new SoftBounceTable();
    private final EventOutbox outbox = new EventOutbox();
    private final SubscriberTable subscribers = new SubscriberTable();
    private final SubscriberEventTable history = new SubscriberEventTable();

    /** @param origin where reports come from, written into suppression sources: {@link #MAILBOX} or a provider ("ses") */
    public BounceEffects(SuppressionTable suppressions, BounceSettings settings, String origin) {
        this.suppressions = suppressions;
        this.settings = settings;
        this.origin = origin;
        this.recipients = new BounceAttribution();
    }

    /** Applies a HARD, SOFT, COMPLAINT or REFUSED report to the send {@code r} (locked by the caller's lookup). */
    public BounceApplier.Applied apply(Connection c, MatchedRecipient r, BounceReport report, Instant now) throws SQLException {
        if (!(EmailAddress.check(r.email()) instanceof EmailAddress.Valid valid)) {
            return BounceApplier.Applied.of(BounceApplier.Effect.UNMATCHED);
        }
        String key = valid.address().suppressionKey();
        return switch (report.kind()) {
            case HARD -> hard(c, report, r, key, now);
            case SOFT -> soft(c, report, r, key, now);
            case COMPLAINT -> complaint(c, report, r, key, now);
            case REFUSED -> refused(c, report, r, now);
            case UNRECOGNISED -> BounceApplier.Applied.of(BounceApplier.Effect.UNRECOGNISED);
        };
    }

    private BounceApplier.Applied hard(Connection c, BounceReport report, MatchedRecipient r, String key, Instant now)
            throws SQLException {
        if (!events.recordIfNew(c, r, BounceEventTable.Kind.HARD, report.status(), report.diagnostic(), now)) {
            return BounceApplier.Applied.of(BounceApplier.Effect.DUPLICATE);
        }
        tell(c, EventType.RECIPIENT_BOUNCED, r, report, "hard", now);
        suppress(c, key, SuppressionReason.HARD_BOUNCE, origin + ":campaign=" + r.campaignId() + " status=" + report.status(), now);
        // A DSN gives the remote server's reply code; without one, the class of the status stands in.
        int code = report.smtpCode().orElse(report.status().startsWith("5") ? 550 : 554);
        recipients.markBounced(c, r.campaignId(), r.id(), code, ("bounce " + report.status() + " " + report.diagnostic()).strip(), now);
        return new BounceApplier.Applied(BounceApplier.Effect.HARD, OptionalLong.of(r.campaignId()));
    }

    private BounceApplier.Applied refused(Connection c, BounceReport report, MatchedRecipient r, Instant now) throws SQLException {
        if (!events.recordIfNew(c, r, BounceEventTable.Kind.REFUSED, report.status(), report.diagnostic(), now)) {
            return BounceApplier.Applied.of(BounceApplier.Effect.DUPLICATE);
        }
        // The message failed for good, but the address may be fine: it stays off the suppression
        // list and out of the campaign's hard-bounce rate.
        int code = report.smtpCode().orElse(550);
        recipients.markBounced(c, r.campaignId(), r.id(), code, ("bounce " + report.status() + " " + report.diagnostic()).strip(), now);
        return new BounceApplier.Applied(BounceApplier.Effect.REFUSED, OptionalLong.of(r.campaignId()));
    }

    private BounceApplier.Applied soft(Connection c, BounceReport report, MatchedRecipient r, String key, Instant now)
            throws SQLException {
        // One soft bounce per send: relays repeat "delayed" warnings for the same message.
        if (!events.recordIfNew(c, r, BounceEventTable.Kind.SOFT, report.status(), report.diagnostic(), now)) {
            return BounceApplier.Applied.of(BounceApplier.Effect.DUPLICATE);
        }
        tell(c, EventType.RECIPIENT_BOUNCED, r, report, "soft", now);
        int count = softBounces.increment(c, key, now);
        if (count >= settings.softLimit()) {
            suppress(c, key, SuppressionReason.HARD_BOUNCE, String.format(Locale.ROOT,
                    "%s:soft-limit %d soft bounces, last campaign=%d status=%s", origin, count, r.campaignId(), report.status()), now);
        }
        return new BounceApplier.Applied(BounceApplier.Effect.SOFT, OptionalLong.of(r.campaignId()));
    }

    private BounceApplier.Applied complaint(Connection c, BounceReport report, MatchedRecipient r, String key, Instant now)
            throws SQLException {
        if (!events.recordIfNew(c, r, BounceEventTable.Kind.COMPLAINT, report.status(), report.diagnostic(), now)) {
            return BounceApplier.Applied.of(BounceApplier.Effect.DUPLICATE);
        }
        tell(c, EventType.RECIPIENT_COMPLAINED, r, report, null, now);
        String source = MAILBOX.equals(origin) ? "complaint:campaign=" : "complaint:" + origin + " campaign=";
        suppress(c, key, SuppressionReason.COMPLAINT, source + r.campaignId(), now);
        return new BounceApplier.Applied(BounceApplier.Effect.COMPLAINT, OptionalLong.of(r.campaignId()));
    }

    /** The report's event, in the transaction that applies it: the mailbox's DSN or the provider that sent it. */
    private void tell(Connection c, EventType type, MatchedRecipient r, BounceReport report, String bounce, Instant now)
            throws SQLException {
        outbox.write(c, List.of(OutboxEvent.of(type, r.campaignId(), r.id(), r.email(), OutboxEvent.fields(
                "bounce", bounce, "source", MAILBOX.equals(origin) ? "mailbox" : origin,
                "status", report.status(), "diagnostic", report.diagnostic()))), now);
    }

    private void suppress(Connection c, String key, SuppressionReason reason, String source, Instant now) throws SQLException {
        suppressions.add(c, List.of(new SuppressionTable.Entry(key, reason, source)), now);
        Optional<Long> blocklisted = subscribers.blocklist(c, key, now);
        if (blocklisted.isPresent()) {
            history.write(c, List.of(new SubscriberEventTable.NewEvent(blocklisted.get(), SubscriberEventKind.BLOCKLISTED, null,
                    reason.dbValue() + " (" + source + ")")), now);
        }
    }
}
