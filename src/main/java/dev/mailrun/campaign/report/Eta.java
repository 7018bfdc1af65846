package dev.mailrun.campaign.report;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;

/**
 * When a campaign is expected to have sent to everyone it has left, with what holds it back taken
 * into account ({@link EtaEstimate}). Nothing for a draft, a finished campaign or one with nobody left.
 *
 * @param done     when the last recipient is expected to go; empty when that cannot be told (no rate
 *                 limit to estimate with, a hold with no known end, more than the estimate looks ahead)
 * @param after    when sending starts again, while a hold with a known end stops it (a closed window,
 *                 every relay's daily cap reached, every relay down, a start time); empty while it sends
 * @param waitsFor what it waits for that has no known end ({@code resume}, {@code unsubscribe.secret is set});
 *                 empty otherwise
 */
public record Eta(Optional<Instant> done, Optional<Instant> after, Optional<String> waitsFor) {

    static final Eta NONE = new Eta(Optional.empty(), Optional.empty(), Optional.empty());

    /** How long from {@code now} until {@link #done}. */
    Optional<Duration> from(Instant now) {
        return done.map(d -> d.isAfter(now) ? Duration.between(now, d) : Duration.ZERO);
    }

    /**
     * As {@code campaign status} prints it: {@code 20s}; {@code 2d 4h (sending resumes 2026-11-30T08:00:00Z)};
     * {@code after 2026-11-30T08:00:00Z}; {@code after resume}; {@code -} when there is none.
     */
    public String text(Instant now, Function<Duration, String> duration) {
        if (waitsFor.isPresent()) {
            return "after " + waitsFor.get();
        }
        if (done.isPresent()) {
            return duration.apply(from(now).orElseThrow()) + after.map(a -> " (sending resumes " + a + ")").orElse("");
        }
        return after.map(a -> "after " + a).orElse("-");
    }
}
