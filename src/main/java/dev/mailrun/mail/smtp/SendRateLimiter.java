package dev.mailrun.mail.smtp;

import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The message rate towards one relay, shared by all of its connections.
 *
 * <p>Configured as one permit per {@code 1/rate} seconds (plus headroom, below) rather than
 * {@code rate} permits per second: with N permits per period, N can go out at the end of one period
 * and N more at the start of the next. Above 200/s a period holds the permits of 10 ms
 * ({@link #permitsPerCycle}), so that permits are not lost while every connection is busy; bursts
 * that small do not matter to a relay counting per second. The rate can change while sending (the
 * campaign layer leases each live worker a
 * share of the relay's rate); since a limiter's period is fixed, a change builds a new limiter,
 * which may let one extra message through at the moment of the change.
 *
 * <p>{@link #reserve} never waits itself: it books a permit and says how long to wait, or refuses
 * at once when no permit is free within the allowed wait. Waiting is then up to the caller, who
 * can stop waiting when asked to stop.
 *
 * <p>A booked permit is a promise about the average. What a relay counts is messages per second as
 * they arrive, so when the wait is over the caller asks {@link #admit} at the moment of sending:
 * a {@link SendWindow} holds every second to at most ⌈rate⌉ messages even when a thread woke up
 * late and would otherwise go out right next to the punctual ones.
 *
 * <p>Both count over a second plus {@link #HEADROOM}: ⌈rate⌉ messages in any 1.005 s as they
 * leave, permits spaced {@code 1.005/rate} s apart. A message reaches the relay a little after it
 * leaves, and not always equally late (the kernel, the relay's own scheduling, a relay whose clock
 * moves in ticks of a few milliseconds); with the window exactly one second wide, a message held
 * back 2 ms on its way lands in the same relay-side second as the next thousand, and a relay
 * allowing 1,000/s counted 1,003. With the headroom, any second at the relay holds at most ⌈rate⌉
 * as long as messages are not held back unequally by more than 5 ms on their way (what was
 * measured: docs/MAIL.md, Rate limiting). It costs 0.5% of the rate. A message counts from when it
 * {@linkplain #leaving leaves}, so the sender's own delays do not eat into the headroom. The
 * limiter is paced to the same span, so the window only binds when a thread woke up late: with the
 * window wider than the limiter's spacing, threads park on the window while their permits go unused.
 */
public final class SendRateLimiter {

    /** How much wider than a second the window is, and how much slower than the rate the pacing. */
    static final Duration HEADROOM = Duration.ofMillis(5);

    private static final long SPAN_NANOS = SendWindow.SECOND_NANOS + HEADROOM.toNanos();

    /**
     * The span the send window counts over: a second and the {@link #HEADROOM}. A send stays in the
     * window, and in what another run must count of it (a run's tail, a handover), this long.
     */
    public static final Duration SPAN = Duration.ofNanos(SPAN_NANOS);

    /** The longest refresh cycle of the pacing at high rates (see {@link #permitsPerCycle}). */
    static final Duration CYCLE = Duration.ofMillis(10);

    private final Supplier<Long> nanoTime;
    private volatile double rate;
    private volatile RateLimiter limiter;
    private SendWindow window;
    /** Messages waiting for {@link #admitAhead}: the places of the window kept from {@link #admit}. */
    private int ahead;

    public SendRateLimiter(double ratePerSecond) {
        this(ratePerSecond, System::nanoTime);
    }

    /** @param nanoTime the limiter's clock, injectable so tests need not wait for real time */
    public SendRateLimiter(double ratePerSecond, Supplier<Long> nanoTime) {
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        setRate(ratePerSecond);
    }

    public static SendRateLimiter unlimited() {
        return new SendRateLimiter(0);
    }

    /** Changes the rate from now on; 0 means unlimited. */
    public synchronized void setRate(double ratePerSecond) {
        SmtpSettings.requireRate(ratePerSecond);
        this.rate = ratePerSecond;
        int perCycle = permitsPerCycle(ratePerSecond);
        this.limiter = ratePerSecond == 0 ? null : RateLimiter.of("smtp", RateLimiterConfig.custom()
                .limitForPeriod(perCycle)
                .limitRefreshPeriod(Duration.ofNanos(Math.max(1, Math.round(perCycle * SPAN_NANOS / ratePerSecond))))
                .timeoutDuration(Duration.ZERO)
                .build(), nanoTime);
        this.window = ratePerSecond == 0 ? null : window == null ? SendWindow.forRate(ratePerSecond, SPAN_NANOS) : window.resized(ratePerSecond);
    }

    /**
     * {@link #setRate}, returning what the last second held beyond the new rate: the ages
     * (nanoseconds before now) of the admissions a window of ⌈rate⌉ no longer keeps, newest first.
     * They still reached the relay within the last second; whoever takes over the rest of the
     * relay's rate counts them. Empty when the rate rises or was unlimited.
     */
    public synchronized long[] changeRate(double ratePerSecond) {
        long[] beyond = window == null || ratePerSecond == 0 ? new long[0]
                : window.agesBeyond((int) Math.ceil(ratePerSecond), nanoTime.get());
        setRate(ratePerSecond);
        return beyond;
    }

    /**
     * Lowers the rate for a run joining it, and returns the last second's sends this limiter hands
     * over to the joiner (ages in nanoseconds, newest first): of the admissions within the last
     * second, the new window keeps ⌈rate⌉ spread evenly over it and the rest are the joiner's to
     * count. This limiter then sends at its new rate at once, as does the joiner, and in any second
     * the two together stay within the old rate. Empty when the rate rises or was unlimited.
     */
    public synchronized long[] handOverTo(double ratePerSecond) {
        if (window == null || ratePerSecond == 0 || ratePerSecond >= rate) {
            return changeRate(ratePerSecond);
        }
        long[] handed = window.keepSpread((int) Math.ceil(ratePerSecond), nanoTime.get());
        setRate(ratePerSecond);
        return handed;
    }

    /**
     * Permits handed out per refresh cycle: one below 200/s; above, as many as fall due in
     * {@link #CYCLE}. The limiter keeps no permit from one cycle to the next, so at one permit per
     * cycle a permit that fell due while every connection was still busy with its last message was
     * lost for good: at 1,000/s on four connections that cost a further 0.3–0.4% of the rate.
     * With a few per cycle, a connection that comes back late in the cycle takes the permits it
     * missed. The send window still holds every second to the rate.
     */
    static int permitsPerCycle(double ratePerSecond) {
        return (int) Math.max(1, Math.floor(ratePerSecond * CYCLE.toNanos() / 1e9));
    }

    /**
     * Starts as if a whole second's messages had just left: the first message waits a second. For a
     * rate that others held until now — another run of the same pace may have sent its full second
     * right before this one took over, and a fresh window would add its own second to theirs.
     */
    public synchronized void startFull() {
        if (window != null) {
            window.fill(nanoTime.get());
        }
    }

    /** How long ago (nanoseconds) each message of the last second was admitted; empty without a rate. */
    public synchronized long[] recentAges() {
        return window == null ? new long[0] : window.agesWithin(nanoTime.get());
    }

    /**
     * Starts counting afresh with what other runs sent at this pace in the last second ({@code ages}:
     * nanoseconds before now): the first messages here wait only as long as those leave room. What
     * this limiter counted before (a {@link #startFull} while nothing was known) is forgotten.
     *
     * @return true when the window holds every one of them; false when more than ⌈rate⌉ lie within
     *         the last {@link #SPAN} and it holds only the newest ⌈rate⌉ — the others then bind no
     *         message of this limiter, and another holder of the pace must count them
     */
    public synchronized boolean startAfter(long[] ages) {
        if (window == null) {
            return true;
        }
        window = SendWindow.forRate(rate, SPAN_NANOS);
        return window.admittedAgo(nanoTime.get(), ages);
    }

    public double rate() {
        return rate;
    }

    /** The time between two permits at the current rate ({@code 1.005/rate} s); zero without a limit. */
    public Duration spacing() {
        double r = rate;
        return r == 0 ? Duration.ZERO : Duration.ofNanos(Math.round(SPAN_NANOS / r));
    }

    /**
     * Books the next permit if it comes within {@code maxWait}.
     *
     * @return how long to wait before sending ({@link Duration#ZERO}: now), or empty when no permit
     *         is free within {@code maxWait}; nothing is booked then
     */
    public synchronized Optional<Duration> reserve(Duration maxWait) {
        RateLimiter current = limiter;
        if (current == null) {
            return Optional.of(Duration.ZERO);
        }
        if (maxWait.isNegative()) {
            return Optional.empty();
        }
        // The limiter reads its timeout from its configuration; callers have different deadlines,
        // so it is set per call, under this object's lock, right before the reservation.
        current.changeTimeoutDuration(maxWait);
        long nanos = current.reservePermission();
        return nanos < 0 ? Optional.empty() : Optional.of(Duration.ofNanos(nanos));
    }

    /**
     * How long until {@link #admit} would admit, without admitting: {@link Duration#ZERO} when
     * there is room in the last second now.
     */
    public synchronized Duration room() {
        SendWindow current = window;
        return current == null ? Duration.ZERO : Duration.ofNanos(current.waitFor(nanoTime.get()));
    }

    /**
     * The check at the moment of sending, after the booked wait is over.
     *
     * @return {@link Duration#ZERO} when the message may go now, and it counts as sent now; else how
     *         long to wait before asking again (the oldest message of the last second leaves it then)
     */
    public synchronized Duration admit() {
        return tryAdmit().again();
    }

    /** {@link #admit}, saying when the message was admitted, for {@link #leaving}. */
    synchronized Admission tryAdmit() {
        return admission(ahead);
    }

    /**
     * {@link #admit} ahead of the others: for a message its own pace lets go now. While such a
     * message waits ({@link #waitAhead}), each keeps a place of the window from {@link #admit}, so
     * it takes the next place that frees rather than racing the others for it: every time it lost,
     * its pace's window would move on later, and the pace send less than its rate.
     */
    public synchronized Duration admitAhead() {
        return tryAdmitAhead().again();
    }

    /** {@link #admitAhead}, saying when the message was admitted, for {@link #leaving}. */
    synchronized Admission tryAdmitAhead() {
        return admission(0);
    }

    private Admission admission(int reserved) {
        SendWindow current = window;
        if (current == null) {
            return Admission.UNCOUNTED;
        }
        long now = nanoTime.get();
        long wait = current.tryAdmit(now, reserved);
        return wait > 0 ? new Admission(wait, 0, false) : new Admission(0, now, true);
    }

    /**
     * The message admitted at {@code admitted} leaves now: it counts from now. Between the
     * admission and the command on the wire lies a little work, and now and then a thread that
     * loses its core for a few milliseconds — the first message a worker sends waits 9–23 ms
     * behind code that has not run before. Counted from its admission, such a message reaches the relay
     * that much later than the window assumed, in the same second as the next ⌈rate⌉ punctual
     * ones; counted from when it leaves, the window holds the next ones back instead. Nothing
     * happens when the admission is no longer in the window (the rate changed meanwhile).
     */
    void leaving(Admission admitted) {
        if (!admitted.counted()) {
            return; // no window: nothing to lock for
        }
        synchronized (this) {
            SendWindow current = window;
            if (current != null) {
                current.moveLater(admitted.atNanos(), nanoTime.get());
            }
        }
    }

    /**
     * What the send window said: admitted at {@code atNanos} on the limiter's clock ({@code waitNanos}
     * 0), or ask again after {@code waitNanos}. {@code counted}: the window holds the admission.
     */
    record Admission(long waitNanos, long atNanos, boolean counted) {

        /** Admitted without a window (no rate): nothing to count. */
        static final Admission UNCOUNTED = new Admission(0, 0, false);

        boolean admitted() {
            return waitNanos == 0;
        }

        Duration again() {
            return Duration.ofNanos(waitNanos);
        }
    }

    /** A message waits for {@link #admitAhead} ({@code true}), or no longer ({@code false}). */
    public synchronized void waitAhead(boolean waiting) {
        ahead = Math.max(0, ahead + (waiting ? 1 : -1));
    }
}
