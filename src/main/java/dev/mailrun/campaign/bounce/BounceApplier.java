package dev.mailrun.campaign.bounce;

import dev.mailrun.campaign.store.BounceEventTable;
import dev.mailrun.campaign.store.RecipientTable;
import dev.mailrun.campaign.store.MatchedRecipient;
import dev.mailrun.campaign.store.SoftBounceTable;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.unsubscribe.ReturnPathTarget;
import dev.mailrun.campaign.unsubscribe.ReturnPaths;
import dev.mailrun.mail.bounce.BounceKind;
import dev.mailrun.mail.bounce.BounceReport;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Applies the reports of one bounce message to the database, inside the caller's transaction.
 *
 * <ol>
 *   <li>Trace each report to a send: by its signed return-path token, else by the original
 *       Message-ID. A report that traces to nothing is UNMATCHED and changes nothing: an unsigned,
 *       unknown bounce could be forged to get any address suppressed.</li>
 *   <li>When one message reports several recipients, only reports naming the traced send's own
 *       address apply to it; the others are UNMATCHED.</li>
 *   <li>Record (send, kind) in bounce_event; if it was there already the report is a DUPLICATE and
 *       changes nothing more. This is what makes reading a message twice harmless.</li>
 *   <li>HARD: suppress the address (hard_bounce), mark the send failed if it was sent, sending or
 *       retry. SOFT: count one soft bounce for the address and suppress it at the soft limit.
 *       COMPLAINT: suppress the address (complaint). REFUSED (a permanent refusal of the sender or
 *       the message, not of the address): mark the send failed, suppress nothing.</li>
 * </ol>
 */
public final class BounceApplier {

    /** What one report did. */
    public enum Effect { HARD, SOFT, COMPLAINT, REFUSED, DUPLICATE, UNMATCHED, UNRECOGNISED }

    /** One report's effect, and for a new hard bounce the campaign whose bounce rate changed. */
    public record Applied(Effect effect, OptionalLong hardBouncedCampaign) {

        static Applied of(Effect effect) {
            return new Applied(effect, OptionalLong.empty());
        }
    }

    private final ReturnPaths returnPaths;
    private final SuppressionTable suppressions;
    private final BounceSettings settings;
    private final RecipientTable recipients;
    private final BounceEventTable events = new BounceEventTable();
    private final SoftBounceTable softBounces = new SoftBounceTable();

    public BounceApplier(ReturnPaths returnPaths, SuppressionTable suppressions, BounceSettings settings) {
        this.returnPaths = returnPaths;
        this.suppressions = suppressions;
        this.recipients = new RecipientTable(suppressions);
        this.settings = settings;
    }

    public List<Applied> apply(Connection c, List<BounceReport> reports, Instant now) throws SQLException {
        List<Applied> applied = new ArrayList<>(reports.size());
        for (BounceReport report : reports) {
            applied.add(apply(c, report, reports.size() > 1, now));
        }
        return applied;
    }

    private Applied apply(Connection c, BounceReport report, boolean oneOfSeveral, Instant now) throws SQLException {
        if (report.kind() == BounceKind.UNRECOGNISED) {
            return Applied.of(Effect.UNRECOGNISED);
        }
        Optional<MatchedRecipient> match = trace(c, report);
        if (match.isEmpty() || (oneOfSeveral && !namesAddress(report, match.get()))) {
            return Applied.of(Effect.UNMATCHED);
        }
        MatchedRecipient r = match.get();
        if (!(EmailAddress.check(r.email()) instanceof EmailAddress.Valid valid)) {
            return Applied.of(Effect.UNMATCHED);
        }
        String key = valid.address().suppressionKey();
        return switch (report.kind()) {
            case HARD -> hard(c, report, r, key, now);
            case SOFT -> soft(c, report, r, key, now);
            case COMPLAINT -> complaint(c, report, r, key, now);
            case REFUSED -> refused(c, report, r, now);
            case UNRECOGNISED -> Applied.of(Effect.UNRECOGNISED);
        };
    }

