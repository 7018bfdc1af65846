package dev.mailrun.mail.smtp;

import java.util.Arrays;

/**
 * At most {@code limit} admissions in any one-second window, counted when each admission
 * actually happens.
 *
 * <p>The rate limiter spaces permits evenly, but a permit's time is a booking: the thread that
 * holds it wakes up late now and then (a few milliseconds on a busy machine), and a late message
 * lands in the same second as the punctual ones after it. A relay counting messages per second sees
 * that as a burst over its limit. This window is the check at the moment of sending: it remembers
 * the last {@code limit} admission times and admits only when the oldest of them is a full second
 * old. Not thread-safe; {@link SendRateLimiter} calls it under its lock.
 */
final class SendWindow {

    static final long WINDOW_NANOS = 1_000_000_000L;

    /** Admission times, oldest at {@code next}; {@link Long#MIN_VALUE} where there was none. */
    private final long[] times;
    private int next;

    private SendWindow(long[] times) {
        this.times = times;
    }

    /** The window for a rate: at most ⌈rate⌉ in any second (one permit per 1/rate gives no more). */
    static SendWindow forRate(double ratePerSecond) {
        if (!(ratePerSecond > 0)) {
            throw new IllegalArgumentException("a send window needs a positive rate, got " + ratePerSecond);
        }
        long[] times = new long[(int) Math.ceil(ratePerSecond)];
        Arrays.fill(times, Long.MIN_VALUE);
        return new SendWindow(times);
    }

    int limit() {
        return times.length;
    }

    /**
     * Admits now, or says how long to wait before asking again.
     *
     * @return 0 when admitted (and recorded at {@code nowNanos}); else the nanoseconds until the
     *         oldest remembered admission leaves the window
     */
    long tryAdmit(long nowNanos) {
        long oldest = times[next];
        if (oldest != Long.MIN_VALUE && nowNanos - oldest < WINDOW_NANOS) {
            return WINDOW_NANOS - (nowNanos - oldest);
        }
        times[next] = nowNanos;
        next = (next + 1) % times.length;
        return 0;
    }

    /**
     * The same history under a new limit, so a rate change does not forget the messages of the
     * last second: the newest {@code min(old, new)} admissions are kept.
     */
    SendWindow resized(double ratePerSecond) {
        SendWindow resized = forRate(ratePerSecond);
        int keep = Math.min(times.length, resized.times.length);
        // Oldest first, so the ring's order (oldest at next) carries over.
        for (int i = times.length - keep; i < times.length; i++) {
            long t = times[(next + i) % times.length];
            if (t != Long.MIN_VALUE) {
                resized.tryAdmitUnchecked(t);
            }
        }
        return resized;
    }

    private void tryAdmitUnchecked(long time) {
        times[next] = time;
        next = (next + 1) % times.length;
    }
}
