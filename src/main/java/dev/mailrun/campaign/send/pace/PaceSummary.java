package dev.mailrun.campaign.send.pace;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What held a run's pace back, for its summary: recipients sent back to the queue after a "too
 * fast" reply, the relay's rate where it was adapted (the lowest this run saw, and at the end), the
 * domain groups that were paced (capped, or adapted) with their rates at the end, and each relay's
 * connections (how the pool was sized; the last report that said they held the rate back, if one did).
 */
public record PaceSummary(long throttled, Map<String, Double> adaptedLowest, Map<String, Integer> tooFast,
                   Map<String, Double> adaptedAtEnd, Map<String, Double> domainShares,
                   Map<String, Map<String, Object>> connections) {

    public static final PaceSummary NONE = new PaceSummary(0, Map.of(), Map.of(), Map.of(), Map.of(), Map.of());

    /** With each relay's connections. */
    public PaceSummary withConnections(java.util.List<RelayConnections> relays) {
        Map<String, Map<String, Object>> byRelay = new LinkedHashMap<>();
        relays.forEach(r -> r.summary().ifPresent(s -> byRelay.put(r.relay(), s)));
        return new PaceSummary(throttled, adaptedLowest, tooFast, adaptedAtEnd, domainShares, byRelay);
    }

    public static PaceSummary of(Pacing pacing, long throttled) {
        Map<String, Double> lowest = new LinkedHashMap<>();
        Map<String, Integer> tooFast = new LinkedHashMap<>();
        pacing.adapter().seen().forEach((name, seen) -> {
            lowest.put(name, seen.lowest());
            if (seen.tooFast() > 0) {
                tooFast.put(name, seen.tooFast());
            }
        });
        Map<String, Double> atEnd = new LinkedHashMap<>();
        pacing.adapter().rates().forEach((name, rate) -> {
            if (lowest.containsKey(name)) {
                atEnd.put(name, rate);
            }
        });
        return new PaceSummary(throttled, lowest, tooFast, atEnd, pacing.domains().shares(), Map.of());
    }

    /** Adds what there is to say to a run's summary map; nothing when the pace was never held back. */
    public void addTo(Map<String, Object> summary) {
        if (throttled > 0) {
            summary.put("too_fast_requeued", throttled);
        }
        if (!adaptedLowest.isEmpty()) {
            Map<String, Object> adapted = new LinkedHashMap<>();
            adaptedLowest.forEach((name, low) -> adapted.put(name, Map.of(
                    "lowest_per_second", round(low),
                    "end_per_second", round(adaptedAtEnd.getOrDefault(name, low)),
                    "too_fast_replies", tooFast.getOrDefault(name, 0))));
            summary.put("rate_adapted", adapted);
        }
        if (!domainShares.isEmpty()) {
            Map<String, Object> paced = new LinkedHashMap<>();
            domainShares.forEach((group, share) -> paced.put(group, round(share)));
            summary.put("domains_paced_per_second", paced);
        }
        if (!connections.isEmpty()) {
            summary.put("connections", connections);
        }
    }

    /** The part of the run's log line, empty when there is nothing to say. */
    public String logText() {
        StringBuilder s = new StringBuilder();
        if (throttled > 0 || !adaptedLowest.isEmpty()) {
            s.append(" too_fast_requeued=").append(throttled);
            adaptedAtEnd.forEach((name, rate) -> s.append(' ').append(name).append("=")
                    .append(String.format(Locale.ROOT, "%.2f/s", rate)));
        }
        connections.forEach((relay, c) -> {
            if (Boolean.TRUE.equals(c.get("held_back"))) {
                s.append(" held_back_by_connections=\"").append(relay).append(": ").append(c.get("why")).append('"');
            }
        });
        return s.toString();
    }

    private static double round(double d) {
        return Math.round(d * 100) / 100.0;
    }
}
