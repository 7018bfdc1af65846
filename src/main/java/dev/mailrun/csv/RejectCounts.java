package dev.mailrun.csv;

import java.util.List;
import java.util.Map;

/** What the report of an import says about its rejected rows; each import's report adds its own counts. */
public interface RejectCounts<R extends RejectReason> {

    /** Every reason of the import, with how many rows it rejected (0 for a reason that rejected none). */
    Map<R, Long> rejectedByReason();

    /** The rejected rows of the file's earliest lines, in line order. */
    List<RejectedRow<R>> firstRejects();

    default long rejected() {
        return rejectedByReason().values().stream().mapToLong(Long::longValue).sum();
    }
}
