package dev.mailrun.http.status;

import java.util.List;

/** What a health route answers: {@code {"status":"UP","checks":{"name":{"status":"UP","detail":"…"}}}}, 200 or 503. */
public record Probe(List<Check> checks) {

    public record Check(String name, boolean up, String detail) {}

    public Probe {
        checks = List.copyOf(checks);
    }

    boolean up() {
        return checks.stream().allMatch(Check::up);
    }
}
