package dev.mailrun.campaign.audience;

import dev.mailrun.campaign.importing.RecipientRejectReason;
import dev.mailrun.csv.RejectCounts;
import dev.mailrun.csv.RejectedRow;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one import into a list. Every row read counts once: {@code imported} (a new
 * subscriber, subscribed), {@code subscribed} (a subscriber there before, newly on the list),
 * {@code updated} (a subscriber there before whose name and attributes the file replaced),
 * {@code unsubscribed}, {@code blocklisted}, {@code unchanged} (nothing to do: on the list already,
 * unsubscribed or blocklisted already), or rejected with its reason and line, the recipient import's
 * reasons.
 */
public record SubscriberImportReport(String list, ImportMode mode, long rows, long imported, long subscribed, long updated,
                                     long unsubscribed, long blocklisted, long unchanged,
                                     Map<RecipientRejectReason, Long> rejectedByReason,
                                     List<RejectedRow<RecipientRejectReason>> firstRejects) implements RejectCounts<RecipientRejectReason> {

    public SubscriberImportReport {
        rejectedByReason = Map.copyOf(rejectedByReason);
        firstRejects = List.copyOf(firstRejects);
    }
}
