package dev.mailrun.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that stands still until a test moves it. Thread-safe. */
public final class SettableClock extends Clock {

    private volatile Instant now;

    public SettableClock(Instant start) {
        this.now = start;
    }

    public static SettableClock at(String isoInstant) {
        return new SettableClock(Instant.parse(isoInstant));
    }

    public synchronized void set(Instant instant) {
        now = instant;
    }

    public synchronized Instant advance(Duration by) {
        now = now.plus(by);
        return now;
    }

    /** A nano-time source that moves with this clock. */
    public long nanoTime() {
        Instant n = now;
        return n.getEpochSecond() * 1_000_000_000L + n.getNano();
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("mailrun clocks are UTC");
    }
}
