package dev.mailrun.campaign.suppression;

import dev.mailrun.csv.RejectCounts;
import dev.mailrun.csv.RejectedRow;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one suppression import. Every row read is counted once: suppressed (new on the
 * list), already suppressed, or rejected with a reason.
 *
 * @param addressColumn the header name the addresses were read from
 * @param firstRejects  the first rejected rows, in line order
 */
public record SuppressionImportReport(String addressColumn, long rows, long suppressed, long alreadySuppressed,
                                      Map<SuppressionRejectReason, Long> rejectedByReason,
                                      List<RejectedRow<SuppressionRejectReason>> firstRejects)
        implements RejectCounts<SuppressionRejectReason> {

    public SuppressionImportReport {
        rejectedByReason = Map.copyOf(rejectedByReason);
        firstRejects = List.copyOf(firstRejects);
    }
}
