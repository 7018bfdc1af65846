package dev.mailrun.mail.feedback;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** Whether a signed Unix timestamp is close enough to now to be a fresh delivery rather than a replay. */
final class Freshness {

    private Freshness() {}

    static Optional<Verdict.Refused> check(String unixSeconds, Instant now, Duration tolerance) {
        String v = unixSeconds.strip();
        if (!v.matches("\\d{1,12}")) {
            return Optional.of(new Verdict.Refused(Verdict.Reason.MALFORMED, "timestamp is not Unix seconds"));
        }
        Instant at = Instant.ofEpochSecond(Long.parseLong(v));
        if (Duration.between(at, now).abs().compareTo(tolerance) > 0) {
            return Optional.of(new Verdict.Refused(Verdict.Reason.STALE, "timestamp " + at + " is more than "
                    + tolerance.toMinutes() + " minutes from now"));
        }
        return Optional.empty();
    }
}
