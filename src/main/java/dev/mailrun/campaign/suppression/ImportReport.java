package dev.mailrun.campaign.suppression;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one suppression import. Every row read is counted once: suppressed (new on the
 * list), already suppressed, or rejected with a reason.
 *
 * @param addressColumn the header name the addresses were read from
 * @param firstRejects  the first rejected rows, in line order
 */
public record ImportReport(String addressColumn, long rows, long suppressed, long alreadySuppressed,
                           Map<RejectReason, Long> rejectedByReason, List<Reject> firstRejects) {

    /** One rejected row: the physical line it starts on, the address as written, and why. */
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
