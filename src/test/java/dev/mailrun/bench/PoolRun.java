package dev.mailrun.bench;

import dev.mailrun.mail.smtp.Outgoing;
import dev.mailrun.mail.smtp.SendRateLimiter;
import dev.mailrun.mail.smtp.SendResult;
import dev.mailrun.mail.smtp.SmtpPool;
import dev.mailrun.mail.smtp.SmtpSettings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/** One batch through a real {@link SmtpPool}, with the completion time of every accepted message. */
final class PoolRun {

    final long sent;
    final long other;
    final double seconds;
    /** System.nanoTime() when each Sent result reached the callback, in arrival order. */
    final long[] completions;

    private PoolRun(long sent, long other, double seconds, long[] completions) {
        this.sent = sent;
        this.other = other;
        this.seconds = seconds;
        this.completions = completions;
    }

    double rate() {
        return sent / seconds;
    }

    /**
     * Sends {@code count} composed messages; stops taking new ones after {@code maxSeconds}.
     * The pool is made and closed here, so connecting is part of the run.
     */
    static PoolRun send(SmtpSettings settings, SendRateLimiter limiter, int count, double maxSeconds) {
        return send(settings, limiter, count, maxSeconds, false);
    }

    /**
     * @param prebuilt each sending thread builds one message on first use and sends it again and
     *                 again, taking rendering and composing out of the measurement
     */
    static PoolRun send(SmtpSettings settings, SendRateLimiter limiter, int count, double maxSeconds, boolean prebuilt) {
        SampleMessages samples = new SampleMessages(Clock.systemUTC());
        List<Outgoing> batch = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            batch.add(prebuilt ? samples.prebuiltPerThread(i) : samples.outgoing(i));
        }
        long[] completions = new long[count];
        AtomicLong sent = new AtomicLong();
        AtomicLong other = new AtomicLong();
        try (SmtpPool pool = new SmtpPool(settings, limiter, Clock.systemUTC())) {
            long start = System.nanoTime();
            long stopAt = start + (long) (maxSeconds * 1e9);
            BooleanSupplier stop = () -> System.nanoTime() > stopAt;
            pool.sendBatch(batch, Instant.now().plus(Duration.ofHours(1)), stop, result -> {
                long now = System.nanoTime();
                if (result instanceof SendResult.Sent) {
                    synchronized (completions) {
                        completions[(int) sent.getAndIncrement()] = now;
                    }
                } else {
                    other.incrementAndGet();
                }
            });
            long nanos = System.nanoTime() - start;
            long[] done = java.util.Arrays.copyOf(completions, (int) sent.get());
            java.util.Arrays.sort(done);
            return new PoolRun(sent.get(), other.get(), nanos / 1e9, done);
        }
    }
}
