package dev.mailrun.mail.smtp;

import java.util.Arrays;

/**
 * At most {@code limit} admissions in any window of {@code span} (a second plus a little
 * headroom), counted when each admission actually happens.
 *
 * <p>The rate limiter spaces permits evenly, but a permit's time is a booking: the thread that
 * holds it wakes up late now and then (a few milliseconds on a busy machine), and a late message
 * lands in the same second as the punctual ones after it. A relay counting messages per second sees
 * that as a burst over its limit. This window is the check at the moment of sending: it remembers
 * the last {@code limit} admission times and admits only when the oldest of them is a full span
 * old. Not thread-safe; {@link SendRateLimiter} calls it under its lock.
 */
final class SendWindow {

    static final long SECOND_NANOS = 1_000_000_000L;

    /** Admission times, oldest at {@code next}; {@link Long#MIN_VALUE} where there was none. */
    private final long[] times;
    private final long spanNanos;
    private int next;

    private SendWindow(long[] times, long spanNanos) {
        this.times = times;
        this.spanNanos = spanNanos;
    }

    /** At most ⌈rate⌉ in any {@code spanNanos}; the span is at least a second. */
    static SendWindow forRate(double ratePerSecond, long spanNanos) {
        if (!(ratePerSecond > 0)) {
            throw new IllegalArgumentException("a send window needs a positive rate, got " + ratePerSecond);
        }
        if (spanNanos < SECOND_NANOS) {
            throw new IllegalArgumentException("a send window spans at least a second, got " + spanNanos + " ns");
        }
        long[] times = new long[(int) Math.ceil(ratePerSecond)];
        Arrays.fill(times, Long.MIN_VALUE);
        return new SendWindow(times, spanNanos);
    }

    int limit() {
        return times.length;
    }

    long spanNanos() {
        return spanNanos;
    }

    /**
     * Admits now, or says how long to wait before asking again.
     *
     * @return 0 when admitted (and recorded at {@code nowNanos}); else the nanoseconds until the
     *         oldest remembered admission leaves the window
     */
    long tryAdmit(long nowNanos) {
        return tryAdmit(nowNanos, 0);
    }

    /** How long until {@link #tryAdmit} would admit at {@code nowNanos}, without admitting: 0 when now. */
    long waitFor(long nowNanos) {
        return waitFor(nowNanos, 0);
    }

    /**
     * {@link #tryAdmit} with {@code reserved} places kept free for others (at most all but one):
     * admits only when that many more than the limit's oldest admissions have left the window.
     */
    long tryAdmit(long nowNanos, int reserved) {
        long wait = waitFor(nowNanos, reserved);
        if (wait > 0) {
            return wait;
        }
        times[next] = nowNanos;
        next = (next + 1) % times.length;
        return 0;
    }

    private long waitFor(long nowNanos, int reserved) {
        long oldest = times[(next + Math.min(reserved, times.length - 1)) % times.length];
        return oldest != Long.MIN_VALUE && nowNanos - oldest < spanNanos ? spanNanos - (nowNanos - oldest) : 0;
    }

    /**
     * Counts the admission made at {@code admittedNanos} from {@code leftNanos} instead: the
     * message left that much later. The ring stays ordered, oldest at {@code next}: the moved time
     * takes its place among the newer ones.
     *
     * @return false when no admission of that time is in the window any more (nothing moved)
     */
    boolean moveLater(long admittedNanos, long leftNanos) {
        int n = times.length;
        int k = n - 1;
        // Searched from the newest: the admission is recent.
        while (k >= 0 && times[(next + k) % n] != admittedNanos) {
            k--;
        }
        if (k < 0 || admittedNanos == Long.MIN_VALUE) {
            return false;
        }
        for (; k + 1 < n && times[(next + k + 1) % n] < leftNanos; k++) {
            times[(next + k) % n] = times[(next + k + 1) % n];
        }
        times[(next + k) % n] = Math.max(admittedNanos, leftNanos);
        return true;
    }

    /** The ages (nanoseconds before {@code nowNanos}) of the admissions still within the span. */
    long[] agesWithin(long nowNanos) {
        return Arrays.stream(times).filter(t -> t != Long.MIN_VALUE && nowNanos - t < spanNanos)
                .map(t -> nowNanos - t).sorted().toArray();
    }

    /**
     * The ages of the admissions within the span that a window of {@code limit} would not keep:
     * all but the newest {@code limit}, newest first.
     */
    long[] agesBeyond(int limit, long nowNanos) {
        long[] ages = agesWithin(nowNanos);
        return ages.length <= limit ? new long[0] : Arrays.copyOfRange(ages, limit, ages.length);
    }

    /**
     * Keeps {@code limit} of the admissions within the span, spread evenly over it, and returns the
     * ages of the others, newest first. Kept this way, the window frees a place at about the rate
     * of its limit from the start; keeping the newest instead frees none until the oldest kept is a
     * span old. Only for handing the others over: whoever takes them counts them.
     */
    long[] keepSpread(int limit, long nowNanos) {
        long[] ages = agesWithin(nowNanos);
        if (ages.length <= limit) {
            return new long[0];
        }
        Arrays.fill(times, Long.MIN_VALUE);
        next = 0;
        long[] handed = new long[ages.length - limit];
        int h = 0;
        // Oldest first, so the ring keeps its order; the j-th of n is kept when ⌊(j+1)·limit/n⌋
        // steps past ⌊j·limit/n⌋ — limit of them, evenly apart.
        for (int j = 0; j < ages.length; j++) {
            long age = ages[ages.length - 1 - j];
            if ((long) (j + 1) * limit / ages.length > (long) j * limit / ages.length) {
                tryAdmitUnchecked(nowNanos - age);
            } else {
                handed[h++] = age;
            }
        }
        Arrays.sort(handed);
        return handed;
    }

    /**
     * Counts admissions made elsewhere (another run's, before this one) as if made here {@code ages}
     * nanoseconds before {@code nowNanos}; only those within the span, the newest {@code limit}.
     *
     * @return false when more than {@code limit} of them lie within the span: the older ones are
     *         counted nowhere here, and whoever would leave them to this window must count them itself
     */
    boolean admittedAgo(long nowNanos, long[] ages) {
        long[] within = Arrays.stream(ages).filter(a -> a >= 0 && a < spanNanos).sorted().toArray();
        int keep = Math.min(within.length, times.length);
        // Oldest first, so the ring keeps its order (oldest at next).
        for (int i = keep - 1; i >= 0; i--) {
            tryAdmitUnchecked(nowNanos - within[i]);
        }
        return keep == within.length;
    }

    /** As if the whole limit had been admitted at {@code nowNanos}: the next admission waits a span. */
    void fill(long nowNanos) {
        Arrays.fill(times, nowNanos);
    }

    /**
     * The same history and span under a new limit, so a rate change does not forget the messages
     * of the last second: the newest {@code min(old, new)} admissions are kept.
     */
    SendWindow resized(double ratePerSecond) {
        SendWindow resized = forRate(ratePerSecond, spanNanos);
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
