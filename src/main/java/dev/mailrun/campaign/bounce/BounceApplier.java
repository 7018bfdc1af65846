package dev.mailrun.campaign.bounce;

import dev.mailrun.campaign.store.recipient.BounceAttribution;
import dev.mailrun.campaign.store.MatchedRecipient;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.unsubscribe.ReturnPathTarget;
import dev.mailrun.campaign.unsubscribe.ReturnPaths;
import dev.mailrun.mail.bounce.BounceKind;
import dev.mailrun.mail.bounce.BounceReport;
import dev.mailrun.mail.feedback.SendIds;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Applies the reports of one bounce message to the database, inside the caller's transaction.
 *
 * <ol>
 *   <li>Trace each report to a send: by its signed return-path token, else by the original
 *       Message-ID. A report that traces to nothing is UNMATCHED and changes nothing: an unsigned,
 *       unknown bounce could be forged to get any address suppressed. A report whose token names a
 *       test send (recipient 0, {@code mailrun send-test}) is UNMATCHED too: a test counts toward
 *       nothing.</li>
 *   <li>When one message reports several recipients, only reports naming the traced send's own
 *       address apply to it; the others are UNMATCHED.</li>
 *   <li>Apply it with {@link BounceEffects}: record (send, kind) in bounce_event — a report seen before
 *       is a DUPLICATE and changes nothing more, which makes reading a message twice harmless — then
 *       HARD suppresses the address and fails the send, SOFT counts toward the soft limit, COMPLAINT
 *       suppresses, REFUSED fails the send and suppresses nothing.</li>
 * </ol>
 */
public final class BounceApplier {

    /** What one report did. */
    public enum Effect { HARD, SOFT, COMPLAINT, REFUSED, DUPLICATE, UNMATCHED, UNRECOGNISED }

    /** One report's effect, and for a new bounce, refusal or complaint the campaign of its send. */
    public record Applied(Effect effect, OptionalLong campaign) {

        static Applied of(Effect effect) {
            return new Applied(effect, OptionalLong.empty());
        }

        /** The campaign whose hard-bounce rate changed: present for a new hard bounce only. */
        OptionalLong hardBouncedCampaign() {
            return effect == Effect.HARD ? campaign : OptionalLong.empty();
        }

        /** The campaign whose complaint rate changed: present for a new complaint only. */
        OptionalLong complainedCampaign() {
            return effect == Effect.COMPLAINT ? campaign : OptionalLong.empty();
        }
    }

    private final ReturnPaths returnPaths;
    private final BounceAttribution recipients;
    private final BounceEffects effects;

    public BounceApplier(ReturnPaths returnPaths, SuppressionTable suppressions, BounceSettings settings) {
        this.returnPaths = returnPaths;
        this.recipients = new BounceAttribution();
        this.effects = new BounceEffects(suppressions, settings, BounceEffects.MAILBOX);
    }

    List<Applied> apply(Connection c, List<BounceReport> reports, Instant now) throws SQLException {
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
        return effects.apply(c, match.get(), report, now);
    }

    private Optional<MatchedRecipient> trace(Connection c, BounceReport report) throws SQLException {
        Optional<ReturnPathTarget> target = report.returnPathToken().flatMap(returnPaths::verify);
        if (target.isPresent() && target.get().recipientId() == SendIds.TEST_RECIPIENT) {
            return Optional.empty();
        }
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

}
