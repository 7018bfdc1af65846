package dev.mailrun.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves forward by a fixed step every time it is read, so work "takes time" in a
 * test without any sleeping: a run that reads the clock often reaches its deadline after a
 * predictable amount of work. Tests can also jump it with {@link #set} and {@link #advance}.
 */
public final class SteppingClock extends Clock {

    private final AtomicLong nanos;
    private final long stepNanos;

    public SteppingClock(Instant start, Duration step) {
        this.nanos = new AtomicLong(start.getEpochSecond() * 1_000_000_000L + start.getNano());
        this.stepNanos = step.toNanos();
    }

    public void set(Instant instant) {
        nanos.set(instant.getEpochSecond() * 1_000_000_000L + instant.getNano());
    }

    public void advance(Duration by) {
        nanos.addAndGet(by.toNanos());
    }

    /** The current time without moving the clock. */
    public Instant peek() {
        long n = nanos.get();
        return Instant.ofEpochSecond(Math.floorDiv(n, 1_000_000_000L), Math.floorMod(n, 1_000_000_000L));
    }

    @Override
    public Instant instant() {
        long n = nanos.getAndAdd(stepNanos);
        return Instant.ofEpochSecond(Math.floorDiv(n, 1_000_000_000L), Math.floorMod(n, 1_000_000_000L));
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
