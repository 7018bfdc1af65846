package dev.mailrun.scheduler;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** What one tick did: an entry per decision or run, in order. */
public record TickSummary(Instant at, List<Entry> entries) {

    public TickSummary {
        entries = List.copyOf(entries);
    }

    /**
     * @param runToken the run the entry is about (empty for decisions that are not runs)
     * @param detail   a short human-readable note, e.g. the error
     */
    public record Entry(String taskName, RunOutcome outcome, Optional<String> runToken, String detail) {}

    long count(RunOutcome outcome) {
        return entries.stream().filter(e -> e.outcome() == outcome).count();
    }

    /** How many handler runs this tick finished (succeeded, idle, blocked, failed or stopped). */
    public long runs() {
        return count(RunOutcome.SUCCEEDED) + count(RunOutcome.IDLE) + count(RunOutcome.BLOCKED)
                + count(RunOutcome.FAILED) + count(RunOutcome.STOPPED);
    }
}
