package dev.mailrun.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock that only a test moves. Thread-safe.
 *
 * <p>Made with {@link #SettableClock(Instant)} or {@link #at} it stands still until the test calls
 * {@link #set} or {@link #advance}. Made with {@link #stepping} it also moves forward by a fixed step
 * every time it is read, so work "takes time" without any sleeping: a run that reads the clock often
 * reaches its deadline after a predictable amount of work; {@link #peek} reads it without moving it.
 */
public final class SettableClock extends Clock {

    private final Duration step;
    private volatile Instant now;

    public SettableClock(Instant start) {
        this(start, Duration.ZERO);
    }

    private SettableClock(Instant start, Duration step) {
        if (step.isNegative()) {
            throw new IllegalArgumentException("a clock's step must not be negative: " + step);
        }
        this.now = start;
        this.step = step;
    }

    public static SettableClock at(String isoInstant) {
        return new SettableClock(Instant.parse(isoInstant));
    }

    /**
     * A clock stepping by a millisecond a read, at the start of the tick slot of {@code interval} (slots count from
     * the epoch, as the worker's) that began at least a minute before the real time. For tests whose runs the
     * database's clock stamps: such a clock stays behind it (a clock ahead of it finds tasks not yet due by it),
     * near enough that a run timeline is not stretched across hours, and a run begun on it has its whole slot
     * before the deadline, whatever the time of day (a clock late in a slot leaves a run no time to send).
     */
    public static SettableClock steppingAtSlotStart(Duration interval) {
        long millis = Instant.now().minus(Duration.ofMinutes(1)).toEpochMilli();
        return stepping(Instant.ofEpochMilli(millis - Math.floorMod(millis, interval.toMillis())), Duration.ofMillis(1));
    }

    /** A clock at {@code start} that moves on by {@code step} every time it is read. */
    public static SettableClock stepping(Instant start, Duration step) {
        return new SettableClock(start, step);
    }

    public synchronized void set(Instant instant) {
        now = instant;
    }

    public synchronized Instant advance(Duration by) {
        now = now.plus(by);
        return now;
    }

    /** The current time without moving the clock (the same as {@link #instant} unless it steps). */
    public Instant peek() {
        return now;
    }

    /** A nano-time source that moves with this clock; reading it never steps the clock. */
    public long nanoTime() {
        Instant n = now;
        return n.getEpochSecond() * 1_000_000_000L + n.getNano();
    }

    @Override
    public Instant instant() {
        if (step.isZero()) {
            return now;
        }
        synchronized (this) {
            Instant n = now;
            now = n.plus(step);
            return n;
        }
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
