package dev.mailrun.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * Real time, shifted by an offset a test moves: it starts on a slot boundary and jumps to the next
 * slot between runs instead of waiting for it, while time inside a run passes as it really does
 * (what a relay counting messages per second sees).
 */
public final class JumpingClock extends Clock {

    private volatile Duration offset;

    private JumpingClock(Duration offset) {
        this.offset = offset;
    }

    /** A clock reading exactly {@code start} now. */
    public static JumpingClock startingAt(Instant start) {
        return new JumpingClock(Duration.between(Instant.now(), start));
    }

    /** Jumps to {@code at} if it is ahead. */
    public synchronized void jumpTo(Instant at) {
        Instant now = instant();
        if (at.isAfter(now)) {
            offset = offset.plus(Duration.between(now, at));
        }
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("UTC only");
    }
}
