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
}
