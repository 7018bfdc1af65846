package dev.mailrun.campaign.importing;

import dev.mailrun.csv.RejectCounts;
import dev.mailrun.csv.RejectedRow;
import java.util.List;
import java.util.Map;

/** The outcome of one recipient import: every row read is either imported or rejected with a reason. */
public record RecipientImportReport(long rows, long imported, Map<RecipientRejectReason, Long> rejectedByReason,
                                    List<RejectedRow<RecipientRejectReason>> firstRejects)
        implements RejectCounts<RecipientRejectReason> {

    public RecipientImportReport {
        rejectedByReason = Map.copyOf(rejectedByReason);
        firstRejects = List.copyOf(firstRejects);
    }
}
