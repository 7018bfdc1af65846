package dev.mailrun.campaign.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * What one sending run did with the recipients it took, each counted once, as its summary in
 * {@code task_run} records them: tried with a result ({@code sent}, {@code failed}, {@code deferred}
 * to a retry), found suppressed by a claim and never tried ({@code suppressed}), and claimed but
 * returned to the queue untried ({@code handedBack}: the batch no longer fit, the relay could not be
 * reached, a "too fast" reply).
 */
public record RunCounts(long sent, long failed, long deferred, long suppressed, long handedBack) {

    /**
     * The counts in a run's summary; empty for a row that has none: a decision not to run, a run
     * that claimed nothing, or a row written before runs counted each of these.
     */
    public static Optional<RunCounts> of(Optional<ObjectNode> summary) {
        return summary.filter(s -> s.has("handed_back")).map(s -> new RunCounts(count(s, "sent"), count(s, "failed"),
                count(s, "deferred"), count(s, "suppressed"), count(s, "handed_back")));
    }

    /** The messages the run tried: what its {@code items} counts. */
    public long tried() {
        return sent + failed + deferred;
    }

    private static long count(JsonNode summary, String key) {
        return summary.path(key).asLong(0);
    }
}
