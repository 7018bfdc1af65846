package dev.mailrun.bench;

import dev.mailrun.mail.smtp.SendRateLimiter;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The rate limiter alone: {@code threads} threads book permits from one shared limiter and wait
 * for them the way the SMTP pool does (reserve, park for the returned wait, then pass the send
 * window); the time each passes the window is the grant timestamp, and the time the limiter said
 * the permit is due (the clock read right after the call plus the wait it returned) the booked
 * timestamp. Nothing is sent.
 */
final class PermitGrants {

    private final Thread[] threads;
    private final long[] grants;
    private final long[] booked;
    private final AtomicInteger next = new AtomicInteger();

    PermitGrants(double rate, int threadCount, int count) {
        SendRateLimiter limiter = new SendRateLimiter(rate);
        grants = new long[count];
        booked = new long[count];
        threads = new Thread[threadCount];
        for (int t = 0; t < threadCount; t++) {
            threads[t] = new Thread(() -> {
                while (true) {
                    Optional<Duration> wait = limiter.reserve(Duration.ofHours(1));
                    // Taken after the call, so time spent waiting for the limiter's lock is not counted.
                    long until = System.nanoTime() + wait.orElseThrow().toNanos();
                    for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
                        LockSupport.parkNanos(left);
                    }
                    // Then the send window, as the pool does: a late wake-up must not bunch up.
                    for (Duration again = limiter.admit(); !again.isZero(); again = limiter.admit()) {
                        LockSupport.parkNanos(again.toNanos());
                    }
                    long now = System.nanoTime();
                    int i = next.getAndIncrement();
                    if (i >= count) {
                        return;
                    }
                    grants[i] = now;
                    booked[i] = until;
                }
            }, "grants-" + t);
        }
    }

    PermitGrants start() {
        for (Thread t : threads) {
            t.start();
        }
        return this;
    }

    /** When each wait ended, sorted. */
    long[] awaitGrants() throws InterruptedException {
        for (Thread t : threads) {
            t.join();
        }
        long[] sorted = grants.clone();
        Arrays.sort(sorted);
        return sorted;
    }

    /** When each permit was due by the limiter's answer (clock after the call + wait returned), sorted; after {@link #awaitGrants}. */
    long[] booked() {
        long[] sorted = booked.clone();
        Arrays.sort(sorted);
        return sorted;
    }
}
