package dev.mailrun.health;

import java.time.Instant;
import java.util.List;

/** A probe's answer: up when every check is, and when it was found. */
public record ProbeResult(List<Check> checks, Instant at) {

    public ProbeResult {
        checks = List.copyOf(checks);
    }

    public boolean up() {
        return checks.stream().allMatch(Check::up);
    }

    /** The checks as a log line reads them: {@code database up (answered in 3 ms); schema down (2 pending)}. */
    String describe() {
        return checks.stream().map(c -> c.name() + " " + (c.up() ? "up" : "down") + (c.detail().isEmpty() ? "" : " (" + c.detail() + ")"))
                .collect(java.util.stream.Collectors.joining("; "));
    }
}