    private Optional<MatchedRecipient> trace(Connection c, BounceReport report) throws SQLException {
        Optional<ReturnPathTarget> target = report.returnPathToken().flatMap(returnPaths::verify);
        if (target.isPresent()) {
            Optional<MatchedRecipient> byToken = recipients.bouncedById(c, target.get().campaignId(), target.get().recipientId());
            if (byToken.isPresent()) {
                return byToken;
            }
        }
        return report.originalMessageId().isPresent()
                ? recipients.bouncedByMessageId(c, report.originalMessageId().get())
                : Optional.empty();
    }

    private static boolean namesAddress(BounceReport report, MatchedRecipient r) {
        return report.recipient().map(a -> a.equalsIgnoreCase(r.email())).orElse(false);
    }

    private Applied hard(Connection c, BounceReport report, MatchedRecipient r, String key, Instant now) throws SQLException {
        if (!events.recordIfNew(c, r, BounceEventTable.Kind.HARD, report.status(), report.diagnostic(), now)) {
            return Applied.of(Effect.DUPLICATE);
        }
        suppress(c, key, SuppressionReason.HARD_BOUNCE,
                "bounce:campaign=" + r.campaignId() + " status=" + report.status(), now);
        // A DSN gives the remote server's reply code; without one, the class of the status stands in.
        int code = report.smtpCode().orElse(report.status().startsWith("5") ? 550 : 554);
        recipients.markBounced(c, r.id(), code, ("bounce " + report.status() + " " + report.diagnostic()).strip(), now);
        return new Applied(Effect.HARD, OptionalLong.of(r.campaignId()));
    }

    private Applied refused(Connection c, BounceReport report, MatchedRecipient r, Instant now) throws SQLException {
        if (!events.recordIfNew(c, r, BounceEventTable.Kind.REFUSED, report.status(), report.diagnostic(), now)) {
            return Applied.of(Effect.DUPLICATE);
        }
        // The message failed for good, but the address may be fine: it stays off the suppression
        // list and out of the campaign's hard-bounce rate.
        int code = report.smtpCode().orElse(550);
        recipients.markBounced(c, r.id(), code, ("bounce " + report.status() + " " + report.diagnostic()).strip(), now);
        return Applied.of(Effect.REFUSED);
    }

    private Applied soft(Connection c, BounceReport report, MatchedRecipient r, String key, Instant now) throws SQLException {
        // One soft bounce per send: relays repeat "delayed" warnings for the same message.
        if (!events.recordIfNew(c, r, BounceEventTable.Kind.SOFT, report.status(), report.diagnostic(), now)) {
            return Applied.of(Effect.DUPLICATE);
        }
        int count = softBounces.increment(c, key, now);
        if (count >= settings.softLimit()) {
            suppress(c, key, SuppressionReason.HARD_BOUNCE, String.format(Locale.ROOT,
                    "bounce:soft-limit %d soft bounces, last campaign=%d status=%s", count, r.campaignId(), report.status()), now);
        }
        return Applied.of(Effect.SOFT);
    }

    private Applied complaint(Connection c, BounceReport report, MatchedRecipient r, String key, Instant now)
            throws SQLException {
        if (!events.recordIfNew(c, r, BounceEventTable.Kind.COMPLAINT, report.status(), report.diagnostic(), now)) {
            return Applied.of(Effect.DUPLICATE);
        }
        suppress(c, key, SuppressionReason.COMPLAINT, "complaint:campaign=" + r.campaignId(), now);
        return Applied.of(Effect.COMPLAINT);
    }

    private void suppress(Connection c, String key, SuppressionReason reason, String source, Instant now) throws SQLException {
        suppressions.add(c, List.of(new SuppressionTable.Entry(key, reason, source)), now);
    }
}
