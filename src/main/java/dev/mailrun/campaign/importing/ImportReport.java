package dev.mailrun.campaign.importing;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The outcome of one import: every row read is either imported or rejected with a reason. */
public record ImportReport(long rows, long imported, Map<RejectReason, Long> rejectedByReason, List<Reject> firstRejects) {

    /**
     * One rejected row: the line it starts on, the address as written, and why. In
     * {@link #firstRejects} both are cut to 200 characters, with the size of the whole, and control
     * characters are escaped; the rejects file has them in full.
     */
    public record Reject(long line, String email, RejectReason reason, String detail) {}

    public ImportReport {
        rejectedByReason = Map.copyOf(rejectedByReason);
        firstRejects = List.copyOf(firstRejects);
    }

    public long rejected() {
        return rejectedByReason.values().stream().mapToLong(Long::longValue).sum();
    }

    static Map<RejectReason, Long> emptyCounts() {
        Map<RejectReason, Long> m = new EnumMap<>(RejectReason.class);
        for (RejectReason r : RejectReason.values()) {
            m.put(r, 0L);
        }
        return m;
    }
}
